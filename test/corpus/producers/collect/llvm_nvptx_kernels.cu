#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
typedef unsigned long size_t;
static __device__ inline unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ inline unsigned bid() { return __nvvm_read_ptx_sreg_ctaid_x(); }
static __device__ inline unsigned bdim() { return __nvvm_read_ptx_sreg_ntid_x(); }

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  unsigned i = bid() * bdim() + tid();
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void reduce(const float *in, float *out, int n) {
  __shared__ float buf[32];
  unsigned i = bid() * bdim() + tid();
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __nvvm_shfl_sync_down_f32(0xffffffff, v, o, 31);
  if ((tid() & 31) == 0) buf[tid() >> 5] = v;
  __nvvm_barrier_sync(0);
  if (tid() < 32) {
    v = tid() < (bdim() >> 5) ? buf[tid()] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __nvvm_shfl_sync_down_f32(0xffffffff, v, o, 31);
    if (tid() == 0) __nvvm_atom_add_gen_f(out, v);
  }
}

struct Pair { double a; long b; };
static __device__ __attribute__((noinline)) Pair combine(Pair p, double s) {
  return Pair{p.a * s, p.b + (long)s};
}
extern "C" __global__ void structs(Pair *p, int n) {
  unsigned i = bid() * bdim() + tid();
  if (i < n) p[i] = combine(p[i], 2.5);
}

extern "C" __global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  for (unsigned b = tid(); b < 256; b += bdim()) local[b] = 0;
  __nvvm_barrier_sync(0);
  for (unsigned i = bid() * bdim() + tid(); i < n; i += bdim() * __nvvm_read_ptx_sreg_nctaid_x())
    __nvvm_atom_add_gen_i((int *)&local[data[i]], 1);
  __nvvm_barrier_sync(0);
  for (unsigned b = tid(); b < 256; b += bdim()) __nvvm_atom_add_gen_i((int *)&bins[b], local[b]);
}

extern "C" __global__ void vote_ballot(const int *in, unsigned *out) {
  unsigned t = bid() * bdim() + tid();
  unsigned m = __nvvm_vote_ballot_sync(0xffffffff, in[t] > 0);
  if ((tid() & 31) == 0) out[t >> 5] = m;
}

extern "C" __global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[32][33];
  unsigned x = __nvvm_read_ptx_sreg_ctaid_x() * 32 + __nvvm_read_ptx_sreg_tid_x();
  unsigned y = __nvvm_read_ptx_sreg_ctaid_y() * 32 + __nvvm_read_ptx_sreg_tid_y();
  if (x < w && y < h) tile[__nvvm_read_ptx_sreg_tid_y()][__nvvm_read_ptx_sreg_tid_x()] = in[y * w + x];
  __nvvm_barrier_sync(0);
  x = __nvvm_read_ptx_sreg_ctaid_y() * 32 + __nvvm_read_ptx_sreg_tid_x();
  y = __nvvm_read_ptx_sreg_ctaid_x() * 32 + __nvvm_read_ptx_sreg_tid_y();
  if (x < h && y < w) out[y * h + x] = tile[__nvvm_read_ptx_sreg_tid_x()][__nvvm_read_ptx_sreg_tid_y()];
}

extern "C" __global__ void int_math(const long *a, long *b, unsigned *c, int n) {
  unsigned i = bid() * bdim() + tid();
  if (i < n) {
    b[i] = a[i] / 7 + a[i] % 13 + (a[i] >> 3) * __builtin_popcountl(a[i]);
    c[i] = __builtin_clz((unsigned)a[i] | 1) + __builtin_bitreverse32((unsigned)a[i]);
  }
}

extern "C" __global__ void half_math(const _Float16 *a, _Float16 *b, int n) {
  unsigned i = bid() * bdim() + tid();
  if (i < n) b[i] = a[i] * (_Float16)1.5f + (_Float16)(float)i;
}

// Warp-level primitives.
//   * __shfl_sync / __shfl_up_sync / __shfl_down_sync / __shfl_xor_sync,
//     on int, float, double and long long, with and without the width argument
//   * __ballot_sync, __all_sync, __any_sync, __activemask, __syncwarp
//   * __match_any_sync / __match_all_sync (sm_70+)
//   * __reduce_add_sync / __reduce_min_sync / __reduce_max_sync /
//     __reduce_and_sync / __reduce_or_sync / __reduce_xor_sync (sm_80+)
#include <algorithm>
#include <vector>
#include "common.cuh"

constexpr unsigned FULL = 0xffffffffu;

// Per-lane results (one row of 16 ints per thread).
enum {
  R_BCAST, R_UP, R_DOWN, R_XOR, R_BCAST_W8, R_UP_W16, R_DOWN_W4, R_XOR_W8,
  R_FSUM, R_DSUM_LO, R_LL, R_BALLOT, R_ALLANY, R_ACTIVE, R_MATCH, R_REDUCE, NRES
};

__global__ void warp_kernel(const int* in, int* out, int* reduce_out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[tid];
  int* o = out + tid * NRES;

  o[R_BCAST] = __shfl_sync(FULL, v, 5);
  o[R_UP] = __shfl_up_sync(FULL, v, 3);
  o[R_DOWN] = __shfl_down_sync(FULL, v, 2);
  o[R_XOR] = __shfl_xor_sync(FULL, v, 1);
  o[R_BCAST_W8] = __shfl_sync(FULL, v, 3, 8);       // lane 3 of each group of 8
  o[R_UP_W16] = __shfl_up_sync(FULL, v, 1, 16);
  o[R_DOWN_W4] = __shfl_down_sync(FULL, v, 1, 4);
  o[R_XOR_W8] = __shfl_xor_sync(FULL, v, 4, 8);

  // float butterfly reduction
  float f = (float)v * 0.5f;
  for (int off = 16; off > 0; off >>= 1) f += __shfl_xor_sync(FULL, f, off);
  o[R_FSUM] = (int)(f * 2.0f);

  // double tree reduction with shfl_down (64-bit shuffle is split in two)
  double d = (double)v;
  for (int off = 16; off > 0; off >>= 1) d += __shfl_down_sync(FULL, d, off);
  d = __shfl_sync(FULL, d, 0);
  o[R_DSUM_LO] = (int)d;

  long long ll = ((long long)v << 33) | lane;
  ll = __shfl_sync(FULL, ll, (lane + 7) & 31);
  o[R_LL] = (int)(ll >> 33) ^ (int)(ll & 0xff);

  unsigned b = __ballot_sync(FULL, v & 1);
  o[R_BALLOT] = (int)b;
  int all = __all_sync(FULL, v >= 0);
  int any = __any_sync(FULL, v > 1000);
  o[R_ALLANY] = all * 2 + any;

  // divergent region: only even lanes active
  int active = -1;
  if ((lane & 1) == 0) {
    active = (int)__activemask();
    __syncwarp(0x55555555u);
  }
  o[R_ACTIVE] = active;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  unsigned peers = __match_any_sync(FULL, v % 4);
  int pred = 0;
  unsigned allm = __match_all_sync(FULL, v / 1000000, &pred);
  o[R_MATCH] = (int)peers ^ (pred ? (int)allm : 0);
#else
  o[R_MATCH] = 0;
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned uv = (unsigned)v;
  o[R_REDUCE] = (int)__reduce_add_sync(FULL, uv);
  int wslot = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int mn = __reduce_min_sync(FULL, v);
  int mx = __reduce_max_sync(FULL, v);
  unsigned an = __reduce_and_sync(FULL, uv | 0x80000000u);
  unsigned orr = __reduce_or_sync(FULL, uv);
  unsigned xr = __reduce_xor_sync(FULL, uv);
  if (lane == 0) {
    reduce_out[wslot * 5 + 0] = mn;
    reduce_out[wslot * 5 + 1] = mx;
    reduce_out[wslot * 5 + 2] = (int)an;
    reduce_out[wslot * 5 + 3] = (int)orr;
    reduce_out[wslot * 5 + 4] = (int)xr;
  }
#else
  // portable fallback so the program checks the same thing everywhere
  int s = v;
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL, s, off);
  o[R_REDUCE] = s;
  int wslot = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int mn = v, mx = v;
  unsigned an = (unsigned)v | 0x80000000u, orr = (unsigned)v, xr = (unsigned)v;
  for (int off = 16; off > 0; off >>= 1) {
    mn = min(mn, __shfl_xor_sync(FULL, mn, off));
    mx = max(mx, __shfl_xor_sync(FULL, mx, off));
    an &= __shfl_xor_sync(FULL, an, off);
    orr |= __shfl_xor_sync(FULL, orr, off);
    xr ^= __shfl_xor_sync(FULL, xr, off);
  }
  if (lane == 0) {
    reduce_out[wslot * 5 + 0] = mn;
    reduce_out[wslot * 5 + 1] = mx;
    reduce_out[wslot * 5 + 2] = (int)an;
    reduce_out[wslot * 5 + 3] = (int)orr;
    reduce_out[wslot * 5 + 4] = (int)xr;
  }
#endif
}

int main() {
  const int blocks = 2, threads = 64, n = blocks * threads, warps = n / 32;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 37 + 11) % 97;
  int *d_in, *d_out, *d_red;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * NRES * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_red, warps * 5 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  warp_kernel<<<blocks, threads>>>(d_in, d_out, d_red);
  CUDA_SYNC_CHECK();
  std::vector<int> h_out(n * NRES), h_red(warps * 5);
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_red.data(), d_red, h_red.size() * sizeof(int), cudaMemcpyDeviceToHost));
  const int cc = device_cc();

  for (int w = 0; w < warps; ++w) {
    const int* v = &h_in[w * 32];
    int sum = 0, mn = 1 << 30, mx = -(1 << 30);
    unsigned an = ~0u, orr = 0, xr = 0, ballot = 0;
    bool all = true, any = false;
    for (int l = 0; l < 32; ++l) {
      sum += v[l]; mn = std::min(mn, v[l]); mx = std::max(mx, v[l]);
      an &= (unsigned)v[l] | 0x80000000u; orr |= (unsigned)v[l]; xr ^= (unsigned)v[l];
      if (v[l] & 1) ballot |= 1u << l;
      all = all && v[l] >= 0; any = any || v[l] > 1000;
    }
    for (int l = 0; l < 32; ++l) {
      const int* o = &h_out[(w * 32 + l) * NRES];
      EXPECT(o[R_BCAST] == v[5], "bcast w%d l%d", w, l);
      EXPECT(o[R_UP] == (l >= 3 ? v[l - 3] : v[l]), "up w%d l%d", w, l);
      EXPECT(o[R_DOWN] == (l + 2 < 32 ? v[l + 2] : v[l]), "down w%d l%d", w, l);
      EXPECT(o[R_XOR] == v[l ^ 1], "xor w%d l%d", w, l);
      EXPECT(o[R_BCAST_W8] == v[(l & ~7) + 3], "bcast w8 w%d l%d", w, l);
      EXPECT(o[R_UP_W16] == ((l & 15) >= 1 ? v[l - 1] : v[l]), "up w16 w%d l%d", w, l);
      EXPECT(o[R_DOWN_W4] == ((l & 3) + 1 < 4 ? v[l + 1] : v[l]), "down w4 w%d l%d", w, l);
      EXPECT(o[R_XOR_W8] == v[l ^ 4], "xor w8 w%d l%d", w, l);
      EXPECT(o[R_FSUM] == sum, "fsum w%d l%d: %d vs %d", w, l, o[R_FSUM], sum);
      EXPECT(o[R_DSUM_LO] == sum, "dsum w%d l%d", w, l);
      int src = (l + 7) & 31;
      EXPECT(o[R_LL] == (v[src] ^ src), "ll shfl w%d l%d", w, l);
      EXPECT((unsigned)o[R_BALLOT] == ballot, "ballot w%d", w);
      EXPECT(o[R_ALLANY] == (all ? 2 : 0) + (any ? 1 : 0), "all/any w%d", w);
      if ((l & 1) == 0) EXPECT((unsigned)o[R_ACTIVE] == 0x55555555u, "activemask w%d l%d: %x", w, l, o[R_ACTIVE]);
      else EXPECT(o[R_ACTIVE] == -1, "inactive lane wrote w%d l%d", w, l);
      if (cc >= 70) {
        unsigned peers = 0;
        for (int k = 0; k < 32; ++k) if (v[k] % 4 == v[l] % 4) peers |= 1u << k;
        EXPECT((unsigned)o[R_MATCH] == (peers ^ 0xffffffffu), "match w%d l%d", w, l);
      }
      EXPECT(o[R_REDUCE] == sum, "reduce_add w%d l%d", w, l);
    }
    EXPECT(h_red[w * 5 + 0] == mn, "reduce_min w%d", w);
    EXPECT(h_red[w * 5 + 1] == mx, "reduce_max w%d", w);
    EXPECT((unsigned)h_red[w * 5 + 2] == an, "reduce_and w%d", w);
    EXPECT((unsigned)h_red[w * 5 + 3] == orr, "reduce_or w%d", w);
    EXPECT((unsigned)h_red[w * 5 + 4] == xr, "reduce_xor w%d", w);
  }
  cudaFree(d_in); cudaFree(d_out); cudaFree(d_red);
  return finish("warp_intrinsics");
}

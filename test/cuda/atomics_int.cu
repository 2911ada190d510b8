// Integer atomics of every width and scope.
//   * int / unsigned / unsigned long long / long long:
//     atomicAdd, Sub, Min, Max, And, Or, Xor, Exch, CAS, Inc, Dec
//   * returned value both used and ignored
//   * scopes: default (gpu), *_block (cta), *_system (sys)
//   * shared-memory atomics (block-local histogram)
//   * 16-bit atomicCAS (sm_70+) and 128-bit atomicCAS / atomicExch (sm_90+)
//   * __threadfence / __threadfence_block / __threadfence_system in a
//     "last block finishes the reduction" pattern
#include <algorithm>
#include <vector>
#include "common.cuh"

struct Counters {
  int i_add, i_sub, i_min, i_max, i_and, i_or, i_xor, i_exch, i_cas;
  unsigned u_add, u_sub, u_min, u_max, u_and, u_or, u_xor, u_inc, u_dec;
  unsigned long long ull_add, ull_min, ull_max, ull_and, ull_or, ull_xor, ull_exch, ull_cas;
  long long ll_min, ll_max, ll_and, ll_or, ll_xor;
  int blk_add, sys_add;
  unsigned blk_max, sys_or;
  unsigned long long sys_cas;
  unsigned short us_cas;
  unsigned short pad_;
  int u128_ok;
};

struct alignas(16) Pair128 { unsigned long long lo, hi; };

__device__ int val_of(int tid) { return (tid * 37) % 1000 - 500; }

__global__ void int_atomics(Counters* c, int* exch_old, unsigned long long* ull_exch_old,
                            Pair128* p128, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  int v = val_of(tid);
  unsigned uv = (unsigned)(tid * 2654435761u);
  unsigned long long lv = ((unsigned long long)tid << 40) | (unsigned long long)(tid * 13);

  // int
  atomicAdd(&c->i_add, tid % 7);          // result unused -> red
  atomicSub(&c->i_sub, 3);
  atomicMin(&c->i_min, v);
  atomicMax(&c->i_max, v);
  atomicAnd(&c->i_and, ~(1 << (tid % 31)));
  atomicOr(&c->i_or, 1 << (tid % 20));
  atomicXor(&c->i_xor, tid);
  exch_old[tid] = atomicExch(&c->i_exch, tid);  // result used -> atom
  int old = c->i_cas, assumed;
  do { assumed = old; old = atomicCAS(&c->i_cas, assumed, assumed + 2); } while (old != assumed);

  // unsigned
  atomicAdd(&c->u_add, uv & 0xffu);
  atomicSub(&c->u_sub, 1u);
  atomicMin(&c->u_min, uv | 1u);
  atomicMax(&c->u_max, uv >> 1);
  atomicAnd(&c->u_and, uv | 0xf0000000u);
  atomicOr(&c->u_or, uv & 0x0f0f0f0fu);
  atomicXor(&c->u_xor, uv);
  atomicInc(&c->u_inc, 99u);
  atomicDec(&c->u_dec, 99u);

  // 64-bit
  atomicAdd(&c->ull_add, lv);
  atomicMin(&c->ull_min, lv + 5);
  atomicMax(&c->ull_max, lv);
  atomicAnd(&c->ull_and, ~(1ull << (tid % 63)));
  atomicOr(&c->ull_or, 1ull << (tid % 64));
  atomicXor(&c->ull_xor, lv);
  ull_exch_old[tid] = atomicExch(&c->ull_exch, (unsigned long long)tid);
  unsigned long long o64 = c->ull_cas, a64;
  do { a64 = o64; o64 = atomicCAS(&c->ull_cas, a64, a64 + 3ull); } while (o64 != a64);
  atomicMin(&c->ll_min, (long long)v * 1000000007ll);
  atomicMax(&c->ll_max, (long long)v * 1000000007ll);
  atomicAnd(&c->ll_and, ~(1ll << (tid % 40)));
  atomicOr(&c->ll_or, 1ll << (tid % 50));
  atomicXor(&c->ll_xor, (long long)tid << 20);

  // scoped
  int r_blk = atomicAdd_block(&c->blk_add, 1);
  int r_sys = atomicAdd_system(&c->sys_add, 2);
  (void)r_blk; (void)r_sys;
  atomicMax_block(&c->blk_max, (unsigned)tid);
  atomicOr_system(&c->sys_or, 1u << (tid % 32));
  unsigned long long s_old = c->sys_cas, s_as;
  do { s_as = s_old; s_old = atomicCAS_system(&c->sys_cas, s_as, s_as + 1); } while (s_old != s_as);

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  unsigned short h_old = c->us_cas, h_as;
  do { h_as = h_old; h_old = atomicCAS(&c->us_cas, h_as, (unsigned short)(h_as + 1)); } while (h_old != h_as);
#else
  atomicAdd((unsigned*)&c->us_cas, 1u);  // us_cas + pad_ share one aligned word
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // 128-bit CAS loop: lo += 1, hi += tid
  Pair128 cur = *p128, want, got;
  for (;;) {
    want.lo = cur.lo + 1; want.hi = cur.hi + (unsigned long long)tid;
    got = atomicCAS(p128, cur, want);
    if (got.lo == cur.lo && got.hi == cur.hi) break;
    cur = got;
  }
  if (tid == 0) {
    Pair128 e; e.lo = 0; e.hi = 0;
    Pair128 probe = atomicExch(p128 + 1, e);
    atomicAdd(&c->u128_ok, (probe.lo == 7 && probe.hi == 9) ? 1 : 0);
  }
#else
  if (tid == 0) atomicAdd(&c->u128_ok, 1);
  atomicAdd(&p128->lo, 1ull);
  atomicAdd(&p128->hi, (unsigned long long)tid);
#endif
}

// Shared-memory histogram, merged into global with result-unused atomics.
__global__ void shared_histogram(const unsigned char* data, unsigned* hist, int n) {
  __shared__ unsigned local[64];
  for (int i = threadIdx.x; i < 64; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] & 63], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 64; i += blockDim.x)
    if (local[i]) atomicAdd(&hist[i], local[i]);
}

// Threadfence reduction: the last block to finish adds up all partial sums.
__device__ unsigned int g_blocks_done = 0;

__global__ void fence_reduce(const int* in, int* partials, int* result, volatile int* sys_flag, int n) {
  __shared__ int sdata[256];
  __shared__ bool am_last;
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    partials[blockIdx.x] = sdata[0];
    __threadfence();  // make the partial visible device-wide before signalling
    unsigned ticket = atomicInc(&g_blocks_done, gridDim.x);
    am_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (am_last) {
    int s = 0;
    for (int b = tid; b < (int)gridDim.x; b += blockDim.x) s += ((volatile int*)partials)[b];
    sdata[tid] = s;
    __threadfence_block();
    __syncthreads();
    if (tid == 0) {
      int total = 0;
      for (int k = 0; k < (int)blockDim.x; ++k) total += sdata[k];
      *result = total;
      __threadfence_system();
      *sys_flag = 1;
      g_blocks_done = 0;
    }
  }
}

int main() {
  const int threads = 256, blocks = 4, n = threads * blocks;
  Counters init{};
  init.i_min = 1 << 30; init.i_max = -(1 << 30); init.i_and = -1; init.i_exch = -1;
  init.u_min = ~0u; init.u_and = ~0u; init.u_sub = 5000;
  init.ull_min = ~0ull; init.ull_and = ~0ull; init.ull_exch = ~0ull;
  init.ll_min = 1ll << 62; init.ll_max = -(1ll << 62); init.ll_and = -1;
  Counters* d_c;
  int* d_exch;
  unsigned long long* d_ull_exch;
  Pair128* d_p128;
  Pair128 h_p128_init[2] = {{0, 0}, {7, 9}};
  CUDA_CHECK(cudaMalloc(&d_c, sizeof(Counters)));
  CUDA_CHECK(cudaMalloc(&d_exch, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_ull_exch, n * sizeof(unsigned long long)));
  CUDA_CHECK(cudaMalloc(&d_p128, 2 * sizeof(Pair128)));
  CUDA_CHECK(cudaMemcpy(d_c, &init, sizeof(Counters), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_p128, h_p128_init, sizeof(h_p128_init), cudaMemcpyHostToDevice));
  int_atomics<<<blocks, threads>>>(d_c, d_exch, d_ull_exch, d_p128, n);
  CUDA_SYNC_CHECK();
  Counters c;
  std::vector<int> h_exch(n);
  std::vector<unsigned long long> h_ull_exch(n);
  Pair128 h_p128[2];
  CUDA_CHECK(cudaMemcpy(&c, d_c, sizeof(Counters), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_exch.data(), d_exch, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_ull_exch.data(), d_ull_exch, n * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_p128, d_p128, sizeof(h_p128), cudaMemcpyDeviceToHost));

  // host reference
  Counters r = init;
  for (int t = 0; t < n; ++t) {
    int v = (t * 37) % 1000 - 500;
    unsigned uv = (unsigned)(t * 2654435761u);
    unsigned long long lv = ((unsigned long long)t << 40) | (unsigned long long)(t * 13);
    r.i_add += t % 7; r.i_sub -= 3; r.i_min = std::min(r.i_min, v); r.i_max = std::max(r.i_max, v);
    r.i_and &= ~(1 << (t % 31)); r.i_or |= 1 << (t % 20); r.i_xor ^= t; r.i_cas += 2;
    r.u_add += uv & 0xffu; r.u_sub -= 1; r.u_min = std::min(r.u_min, uv | 1u);
    r.u_max = std::max(r.u_max, uv >> 1); r.u_and &= uv | 0xf0000000u; r.u_or |= uv & 0x0f0f0f0fu;
    r.u_xor ^= uv;
    r.u_inc = r.u_inc >= 99u ? 0 : r.u_inc + 1;
    r.u_dec = (r.u_dec == 0 || r.u_dec > 99u) ? 99u : r.u_dec - 1;
    r.ull_add += lv; r.ull_min = std::min(r.ull_min, lv + 5); r.ull_max = std::max(r.ull_max, lv);
    r.ull_and &= ~(1ull << (t % 63)); r.ull_or |= 1ull << (t % 64); r.ull_xor ^= lv; r.ull_cas += 3;
    r.ll_min = std::min(r.ll_min, (long long)v * 1000000007ll);
    r.ll_max = std::max(r.ll_max, (long long)v * 1000000007ll);
    r.ll_and &= ~(1ll << (t % 40)); r.ll_or |= 1ll << (t % 50); r.ll_xor ^= (long long)t << 20;
    r.blk_add += 1; r.sys_add += 2; r.blk_max = std::max(r.blk_max, (unsigned)t);
    r.sys_or |= 1u << (t % 32); r.sys_cas += 1; r.us_cas += 1;
  }
#define CHK(f) EXPECT(c.f == r.f, #f " = %lld, want %lld", (long long)c.f, (long long)r.f)
  CHK(i_add); CHK(i_sub); CHK(i_min); CHK(i_max); CHK(i_and); CHK(i_or); CHK(i_xor); CHK(i_cas);
  CHK(u_add); CHK(u_sub); CHK(u_min); CHK(u_max); CHK(u_and); CHK(u_or); CHK(u_xor); CHK(u_inc); CHK(u_dec);
  CHK(ull_add); CHK(ull_min); CHK(ull_max); CHK(ull_and); CHK(ull_or); CHK(ull_xor); CHK(ull_cas);
  CHK(ll_min); CHK(ll_max); CHK(ll_and); CHK(ll_or); CHK(ll_xor);
  CHK(blk_add); CHK(sys_add); CHK(blk_max); CHK(sys_or); CHK(sys_cas); CHK(us_cas);
#undef CHK
  // exchange: old values + final value form a permutation of {-1, 0..n-1}
  std::vector<int> all(h_exch);
  all.push_back(c.i_exch);
  std::sort(all.begin(), all.end());
  for (int k = 0; k <= n; ++k) EXPECT(all[k] == k - 1, "int exch chain %d", k);
  std::vector<unsigned long long> all64(h_ull_exch);
  all64.push_back(c.ull_exch);
  std::sort(all64.begin(), all64.end());
  for (int k = 0; k < n; ++k) EXPECT(all64[k] == (unsigned long long)k, "ull exch chain %d", k);
  EXPECT(all64[n] == ~0ull, "ull exch initial");
  EXPECT(h_p128[0].lo == (unsigned long long)n, "128 lo");
  EXPECT(h_p128[0].hi == (unsigned long long)n * (n - 1) / 2, "128 hi");
  EXPECT(c.u128_ok == 1, "128 exch");

  // shared histogram
  const int m = 50000;
  std::vector<unsigned char> h_data(m);
  for (int i = 0; i < m; ++i) h_data[i] = (unsigned char)(i * 7 + i / 13);
  unsigned char* d_data; unsigned* d_hist;
  CUDA_CHECK(cudaMalloc(&d_data, m));
  CUDA_CHECK(cudaMalloc(&d_hist, 64 * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(d_hist, 0, 64 * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_data, h_data.data(), m, cudaMemcpyHostToDevice));
  shared_histogram<<<8, 128>>>(d_data, d_hist, m);
  CUDA_SYNC_CHECK();
  std::vector<unsigned> h_hist(64), ref_hist(64, 0);
  CUDA_CHECK(cudaMemcpy(h_hist.data(), d_hist, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned char d : h_data) ref_hist[d & 63]++;
  for (int b = 0; b < 64; ++b) EXPECT(h_hist[b] == ref_hist[b], "hist %d", b);

  // threadfence reduction
  const int k = 10000, fb = (k + 255) / 256;
  std::vector<int> h_in(k);
  int ref = 0;
  for (int i = 0; i < k; ++i) { h_in[i] = i % 11 - 5; ref += h_in[i]; }
  int *d_in, *d_part, *d_res, *h_flag, *d_flag;
  CUDA_CHECK(cudaMalloc(&d_in, k * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_part, fb * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_res, sizeof(int)));
  CUDA_CHECK(cudaHostAlloc(&h_flag, sizeof(int), cudaHostAllocMapped));
  *h_flag = 0;
  CUDA_CHECK(cudaHostGetDevicePointer(&d_flag, h_flag, 0));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), k * sizeof(int), cudaMemcpyHostToDevice));
  fence_reduce<<<fb, 256>>>(d_in, d_part, d_res, d_flag, k);
  CUDA_SYNC_CHECK();
  int res = 0;
  CUDA_CHECK(cudaMemcpy(&res, d_res, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(res == ref, "fence reduce %d vs %d", res, ref);
  EXPECT(*h_flag == 1, "system flag");

  cudaFree(d_c); cudaFree(d_exch); cudaFree(d_ull_exch); cudaFree(d_p128);
  cudaFree(d_data); cudaFree(d_hist); cudaFree(d_in); cudaFree(d_part); cudaFree(d_res);
  cudaFreeHost(h_flag);
  return finish("atomics_int");
}

// Floating-point atomics.
//   * atomicAdd on float and double (global and shared), atomicAdd_block / _system
//   * atomicExch on float
//   * atomicAdd on __half, __half2, __nv_bfloat16, __nv_bfloat162
//     (native on newer archs, CAS emulation on older ones)
//   * float atomicMin/atomicMax built from atomicCAS on the bit pattern
//   * inline-asm red.global.add.f32 (what hand-tuned libraries emit)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cstring>
#include <vector>
#include "common.cuh"

struct FAcc {
  float f_add, f_blk, f_sys, f_min, f_max, f_exch, f_red;
  float pad_;
  double d_add, d_blk, d_sys;
  __half h_add;
  __half pad_h;
  __half2 h2_add;
  __nv_bfloat16 bf_add;
  __nv_bfloat16 pad_bf;
  __nv_bfloat162 bf2_add;
};

__device__ float atomic_min_float(float* addr, float v) {
  int* ia = (int*)addr;
  int old = *ia, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) <= v) break;
    old = atomicCAS(ia, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}

__device__ float atomic_max_float(float* addr, float v) {
  unsigned* ua = (unsigned*)addr;
  unsigned old = *ua, assumed;
  do {
    assumed = old;
    if (__uint_as_float(assumed) >= v) break;
    old = atomicCAS(ua, assumed, __float_as_uint(v));
  } while (old != assumed);
  return __uint_as_float(old);
}

__global__ void float_atomics(FAcc* acc, float* exch_old, int n) {
  __shared__ float s_sum;
  __shared__ double s_dsum;
  if (threadIdx.x == 0) { s_sum = 0.0f; s_dsum = 0.0; }
  __syncthreads();

  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    float v = (float)(tid % 16) * 0.25f;   // exactly representable, sums are exact
    double dv = (double)(tid % 10) * 0.5;
    atomicAdd(&acc->f_add, v);
    atomicAdd_block(&acc->f_blk, 1.0f);
    atomicAdd_system(&acc->f_sys, 0.5f);
    atomic_min_float(&acc->f_min, v - 3.0f);
    atomic_max_float(&acc->f_max, v * 2.0f);
    exch_old[tid] = atomicExch(&acc->f_exch, (float)tid);
    atomicAdd(&acc->d_add, dv);
    atomicAdd_block(&acc->d_blk, 0.25);
    atomicAdd_system(&acc->d_sys, 1.0);
    atomicAdd(&s_sum, v);
    atomicAdd(&s_dsum, dv);

    atomicAdd(&acc->h_add, __float2half(0.125f));
    atomicAdd(&acc->h2_add, __floats2half2_rn(0.25f, 0.5f));
    // bf16 has 8 significant bits: keep every partial sum exact by using 256 adders
    if ((tid & 1) == 0) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
      atomicAdd(&acc->bf_add, __float2bfloat16_rn(1.0f));
#endif
      atomicAdd(&acc->bf2_add, __floats2bfloat162_rn(0.5f, 2.0f));
    }

    asm volatile("red.global.add.f32 [%0], %1;" :: "l"(&acc->f_red), "f"(v) : "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&acc->f_add, 0.0f * s_sum);  // keep the shared sum live
    exch_old[n + blockIdx.x * 2] = s_sum;
    exch_old[n + blockIdx.x * 2 + 1] = (float)s_dsum;
  }
}

int main() {
  const int threads = 128, blocks = 4, n = threads * blocks;   // n = 512
  FAcc init;
  memset(&init, 0, sizeof(init));
  init.f_min = 1e30f; init.f_max = -1e30f; init.f_exch = -1.0f;
  init.h_add = __float2half(0.0f);
  init.h2_add = __floats2half2_rn(0.0f, 0.0f);
  init.bf_add = __float2bfloat16(0.0f);
  init.bf2_add = __floats2bfloat162_rn(0.0f, 0.0f);
  FAcc* d_acc; float* d_old;
  CUDA_CHECK(cudaMalloc(&d_acc, sizeof(FAcc)));
  CUDA_CHECK(cudaMalloc(&d_old, (n + 2 * blocks) * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_acc, &init, sizeof(FAcc), cudaMemcpyHostToDevice));
  float_atomics<<<blocks, threads>>>(d_acc, d_old, n);
  CUDA_SYNC_CHECK();
  FAcc r;
  std::vector<float> h_old(n + 2 * blocks);
  CUDA_CHECK(cudaMemcpy(&r, d_acc, sizeof(FAcc), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_old.data(), d_old, h_old.size() * sizeof(float), cudaMemcpyDeviceToHost));

  double f_add = 0, d_add = 0, fmin = 1e30, fmax = -1e30;
  for (int t = 0; t < n; ++t) {
    float v = (float)(t % 16) * 0.25f;
    f_add += v; d_add += (t % 10) * 0.5;
    fmin = std::min<double>(fmin, v - 3.0f); fmax = std::max<double>(fmax, v * 2.0f);
  }
  EXPECT(r.f_add == (float)f_add, "f_add %f vs %f", r.f_add, f_add);
  EXPECT(r.f_red == (float)f_add, "f_red %f vs %f", r.f_red, f_add);
  EXPECT(r.f_blk == (float)n, "f_blk %f", r.f_blk);
  EXPECT(r.f_sys == 0.5f * n, "f_sys %f", r.f_sys);
  EXPECT(r.f_min == (float)fmin, "f_min %f", r.f_min);
  EXPECT(r.f_max == (float)fmax, "f_max %f", r.f_max);
  EXPECT(r.d_add == d_add, "d_add %f vs %f", r.d_add, d_add);
  EXPECT(r.d_blk == 0.25 * n, "d_blk %f", r.d_blk);
  EXPECT(r.d_sys == 1.0 * n, "d_sys %f", r.d_sys);
  // 512 * 0.125 = 64 (exact in half), half2: 128 / 256; 256 bf16 adders: 256, bf162: 128 / 512
  EXPECT(__half2float(r.h_add) == 64.0f, "half add %f", __half2float(r.h_add));
  EXPECT(__low2float(r.h2_add) == 128.0f && __high2float(r.h2_add) == 256.0f, "half2 add %f %f",
         __low2float(r.h2_add), __high2float(r.h2_add));
  EXPECT(__bfloat162float(r.bf_add) == 256.0f, "bf16 add %f", __bfloat162float(r.bf_add));
  EXPECT(__low2float(r.bf2_add) == 128.0f && __high2float(r.bf2_add) == 512.0f, "bf162 add %f %f",
         __low2float(r.bf2_add), __high2float(r.bf2_add));
  // exchange chain: old values + final form a permutation of {-1, 0..n-1}
  std::vector<float> chain(h_old.begin(), h_old.begin() + n);
  chain.push_back(r.f_exch);
  std::sort(chain.begin(), chain.end());
  for (int k = 0; k <= n; ++k) EXPECT(chain[k] == (float)(k - 1), "exch chain %d", k);
  for (int b = 0; b < blocks; ++b) {
    double s = 0, ds = 0;
    for (int t = b * threads; t < (b + 1) * threads; ++t) { s += (t % 16) * 0.25; ds += (t % 10) * 0.5; }
    EXPECT(h_old[n + 2 * b] == (float)s, "shared float sum block %d", b);
    EXPECT(h_old[n + 2 * b + 1] == (float)ds, "shared double sum block %d", b);
  }
  cudaFree(d_acc); cudaFree(d_old);
  return finish("atomics_float");
}

// Tensor cores through the WMMA API (mma.h).
//   * 16x16x16 half inputs (A row-major, B col-major), float accumulator,
//     one warp per 16x16 output tile, K loop, fill_fragment, load/mma/store_matrix_sync,
//     element-wise epilogue on the accumulator fragment (alpha/beta scaling)   [sm_70+]
//   * 16x16x16 half inputs with half accumulator                                [sm_70+]
//   * 16x16x16 __nv_bfloat16 inputs and 16x16x8 tf32 inputs, float accumulator  [sm_80+]
//   * raw inline PTX: ldmatrix.sync.aligned.m8n8.x4/.x2 + mma.sync.aligned.m16n8k16
//     (f16 inputs, f32 accumulator), the way CUTLASS-style kernels drive tensor cores [sm_80+]
// All tensor-core code is guarded by __CUDA_ARCH__; each kernel reports whether its path was
// compiled in, and the host checks only the paths that ran.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <vector>
#include "common.cuh"

using namespace nvcuda;

constexpr int WM = 16, WN = 16, WK = 16;

// C[M x N] = alpha * A[M x K] * B[K x N] + beta * C; B stored column-major (i.e. B^T row-major)
__global__ void wmma_gemm_f32(const __half* A, const __half* B, float* C, int M, int N, int K,
                              float alpha, float beta) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  int warp_m = (blockIdx.y * blockDim.y + threadIdx.y);
  int warp_n = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (warp_m * WM >= M || warp_n * WN >= N) return;
  wmma::fragment<wmma::matrix_a, WM, WN, WK, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, WM, WN, WK, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc, c;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += WK) {
    wmma::load_matrix_sync(a, A + warp_m * WM * K + k, K);
    wmma::load_matrix_sync(b, B + warp_n * WN * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  float* cp = C + warp_m * WM * N + warp_n * WN;
  wmma::load_matrix_sync(c, cp, N, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; ++i) c.x[i] = alpha * acc.x[i] + beta * c.x[i];
  wmma::store_matrix_sync(cp, c, N, wmma::mem_row_major);
#endif
}

__global__ void wmma_gemm_f16(const __half* A, const __half* B, __half* C, int K, int* ran) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  if (threadIdx.x == 0) *ran = 1;
  wmma::fragment<wmma::matrix_a, WM, WN, WK, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, WM, WN, WK, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, WM, WN, WK, __half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int k = 0; k < K; k += WK) {
    wmma::load_matrix_sync(a, A + k, K);
    wmma::load_matrix_sync(b, B + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C, acc, WN, wmma::mem_row_major);
#endif
}

// one 16x16 tile: bf16 (K=16) and tf32 (K=8 per step, 2 steps)
__global__ void wmma_bf16_tf32(const __nv_bfloat16* Abf, const __nv_bfloat16* Bbf, const float* Af,
                               const float* Bf, float* Cbf, float* Ctf, int* ran) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (threadIdx.x == 0) *ran = 1;   // tells the host this path was compiled in
  {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(a, Abf, 16);
    wmma::load_matrix_sync(b, Bbf, 16);
    wmma::mma_sync(acc, a, b, acc);
    wmma::store_matrix_sync(Cbf, acc, 16, wmma::mem_row_major);
  }
  {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < 16; k += 8) {
      wmma::load_matrix_sync(a, Af + k, 16);
      wmma::load_matrix_sync(b, Bf + k, 16);
      for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
      for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
      wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(Ctf, acc, 16, wmma::mem_col_major);
  }
#endif
}

// One warp: C[16 x 8] = A[16 x 16] * B[16 x 8]; A row-major, B given as Bt[8][16] (col-major B).
__global__ void mma_ptx_m16n8k16(const __half* A, const __half* Bt, float* C, int* ran) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (threadIdx.x == 0) *ran = 1;
  __shared__ alignas(16) __half sA[16 * 16];
  __shared__ alignas(16) __half sB[8 * 16];
  int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) sA[i] = A[i];
  for (int i = lane; i < 128; i += 32) sB[i] = Bt[i];
  __syncwarp();
  unsigned a[4], b[2];
  // x4: lanes 0-15 address rows 0-15 at k=0, lanes 16-31 rows 0-15 at k=8
  unsigned a_addr = (unsigned)__cvta_generic_to_shared(&sA[(lane % 16) * 16 + (lane / 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(a_addr));
  // x2: lanes 0-7 address n rows at k=0, lanes 8-15 at k=8 (upper lanes: valid, ignored)
  unsigned b_addr = (unsigned)__cvta_generic_to_shared(&sB[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(b[0]), "=r"(b[1]) : "r"(b_addr));
  float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  int g = lane / 4, t = lane % 4;
  C[g * 8 + 2 * t] = c[0];
  C[g * 8 + 2 * t + 1] = c[1];
  C[(g + 8) * 8 + 2 * t] = c[2];
  C[(g + 8) * 8 + 2 * t + 1] = c[3];
#endif
}

int main() {
  const int cc = device_cc();
  const int M = 64, N = 48, K = 64;
  // small integers: exact in half and in the float accumulator
  std::vector<__half> hA(M * K), hB(N * K);
  std::vector<float> fA(M * K), fB(N * K), hC(M * N), refC(M * N);
  for (int i = 0; i < M * K; ++i) { fA[i] = (float)((i * 3) % 5 - 2); hA[i] = __float2half(fA[i]); }
  for (int i = 0; i < N * K; ++i) { fB[i] = (float)((i * 7) % 3 - 1); hB[i] = __float2half(fB[i]); }
  for (int i = 0; i < M * N; ++i) hC[i] = (float)(i % 4);
  const float alpha = 2.0f, beta = -1.0f;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += fA[m * K + k] * fB[n * K + k];
      refC[m * N + n] = alpha * s + beta * hC[m * N + n];
    }
  __half *dA, *dB, *dC16;
  float* dC;
  CUDA_CHECK(cudaMalloc(&dA, M * K * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dB, N * K * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC16, 16 * 16 * sizeof(__half)));
  CUDA_CHECK(cudaMemcpy(dA, hA.data(), M * K * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB.data(), N * K * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dC, hC.data(), M * N * sizeof(float), cudaMemcpyHostToDevice));
  // blockDim (64, 2): 2 warps along N, 2 along M
  dim3 blk(64, 2), grd((N / WN + 1) / 2, (M / WM + 1) / 2);
  wmma_gemm_f32<<<grd, blk>>>(dA, dB, dC, M, N, K, alpha, beta);
  // ran[0]: sm_70 path compiled into the running code, ran[1]: bf16/tf32, ran[2]: mma.sync.
  // The host checks a result only if its path ran (the binary may carry PTX for an
  // older arch, JIT-compiled for a newer GPU).
  int* d_ran;
  int ran[3] = {0, 0, 0};
  CUDA_CHECK(cudaMalloc(&d_ran, 3 * sizeof(int)));
  CUDA_CHECK(cudaMemset(d_ran, 0, 3 * sizeof(int)));
  wmma_gemm_f16<<<1, 32>>>(dA, dB, dC16, K, d_ran);
  CUDA_SYNC_CHECK();
  std::vector<float> outC(M * N);
  std::vector<__half> outC16(256);
  CUDA_CHECK(cudaMemcpy(outC.data(), dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(outC16.data(), dC16, 256 * sizeof(__half), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&ran[0], d_ran, sizeof(int), cudaMemcpyDeviceToHost));
  if (ran[0]) {
    for (int i = 0; i < M * N; ++i) EXPECT(outC[i] == refC[i], "f32 acc [%d] %f vs %f", i, outC[i], refC[i]);
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 16; ++n) {
        float s = 0;
        for (int k = 0; k < K; ++k) s += fA[m * K + k] * fB[n * K + k];
        EXPECT(__half2float(outC16[m * 16 + n]) == s, "f16 acc (%d,%d)", m, n);
      }
  }

  // bf16 / tf32 tile
  std::vector<__nv_bfloat16> bA(256), bB(256);
  std::vector<float> tA(256), tB(256), ref(256);
  for (int i = 0; i < 256; ++i) {
    tA[i] = (float)(i % 9 - 4) * 0.5f; tB[i] = (float)(i % 5 - 2) * 0.25f;
    bA[i] = __float2bfloat16(tA[i]); bB[i] = __float2bfloat16(tB[i]);
  }
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) {
      float s = 0;
      for (int k = 0; k < 16; ++k) s += tA[m * 16 + k] * tB[n * 16 + k];
      ref[m * 16 + n] = s;
    }
  __nv_bfloat16 *dbA, *dbB;
  float *dtA, *dtB, *dCb, *dCt;
  CUDA_CHECK(cudaMalloc(&dbA, 256 * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&dbB, 256 * sizeof(__nv_bfloat16)));
  CUDA_CHECK(cudaMalloc(&dtA, 256 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dtB, 256 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dCb, 256 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dCt, 256 * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dbA, bA.data(), 256 * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dbB, bB.data(), 256 * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dtA, tA.data(), 256 * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dtB, tB.data(), 256 * sizeof(float), cudaMemcpyHostToDevice));
  wmma_bf16_tf32<<<1, 32>>>(dbA, dbB, dtA, dtB, dCb, dCt, d_ran + 1);
  CUDA_SYNC_CHECK();
  std::vector<float> oCb(256), oCt(256);
  CUDA_CHECK(cudaMemcpy(oCb.data(), dCb, 256 * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(oCt.data(), dCt, 256 * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&ran[1], d_ran + 1, sizeof(int), cudaMemcpyDeviceToHost));
  if (ran[1]) {
    for (int m = 0; m < 16; ++m)
      for (int n = 0; n < 16; ++n) {
        EXPECT(oCb[m * 16 + n] == ref[m * 16 + n], "bf16 (%d,%d)", m, n);
        EXPECT(oCt[n * 16 + m] == ref[m * 16 + n], "tf32 (%d,%d)", m, n);   // stored col-major
      }
  }

  // raw mma.sync tile
  std::vector<__half> mA(256), mBt(128);
  std::vector<float> fmA(256), fmBt(128), mC(128);
  for (int i = 0; i < 256; ++i) { fmA[i] = (float)(i % 7 - 3); mA[i] = __float2half(fmA[i]); }
  for (int i = 0; i < 128; ++i) { fmBt[i] = (float)(i % 5 - 2) * 0.5f; mBt[i] = __float2half(fmBt[i]); }
  __half *dmA, *dmBt; float* dmC;
  CUDA_CHECK(cudaMalloc(&dmA, 256 * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dmBt, 128 * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&dmC, 128 * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dmA, mA.data(), 256 * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dmBt, mBt.data(), 128 * sizeof(__half), cudaMemcpyHostToDevice));
  mma_ptx_m16n8k16<<<1, 32>>>(dmA, dmBt, dmC, d_ran + 2);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(mC.data(), dmC, 128 * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&ran[2], d_ran + 2, sizeof(int), cudaMemcpyDeviceToHost));
  if (ran[2]) {
    for (int m = 0; m < 16; ++m)
      for (int nn = 0; nn < 8; ++nn) {
        float s = 0;
        for (int k = 0; k < 16; ++k) s += fmA[m * 16 + k] * fmBt[nn * 16 + k];
        EXPECT(mC[m * 8 + nn] == s, "mma.sync (%d,%d): %f vs %f", m, nn, mC[m * 8 + nn], s);
      }
  }
  cudaFree(dmA); cudaFree(dmBt); cudaFree(dmC); cudaFree(d_ran);
  if (cc >= 80 && !(ran[0] && ran[1] && ran[2]))
    printf("note: tensor-core paths compiled in: sm70=%d sm80=%d mma.sync=%d (PTX built for an older arch)\n",
           ran[0], ran[1], ran[2]);

  cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dC16);
  cudaFree(dbA); cudaFree(dbB); cudaFree(dtA); cudaFree(dtB); cudaFree(dCb); cudaFree(dCt);
  return finish("wmma_gemm");
}

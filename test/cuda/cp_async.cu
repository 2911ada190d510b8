// Asynchronous global->shared copies.
//   * __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior (cuda_pipeline.h)
//   * cuda::pipeline<thread_scope_thread> with double buffering (cuda::memcpy_async,
//     producer_acquire / producer_commit / consumer_wait / consumer_release)
//   * block-scoped cuda::pipeline with cuda::pipeline_shared_state
//   * cuda::barrier<thread_scope_block> + cuda::memcpy_async with aligned_size_t<16>
//     (mbarrier-based completion; may use cp.async.bulk on sm_90)
//   * cooperative_groups::memcpy_async + cg::wait
// On sm_80+ these lower to cp.async.*; on sm_75 to ordinary loads/stores.
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <algorithm>
#include <vector>
#include "common.cuh"

namespace cg = cooperative_groups;
// __shared__ pipeline/barrier objects are initialised explicitly (init / make_pipeline).
#pragma nv_diag_suppress static_var_with_dynamic_init
constexpr int TB = 128;    // threads per block
constexpr int CHUNK = 4;   // floats per thread per stage

// 1) primitives API: each thread copies one float4 (16 bytes) per stage
__global__ void primitives_copy(const float4* in, float* out, int n_vec) {
  __shared__ float4 buf[2][TB];
  int stages = (n_vec + gridDim.x * TB - 1) / (gridDim.x * TB);
  int base = blockIdx.x * TB + threadIdx.x;
  int stride = gridDim.x * TB;
  if (base < n_vec) __pipeline_memcpy_async(&buf[0][threadIdx.x], &in[base], sizeof(float4));
  __pipeline_commit();
  for (int s = 0; s < stages; ++s) {
    int next = base + (s + 1) * stride;
    if (s + 1 < stages && next < n_vec)
      __pipeline_memcpy_async(&buf[(s + 1) & 1][threadIdx.x], &in[next], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    int idx = base + s * stride;
    if (idx < n_vec) {
      float4 v = buf[s & 1][threadIdx.x];
      out[idx] = v.x + v.y + v.z + v.w;
    }
  }
  __pipeline_wait_prior(0);
}

// 2) per-thread cuda::pipeline, two stages
__global__ void thread_pipeline(const float* in, float* out, int n) {
  __shared__ alignas(16) float buf[2][TB * CHUNK];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int tiles = (n + TB * CHUNK - 1) / (TB * CHUNK);
  auto issue = [&](int tile) {
    pipe.producer_acquire();
    int off = tile * TB * CHUNK + threadIdx.x * CHUNK;
    if (tile < tiles && off + CHUNK <= n)
      cuda::memcpy_async(&buf[tile & 1][threadIdx.x * CHUNK], in + off,
                         cuda::aligned_size_t<16>(CHUNK * sizeof(float)), pipe);
    pipe.producer_commit();
  };
  issue(0);
  for (int t = 0; t < tiles; ++t) {
    issue(t + 1);
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    int off = t * TB * CHUNK + threadIdx.x * CHUNK;
    if (off + CHUNK <= n)
      for (int k = 0; k < CHUNK; ++k) out[off + k] = buf[t & 1][threadIdx.x * CHUNK + k] * 2.0f;
    pipe.consumer_release();
  }
}

// 3) block-scoped pipeline: whole block fills a tile, then reduces it
__global__ void block_pipeline(const int* in, int* out, int n) {
  __shared__ alignas(16) int tile[TB];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int base = blockIdx.x * TB;
  pipe.producer_acquire();
  if (base + TB <= n) cuda::memcpy_async(block, tile, in + base, sizeof(int) * TB, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  if (threadIdx.x == 0 && base + TB <= n) {
    int s = 0;
    for (int k = 0; k < TB; ++k) s += tile[k];
    out[blockIdx.x] = s;
  }
  pipe.consumer_release();
}

// 4) cuda::barrier completion
__global__ void barrier_copy(const float* in, float* out, int n) {
  __shared__ alignas(16) float tile[TB * CHUNK];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  int base = blockIdx.x * TB * CHUNK;
  if (base + TB * CHUNK <= n) {
    if (threadIdx.x == 0)
      cuda::memcpy_async(tile, in + base, cuda::aligned_size_t<16>(sizeof(float) * TB * CHUNK), bar);
  }
  bar.arrive_and_wait();
  if (base + TB * CHUNK <= n)
    for (int k = threadIdx.x; k < TB * CHUNK; k += TB) out[base + k] = tile[TB * CHUNK - 1 - k];
}

// 5) cooperative groups memcpy_async
__global__ void cg_copy(const double* in, double* out, int n) {
  __shared__ double tile[TB];
  auto block = cg::this_thread_block();
  int base = blockIdx.x * TB;
  int count = min(TB, n - base);
  cg::memcpy_async(block, tile, in + base, sizeof(double) * count);
  cg::wait(block);
  if ((int)threadIdx.x < count) out[base + threadIdx.x] = tile[count - 1 - threadIdx.x] + 1.0;
}

int main() {
  const int n = TB * CHUNK * 10;   // 5120 floats
  std::vector<float> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = (float)(i % 1000) * 0.5f;
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> h_out(n);

  // 1
  const int n_vec = n / 4;
  CUDA_CHECK(cudaMemset(d_out, 0, n * sizeof(float)));
  primitives_copy<<<3, TB>>>((const float4*)d_in, d_out, n_vec);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n_vec * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n_vec; ++i) {
    float want = h_in[4 * i] + h_in[4 * i + 1] + h_in[4 * i + 2] + h_in[4 * i + 3];
    EXPECT(h_out[i] == want, "primitives %d: %f vs %f", i, h_out[i], want);
  }
  // 2
  thread_pipeline<<<1, TB>>>(d_in, d_out, n);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(h_out[i] == h_in[i] * 2.0f, "thread pipeline %d", i);
  // 3
  std::vector<int> h_i(n);
  for (int i = 0; i < n; ++i) h_i[i] = i % 17;
  int *d_i, *d_sums;
  const int nb = n / TB;
  CUDA_CHECK(cudaMalloc(&d_i, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_sums, nb * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_i, h_i.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_pipeline<<<nb, TB>>>(d_i, d_sums, n);
  CUDA_SYNC_CHECK();
  std::vector<int> h_sums(nb);
  CUDA_CHECK(cudaMemcpy(h_sums.data(), d_sums, nb * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < nb; ++b) {
    int s = 0;
    for (int k = 0; k < TB; ++k) s += h_i[b * TB + k];
    EXPECT(h_sums[b] == s, "block pipeline %d", b);
  }
  // 4
  barrier_copy<<<n / (TB * CHUNK), TB>>>(d_in, d_out, n);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < n / (TB * CHUNK); ++b)
    for (int k = 0; k < TB * CHUNK; ++k)
      EXPECT(h_out[b * TB * CHUNK + k] == h_in[b * TB * CHUNK + TB * CHUNK - 1 - k], "barrier copy %d %d", b, k);
  // 5
  const int m = 1000;
  std::vector<double> h_d(m), h_do(m);
  for (int i = 0; i < m; ++i) h_d[i] = i * 0.25;
  double *d_d, *d_do;
  CUDA_CHECK(cudaMalloc(&d_d, m * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_do, m * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_d, h_d.data(), m * sizeof(double), cudaMemcpyHostToDevice));
  cg_copy<<<(m + TB - 1) / TB, TB>>>(d_d, d_do, m);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_do.data(), d_do, m * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    int b = i / TB, base = b * TB, count = std::min(TB, m - base);
    EXPECT(h_do[i] == h_d[base + count - 1 - (i - base)] + 1.0, "cg copy %d", i);
  }

  cudaFree(d_in); cudaFree(d_out); cudaFree(d_i); cudaFree(d_sums); cudaFree(d_d); cudaFree(d_do);
  return finish("cp_async");
}

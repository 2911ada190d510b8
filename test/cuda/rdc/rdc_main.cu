// Separate compilation, main half (compiled with -rdc=true).
// Calls extern __device__ functions defined in rdc_lib.cu and reads/writes an
// extern __device__ variable; the PTX contains `.extern .func` / `.extern .global`
// declarations. Build and link:
//   nvcc -rdc=true rdc_main.cu rdc_lib.cu -o rdc
#include <cstring>
#include <vector>
#include "../common.cuh"
#include "rdc_shared.cuh"

__global__ void rdc_kernel(const float* in, float* out, float* stats, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Accum a{0.0f, 0.0f, 0};
  for (int k = i; k < n; k += gridDim.x * blockDim.x) {
    float v = rdc_scale(in[k], 2.0f);
    out[k] = v;
    a = rdc_accumulate(a, v);
  }
  atomicAdd(&stats[0], a.sum);
  atomicAdd(&stats[1], a.sumsq);
  atomicAdd((int*)&stats[2], a.n);
  if (i == 0) rdc_bias = rdc_bias + 0.0f;   // touch the extern variable from this TU
}

int main() {
  const int n = 1000;
  std::vector<float> hin(n), hout(n);
  for (int i = 0; i < n; ++i) hin[i] = (float)(i % 8);
  float *din, *dout, *dstats;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dstats, 3 * sizeof(float)));
  CUDA_CHECK(cudaMemset(dstats, 0, 3 * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(din, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  rdc_kernel<<<4, 64>>>(din, dout, dstats, n);
  CUDA_SYNC_CHECK();
  float hstats[3];
  int calls = 0;
  CUDA_CHECK(cudaMemcpy(hout.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hstats, dstats, sizeof(hstats), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpyFromSymbol(&calls, rdc_call_count, sizeof(int)));
  double sum = 0, sumsq = 0;
  for (int i = 0; i < n; ++i) {
    float want = hin[i] * 2.0f + 0.5f;
    EXPECT(hout[i] == want, "out %d", i);
    sum += want; sumsq += (double)want * want;
  }
  EXPECT(near(hstats[0], sum, 1e-6), "sum %f vs %f", hstats[0], sum);
  EXPECT(near(hstats[1], sumsq, 1e-6), "sumsq %f vs %f", hstats[1], sumsq);
  int cnt;
  memcpy(&cnt, &hstats[2], sizeof(int));
  EXPECT(cnt == n, "count %d", cnt);
  EXPECT(calls == n, "rdc_scale calls %d", calls);
  cudaFree(din); cudaFree(dout); cudaFree(dstats);
  return finish("rdc");
}

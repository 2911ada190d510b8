// printf and assert in device code.
//   * device printf with int / unsigned / long long / float / double / char /
//     string / pointer / hex / width+precision formats (vprintf + local buffer)
//   * assert() that holds (calls __assertfail only on the failure path)
//   * __trap() on a path guarded by a runtime flag that is never set
//   * the host checks that the kernel completed and produced its side results
#include <cassert>
#include <cstdio>
#include <vector>
#include "common.cuh"

__device__ __noinline__ void log_value(const char* tag, int idx, float v) {
  printf("[%s] idx=%d value=%.3f\n", tag, idx, v);
}

__global__ void printf_kernel(const float* in, float* out, int n, int must_trap) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    printf("printf_kernel: grid=%d block=%d n=%d\n", gridDim.x, blockDim.x, n);
    printf("types: %d %u %lld %llu %f %e %g %c %s %p %x %08X %5.2f|%-6d|\n", -7, 7u,
           -1234567890123ll, 98765432109876ull, 3.5f, 1.25e-7, 2.0 / 3.0, 'Z', "str",
           (void*)in, 0xbeef, 0xcafe, 3.14159, 42);
  }
  if (tid < n) {
    float v = in[tid];
    assert(v >= 0.0f && "inputs are non-negative");
    assert(tid < n);
    out[tid] = sqrtf(v);
    if (tid % 64 == 0) log_value("sample", tid, out[tid]);
  }
  if (must_trap) __trap();
}

int main() {
  const int n = 200;
  std::vector<float> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = (float)(i * i);
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  printf_kernel<<<(n + 63) / 64, 64>>>(d_in, d_out, n, 0);
  CUDA_SYNC_CHECK();   // also flushes the device printf buffer
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(h_out[i] == (float)i, "sqrt %d: %f", i, h_out[i]);
  cudaFree(d_in); cudaFree(d_out);
  return finish("printf_assert");
}

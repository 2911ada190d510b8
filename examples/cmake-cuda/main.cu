// The executable: a kernel of its own, and the library's.
#include <cstdio>
#include <cuda_runtime.h>

void scale(float *x, float a, int n);

__global__ void fill(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = float(i);
}

int main() {
  const int n = 1024;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    std::printf("no CUDA device\n");
    return 0;
  }
  fill<<<(n + 255) / 256, 256>>>(x, n);
  scale(x, 2.0f, n);
  float host[4];
  cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("%g %g %g %g\n", host[0], host[1], host[2], host[3]);
  cudaFree(x);
  return 0;
}

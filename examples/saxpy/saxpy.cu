// The bundled example for the README's first command: a small CUDA program
// whose PTX (saxpy.ptx, from `nvcc -ptx -arch=compute_80 saxpy.cu`) the
// toolchain parses, verifies and prints.
#include <cstdio>

__global__ void saxpy(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void reduceSum(const float *in, float *out, int n) {
  extern __shared__ float buf[];
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    v += in[i];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0)
    buf[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? buf[threadIdx.x] : 0.f;
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0)
      atomicAdd(out, v);
  }
}

int main() {
  const int n = 1 << 20;
  float *x, *y, *sum;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  cudaMallocManaged(&sum, sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = 1.f;
    y[i] = 2.f;
  }
  *sum = 0.f;
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.f, x, y);
  reduceSum<<<64, 256, 8 * sizeof(float)>>>(y, sum, n);
  cudaDeviceSynchronize();
  std::printf("sum = %.0f (expected %d)\n", *sum, 4 * n);
  return *sum == 4.f * n ? 0 : 1;
}

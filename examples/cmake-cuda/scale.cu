// A library kernel and its host wrapper.
#include <cuda_runtime.h>

__global__ void scaleKernel(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void scale(float *x, float a, int n) {
  scaleKernel<<<(n + 255) / 256, 256>>>(x, a, n);
}

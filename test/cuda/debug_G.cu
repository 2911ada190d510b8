// Built with -G (device debug): unoptimised PTX with full DWARF sections
// (.debug_info / .debug_abbrev / .debug_line / .debug_loc ...), .loc/.file directives,
// and local-variable spills. Keeps to simple constructs: a SAXPY, a __noinline__ helper
// with a loop, a struct, a shared-memory block reduction and a switch statement.
#include <algorithm>
#include <vector>
#include "common.cuh"

struct Stats {
  float sum;
  int count;
};

__device__ __noinline__ float poly(float x, int degree) {
  float acc = 0.0f, p = 1.0f;
  for (int k = 0; k <= degree; ++k) {
    acc += p / (float)(k + 1);
    p *= x;
  }
  return acc;
}

__device__ int classify(float v) {
  switch ((int)v % 4) {
    case 0: return 10;
    case 1: return 20;
    case 2: return 30;
    default: return 40;
  }
}

__global__ void saxpy_debug(float a, const float* x, const float* y, float* out, int* cls,
                            Stats* block_stats, int n) {
  __shared__ float partial[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float r = 0.0f;
  if (i < n) {
    r = a * x[i] + y[i];
    r += poly(x[i] * 0.1f, 3);
    out[i] = r;
    cls[i] = classify(x[i]);
  }
  partial[threadIdx.x] = r;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Stats st;
    st.sum = partial[0];
    st.count = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    block_stats[blockIdx.x] = st;
  }
}

static float host_poly(float x, int degree) {
  float acc = 0.0f, p = 1.0f;
  for (int k = 0; k <= degree; ++k) { acc += p / (float)(k + 1); p *= x; }
  return acc;
}

int main() {
  const int n = 300, bs = 128, nb = (n + bs - 1) / bs;
  std::vector<float> hx(n), hy(n), hout(n);
  std::vector<int> hcls(n);
  for (int i = 0; i < n; ++i) { hx[i] = (float)(i % 23); hy[i] = (float)i * 0.5f; }
  float *dx, *dy, *dout; int* dcls; Stats* dst;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dcls, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dst, nb * sizeof(Stats)));
  CUDA_CHECK(cudaMemcpy(dx, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy_debug<<<nb, bs>>>(2.0f, dx, dy, dout, dcls, dst, n);
  CUDA_SYNC_CHECK();
  std::vector<Stats> hst(nb);
  CUDA_CHECK(cudaMemcpy(hout.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hcls.data(), dcls, n * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hst.data(), dst, nb * sizeof(Stats), cudaMemcpyDeviceToHost));
  std::vector<double> bsum(nb, 0.0);
  for (int i = 0; i < n; ++i) {
    float want = 2.0f * hx[i] + hy[i] + host_poly(hx[i] * 0.1f, 3);
    EXPECT(near(hout[i], want, 1e-6, 1e-4), "saxpy %d: %f vs %f", i, hout[i], want);
    EXPECT(hcls[i] == 10 * ((int)hx[i] % 4 + 1), "classify %d", i);
    bsum[i / bs] += want;
  }
  for (int b = 0; b < nb; ++b) {
    EXPECT(near(hst[b].sum, bsum[b], 1e-5, 1e-2), "block sum %d: %f vs %f", b, hst[b].sum, bsum[b]);
    EXPECT(hst[b].count == std::min(bs, n - b * bs), "block count %d", b);
  }
  cudaFree(dx); cudaFree(dy); cudaFree(dout); cudaFree(dcls); cudaFree(dst);
  return finish("debug_G");
}

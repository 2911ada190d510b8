// Built with -lineinfo: optimised PTX that still carries .file/.loc directives,
// `.loc ... function_name ..., inlined_at ...` for the force-inlined helper, and a
// .section .debug_str block holding the inlined function's name.
// The program is a 1-D 7-point stencil with a shared-memory halo and a 2-D 5-point
// Jacobi step, both with boundary handling.
#include <vector>
#include "common.cuh"

constexpr int R = 3;
constexpr int BS = 128;

__constant__ float c_w[2 * R + 1];

// Inlined into the kernel: its lines show up with inlined_at information.
__device__ __forceinline__ float load_or_zero(const float* __restrict__ p, int i, int n) {
  return (i >= 0 && i < n) ? p[i] : 0.0f;
}

__global__ void stencil1d(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[BS + 2 * R];
  int g = blockIdx.x * BS + threadIdx.x;
  int l = threadIdx.x + R;
  tile[l] = load_or_zero(in, g, n);
  if (threadIdx.x < R) {
    tile[l - R] = load_or_zero(in, g - R, n);
    tile[l + BS] = load_or_zero(in, g + BS, n);
  }
  __syncthreads();
  if (g < n) {
    float acc = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; ++k) acc += c_w[k + R] * tile[l + k];
    out[g] = acc;
  }
}

__global__ void jacobi2d(const float* __restrict__ in, float* __restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[y * w + x] = in[y * w + x]; return; }
  out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

int main() {
  const int n = 1000;
  float hw[2 * R + 1] = {0.5f, -1.0f, 2.0f, 4.0f, 2.0f, -1.0f, 0.5f};
  CUDA_CHECK(cudaMemcpyToSymbol(c_w, hw, sizeof(hw)));
  std::vector<float> hin(n), hout(n);
  for (int i = 0; i < n; ++i) hin[i] = (float)(i % 10);
  float *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(din, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  stencil1d<<<(n + BS - 1) / BS, BS>>>(din, dout, n);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(hout.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (int k = -R; k <= R; ++k) acc += hw[k + R] * ((i + k >= 0 && i + k < n) ? hin[i + k] : 0.0f);
    EXPECT(hout[i] == acc, "stencil %d: %f vs %f", i, hout[i], acc);
  }

  const int W = 50, H = 30;
  std::vector<float> g(W * H), go(W * H);
  for (int i = 0; i < W * H; ++i) g[i] = (float)((i * 7) % 16);
  float *dg, *dgo;
  CUDA_CHECK(cudaMalloc(&dg, W * H * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dgo, W * H * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dg, g.data(), W * H * sizeof(float), cudaMemcpyHostToDevice));
  jacobi2d<<<dim3((W + 15) / 16, (H + 15) / 16), dim3(16, 16)>>>(dg, dgo, W, H);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(go.data(), dgo, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float want = (x == 0 || y == 0 || x == W - 1 || y == H - 1)
                       ? g[y * W + x]
                       : 0.25f * (g[y * W + x - 1] + g[y * W + x + 1] + g[(y - 1) * W + x] + g[(y + 1) * W + x]);
      EXPECT(go[y * W + x] == want, "jacobi (%d,%d)", x, y);
    }
  cudaFree(din); cudaFree(dout); cudaFree(dg); cudaFree(dgo);
  return finish("lineinfo_stencil");
}

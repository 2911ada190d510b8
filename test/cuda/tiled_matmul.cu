// Shared-memory tiling with __syncthreads.
//   * tiled SGEMM (16x16 static shared tiles, 2-D grid, bounds handling)
//   * matrix transpose through a padded 32x33 shared tile (bank-conflict free)
//   * __syncthreads_count / __syncthreads_and / __syncthreads_or (bar.red)
#include <vector>
#include "common.cuh"

constexpr int TILE = 16;

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + threadIdx.x;
    int bk = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

constexpr int TDIM = 32;
constexpr int ROWS = 8;

__global__ void transpose_tiled(float* __restrict__ out, const float* __restrict__ in,
                                int width, int height) {
  __shared__ float tile[TDIM][TDIM + 1];
  int x = blockIdx.x * TDIM + threadIdx.x;
  int y = blockIdx.y * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TDIM + threadIdx.x;
  y = blockIdx.x * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Per block: how many elements are positive, are all of them positive, is any zero.
__global__ void block_predicates(const int* in, int* counts, int* all_pos, int* any_zero, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 1;
  int c = __syncthreads_count(i < n && v > 0);
  int a = __syncthreads_and(v > 0);
  int o = __syncthreads_or(v == 0);
  if (threadIdx.x == 0) { counts[blockIdx.x] = c; all_pos[blockIdx.x] = a; any_zero[blockIdx.x] = o; }
}

int main() {
  // --- matmul ---
  const int M = 77, N = 65, K = 50;
  std::vector<float> hA(M * K), hB(K * N), hC(M * N);
  for (int i = 0; i < M * K; ++i) hA[i] = (float)((i % 7) - 3) * 0.5f;
  for (int i = 0; i < K * N; ++i) hB[i] = (float)((i % 5) - 2) * 0.25f;
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, hA.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, hB.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, hC.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += (double)hA[r * K + k] * hB[k * N + c];
      EXPECT(near(hC[r * N + c], ref, 1e-5, 1e-4), "C[%d][%d] = %f vs %f", r, c, hC[r * N + c], ref);
    }

  // --- transpose ---
  const int W = 100, H = 70;
  std::vector<float> hin(W * H), hout(W * H);
  for (int i = 0; i < W * H; ++i) hin[i] = (float)i;
  float *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, W * H * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, W * H * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(din, hin.data(), W * H * sizeof(float), cudaMemcpyHostToDevice));
  transpose_tiled<<<dim3((W + TDIM - 1) / TDIM, (H + TDIM - 1) / TDIM), dim3(TDIM, ROWS)>>>(dout, din, W, H);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(hout.data(), dout, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      EXPECT(hout[x * H + y] == hin[y * W + x], "transpose (%d,%d)", x, y);

  // --- block predicates ---
  const int n = 1000, bs = 128, nb = (n + bs - 1) / bs;
  std::vector<int> hv(n);
  for (int i = 0; i < n; ++i) hv[i] = (i / bs == 2) ? 5 : (i % 9) - 2;  // block 2 all positive
  hv[bs * 3 + 7] = 0;
  int *dv, *dc, *da, *dz;
  CUDA_CHECK(cudaMalloc(&dv, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dc, nb * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&da, nb * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dz, nb * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dv, hv.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_predicates<<<nb, bs>>>(dv, dc, da, dz, n);
  CUDA_SYNC_CHECK();
  std::vector<int> hc(nb), ha(nb), hz(nb);
  CUDA_CHECK(cudaMemcpy(hc.data(), dc, nb * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(ha.data(), da, nb * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hz.data(), dz, nb * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < nb; ++b) {
    int c = 0, a = 1, z = 0;
    for (int i = b * bs; i < (b + 1) * bs; ++i) {
      int v = i < n ? hv[i] : 1;
      c += (i < n && v > 0); a &= (v > 0); z |= (v == 0);
    }
    EXPECT(hc[b] == c, "count b%d %d vs %d", b, hc[b], c);
    EXPECT((ha[b] != 0) == (a != 0), "and b%d", b);
    EXPECT((hz[b] != 0) == (z != 0), "or b%d", b);
  }

  cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(din); cudaFree(dout);
  cudaFree(dv); cudaFree(dc); cudaFree(da); cudaFree(dz);
  return finish("tiled_matmul");
}

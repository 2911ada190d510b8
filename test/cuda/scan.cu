// Prefix scans.
//   * cub::DeviceScan::InclusiveSum / ExclusiveSum (int)
//   * cub::DeviceScan::ExclusiveScan with a custom max operator
//   * cub::BlockScan + cub::WarpReduce inside a hand written kernel
//   * thrust::transform_inclusive_scan with a __device__ lambda (--extended-lambda; the
//     trailing return type lets host code query the lambda's result type)
#include <cub/device/device_scan.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/transform_scan.h>
#include <thrust/execution_policy.h>
#include <algorithm>
#include <vector>
#include "common.cuh"

struct MaxOp {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

constexpr int kBlock = 128;
constexpr int kItems = 4;

// Each block scans kBlock*kItems elements; also computes per-warp sums.
__global__ void block_scan_kernel(const int* in, int* out, int* warp_sums, int n) {
  using BlockScan = cub::BlockScan<int, kBlock>;
  using WarpReduce = cub::WarpReduce<int>;
  __shared__ typename BlockScan::TempStorage scan_storage;
  __shared__ typename WarpReduce::TempStorage warp_storage[kBlock / 32];

  int base = blockIdx.x * kBlock * kItems + threadIdx.x * kItems;
  int items[kItems];
  for (int i = 0; i < kItems; ++i) items[i] = (base + i < n) ? in[base + i] : 0;
  int block_total;
  BlockScan(scan_storage).ExclusiveSum(items, items, block_total);
  for (int i = 0; i < kItems; ++i)
    if (base + i < n) out[base + i] = items[i];

  int v = (base < n) ? in[base] : 0;
  int warp_id = threadIdx.x / 32;
  int s = WarpReduce(warp_storage[warp_id]).Sum(v);
  if ((threadIdx.x & 31) == 0) warp_sums[blockIdx.x * (kBlock / 32) + warp_id] = s;
}

int main() {
  const int n = 100000;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 7919) % 13 - 3;

  int *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> h_out(n);

  void* d_temp = nullptr;
  size_t temp_bytes = 0, need = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, need, d_in, d_out, n));
  temp_bytes = std::max(temp_bytes, need);
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_in, d_out, n));
  temp_bytes = std::max(temp_bytes, need);
  CUDA_CHECK(cub::DeviceScan::ExclusiveScan(nullptr, need, d_in, d_out, MaxOp(), -1000, n));
  temp_bytes = std::max(temp_bytes, need);
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));

  // inclusive sum
  need = temp_bytes;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp, need, d_in, d_out, n));
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  { int acc = 0; for (int i = 0; i < n; ++i) { acc += h_in[i]; EXPECT(h_out[i] == acc, "incl %d", i); } }

  // exclusive sum
  need = temp_bytes;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_temp, need, d_in, d_out, n));
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  { int acc = 0; for (int i = 0; i < n; ++i) { EXPECT(h_out[i] == acc, "excl %d", i); acc += h_in[i]; } }

  // exclusive max-scan
  need = temp_bytes;
  CUDA_CHECK(cub::DeviceScan::ExclusiveScan(d_temp, need, d_in, d_out, MaxOp(), -1000, n));
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  { int acc = -1000; for (int i = 0; i < n; ++i) { EXPECT(h_out[i] == acc, "max-scan %d", i); acc = std::max(acc, h_in[i]); } }

  // block-level scan
  const int per_block = kBlock * kItems;
  const int blocks = (n + per_block - 1) / per_block;
  int* d_warp_sums;
  CUDA_CHECK(cudaMalloc(&d_warp_sums, blocks * (kBlock / 32) * sizeof(int)));
  block_scan_kernel<<<blocks, kBlock>>>(d_in, d_out, d_warp_sums, n);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> h_ws(blocks * (kBlock / 32));
  CUDA_CHECK(cudaMemcpy(h_ws.data(), d_warp_sums, h_ws.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int acc = 0;
    for (int i = b * per_block; i < std::min(n, (b + 1) * per_block); ++i) {
      EXPECT(h_out[i] == acc, "block scan %d", i);
      acc += h_in[i];
    }
    for (int w = 0; w < kBlock / 32; ++w) {
      int s = 0;
      for (int l = 0; l < 32; ++l) {
        int idx = b * per_block + (w * 32 + l) * kItems;
        if (idx < n) s += h_in[idx];
      }
      EXPECT(h_ws[b * (kBlock / 32) + w] == s, "warp sum b%d w%d", b, w);
    }
  }

  // thrust transform + inclusive scan with an extended device lambda
  thrust::device_vector<float> d_x(n);
  thrust::host_vector<float> h_x(n);
  for (int i = 0; i < n; ++i) h_x[i] = (float)(i % 17) * 0.5f;
  d_x = h_x;
  thrust::device_vector<float> d_y(n);
  float scale = 0.25f;
  thrust::transform_inclusive_scan(
      thrust::device, d_x.begin(), d_x.end(), d_y.begin(),
      [scale] __device__(float v) -> float { return v * v * scale; }, thrust::plus<float>());
  thrust::host_vector<float> h_y = d_y;
  { double acc = 0; for (int i = 0; i < n; ++i) { acc += (double)h_x[i] * h_x[i] * scale;
      EXPECT(near(h_y[i], acc, 1e-4, 1e-3), "thrust scan %d: %f vs %f", i, h_y[i], acc); } }

  cudaFree(d_in); cudaFree(d_out); cudaFree(d_temp); cudaFree(d_warp_sums);
  return finish("scan");
}

// Sorting with CUB and Thrust.
//   * cub::DeviceRadixSort::SortPairs  (uint32 keys, int values)
//   * cub::DeviceRadixSort::SortKeysDescending (float keys)
//   * thrust::sort with a user comparator (merge sort path)
#include <cub/device/device_radix_sort.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>
#include <algorithm>
#include <vector>
#include "common.cuh"

struct AbsLess {
  __host__ __device__ bool operator()(int a, int b) const {
    int aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
    return aa < bb || (aa == bb && a < b);
  }
};

static unsigned lcg(unsigned& s) { s = s * 1664525u + 1013904223u; return s; }

int main() {
  const int n = 1 << 16;
  unsigned seed = 12345;

  // --- cub radix sort pairs -------------------------------------------------
  std::vector<unsigned> h_keys(n);
  std::vector<int> h_vals(n);
  for (int i = 0; i < n; ++i) { h_keys[i] = lcg(seed) >> 4; h_vals[i] = i; }

  unsigned *d_keys_in, *d_keys_out;
  int *d_vals_in, *d_vals_out;
  CUDA_CHECK(cudaMalloc(&d_keys_in, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_keys_out, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_vals_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_vals_out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_keys_in, h_keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vals_in, h_vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out,
                                             d_vals_in, d_vals_out, n));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out,
                                             d_vals_in, d_vals_out, n));
  CUDA_SYNC_CHECK();

  std::vector<unsigned> r_keys(n);
  std::vector<int> r_vals(n);
  CUDA_CHECK(cudaMemcpy(r_keys.data(), d_keys_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(r_vals.data(), d_vals_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (i) EXPECT(r_keys[i - 1] <= r_keys[i], "keys not sorted at %d", i);
    EXPECT(h_keys[r_vals[i]] == r_keys[i], "value/key mismatch at %d", i);
  }
  // stability: equal keys keep ascending original index
  for (int i = 1; i < n; ++i)
    if (r_keys[i - 1] == r_keys[i]) EXPECT(r_vals[i - 1] < r_vals[i], "not stable at %d", i);
  CUDA_CHECK(cudaFree(d_temp));

  // --- cub radix sort float keys descending ---------------------------------
  std::vector<float> h_f(n);
  for (int i = 0; i < n; ++i) h_f[i] = (float)((int)(lcg(seed) % 20001) - 10000) * 0.25f;
  float *d_f_in, *d_f_out;
  CUDA_CHECK(cudaMalloc(&d_f_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_f_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_f_in, h_f.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  d_temp = nullptr; temp_bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_f_in, d_f_out, n));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, d_f_in, d_f_out, n));
  CUDA_SYNC_CHECK();
  std::vector<float> r_f(n);
  CUDA_CHECK(cudaMemcpy(r_f.data(), d_f_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<float> ref_f = h_f;
  std::sort(ref_f.begin(), ref_f.end(), [](float a, float b) { return a > b; });
  for (int i = 0; i < n; ++i) EXPECT(r_f[i] == ref_f[i], "float desc mismatch at %d", i);
  CUDA_CHECK(cudaFree(d_temp));

  // --- thrust::sort with a custom comparator (merge sort) -------------------
  thrust::host_vector<int> h_t(n);
  for (int i = 0; i < n; ++i) h_t[i] = (int)(lcg(seed) % 100001) - 50000;
  thrust::device_vector<int> d_t = h_t;
  thrust::sort(thrust::device, d_t.begin(), d_t.end(), AbsLess());
  thrust::host_vector<int> r_t = d_t;
  std::vector<int> ref_t(h_t.begin(), h_t.end());
  std::sort(ref_t.begin(), ref_t.end(), AbsLess());
  for (int i = 0; i < n; ++i) EXPECT(r_t[i] == ref_t[i], "thrust sort mismatch at %d", i);

  cudaFree(d_keys_in); cudaFree(d_keys_out); cudaFree(d_vals_in); cudaFree(d_vals_out);
  cudaFree(d_f_in); cudaFree(d_f_out);
  return finish("sort");
}

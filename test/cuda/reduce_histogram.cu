// Reductions, histograms and segmented reductions.
//   * cub::DeviceReduce::Sum (float) and cub::DeviceReduce::Max (int)
//   * cub::DeviceHistogram::HistogramEven (uint8 samples, 64 bins)
//   * cub::DeviceSegmentedReduce::Sum with CSR-style offsets
//   * thrust::reduce over double
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>
#include <algorithm>
#include <vector>
#include "common.cuh"

int main() {
  const int n = 200003;

  // --- reduce ---------------------------------------------------------------
  std::vector<float> h_f(n);
  std::vector<int> h_i(n);
  for (int i = 0; i < n; ++i) {
    h_f[i] = (float)((i % 101) - 50) * 0.125f;
    h_i[i] = (int)((i * 2654435761u) % 1000003u) - 500000;
  }
  float *d_f, *d_fsum;
  int *d_i, *d_imax;
  CUDA_CHECK(cudaMalloc(&d_f, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_i, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_fsum, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_imax, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_f, h_f.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_i, h_i.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  void* d_temp = nullptr;
  size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_f, d_fsum, n));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_f, d_fsum, n));
  CUDA_CHECK(cudaFree(d_temp));
  d_temp = nullptr; temp_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Max(d_temp, temp_bytes, d_i, d_imax, n));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceReduce::Max(d_temp, temp_bytes, d_i, d_imax, n));
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaFree(d_temp));

  float r_fsum; int r_imax;
  CUDA_CHECK(cudaMemcpy(&r_fsum, d_fsum, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&r_imax, d_imax, sizeof(int), cudaMemcpyDeviceToHost));
  double ref_sum = 0; for (float v : h_f) ref_sum += v;
  EXPECT(near(r_fsum, ref_sum, 1e-5, 1e-2), "sum %f vs %f", r_fsum, ref_sum);
  EXPECT(r_imax == *std::max_element(h_i.begin(), h_i.end()), "max %d", r_imax);

  // --- histogram --------------------------------------------------------------
  const int bins = 64;
  std::vector<unsigned char> h_samples(n);
  for (int i = 0; i < n; ++i) h_samples[i] = (unsigned char)((i * 31u + (i >> 3)) & 0xff);
  unsigned char* d_samples;
  int* d_hist;
  CUDA_CHECK(cudaMalloc(&d_samples, n));
  CUDA_CHECK(cudaMalloc(&d_hist, bins * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_samples, h_samples.data(), n, cudaMemcpyHostToDevice));
  d_temp = nullptr; temp_bytes = 0;
  // levels: 0, 4, 8, ..., 256 -> 64 bins of width 4
  CUDA_CHECK(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_samples, d_hist,
                                                 bins + 1, 0, 256, n));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceHistogram::HistogramEven(d_temp, temp_bytes, d_samples, d_hist,
                                                 bins + 1, 0, 256, n));
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaFree(d_temp));
  std::vector<int> h_hist(bins), ref_hist(bins, 0);
  CUDA_CHECK(cudaMemcpy(h_hist.data(), d_hist, bins * sizeof(int), cudaMemcpyDeviceToHost));
  for (unsigned char s : h_samples) ref_hist[s / 4]++;
  for (int b = 0; b < bins; ++b) EXPECT(h_hist[b] == ref_hist[b], "bin %d: %d vs %d", b, h_hist[b], ref_hist[b]);

  // --- segmented reduce -------------------------------------------------------
  std::vector<int> h_off;
  for (int o = 0; o < n; o += 1 + (o % 977)) h_off.push_back(o);
  h_off.push_back(n);
  const int segs = (int)h_off.size() - 1;
  int *d_off, *d_seg_out;
  CUDA_CHECK(cudaMalloc(&d_off, h_off.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_seg_out, segs * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_off, h_off.data(), h_off.size() * sizeof(int), cudaMemcpyHostToDevice));
  d_temp = nullptr; temp_bytes = 0;
  CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(d_temp, temp_bytes, d_i, d_seg_out, segs, d_off, d_off + 1));
  CUDA_CHECK(cudaMalloc(&d_temp, temp_bytes));
  CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(d_temp, temp_bytes, d_i, d_seg_out, segs, d_off, d_off + 1));
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaFree(d_temp));
  std::vector<int> h_seg(segs);
  CUDA_CHECK(cudaMemcpy(h_seg.data(), d_seg_out, segs * sizeof(int), cudaMemcpyDeviceToHost));
  for (int s = 0; s < segs; ++s) {
    int acc = 0;
    for (int i = h_off[s]; i < h_off[s + 1]; ++i) acc += h_i[i];
    EXPECT(h_seg[s] == acc, "segment %d: %d vs %d", s, h_seg[s], acc);
  }

  // --- thrust::reduce on doubles -----------------------------------------------
  thrust::device_vector<double> d_dbl(n);
  std::vector<double> h_dbl(n);
  for (int i = 0; i < n; ++i) h_dbl[i] = 1.0 / (1.0 + i);
  thrust::copy(h_dbl.begin(), h_dbl.end(), d_dbl.begin());
  double r_dbl = thrust::reduce(thrust::device, d_dbl.begin(), d_dbl.end(), 0.0);
  double ref_dbl = 0; for (double v : h_dbl) ref_dbl += v;
  EXPECT(near(r_dbl, ref_dbl, 1e-12), "thrust reduce %.15f vs %.15f", r_dbl, ref_dbl);

  cudaFree(d_f); cudaFree(d_i); cudaFree(d_fsum); cudaFree(d_imax);
  cudaFree(d_samples); cudaFree(d_hist); cudaFree(d_off); cudaFree(d_seg_out);
  return finish("reduce_histogram");
}

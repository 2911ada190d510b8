// Cooperative groups.
//   * cg::this_thread_block(), block.sync(), thread_rank()
//   * static cg::tiled_partition<32>/<8> and dynamic tiled_partition(block, 16)
//   * cg::reduce (plus / greater / bit_xor), cg::inclusive_scan / exclusive_scan
//   * tile.shfl_down / shfl_xor, tile.any / all / ballot, coalesced_threads()
//   * cg::this_grid().sync() in a kernel launched with cudaLaunchCooperativeKernel
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <algorithm>
#include <vector>
#include "common.cuh"

namespace cg = cooperative_groups;

__device__ int tile_sum_manual(cg::thread_block_tile<8> t, int v) {
  for (int off = t.size() / 2; off > 0; off /= 2) v += t.shfl_down(v, off);
  return t.shfl(v, 0);
}

// out layout per thread: [warp sum, warp max, tile8 xor, tile8 manual sum,
//                         incl scan in warp, excl scan in warp, tile16 sum, coalesced rank]
constexpr int NOUT = 8;

__global__ void groups_kernel(const int* in, int* out, int* block_sums, unsigned* vote_out) {
  cg::thread_block block = cg::this_thread_block();
  int gid = blockIdx.x * blockDim.x + block.thread_rank();
  int v = in[gid];
  int* o = out + gid * NOUT;

  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  o[0] = cg::reduce(warp, v, cg::plus<int>());
  o[1] = cg::reduce(warp, v, cg::greater<int>());

  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
  o[2] = cg::reduce(t8, v, cg::bit_xor<int>());
  o[3] = tile_sum_manual(t8, v);

  o[4] = cg::inclusive_scan(warp, v);
  o[5] = cg::exclusive_scan(warp, v, cg::plus<int>());

  cg::thread_group t16 = cg::tiled_partition(block, 16);  // dynamic tile size
  __shared__ int t16_acc[1024 / 16];
  if (t16.thread_rank() == 0) t16_acc[block.thread_rank() / 16] = 0;
  t16.sync();
  atomicAdd(&t16_acc[block.thread_rank() / 16], v);
  t16.sync();
  o[6] = t16_acc[block.thread_rank() / 16];

  // Divergent branch: coalesced group of odd-valued threads.
  o[7] = -1;
  if (v & 1) {
    cg::coalesced_group active = cg::coalesced_threads();
    o[7] = (int)active.thread_rank();
  }

  if (warp.thread_rank() == 0) {
    unsigned ballot = warp.ballot(v > 50);
    int any = warp.any(v > 90);
    int all = warp.all(v < 100);
    vote_out[gid / 32 * 3 + 0] = ballot;
    vote_out[gid / 32 * 3 + 1] = any;
    vote_out[gid / 32 * 3 + 2] = all;
  } else {
    // every lane must participate in the collective; non-zero lanes discard
    (void)warp.ballot(v > 50); (void)warp.any(v > 90); (void)warp.all(v < 100);
  }

  // block-wide reduction via shared memory + warp reduce
  __shared__ int warp_partials[32];
  int ws = o[0];
  if (warp.thread_rank() == 0) warp_partials[warp.meta_group_rank()] = ws;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int p = warp.thread_rank() < warp.meta_group_size() ? warp_partials[warp.thread_rank()] : 0;
    p = cg::reduce(warp, p, cg::plus<int>());
    if (warp.thread_rank() == 0) block_sums[blockIdx.x] = p;
  }
}

// Two-phase grid reduction with a grid-wide barrier.
__global__ void grid_reduce(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  int acc = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) acc += in[i];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  acc = cg::reduce(warp, acc, cg::plus<int>());
  if (warp.thread_rank() == 0) atomicAdd(&partial[blockIdx.x], acc);
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (int b = 0; b < (int)gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}

int main() {
  const int blocks = 3, threads = 128, n = blocks * threads;
  std::vector<int> h_in(n);
  for (int i = 0; i < n; ++i) h_in[i] = (i * 53 + 7) % 100;
  int *d_in, *d_out, *d_bs;
  unsigned* d_vote;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out, n * NOUT * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_bs, blocks * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_vote, n / 32 * 3 * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  groups_kernel<<<blocks, threads>>>(d_in, d_out, d_bs, d_vote);
  CUDA_SYNC_CHECK();
  std::vector<int> h_out(n * NOUT), h_bs(blocks);
  std::vector<unsigned> h_vote(n / 32 * 3);
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_bs.data(), d_bs, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_vote.data(), d_vote, h_vote.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    const int* o = &h_out[i * NOUT];
    int w0 = i / 32 * 32, t0 = i / 8 * 8, s0 = i / 16 * 16;
    int wsum = 0, wmax = 0, x8 = 0, s8 = 0, incl = 0, excl = 0, s16 = 0;
    for (int k = w0; k < w0 + 32; ++k) { wsum += h_in[k]; wmax = std::max(wmax, h_in[k]); }
    for (int k = t0; k < t0 + 8; ++k) { x8 ^= h_in[k]; s8 += h_in[k]; }
    for (int k = w0; k <= i; ++k) incl += h_in[k];
    excl = incl - h_in[i];
    for (int k = s0; k < s0 + 16; ++k) s16 += h_in[k];
    EXPECT(o[0] == wsum, "warp sum %d", i);
    EXPECT(o[1] == wmax, "warp max %d", i);
    EXPECT(o[2] == x8, "tile8 xor %d", i);
    EXPECT(o[3] == s8, "tile8 manual %d", i);
    EXPECT(o[4] == incl, "incl scan %d", i);
    EXPECT(o[5] == excl, "excl scan %d", i);
    EXPECT(o[6] == s16, "tile16 %d", i);
    if (h_in[i] & 1) {
      int rank = 0;
      for (int k = w0; k < i; ++k) rank += h_in[k] & 1;
      EXPECT(o[7] == rank, "coalesced rank %d: %d vs %d", i, o[7], rank);
    } else {
      EXPECT(o[7] == -1, "coalesced inactive %d", i);
    }
  }
  for (int w = 0; w < n / 32; ++w) {
    unsigned ballot = 0; int any = 0, all = 1;
    for (int l = 0; l < 32; ++l) {
      int v = h_in[w * 32 + l];
      if (v > 50) ballot |= 1u << l;
      any |= v > 90; all &= v < 100;
    }
    EXPECT(h_vote[w * 3] == ballot, "ballot w%d", w);
    EXPECT((h_vote[w * 3 + 1] != 0) == (any != 0), "any w%d", w);
    EXPECT((h_vote[w * 3 + 2] != 0) == (all != 0), "all w%d", w);
  }
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int k = b * threads; k < (b + 1) * threads; ++k) s += h_in[k];
    EXPECT(h_bs[b] == s, "block sum %d", b);
  }

  // cooperative launch
  int dev = 0, coop = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (coop) {
    const int m = 100000;
    std::vector<int> h_big(m);
    long long ref = 0;
    for (int i = 0; i < m; ++i) { h_big[i] = i % 10; ref += h_big[i]; }
    int *d_big, *d_partial, *d_total;
    int gblocks = 8;
    CUDA_CHECK(cudaMalloc(&d_big, m * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_partial, gblocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_partial, 0, gblocks * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_big, h_big.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    int mm = m;
    void* args[] = {&d_big, &d_partial, &d_total, &mm};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void*)grid_reduce, gblocks, 256, args));
    CUDA_SYNC_CHECK();
    int total = 0;
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(total == ref, "grid reduce %d vs %lld", total, ref);
    cudaFree(d_big); cudaFree(d_partial); cudaFree(d_total);
  }

  cudaFree(d_in); cudaFree(d_out); cudaFree(d_bs); cudaFree(d_vote);
  return finish("cooperative_groups");
}

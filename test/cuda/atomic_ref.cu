// libcu++ atomics (<cuda/atomic>).
//   * cuda::atomic_ref<T, Scope> for int / unsigned / unsigned long long / float / double
//   * thread scopes: thread_scope_block (shared memory), _device, _system
//   * memory orders: relaxed, acquire, release, acq_rel, seq_cst
//   * fetch_add / fetch_sub / fetch_and / fetch_or / fetch_xor / fetch_min / fetch_max,
//     exchange, compare_exchange_weak / _strong, load / store
//   * release/acquire message passing between two blocks
//   * cuda::atomic_thread_fence with explicit scopes, cuda::atomic<> object in __device__ memory
#include <cuda/atomic>
#include <algorithm>
#include <vector>
#include "common.cuh"

struct Shared {
  int relaxed_count;
  unsigned umax, umin, uand, uor, uxor;
  unsigned long long sys_bits;
  float fsum;
  double dsum;
  int cas_max;
  int data;       // payload of the message-passing test
  int flag;       // 0 = empty, 1 = published
  int observed;   // what the consumer saw
  int block_totals[8];
};

__device__ cuda::atomic<int, cuda::thread_scope_device> g_ticket(0);

__global__ void atomic_ref_kernel(Shared* s, int* tickets, int n) {
  __shared__ int blk_counter;
  __shared__ int blk_max;
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_block> c(blk_counter);
    c.store(0, cuda::memory_order_relaxed);
    blk_max = -1;
  }
  __syncthreads();

  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    cuda::atomic_ref<int, cuda::thread_scope_device> rc(s->relaxed_count);
    rc.fetch_add(1, cuda::memory_order_relaxed);
    rc.fetch_sub(0, cuda::memory_order_release);

    cuda::atomic_ref<unsigned, cuda::thread_scope_device> umax(s->umax), umin(s->umin);
    umax.fetch_max((unsigned)tid * 3u, cuda::memory_order_acq_rel);
    umin.fetch_min((unsigned)tid + 10u, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ua(s->uand), uo(s->uor), ux(s->uxor);
    ua.fetch_and(~(1u << (tid % 32)), cuda::memory_order_seq_cst);
    uo.fetch_or(1u << (tid % 16), cuda::memory_order_acquire);
    ux.fetch_xor((unsigned)tid, cuda::memory_order_relaxed);

    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> sb(s->sys_bits);
    sb.fetch_or(1ull << (tid % 64));   // default order: seq_cst

    cuda::atomic_ref<float, cuda::thread_scope_device> fs(s->fsum);
    fs.fetch_add(0.5f, cuda::memory_order_relaxed);
    cuda::atomic_ref<double, cuda::thread_scope_device> ds(s->dsum);
    ds.fetch_add(0.25, cuda::memory_order_acq_rel);

    // CAS-loop max on device scope
    cuda::atomic_ref<int, cuda::thread_scope_device> cm(s->cas_max);
    int want = (tid * 7919) % 1009;
    int cur = cm.load(cuda::memory_order_relaxed);
    while (cur < want && !cm.compare_exchange_weak(cur, want, cuda::memory_order_acq_rel,
                                                   cuda::memory_order_relaxed)) {
    }

    // block-scope atomics in shared memory
    cuda::atomic_ref<int, cuda::thread_scope_block> bc(blk_counter);
    bc.fetch_add(1, cuda::memory_order_relaxed);
    cuda::atomic_ref<int, cuda::thread_scope_block> bm(blk_max);
    int expected = bm.load(cuda::memory_order_relaxed);
    while (expected < (int)threadIdx.x &&
           !bm.compare_exchange_strong(expected, (int)threadIdx.x, cuda::memory_order_relaxed)) {
    }

    tickets[tid] = g_ticket.fetch_add(1, cuda::memory_order_relaxed);
  }
  cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_block);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<int, cuda::thread_scope_block> bc(blk_counter);
    cuda::atomic_ref<int, cuda::thread_scope_block> bm(blk_max);
    s->block_totals[blockIdx.x] = bc.load(cuda::memory_order_acquire) * 1000 + bm.exchange(0);
  }
}

// Block 0 publishes, block 1 consumes with acquire; both are resident (2 blocks).
__global__ void message_passing(Shared* s) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> flag(s->flag);
  if (blockIdx.x == 0) {
    s->data = 42;
    flag.store(1, cuda::memory_order_release);
  } else {
    while (flag.load(cuda::memory_order_acquire) == 0) {
    }
    s->observed = s->data;
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
    flag.store(2, cuda::memory_order_seq_cst);
  }
}

int main() {
  const int threads = 128, blocks = 4, n = 500;
  Shared init{};
  init.umin = ~0u; init.uand = ~0u; init.cas_max = -1;
  Shared* d_s; int* d_t;
  CUDA_CHECK(cudaMalloc(&d_s, sizeof(Shared)));
  CUDA_CHECK(cudaMalloc(&d_t, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_s, &init, sizeof(Shared), cudaMemcpyHostToDevice));
  atomic_ref_kernel<<<blocks, threads>>>(d_s, d_t, n);
  CUDA_SYNC_CHECK();
  message_passing<<<2, 32>>>(d_s);
  CUDA_SYNC_CHECK();
  Shared r;
  std::vector<int> h_t(n);
  CUDA_CHECK(cudaMemcpy(&r, d_s, sizeof(Shared), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_t.data(), d_t, n * sizeof(int), cudaMemcpyDeviceToHost));

  unsigned umax = 0, umin = ~0u, uand = ~0u, uor = 0, uxor = 0;
  unsigned long long bits = 0;
  int cmax = -1;
  for (int t = 0; t < n; ++t) {
    umax = std::max(umax, (unsigned)t * 3u); umin = std::min(umin, (unsigned)t + 10u);
    uand &= ~(1u << (t % 32)); uor |= 1u << (t % 16); uxor ^= (unsigned)t;
    bits |= 1ull << (t % 64);
    cmax = std::max(cmax, (t * 7919) % 1009);
  }
  EXPECT(r.relaxed_count == n, "count %d", r.relaxed_count);
  EXPECT(r.umax == umax, "umax"); EXPECT(r.umin == umin, "umin");
  EXPECT(r.uand == uand, "uand"); EXPECT(r.uor == uor, "uor"); EXPECT(r.uxor == uxor, "uxor");
  EXPECT(r.sys_bits == bits, "sys bits");
  EXPECT(r.fsum == 0.5f * n, "fsum %f", r.fsum);
  EXPECT(r.dsum == 0.25 * n, "dsum %f", r.dsum);
  EXPECT(r.cas_max == cmax, "cas max %d vs %d", r.cas_max, cmax);
  for (int b = 0; b < blocks; ++b) {
    int active = std::min(threads, n - b * threads);
    EXPECT(r.block_totals[b] == active * 1000 + (active - 1), "block %d total %d", b, r.block_totals[b]);
  }
  std::vector<int> sorted(h_t);
  std::sort(sorted.begin(), sorted.end());
  for (int k = 0; k < n; ++k) EXPECT(sorted[k] == k, "ticket %d", k);
  EXPECT(r.observed == 42, "message passing observed %d", r.observed);
  EXPECT(r.flag == 2, "flag %d", r.flag);

  cudaFree(d_s); cudaFree(d_t);
  return finish("atomic_ref");
}

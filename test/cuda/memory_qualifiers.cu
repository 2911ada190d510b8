// Memory spaces, qualifiers and launch configuration attributes.
//   * extern __shared__ dynamic shared memory carved into several typed arrays,
//     large dynamic shared allocation opted in with cudaFuncSetAttribute
//   * __launch_bounds__(256) and __launch_bounds__(128, 4) (maxntid / minnctapersm)
//   * const __restrict__ pointers, __ldg on scalar and vector types (ld.global.nc),
//     cache-hinted loads/stores __ldcg __ldca __ldcs __ldlu __ldcv __stcg __stcs __stwt __stwb
//   * volatile shared-memory warp-synchronous reduction, volatile global polling
//   * __constant__ memory (cudaMemcpyToSymbol), __device__ globals, local arrays with
//     dynamic indexing, generic pointers with __isShared / __isGlobal / __isLocal
//   * vector types (float4, int2, double2, char4) and unaligned byte access
#include <algorithm>
#include <vector>
#include "common.cuh"

__constant__ float c_coeffs[16];
__constant__ int c_params[4];
__device__ int g_counter;
__device__ float g_table[64];

// dynamic shared: [float x blockDim][int x blockDim][double x 32]
__global__ void __launch_bounds__(256) dyn_shared(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* sf = reinterpret_cast<float*>(smem);
  int* si = reinterpret_cast<int*>(sf + blockDim.x);
  double* sd = reinterpret_cast<double*>(smem + ((blockDim.x * 8 + 15) & ~15));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sf[threadIdx.x] = i < n ? __ldg(&in[i]) : 0.0f;
  si[threadIdx.x] = i;
  if (threadIdx.x < 32) sd[threadIdx.x] = 0.0;
  __syncthreads();
  // neighbour in the block (wrapping) scaled by a constant-memory coefficient
  int j = (threadIdx.x + 1) % blockDim.x;
  float v = sf[j] * c_coeffs[threadIdx.x % 16] + (float)(si[j] - si[threadIdx.x]);
  atomicAdd(&sd[threadIdx.x % 32], (double)v);
  __syncthreads();
  if (i < n) out[i] = v + (float)(sd[threadIdx.x % 32] * 0.0);
}

// volatile warp-synchronous tail of a shared-memory reduction
__device__ void warp_reduce_volatile(volatile float* s, int tid) {
  s[tid] += s[tid + 32]; __syncwarp();
  s[tid] += s[tid + 16]; __syncwarp();
  s[tid] += s[tid + 8];  __syncwarp();
  s[tid] += s[tid + 4];  __syncwarp();
  s[tid] += s[tid + 2];  __syncwarp();
  s[tid] += s[tid + 1];  __syncwarp();
}

__global__ void __launch_bounds__(128, 4) reduce_volatile(const float* __restrict__ in, float* out, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  int i = blockIdx.x * 256 + tid;
  float a = i < n ? __ldcs(&in[i]) : 0.0f;          // streaming load
  float b = i + 128 < n ? __ldcg(&in[i + 128]) : 0.0f;  // cache-global load
  s[tid] = a + b;
  __syncthreads();
  for (int st = 64; st > 32; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_volatile(s, tid);
  if (tid == 0) __stcs(&out[blockIdx.x], s[0]);
}

// vector loads / stores with cache hints; generic pointer classification
__global__ void vectors_and_hints(const float4* __restrict__ v4, const int2* __restrict__ v2,
                                  const double2* __restrict__ d2, const char4* __restrict__ c4,
                                  float* out, int* flags, int n) {
  __shared__ float sh[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 a = __ldg(&v4[i]);
  int2 b = __ldca(&v2[i]);
  double2 d = __ldlu(&d2[i]);
  char4 c = __ldcv(&c4[i]);
  float r = a.x + a.y + a.z + a.w + (float)(b.x - b.y) + (float)(d.x * d.y) + (float)(c.x + c.y + c.z + c.w);
  __stwt(&out[i * 4 + 0], r);
  __stcg(&out[i * 4 + 1], r * 2.0f);
  __stwb(&out[i * 4 + 2], r * 3.0f);

  // local array with data-dependent indexing -> .local memory
  float local[24];
  for (int k = 0; k < 24; ++k) local[k] = (float)(k * i % 7);
  int idx = (b.x & 0x7fffffff) % 24;
  out[i * 4 + 3] = local[idx] + g_table[i % 64];

  // generic pointers
  sh[threadIdx.x % 32] = 1.0f;
  const void* p = (threadIdx.x & 1) ? (const void*)&sh[threadIdx.x % 32] : (const void*)&out[i];
  int cls = __isShared(p) ? 1 : (__isGlobal(p) ? 2 : (__isLocal(p) ? 3 : 0));
  flags[i] = cls + (__isLocal(&local[idx]) ? 10 : 0) + (__isConstant(&c_params[0]) ? 100 : 0) + c_params[i % 4] * 1000;
  atomicAdd(&g_counter, 1);
}

// producer/consumer within one block via a volatile global flag
__global__ void volatile_poll(volatile int* flag, volatile int* data, int* result) {
  if (threadIdx.x == 32) {          // warp 1 produces
    data[0] = 1234;
    __threadfence();
    flag[0] = 1;
  } else if (threadIdx.x == 0) {    // warp 0 consumes
    while (flag[0] == 0) { }
    __threadfence();
    result[0] = data[0];
  }
}

int main() {
  // constants & globals
  float h_coeffs[16];
  for (int k = 0; k < 16; ++k) h_coeffs[k] = 1.0f + k * 0.5f;
  int h_params[4] = {1, 2, 3, 4};
  float h_table[64];
  for (int k = 0; k < 64; ++k) h_table[k] = (float)k * 0.25f;
  int zero = 0;
  CUDA_CHECK(cudaMemcpyToSymbol(c_coeffs, h_coeffs, sizeof(h_coeffs)));
  CUDA_CHECK(cudaMemcpyToSymbol(c_params, h_params, sizeof(h_params)));
  CUDA_CHECK(cudaMemcpyToSymbol(g_table, h_table, sizeof(h_table)));
  CUDA_CHECK(cudaMemcpyToSymbol(g_counter, &zero, sizeof(int)));

  // 1. dynamic shared
  const int n = 1000, bs = 256, nb = (n + bs - 1) / bs;
  std::vector<float> h_in(n), h_out(n);
  for (int i = 0; i < n; ++i) h_in[i] = (float)(i % 13) - 6.0f;
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, 4 * n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  size_t dyn_bytes = ((bs * 8 + 15) & ~15) + 32 * sizeof(double);
  size_t big_bytes = 64 * 1024;   // larger than the 48 KB default: requires opt-in
  CUDA_CHECK(cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)big_bytes));
  dyn_shared<<<nb, bs, std::max(dyn_bytes, big_bytes)>>>(d_in, d_out, n);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int b = i / bs, t = i % bs, j = (t + 1) % bs, gj = b * bs + j;
    float sfj = gj < n ? h_in[gj] : 0.0f;
    float want = sfj * h_coeffs[t % 16] + (float)(gj - i);
    EXPECT(h_out[i] == want, "dyn_shared %d: %f vs %f", i, h_out[i], want);
  }

  // 2. volatile reduction
  const int rb = (n + 255) / 256;
  reduce_volatile<<<rb, 128>>>(d_in, d_out, n);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, rb * sizeof(float), cudaMemcpyDeviceToHost));
  for (int b = 0; b < rb; ++b) {
    float s = 0;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) s += h_in[i];
    EXPECT(h_out[b] == s, "reduce_volatile %d: %f vs %f", b, h_out[b], s);
  }

  // 3. vectors / hints / generic pointers
  const int m = 96;
  std::vector<float4> hv4(m); std::vector<int2> hv2(m); std::vector<double2> hd2(m); std::vector<char4> hc4(m);
  for (int i = 0; i < m; ++i) {
    hv4[i] = make_float4(i, 1, 2, 3); hv2[i] = make_int2(i * 5, 2); hd2[i] = make_double2(0.5, i);
    hc4[i] = make_char4(1, -2, (char)(i % 100), 4);
  }
  float4* dv4; int2* dv2; double2* dd2; char4* dc4; int* dflags;
  CUDA_CHECK(cudaMalloc(&dv4, m * sizeof(float4)));
  CUDA_CHECK(cudaMalloc(&dv2, m * sizeof(int2)));
  CUDA_CHECK(cudaMalloc(&dd2, m * sizeof(double2)));
  CUDA_CHECK(cudaMalloc(&dc4, m * sizeof(char4)));
  CUDA_CHECK(cudaMalloc(&dflags, m * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dv4, hv4.data(), m * sizeof(float4), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dv2, hv2.data(), m * sizeof(int2), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dd2, hd2.data(), m * sizeof(double2), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dc4, hc4.data(), m * sizeof(char4), cudaMemcpyHostToDevice));
  vectors_and_hints<<<(m + 63) / 64, 64>>>(dv4, dv2, dd2, dc4, d_out, dflags, m);
  CUDA_SYNC_CHECK();
  std::vector<float> hout4(4 * m);
  std::vector<int> hflags(m);
  int counter = 0;
  CUDA_CHECK(cudaMemcpy(hout4.data(), d_out, 4 * m * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hflags.data(), dflags, m * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpyFromSymbol(&counter, g_counter, sizeof(int)));
  for (int i = 0; i < m; ++i) {
    float r = (float)i + 1 + 2 + 3 + (float)(i * 5 - 2) + (float)(0.5 * i) + (float)(1 - 2 + i % 100 + 4);
    EXPECT(hout4[i * 4 + 0] == r, "vec r %d: %f vs %f", i, hout4[i * 4], r);
    EXPECT(hout4[i * 4 + 1] == 2 * r, "stcg %d", i);
    EXPECT(hout4[i * 4 + 2] == 3 * r, "stwb %d", i);
    int idx = (i * 5) % 24;
    EXPECT(hout4[i * 4 + 3] == (float)(idx * i % 7) + h_table[i % 64], "local %d", i);
    int cls = (i & 1) ? 1 : 2;
    EXPECT(hflags[i] == cls + 10 + 100 + h_params[i % 4] * 1000, "flags %d: %d", i, hflags[i]);
  }
  EXPECT(counter == m, "g_counter %d", counter);

  // 4. volatile polling
  int *d_flag, *d_data, *d_res;
  CUDA_CHECK(cudaMalloc(&d_flag, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_data, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_res, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_flag, 0, sizeof(int)));
  volatile_poll<<<1, 64>>>(d_flag, d_data, d_res);
  CUDA_SYNC_CHECK();
  int res = 0;
  CUDA_CHECK(cudaMemcpy(&res, d_res, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(res == 1234, "volatile poll %d", res);

  cudaFree(d_in); cudaFree(d_out); cudaFree(dv4); cudaFree(dv2); cudaFree(dd2); cudaFree(dc4);
  cudaFree(dflags); cudaFree(d_flag); cudaFree(d_data); cudaFree(d_res);
  return finish("memory_qualifiers");
}

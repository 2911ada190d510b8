// Device function calls.
//   * __noinline__ functions with many scalar args, struct arguments/returns
//     (passed through .param space), and local-memory arrays passed by pointer
//   * recursion: Fibonacci, recursive binary-tree walk over an array-encoded tree
//   * function pointers: a __device__ table of function pointers called indirectly,
//     pointer fetched to the host with cudaMemcpyFromSymbol and passed back in
//   * virtual functions on objects constructed in device code
//   * device-side heap: malloc / free inside a kernel
#include <new>
#include <vector>
#include "common.cuh"

struct Vec3 { float x, y, z; };

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

__device__ __noinline__ float weighted(float a, float b, float c, float d, float e,
                                      int i, int j, double w, long long k) {
  return (float)((a * i + b * j + c - d * e) * w + (double)(k % 97));
}

__device__ __noinline__ int sum_local(const int* arr, int len) {
  int s = 0;
  for (int i = 0; i < len; ++i) s += arr[i];
  return s;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

// tree stored as arrays: node i has children left[i], right[i] (-1 = none)
__device__ __noinline__ int tree_sum(const int* val, const int* left, const int* right, int node,
                                     int depth, int* max_depth) {
  if (node < 0) return 0;
  if (depth > *max_depth) *max_depth = depth;
  return val[node] + tree_sum(val, left, right, left[node], depth + 1, max_depth) +
         tree_sum(val, left, right, right[node], depth + 1, max_depth);
}

typedef float (*binop_t)(float, float);
__device__ float op_add(float a, float b) { return a + b; }
__device__ float op_sub(float a, float b) { return a - b; }
__device__ float op_mul(float a, float b) { return a * b; }
__device__ float op_max(float a, float b) { return a > b ? a : b; }
__device__ binop_t d_ops[4] = {op_add, op_sub, op_mul, op_max};
__device__ binop_t d_mul_ptr = op_mul;

struct Shape {
  __device__ virtual float area() const = 0;
  __device__ virtual int kind() const { return 0; }
  __device__ virtual ~Shape() {}
};
struct Square : Shape {
  float s;
  __device__ explicit Square(float s_) : s(s_) {}
  __device__ float area() const override { return s * s; }
  __device__ int kind() const override { return 1; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(float w_, float h_) : w(w_), h(h_) {}
  __device__ float area() const override { return w * h; }
};

__global__ void calls_kernel(float* out, int* iout, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  Vec3 a{(float)tid, 1.0f, 2.0f}, b{0.5f, (float)(tid % 3), -1.0f};
  Vec3 c = cross(a, b);
  out[tid * 4 + 0] = c.x + c.y + c.z;
  out[tid * 4 + 1] = weighted(1.f, 2.f, 3.f, 4.f, 0.5f, tid, 2, 0.5, 1000ll + tid);
  int local[16];
  for (int i = 0; i < 16; ++i) local[i] = (tid * i) % 5;
  iout[tid * 2 + 0] = sum_local(local, 8 + tid % 8);
  iout[tid * 2 + 1] = fib(tid % 15);

  binop_t f = d_ops[tid % 4];                 // indirect call through the table
  out[tid * 4 + 2] = f((float)tid, 3.0f);

  // virtual dispatch on device-constructed objects (placement new in local storage)
  alignas(Square) unsigned char buf[sizeof(Square) > sizeof(Rect) ? sizeof(Square) : sizeof(Rect)];
  Shape* s = (tid & 1) ? (Shape*)new (buf) Square((float)tid) : (Shape*)new (buf) Rect(2.0f, (float)tid);
  out[tid * 4 + 3] = s->area() + (float)s->kind();
  s->~Shape();
}

__global__ void tree_kernel(const int* val, const int* left, const int* right, int* result) {
  int depth = 0;
  result[0] = tree_sum(val, left, right, 0, 0, &depth);
  result[1] = depth;
}

__global__ void heap_kernel(int* out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n) return;
  int len = 4 + tid % 13;
  int* buf = static_cast<int*>(malloc(len * sizeof(int)));
  if (!buf) { out[tid] = -1; return; }
  for (int k = 0; k < len; ++k) buf[k] = k * tid;
  int s = 0;
  for (int k = len - 1; k >= 0; --k) s += buf[k];
  free(buf);
  out[tid] = s;
}

__global__ void apply_ptr(binop_t f, const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = f(a[i], b[i]);
}

static int host_fib(int n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }

int main() {
  const int n = 256;
  float* d_out; int* d_iout;
  CUDA_CHECK(cudaMalloc(&d_out, n * 4 * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_iout, n * 2 * sizeof(int)));
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  calls_kernel<<<(n + 63) / 64, 64>>>(d_out, d_iout, n);
  CUDA_SYNC_CHECK();
  std::vector<float> h_out(n * 4);
  std::vector<int> h_iout(n * 2);
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, h_out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(h_iout.data(), d_iout, h_iout.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    float ax = (float)t, ay = 1, az = 2, bx = 0.5f, by = (float)(t % 3), bz = -1;
    float cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    EXPECT(near(h_out[t * 4], cx + cy + cz, 1e-6, 1e-4), "cross %d", t);
    double w = (1.0 * t + 2.0 * 2 + 3.0 - 4.0 * 0.5) * 0.5 + (double)((1000 + t) % 97);
    EXPECT(near(h_out[t * 4 + 1], w, 1e-6, 1e-3), "weighted %d: %f vs %f", t, h_out[t * 4 + 1], w);
    int s = 0;
    for (int i = 0; i < 8 + t % 8; ++i) s += (t * i) % 5;
    EXPECT(h_iout[t * 2] == s, "sum_local %d", t);
    EXPECT(h_iout[t * 2 + 1] == host_fib(t % 15), "fib %d", t);
    float x = (float)t, y = 3.0f, want;
    switch (t % 4) { case 0: want = x + y; break; case 1: want = x - y; break;
                     case 2: want = x * y; break; default: want = x > y ? x : y; }
    EXPECT(h_out[t * 4 + 2] == want, "fnptr %d", t);
    float area = (t & 1) ? (float)t * t + 1.0f : 2.0f * t;
    EXPECT(h_out[t * 4 + 3] == area, "virtual %d: %f vs %f", t, h_out[t * 4 + 3], area);
  }

  // binary tree: complete tree of 63 nodes with an extra chain to depth 9
  const int nodes = 66;
  std::vector<int> val(nodes), left(nodes, -1), right(nodes, -1);
  for (int i = 0; i < nodes; ++i) val[i] = i + 1;
  for (int i = 0; i < 31; ++i) { left[i] = 2 * i + 1; right[i] = 2 * i + 2; }
  left[62] = 63; left[63] = 64; right[64] = 65;
  int *d_val, *d_left, *d_right, *d_res;
  CUDA_CHECK(cudaMalloc(&d_val, nodes * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_left, nodes * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_right, nodes * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_res, 2 * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_val, val.data(), nodes * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_left, left.data(), nodes * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_right, right.data(), nodes * sizeof(int), cudaMemcpyHostToDevice));
  tree_kernel<<<1, 1>>>(d_val, d_left, d_right, d_res);
  CUDA_SYNC_CHECK();
  int h_res[2];
  CUDA_CHECK(cudaMemcpy(h_res, d_res, sizeof(h_res), cudaMemcpyDeviceToHost));
  EXPECT(h_res[0] == nodes * (nodes + 1) / 2, "tree sum %d", h_res[0]);
  EXPECT(h_res[1] == 8, "tree depth %d", h_res[1]);

  // device function pointer obtained on the host
  binop_t h_mul = nullptr;
  CUDA_CHECK(cudaMemcpyFromSymbol(&h_mul, d_mul_ptr, sizeof(binop_t)));
  const int m = 100;
  std::vector<float> ha(m), hb(m), hc(m);
  for (int i = 0; i < m; ++i) { ha[i] = (float)i; hb[i] = 0.5f * i; }
  float *da, *db, *dc;
  CUDA_CHECK(cudaMalloc(&da, m * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&db, m * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dc, m * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, ha.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, hb.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  apply_ptr<<<1, 128>>>(h_mul, da, db, dc, m);
  CUDA_SYNC_CHECK();
  CUDA_CHECK(cudaMemcpy(hc.data(), dc, m * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) EXPECT(hc[i] == ha[i] * hb[i], "apply_ptr %d", i);

  // device heap
  int* d_heap;
  CUDA_CHECK(cudaMalloc(&d_heap, n * sizeof(int)));
  heap_kernel<<<(n + 127) / 128, 128>>>(d_heap, n);
  CUDA_SYNC_CHECK();
  std::vector<int> h_heap(n);
  CUDA_CHECK(cudaMemcpy(h_heap.data(), d_heap, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    int len = 4 + t % 13;
    EXPECT(h_heap[t] == t * len * (len - 1) / 2, "heap %d: %d", t, h_heap[t]);
  }
  cudaFree(d_heap);

  cudaFree(d_out); cudaFree(d_iout); cudaFree(d_val); cudaFree(d_left); cudaFree(d_right);
  cudaFree(d_res); cudaFree(da); cudaFree(db); cudaFree(dc);
  return finish("calls_recursion");
}

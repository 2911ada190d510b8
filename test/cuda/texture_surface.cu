// Texture and surface objects.
//   * tex1Dfetch<int> on a linear-memory texture (cudaResourceTypeLinear)
//   * tex2D<float> on a cudaArray: point sampling with clamp addressing and
//     bilinear filtering with normalized coordinates + wrap addressing
//   * tex2D<float4> on a 4-channel array, tex2DLod and tex1D with filtering
//   * surf2Dread / surf2Dwrite on a cudaArray created with cudaArraySurfaceLoadStore,
//     including boundary mode cudaBoundaryModeZero, and surf1Dwrite
#include <algorithm>
#include <vector>
#include "common.cuh"

__global__ void fetch1d(cudaTextureObject_t tex, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(tex, i) * 2 + tex1Dfetch<int>(tex, (i + 1) % n);
}

__global__ void sample2d(cudaTextureObject_t point_tex, cudaTextureObject_t lin_tex,
                         cudaTextureObject_t rgba_tex, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float* o = out + (y * w + x) * 4;
  o[0] = tex2D<float>(point_tex, x + 0.5f, y + 0.5f);          // exact texel
  o[1] = tex2D<float>(point_tex, x - 3.5f, y + 0.5f);          // clamped at the left edge
  // halfway between texel x and x+1 (normalized, wrap)
  o[2] = tex2D<float>(lin_tex, (x + 1.0f) / w, (y + 0.5f) / h);
  float4 c = tex2D<float4>(rgba_tex, x + 0.5f, y + 0.5f);
  o[3] = c.x + c.y * 10.0f + c.z * 100.0f + c.w * 1000.0f + tex2DLod<float4>(rgba_tex, x + 0.5f, y + 0.5f, 0.0f).x * 0.0f;
}

__global__ void sample1d(cudaTextureObject_t tex, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, i + 1.0f);   // between texel i and i+1 (linear filter)
}

// in-place: surf(x,y) = 2*surf(x,y) + left neighbour (zero outside), via a second surface
__global__ void surface_kernel(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float v = surf2Dread<float>(src, x * (int)sizeof(float), y);
  float l;
  surf2Dread(&l, src, (x - 1) * (int)sizeof(float), y, cudaBoundaryModeZero);
  surf2Dwrite(2.0f * v + l, dst, x * (int)sizeof(float), y);
}

__global__ void surface1d_kernel(cudaSurfaceObject_t s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) surf1Dwrite<int>(i * i, s, i * (int)sizeof(int));
}

int main() {
  // ---- linear memory + tex1Dfetch ----
  const int n = 300;
  std::vector<int> h_lin(n);
  for (int i = 0; i < n; ++i) h_lin[i] = i * 3 - 7;
  int *d_lin, *d_out1;
  CUDA_CHECK(cudaMalloc(&d_lin, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_out1, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_lin, h_lin.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = d_lin;
  rd.res.linear.desc = cudaCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = n * sizeof(int);
  cudaTextureDesc td{};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex_lin;
  CUDA_CHECK(cudaCreateTextureObject(&tex_lin, &rd, &td, nullptr));
  fetch1d<<<(n + 127) / 128, 128>>>(tex_lin, d_out1, n);
  CUDA_SYNC_CHECK();
  std::vector<int> h_out1(n);
  CUDA_CHECK(cudaMemcpy(h_out1.data(), d_out1, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(h_out1[i] == h_lin[i] * 2 + h_lin[(i + 1) % n], "tex1Dfetch %d", i);

  // ---- 2D arrays ----
  const int W = 40, H = 24;
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y) for (int x = 0; x < W; ++x) img[y * W + x] = (float)(x + 100 * y);
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CUDA_CHECK(cudaMallocArray(&arr, &fdesc, W, H, cudaArraySurfaceLoadStore));
  CUDA_CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));

  cudaResourceDesc ard{};
  ard.resType = cudaResourceTypeArray;
  ard.res.array.array = arr;
  cudaTextureDesc ptd{};
  ptd.addressMode[0] = ptd.addressMode[1] = cudaAddressModeClamp;
  ptd.filterMode = cudaFilterModePoint;
  ptd.readMode = cudaReadModeElementType;
  ptd.normalizedCoords = 0;
  cudaTextureObject_t point_tex, lin_tex;
  CUDA_CHECK(cudaCreateTextureObject(&point_tex, &ard, &ptd, nullptr));
  cudaTextureDesc ltd{};
  ltd.addressMode[0] = ltd.addressMode[1] = cudaAddressModeWrap;
  ltd.filterMode = cudaFilterModeLinear;
  ltd.readMode = cudaReadModeElementType;
  ltd.normalizedCoords = 1;
  CUDA_CHECK(cudaCreateTextureObject(&lin_tex, &ard, &ltd, nullptr));

  std::vector<float4> rgba(W * H);
  for (int i = 0; i < W * H; ++i) rgba[i] = make_float4((float)(i % 10), (float)(i % 7), (float)(i % 3), 1.0f);
  cudaChannelFormatDesc f4desc = cudaCreateChannelDesc<float4>();
  cudaArray_t arr4;
  CUDA_CHECK(cudaMallocArray(&arr4, &f4desc, W, H));
  CUDA_CHECK(cudaMemcpy2DToArray(arr4, 0, 0, rgba.data(), W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice));
  cudaResourceDesc ard4{};
  ard4.resType = cudaResourceTypeArray;
  ard4.res.array.array = arr4;
  cudaTextureObject_t rgba_tex;
  CUDA_CHECK(cudaCreateTextureObject(&rgba_tex, &ard4, &ptd, nullptr));

  float* d_out2;
  CUDA_CHECK(cudaMalloc(&d_out2, W * H * 4 * sizeof(float)));
  dim3 blk(16, 8), grd((W + 15) / 16, (H + 7) / 8);
  sample2d<<<grd, blk>>>(point_tex, lin_tex, rgba_tex, d_out2, W, H);
  CUDA_SYNC_CHECK();
  std::vector<float> h_out2(W * H * 4);
  CUDA_CHECK(cudaMemcpy(h_out2.data(), d_out2, h_out2.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const float* o = &h_out2[(y * W + x) * 4];
      EXPECT(o[0] == img[y * W + x], "tex2D point (%d,%d)", x, y);
      EXPECT(o[1] == img[y * W + std::max(0, x - 4)], "tex2D clamp (%d,%d): %f", x, y, o[1]);
      float want = 0.5f * (img[y * W + x] + img[y * W + (x + 1) % W]);
      EXPECT(near(o[2], want, 1e-2, 0.05), "tex2D linear (%d,%d): %f vs %f", x, y, o[2], want);
      float4 c = rgba[y * W + x];
      EXPECT(o[3] == c.x + c.y * 10 + c.z * 100 + c.w * 1000, "tex2D float4 (%d,%d)", x, y);
    }

  // ---- 1D array with linear filtering ----
  std::vector<float> ramp(64);
  for (int i = 0; i < 64; ++i) ramp[i] = (float)(i * i);
  cudaArray_t arr1;
  CUDA_CHECK(cudaMallocArray(&arr1, &fdesc, 64));
  CUDA_CHECK(cudaMemcpy2DToArray(arr1, 0, 0, ramp.data(), 64 * sizeof(float), 64 * sizeof(float), 1, cudaMemcpyHostToDevice));
  cudaResourceDesc ard1{};
  ard1.resType = cudaResourceTypeArray;
  ard1.res.array.array = arr1;
  cudaTextureDesc td1{};
  td1.addressMode[0] = cudaAddressModeClamp;
  td1.filterMode = cudaFilterModeLinear;
  td1.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex1;
  CUDA_CHECK(cudaCreateTextureObject(&tex1, &ard1, &td1, nullptr));
  float* d_out3;
  CUDA_CHECK(cudaMalloc(&d_out3, 63 * sizeof(float)));
  sample1d<<<1, 64>>>(tex1, d_out3, 63);
  CUDA_SYNC_CHECK();
  std::vector<float> h_out3(63);
  CUDA_CHECK(cudaMemcpy(h_out3.data(), d_out3, 63 * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 63; ++i) {
    float want = 0.5f * (ramp[i] + ramp[i + 1]);
    EXPECT(near(h_out3[i], want, 1e-2, 0.05), "tex1D linear %d: %f vs %f", i, h_out3[i], want);
  }

  // ---- surfaces ----
  cudaArray_t arr_dst;
  CUDA_CHECK(cudaMallocArray(&arr_dst, &fdesc, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc srd{};
  srd.resType = cudaResourceTypeArray;
  srd.res.array.array = arr;
  cudaSurfaceObject_t surf_src, surf_dst;
  CUDA_CHECK(cudaCreateSurfaceObject(&surf_src, &srd));
  srd.res.array.array = arr_dst;
  CUDA_CHECK(cudaCreateSurfaceObject(&surf_dst, &srd));
  surface_kernel<<<grd, blk>>>(surf_src, surf_dst, W, H);
  CUDA_SYNC_CHECK();
  std::vector<float> h_surf(W * H);
  CUDA_CHECK(cudaMemcpy2DFromArray(h_surf.data(), W * sizeof(float), arr_dst, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      float want = 2.0f * img[y * W + x] + (x > 0 ? img[y * W + x - 1] : 0.0f);
      EXPECT(h_surf[y * W + x] == want, "surface (%d,%d): %f vs %f", x, y, h_surf[y * W + x], want);
    }

  cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
  cudaArray_t arr_i;
  CUDA_CHECK(cudaMallocArray(&arr_i, &idesc, 100, 0, cudaArraySurfaceLoadStore));
  srd.res.array.array = arr_i;
  cudaSurfaceObject_t surf1;
  CUDA_CHECK(cudaCreateSurfaceObject(&surf1, &srd));
  surface1d_kernel<<<1, 128>>>(surf1, 100);
  CUDA_SYNC_CHECK();
  std::vector<int> h_s1(100);
  CUDA_CHECK(cudaMemcpy2DFromArray(h_s1.data(), 100 * sizeof(int), arr_i, 0, 0, 100 * sizeof(int), 1, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 100; ++i) EXPECT(h_s1[i] == i * i, "surf1D %d", i);

  cudaDestroyTextureObject(tex_lin); cudaDestroyTextureObject(point_tex); cudaDestroyTextureObject(lin_tex);
  cudaDestroyTextureObject(rgba_tex); cudaDestroyTextureObject(tex1);
  cudaDestroySurfaceObject(surf_src); cudaDestroySurfaceObject(surf_dst); cudaDestroySurfaceObject(surf1);
  cudaFreeArray(arr); cudaFreeArray(arr4); cudaFreeArray(arr1); cudaFreeArray(arr_dst); cudaFreeArray(arr_i);
  cudaFree(d_lin); cudaFree(d_out1); cudaFree(d_out2); cudaFree(d_out3);
  return finish("texture_surface");
}

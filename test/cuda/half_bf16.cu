// Half-precision and bfloat16 arithmetic (cuda_fp16.h / cuda_bf16.h).
//   * __half: __hadd __hsub __hmul __hdiv __hfma __hneg __habs __hmax __hmin,
//     hsqrt hrsqrt hrcp hexp hlog hsin hcos, comparisons __hlt __hge __heq
//   * __half2: __hadd2 __hmul2 __hfma2 __hsub2 __h2div h2exp h2sqrt h2log __hmax2
//     __hneg2 __habs2 __hbgt2, lane shuffles __lowhigh2highlow / __low2half / __high2half
//   * conversions: __float2half(_rn/_rz/_rd/_ru), __half2float, __half2int_rn,
//     __int2half_rn, __short2half_rn, __half2short_rz, __double2half, __half_as_ushort
//   * bf16: __float2bfloat16(_rn/_rz), __bfloat162float, __hadd/__hmul/__hfma on bf16,
//     hsqrt/hexp on bf16, __nv_bfloat162 __hfma2 (sm_80+) / __hmul2, __double2bfloat16,
//     __bfloat162int_rn, __float22bfloat162_rn
//   * fp8 (cuda_fp8.h): __nv_fp8_e4m3 / __nv_fp8x2_e5m2 conversions to and from float
//     (hardware cvt on sm_89+, software elsewhere)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <algorithm>
#include <vector>
#include "common.cuh"

enum {
  H_ADD, H_SUB, H_MUL, H_DIV, H_FMA, H_NEG_ABS, H_MAXMIN, H_SQRT, H_RSQRT, H_RCP, H_EXP, H_LOG,
  H_SIN, H_COS, H_CMP,
  H2_ADD_LO, H2_MUL_HI, H2_FMA_LO, H2_SUB_HI, H2_DIV_LO, H2_EXP_HI, H2_SQRT_LO, H2_LOG_HI,
  H2_MAX_LO, H2_NEGABS, H2_CMP, H2_SWAP,
  CV_RZ, CV_RD, CV_RU, CV_INT, CV_INT2H, CV_SHORT, CV_DBL, CV_BITS,
  B_ADD, B_MUL, B_FMA, B_SQRT, B_EXP, B_RZ, B2_FMA_LO, B2_MUL_HI, B_DBL, B_INT,
  F8_E4M3, F8X2_E5M2_LO, F8X2_E5M2_HI,
  NOUT
};

__global__ void half_kernel(const float* xs, const float* ys, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xf = xs[i], yf = ys[i];
  float* o = out + i * NOUT;

  __half x = __float2half(xf), y = __float2half_rn(yf);
  o[H_ADD] = __half2float(__hadd(x, y));
  o[H_SUB] = __half2float(__hsub(x, y));
  o[H_MUL] = __half2float(__hmul(x, y));
  o[H_DIV] = __half2float(__hdiv(x, y));
  o[H_FMA] = __half2float(__hfma(x, y, __float2half(1.0f)));
  o[H_NEG_ABS] = __half2float(__habs(__hneg(x)));
  o[H_MAXMIN] = __half2float(__hmax(x, y)) - __half2float(__hmin(x, y));
  o[H_SQRT] = __half2float(hsqrt(x));
  o[H_RSQRT] = __half2float(hrsqrt(x));
  o[H_RCP] = __half2float(hrcp(x));
  o[H_EXP] = __half2float(hexp(y));
  o[H_LOG] = __half2float(hlog(x));
  o[H_SIN] = __half2float(hsin(y));
  o[H_COS] = __half2float(hcos(y));
  o[H_CMP] = (float)(__hlt(x, y) * 4 + __hge(x, y) * 2 + __heq(x, x));

  __half2 a = __floats2half2_rn(xf, yf), b = __halves2half2(y, x);
  o[H2_ADD_LO] = __low2float(__hadd2(a, b));
  o[H2_MUL_HI] = __high2float(__hmul2(a, b));
  o[H2_FMA_LO] = __low2float(__hfma2(a, b, __float2half2_rn(0.5f)));
  o[H2_SUB_HI] = __high2float(__hsub2(a, b));
  o[H2_DIV_LO] = __low2float(__h2div(a, b));
  o[H2_EXP_HI] = __high2float(h2exp(a));
  o[H2_SQRT_LO] = __low2float(h2sqrt(a));
  o[H2_LOG_HI] = __high2float(h2log(a));
  o[H2_MAX_LO] = __low2float(__hmax2(a, b));
  __half2 na = __habs2(__hneg2(a));
  o[H2_NEGABS] = __low2float(na) + __high2float(na);
  o[H2_CMP] = (float)(__hbgt2(a, b) ? 1 : 0);
  __half2 sw = __lowhigh2highlow(a);
  o[H2_SWAP] = __half2float(__low2half(sw)) - __half2float(__high2half(sw));

  o[CV_RZ] = __half2float(__float2half_rz(xf * 1.0001f));
  o[CV_RD] = __half2float(__float2half_rd(-xf * 1.0001f));
  o[CV_RU] = __half2float(__float2half_ru(xf * 1.0001f));
  o[CV_INT] = (float)__half2int_rn(__float2half(xf * 10.0f));
  o[CV_INT2H] = __half2float(__int2half_rn(i * 3 - 100));
  o[CV_SHORT] = (float)__half2short_rz(__short2half_rn((short)(i - 50)));
  o[CV_DBL] = __half2float(__double2half((double)xf * 0.5));
  o[CV_BITS] = (float)(__half_as_ushort(__float2half(1.0f)));   // 0x3c00

  __nv_bfloat16 bx = __float2bfloat16_rn(xf), by = __float2bfloat16(yf);
  o[B_ADD] = __bfloat162float(__hadd(bx, by));
  o[B_MUL] = __bfloat162float(__hmul(bx, by));
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  o[B_FMA] = __bfloat162float(__hfma(bx, by, __float2bfloat16(-1.0f)));
#else   // bf16 fma is only declared for sm_80+; emulate through float
  o[B_FMA] = __bfloat162float(__float2bfloat16(fmaf(__bfloat162float(bx), __bfloat162float(by), -1.0f)));
#endif
  o[B_SQRT] = __bfloat162float(hsqrt(bx));
  o[B_EXP] = __bfloat162float(hexp(by));
  o[B_RZ] = __bfloat162float(__float2bfloat16_rz(xf * 1.001f));
  __nv_bfloat162 ba = __float22bfloat162_rn(make_float2(xf, yf));
  __nv_bfloat162 bb = __floats2bfloat162_rn(yf, xf);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  o[B2_FMA_LO] = __low2float(__hfma2(ba, bb, __float2bfloat162_rn(0.25f)));
#else
  o[B2_FMA_LO] = __bfloat162float(__float2bfloat16(fmaf(__low2float(ba), __low2float(bb), 0.25f)));
#endif
  o[B2_MUL_HI] = __high2float(__hmul2(ba, bb));
  o[B_DBL] = __bfloat162float(__double2bfloat16((double)yf * 3.0));
  o[B_INT] = (float)__bfloat162int_rn(__float2bfloat16(yf * 16.0f));

  __nv_fp8_e4m3 f8(xf);
  o[F8_E4M3] = float(f8);
  __nv_fp8x2_e5m2 f8x2(make_float2(yf, -xf));
  float2 back = float2(f8x2);
  o[F8X2_E5M2_LO] = back.x;
  o[F8X2_E5M2_HI] = back.y;
}

int main() {
  const int n = 128;
  std::vector<float> xs(n), ys(n);
  for (int i = 0; i < n; ++i) {
    xs[i] = 0.5f + 0.03125f * (i % 112);   // [0.5, 4), multiples of 1/32
    ys[i] = 0.25f + 0.0625f * (i % 29);    // [0.25, 2)
  }
  float *d_x, *d_y, *d_out;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * NOUT * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, ys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  half_kernel<<<(n + 63) / 64, 64>>>(d_x, d_y, d_out, n);
  CUDA_SYNC_CHECK();
  std::vector<float> h(n * NOUT);
  CUDA_CHECK(cudaMemcpy(h.data(), d_out, h.size() * sizeof(float), cudaMemcpyDeviceToHost));

  const double HT = 4e-3, BT = 2e-2;  // relative tolerances for half / bf16
  for (int i = 0; i < n; ++i) {
    const float* o = &h[i * NOUT];
    double x = xs[i], y = ys[i];
#define CK(idx, want, tol) EXPECT(near(o[idx], (want), (tol), 4e-3), #idx " i=%d got %f want %f", i, o[idx], (double)(want))
    CK(H_ADD, x + y, HT); CK(H_SUB, x - y, HT); CK(H_MUL, x * y, HT); CK(H_DIV, x / y, HT);
    CK(H_FMA, x * y + 1, HT); CK(H_NEG_ABS, x, HT); CK(H_MAXMIN, std::fabs(x - y), HT);
    CK(H_SQRT, std::sqrt(x), HT); CK(H_RSQRT, 1 / std::sqrt(x), HT); CK(H_RCP, 1 / x, HT);
    CK(H_EXP, std::exp(y), HT); CK(H_LOG, std::log(x), HT); CK(H_SIN, std::sin(y), HT);
    CK(H_COS, std::cos(y), HT);
    CK(H_CMP, (x < y) * 4 + (x >= y) * 2 + 1, 0);
    CK(H2_ADD_LO, x + y, HT); CK(H2_MUL_HI, y * x, HT); CK(H2_FMA_LO, x * y + 0.5, HT);
    CK(H2_SUB_HI, y - x, HT); CK(H2_DIV_LO, x / y, HT); CK(H2_EXP_HI, std::exp(y), HT);
    CK(H2_SQRT_LO, std::sqrt(x), HT); CK(H2_LOG_HI, std::log(y), HT);
    CK(H2_MAX_LO, std::max(x, y), HT); CK(H2_NEGABS, x + y, HT);
    CK(H2_CMP, (x > y && y > x) ? 1 : 0, 0);
    CK(H2_SWAP, y - x, HT);
    CK(CV_RZ, x * 1.0001, HT); CK(CV_RD, -x * 1.0001, HT); CK(CV_RU, x * 1.0001, HT);
    EXPECT(std::fabs(o[CV_INT] - x * 10) <= 0.51, "CV_INT i=%d %f", i, o[CV_INT]);
    CK(CV_INT2H, i * 3 - 100, 0); CK(CV_SHORT, i - 50, 0); CK(CV_DBL, x * 0.5, HT);
    CK(CV_BITS, 0x3c00, 0);
    CK(B_ADD, x + y, BT); CK(B_MUL, x * y, BT); CK(B_FMA, x * y - 1, BT);
    CK(B_SQRT, std::sqrt(x), BT); CK(B_EXP, std::exp(y), BT); CK(B_RZ, x * 1.001, BT);
    CK(B2_FMA_LO, x * y + 0.25, BT); CK(B2_MUL_HI, y * x, BT); CK(B_DBL, y * 3, BT);
    EXPECT(std::fabs(o[B_INT] - y * 16) <= 0.51, "B_INT i=%d %f", i, o[B_INT]);
    CK(F8_E4M3, x, 0.07); CK(F8X2_E5M2_LO, y, 0.13); CK(F8X2_E5M2_HI, -x, 0.13);
#undef CK
  }
  cudaFree(d_x); cudaFree(d_y); cudaFree(d_out);
  return finish("half_bf16");
}

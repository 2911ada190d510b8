// Single- and double-precision math.
//   * fast intrinsics: __fdividef __expf __logf __sinf __cosf __tanf __powf __sincosf
//   * rounding-mode arithmetic: __fadd_rz __fsub_ru __fmul_rn __fmul_rd __fmaf_rn __fdiv_rn
//     __frcp_rn __fsqrt_rd __fsqrt_rn __frsqrt_rn, rsqrtf, __saturatef
//   * libm: sqrtf cbrtf expf exp2f expm1f logf log2f log1pf sinf cosf tanf atan2f tanhf
//     erff powf hypotf fmaf fminf fmaxf floorf ceilf truncf roundf rintf fmodf copysignf
//     ldexpf frexpf modff isnan/isinf, float<->int conversions with rounding modes
//   * double: sqrt exp log sin cos pow fma atan2 erf, __dadd_rn __dmul_rz __ddiv_rn __drcp_rn
//     __dsqrt_rn, rint floor, __double2float_rd, __double2int_rz, __double2ll_rn,
//     __ll2double_rn, __hiloint2double, __double2hiint/__double2loint, __double_as_longlong
#include <algorithm>
#include <cmath>
#include <vector>
#include "common.cuh"

enum {
  F_FDIV, F_EXP, F_LOG, F_SIN, F_COS, F_TAN, F_POW, F_SINCOS, F_ADDRZ, F_SUBRU, F_MULRN, F_MULRD,
  F_FMARN, F_DIVRN, F_RCP, F_SQRTRD, F_SQRTRN, F_RSQRTRN, F_RSQRT, F_SAT,
  L_SQRT, L_CBRT, L_EXP, L_EXP2, L_EXPM1, L_LOG, L_LOG2, L_LOG1P, L_SIN, L_COS, L_TAN, L_ATAN2,
  L_TANH, L_ERF, L_POW, L_HYPOT, L_FMA, L_MINMAX, L_FLOOR, L_CEIL, L_TRUNC, L_ROUND, L_RINT,
  L_FMOD, L_COPYSIGN, L_LDEXP, L_FREXP, L_MODF, L_CLASS, C_F2I_RN, C_F2I_RD, C_F2U_RU, C_I2F,
  C_F2LL,
  NF
};
enum {
  D_SQRT, D_EXP, D_LOG, D_SIN, D_COS, D_POW, D_FMA, D_ATAN2, D_ERF, D_ADDRN, D_MULRZ, D_DIVRN,
  D_RCP, D_SQRTRN, D_RINT, D_FLOOR, D_D2F_RD, D_D2I_RZ, D_D2LL, D_LL2D, D_HILO, D_BITS, D_DIV,
  ND
};

__global__ void float_math(const float* xs, const float* ys, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = xs[i], y = ys[i];
  float* o = out + i * NF;
  o[F_FDIV] = __fdividef(x, y);
  o[F_EXP] = __expf(y);
  o[F_LOG] = __logf(x);
  o[F_SIN] = __sinf(y);
  o[F_COS] = __cosf(y);
  o[F_TAN] = __tanf(y * 0.5f);
  o[F_POW] = __powf(x, 1.5f);
  float s, c;
  __sincosf(y, &s, &c);
  o[F_SINCOS] = s * s + c * c;
  o[F_ADDRZ] = __fadd_rz(x, y);
  o[F_SUBRU] = __fsub_ru(x, y);
  o[F_MULRN] = __fmul_rn(x, y);
  o[F_MULRD] = __fmul_rd(x, y);
  o[F_FMARN] = __fmaf_rn(x, y, -1.0f);
  o[F_DIVRN] = __fdiv_rn(x, y);
  o[F_RCP] = __frcp_rn(x);
  o[F_SQRTRD] = __fsqrt_rd(x);
  o[F_SQRTRN] = __fsqrt_rn(x);
  o[F_RSQRTRN] = __frsqrt_rn(x);
  o[F_RSQRT] = rsqrtf(x);
  o[F_SAT] = __saturatef(x - 2.0f);
  o[L_SQRT] = sqrtf(x);
  o[L_CBRT] = cbrtf(x - 2.0f);
  o[L_EXP] = expf(y);
  o[L_EXP2] = exp2f(y);
  o[L_EXPM1] = expm1f(y * 0.01f);
  o[L_LOG] = logf(x);
  o[L_LOG2] = log2f(x);
  o[L_LOG1P] = log1pf(x * 0.001f);
  o[L_SIN] = sinf(x * 10.0f);
  o[L_COS] = cosf(x * 10.0f);
  o[L_TAN] = tanf(y * 0.3f);
  o[L_ATAN2] = atan2f(y - 1.0f, x);
  o[L_TANH] = tanhf(y - 1.0f);
  o[L_ERF] = erff(y - 1.0f);
  o[L_POW] = powf(x, y);
  o[L_HYPOT] = hypotf(x, y);
  o[L_FMA] = fmaf(x, y, 0.5f);
  o[L_MINMAX] = fmaxf(x, y) - fminf(x, y);
  o[L_FLOOR] = floorf(x * 3.3f);
  o[L_CEIL] = ceilf(x * 3.3f);
  o[L_TRUNC] = truncf(-x * 3.3f);
  o[L_ROUND] = roundf(x * 2.0f);
  o[L_RINT] = rintf(x * 2.0f);
  o[L_FMOD] = fmodf(x * 7.0f, y);
  o[L_COPYSIGN] = copysignf(x, y - 1.0f);
  o[L_LDEXP] = ldexpf(x, i % 5 - 2);
  int e;
  float m = frexpf(x * 100.0f, &e);
  o[L_FREXP] = m * 1024.0f + (float)e;   // exact product: same result with or without FMA contraction
  float ip;
  float fr = modff(x * 3.3f, &ip);
  o[L_MODF] = fr + ip * 10.0f;
  float z = y - y;  // 0, but not foldable
  o[L_CLASS] = (float)(isnan(z / z) * 4 + isinf(1.0f / z) * 2 + isfinite(x));
  o[C_F2I_RN] = (float)__float2int_rn(x * 3.5f);
  o[C_F2I_RD] = (float)__float2int_rd(-x * 3.5f);
  o[C_F2U_RU] = (float)__float2uint_ru(x * 3.5f);
  o[C_I2F] = __int2float_rz(i * 100003);
  o[C_F2LL] = (float)__float2ll_rz(x * 1e6f);
}

__global__ void double_math(const double* xs, const double* ys, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = xs[i], y = ys[i];
  double* o = out + i * ND;
  o[D_SQRT] = sqrt(x);
  o[D_EXP] = exp(y);
  o[D_LOG] = log(x);
  o[D_SIN] = sin(x * 10.0);
  o[D_COS] = cos(x * 10.0);
  o[D_POW] = pow(x, y);
  o[D_FMA] = fma(x, y, -0.5);
  o[D_ATAN2] = atan2(y, x);
  o[D_ERF] = erf(y - 1.0);
  o[D_ADDRN] = __dadd_rn(x, y);
  o[D_MULRZ] = __dmul_rz(x, y);
  o[D_DIVRN] = __ddiv_rn(x, y);
  o[D_RCP] = __drcp_rn(x);
  o[D_SQRTRN] = __dsqrt_rn(y);
  o[D_RINT] = rint(x * 2.0);
  o[D_FLOOR] = floor(-x * 3.3);
  o[D_D2F_RD] = (double)__double2float_rd(x);
  o[D_D2I_RZ] = (double)__double2int_rz(-x * 7.7);
  o[D_D2LL] = (double)__double2ll_rn(x * 1e12);
  o[D_LL2D] = __ll2double_rn((long long)i * 1000000007ll);
  o[D_HILO] = __hiloint2double(__double2hiint(x), __double2loint(x));
  o[D_BITS] = (double)(__double_as_longlong(x) >> 52);
  o[D_DIV] = x / y;
}

int main() {
  const int n = 96;
  std::vector<float> xf(n), yf(n);
  std::vector<double> xd(n), yd(n);
  for (int i = 0; i < n; ++i) {
    xf[i] = 0.5f + 0.0371f * i;    // [0.5, 4.1)
    yf[i] = 0.25f + 0.0193f * i;   // [0.25, 2.1)
    xd[i] = xf[i]; yd[i] = yf[i];
  }
  float *dxf, *dyf, *dof; double *dxd, *dyd, *dod;
  CUDA_CHECK(cudaMalloc(&dxf, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dyf, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dof, n * NF * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dxd, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dyd, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dod, n * ND * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(dxf, xf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dyf, yf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dxd, xd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dyd, yd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  float_math<<<(n + 31) / 32, 32>>>(dxf, dyf, dof, n);
  double_math<<<(n + 31) / 32, 32>>>(dxd, dyd, dod, n);
  CUDA_SYNC_CHECK();
  std::vector<float> of(n * NF);
  std::vector<double> od(n * ND);
  CUDA_CHECK(cudaMemcpy(of.data(), dof, of.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(od.data(), dod, od.size() * sizeof(double), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    const float* o = &of[i * NF];
    double x = xf[i], y = yf[i];
    const double FAST = 2e-3, ACC = 2e-6;
#define CK(idx, want, tol) EXPECT(near(o[idx], (want), (tol), 1e-5), #idx " i=%d got %.9g want %.9g", i, (double)o[idx], (double)(want))
#define CKF(idx, want) EXPECT(o[idx] == (float)(want), #idx " i=%d got %.9g want %.9g", i, (double)o[idx], (double)(want))
    CK(F_FDIV, x / y, FAST); CK(F_EXP, std::exp(y), FAST); CK(F_LOG, std::log(x), FAST);
    CK(F_SIN, std::sin(y), FAST); CK(F_COS, std::cos(y), FAST); CK(F_TAN, std::tan(y * 0.5), FAST);
    CK(F_POW, std::pow(x, 1.5), FAST); CK(F_SINCOS, 1.0, FAST);
    CK(F_ADDRZ, x + y, ACC); CK(F_SUBRU, x - y, ACC); CKF(F_MULRN, xf[i] * yf[i]);
    CK(F_MULRD, x * y, ACC); CKF(F_FMARN, std::fmaf(xf[i], yf[i], -1.0f)); CKF(F_DIVRN, xf[i] / yf[i]);
    CKF(F_RCP, 1.0f / xf[i]); CK(F_SQRTRD, std::sqrt(x), ACC); CKF(F_SQRTRN, std::sqrt(xf[i]));
    CK(F_RSQRTRN, 1 / std::sqrt(x), ACC); CK(F_RSQRT, 1 / std::sqrt(x), 1e-5);
    CK(F_SAT, std::min(1.0, std::max(0.0, (double)(xf[i] - 2.0f))), ACC);
    CKF(L_SQRT, std::sqrt(xf[i])); CK(L_CBRT, std::cbrt(x - 2.0), 1e-5);
    CK(L_EXP, std::exp(y), 1e-5); CK(L_EXP2, std::exp2(y), 1e-5); CK(L_EXPM1, std::expm1((double)(yf[i] * 0.01f)), 1e-5);
    CK(L_LOG, std::log(x), 1e-5); CK(L_LOG2, std::log2(x), 1e-5); CK(L_LOG1P, std::log1p((double)(xf[i] * 0.001f)), 1e-5);
    CK(L_SIN, std::sin((double)(xf[i] * 10.0f)), 1e-5); CK(L_COS, std::cos((double)(xf[i] * 10.0f)), 1e-5);
    CK(L_TAN, std::tan((double)(yf[i] * 0.3f)), 1e-5); CK(L_ATAN2, std::atan2((double)(yf[i] - 1.0f), x), 1e-5);
    CK(L_TANH, std::tanh((double)(yf[i] - 1.0f)), 1e-5); CK(L_ERF, std::erf((double)(yf[i] - 1.0f)), 1e-5);
    CK(L_POW, std::pow(x, y), 1e-5); CK(L_HYPOT, std::hypot(x, y), 1e-5);
    CKF(L_FMA, std::fmaf(xf[i], yf[i], 0.5f)); CK(L_MINMAX, std::fabs(x - y), ACC);
    CKF(L_FLOOR, std::floor(xf[i] * 3.3f)); CKF(L_CEIL, std::ceil(xf[i] * 3.3f));
    CKF(L_TRUNC, std::trunc(-xf[i] * 3.3f)); CKF(L_ROUND, std::round(xf[i] * 2.0f));
    CKF(L_RINT, std::rint(xf[i] * 2.0f)); CKF(L_FMOD, std::fmod(xf[i] * 7.0f, yf[i]));
    CKF(L_COPYSIGN, std::copysign(xf[i], yf[i] - 1.0f)); CKF(L_LDEXP, std::ldexp(xf[i], i % 5 - 2));
    { int e; float m = std::frexp(xf[i] * 100.0f, &e); CKF(L_FREXP, m * 1024.0f + (float)e); }
    { float ip; float fr = std::modf(xf[i] * 3.3f, &ip); CKF(L_MODF, fr + ip * 10.0f); }
    CKF(L_CLASS, 7);
    CKF(C_F2I_RN, std::nearbyint(xf[i] * 3.5f)); CKF(C_F2I_RD, std::floor(-xf[i] * 3.5f));
    CKF(C_F2U_RU, std::ceil(xf[i] * 3.5f));
    CK(C_I2F, (double)(i * 100003), 1e-7); CK(C_F2LL, std::trunc((double)(xf[i] * 1e6f)), 1e-7);
#undef CK
#undef CKF
    const double* p = &od[i * ND];
    double X = xd[i], Y = yd[i];
#define CD(idx, want, tol) EXPECT(near(p[idx], (want), (tol), 1e-13), #idx " i=%d got %.17g want %.17g", i, p[idx], (double)(want))
    CD(D_SQRT, std::sqrt(X), 0); CD(D_EXP, std::exp(Y), 1e-15); CD(D_LOG, std::log(X), 1e-15);
    CD(D_SIN, std::sin(X * 10.0), 1e-14); CD(D_COS, std::cos(X * 10.0), 1e-14);
    CD(D_POW, std::pow(X, Y), 1e-15); CD(D_FMA, std::fma(X, Y, -0.5), 0);
    CD(D_ATAN2, std::atan2(Y, X), 1e-15); CD(D_ERF, std::erf(Y - 1.0), 1e-15);
    CD(D_ADDRN, X + Y, 0); CD(D_MULRZ, X * Y, 1e-15); CD(D_DIVRN, X / Y, 0);
    CD(D_RCP, 1.0 / X, 0); CD(D_SQRTRN, std::sqrt(Y), 0); CD(D_RINT, std::rint(X * 2.0), 0);
    CD(D_FLOOR, std::floor(-X * 3.3), 0); CD(D_D2F_RD, (double)(float)X, 1e-7);
    CD(D_D2I_RZ, std::trunc(-X * 7.7), 0); CD(D_D2LL, std::nearbyint(X * 1e12), 0);
    CD(D_LL2D, (double)((long long)i * 1000000007ll), 0); CD(D_HILO, X, 0); CD(D_BITS, 1023 + std::ilogb(X), 0);
    CD(D_DIV, X / Y, 0);
#undef CD
  }
  cudaFree(dxf); cudaFree(dyf); cudaFree(dof); cudaFree(dxd); cudaFree(dyd); cudaFree(dod);
  return finish("math_intrinsics");
}

// Shared host-side helpers for the test programs in test/cuda.
// Only host code lives here, so it does not change the generated PTX.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(expr)                                                       \
  do {                                                                         \
    cudaError_t err_ = (expr);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,     \
              cudaGetErrorString(err_));                                       \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

// Launch error + completion check.
#define CUDA_SYNC_CHECK()                                                      \
  do {                                                                         \
    CUDA_CHECK(cudaGetLastError());                                            \
    CUDA_CHECK(cudaDeviceSynchronize());                                       \
  } while (0)

static int g_failures = 0;

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      if (g_failures < 20) {                                                   \
        fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,       \
                #cond);                                                        \
        fprintf(stderr, __VA_ARGS__);                                          \
        fprintf(stderr, "\n");                                                 \
      }                                                                        \
      ++g_failures;                                                            \
    }                                                                          \
  } while (0)

static inline bool near(double got, double want, double rel, double abs_tol = 1e-6) {
  return std::fabs(got - want) <= abs_tol + rel * std::fabs(want);
}

static inline int device_cc() {
  int dev = 0, major = 0, minor = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  return major * 10 + minor;
}

static inline int finish(const char* name) {
  if (g_failures) {
    printf("%s: FAILED (%d checks)\n", name, g_failures);
    return 1;
  }
  printf("%s: PASSED\n", name);
  return 0;
}

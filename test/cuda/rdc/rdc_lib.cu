// Separate compilation, library half (compiled with -rdc=true).
// Defines externally visible device functions and device variables that
// rdc_main.cu uses through `extern` declarations; in PTX these become
// `.visible .func` / `.visible .global` definitions, resolved by nvlink.
#include "rdc_shared.cuh"

__device__ int rdc_call_count = 0;
__device__ float rdc_bias = 0.5f;

__device__ float rdc_scale(float x, float s) {
  atomicAdd(&rdc_call_count, 1);
  return x * s + rdc_bias;
}

__device__ Accum rdc_accumulate(Accum a, float v) {
  a.sum += v;
  a.sumsq += v * v;
  a.n += 1;
  return a;
}

// Not called from the other file: an unused externally visible kernel in the library.
__global__ void rdc_reset() { rdc_call_count = 0; }

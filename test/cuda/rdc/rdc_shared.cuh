// Declarations shared by the two separately compiled translation units.
#pragma once

struct Accum {
  float sum;
  float sumsq;
  int n;
};

extern __device__ int rdc_call_count;
extern __device__ float rdc_bias;
extern __device__ float rdc_scale(float x, float s);
extern __device__ Accum rdc_accumulate(Accum a, float v);

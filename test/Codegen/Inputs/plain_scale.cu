__global__ void plain_scale(float *x, float s) { x[threadIdx.x] *= s; }
void launch_plain(float *x) { plain_scale<<<1, 32>>>(x, 2.0f); }

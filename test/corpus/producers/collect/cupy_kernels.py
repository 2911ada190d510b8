"""Collects the PTX CuPy's NVRTC path makes: RawKernel/RawModule sources,
ElementwiseKernel and ReductionKernel code, and CuPy's own routines
(reductions, scans, sorts, random, fancy indexing). With
CUPY_COMPILE_WITH_PTX=1 (read at import) CuPy compiles to PTX and keeps it
in its kernel cache (each file: a 40-character hash, then the PTX).

Usage (on a CUDA machine with CuPy):
  python3 cupy_kernels.py OUT_DIR      -> OUT_DIR/cupy/*.ptx, versions.txt
"""
import glob
import os
import sys

out = os.path.abspath(sys.argv[1])
cache = os.path.join(out, 'cupy-cache')
os.environ['CUPY_COMPILE_WITH_PTX'] = '1'
os.environ['CUPY_CACHE_DIR'] = cache

import cupy as cp  # noqa: E402

a = cp.random.standard_normal((1024, 1024), dtype=cp.float32)
b = cp.random.standard_normal((1024, 1024), dtype=cp.float32)
i = cp.random.randint(0, 1024, 4096)
raw = cp.RawKernel(r'''
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
  int t = blockDim.x * blockIdx.x + threadIdx.x;
  if (t < n) y[t] = a * x[t] + y[t];
}''', 'axpy')
raw((1024,), (1024,), (a, b, cp.float32(2.0), cp.int32(a.size)))
mod = cp.RawModule(code=r'''
#include <cupy/complex.cuh>
template<typename T> __global__ void scale(T* x, T s, int n) {
  int t = blockDim.x * blockIdx.x + threadIdx.x;
  if (t < n) x[t] = x[t] * s;
}
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x; float v = 0;
  for (int k = blockIdx.x * 256 + t; k < n; k += gridDim.x * 256) v += x[k];
  s[t] = v; __syncthreads();
  for (int w = 128; w > 0; w >>= 1) { if (t < w) s[t] += s[t + w]; __syncthreads(); }
  if (t == 0) atomicAdd(out, s[0]);
}''', name_expressions=('scale<float>', 'scale<double>', 'scale<complex<float>>'))
mod.get_function('scale<float>')((1024,), (1024,), (a, cp.float32(3), cp.int32(a.size)))
out_s = cp.zeros(1, cp.float32)
mod.get_function('block_sum')((64,), (256,), (a, out_s, cp.int32(a.size)))
ew = cp.ElementwiseKernel('float32 x, float32 y', 'float32 z', 'z = x * y + sinf(x)', 'my_ew')
ew(a, b)
red = cp.ReductionKernel('float32 x', 'float32 y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'my_l2')
red(a, axis=1)
ops = [lambda: a.sum(axis=1), lambda: a.max(), lambda: cp.argmax(a, axis=0),
       lambda: cp.cumsum(a, axis=1), lambda: cp.sort(a[0]), lambda: cp.argsort(a[1]),
       lambda: a[i], lambda: cp.where(a > 0, a, b), lambda: cp.exp(a) / (1 + cp.abs(b)),
       lambda: a.astype(cp.float16) * 2, lambda: cp.random.uniform(size=1000),
       lambda: cp.unique(i), lambda: cp.linalg.norm(a, axis=1), lambda: cp.bincount(i),
       lambda: cp.searchsorted(cp.sort(a[0]), a[1]), lambda: (a > b).all(axis=0)]
for k, f in enumerate(ops):
    try:
        f()
    except Exception as e:
        print('op', k, 'failed:', str(e).splitlines()[0][:200])
cp.cuda.Device().synchronize()

os.makedirs(os.path.join(out, 'cupy'), exist_ok=True)
n = 0
for path in sorted(glob.glob(os.path.join(cache, '**', '*.cubin'), recursive=True)):
    data = open(path, 'rb').read()
    text = data[40:]
    if b'.version' not in text[:4096]:
        continue
    name = os.path.basename(path).replace('.cubin', '.ptx')
    with open(os.path.join(out, 'cupy', name), 'wb') as f:
        f.write(text.rstrip(b'\0'))
    n += 1
with open(os.path.join(out, 'cupy', 'versions.txt'), 'w') as f:
    f.write(f'cupy {cp.__version__}\ncuda runtime {cp.cuda.runtime.runtimeGetVersion()}\n'
            f'ptx files {n}\n')
print(open(os.path.join(out, 'cupy', 'versions.txt')).read())

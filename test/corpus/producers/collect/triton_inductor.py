"""Collects the PTX of Triton kernels that PyTorch Inductor generates for a
range of workloads (pointwise, reductions, softmax, layer norm, attention,
scans, gathers, random numbers, matmuls with Triton templates), as built
for this GPU (sm_90 on an H200), then recompiles every kernel's Triton IR
for an sm_80-class target (what a translation layer reports), where the
matmuls use mma.sync and ldmatrix.

Usage (on a CUDA machine with PyTorch and Triton):
  python3 triton_inductor.py OUT_DIR            (runs the workloads)
  python3 triton_inductor.py OUT_DIR --harvest  (collects what they built;
                                                 a separate step, so that a
                                                 time limit on the first
                                                 loses nothing built)
Writes OUT_DIR/triton/sm_90/*.ptx, OUT_DIR/triton/sm_80/*.ptx and
OUT_DIR/triton/versions.txt.
"""
import glob
import os
import shutil
import sys
import traceback

out = os.path.abspath(sys.argv[1])
cache = os.path.join(out, 'triton-cache')
os.environ['TRITON_CACHE_DIR'] = cache
os.environ.setdefault('TORCHINDUCTOR_CACHE_DIR', os.path.join(out, 'inductor-cache'))

import time  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import triton  # noqa: E402
import torch._inductor.config  # noqa: E402

harvest = '--harvest' in sys.argv

torch._inductor.config.max_autotune_gemm_backends = 'TRITON'
dev = 'cuda'


def run(name, fn, *args, mode=None):
    try:
        torch._dynamo.reset()
        c = torch.compile(fn, mode=mode) if mode else torch.compile(fn)
        c(*args)
        torch.cuda.synchronize()
        print('ok  ', name, flush=True)
    except Exception:
        print('FAIL', name, flush=True)
        traceback.print_exc()


if not harvest:
    x = torch.randn(4096, 1024, device=dev)
    y = torch.randn(4096, 1024, device=dev)
    h = x.half()
    b = x.bfloat16()
    idx = torch.randint(0, 4096, (8192,), device=dev)
    run('pointwise', lambda a, c: F.gelu(a) * c + torch.sin(a) / (1 + c.abs()), x, y)
    run('pointwise-half', lambda a: (F.silu(a) * a).to(torch.float32), h)
    run('pointwise-bf16', lambda a: torch.tanh(a) + a.exp(), b)
    run('reduction-sum', lambda a: a.sum(dim=1) + a.amax(dim=0).sum(), x)
    run('reduction-var', lambda a: torch.var_mean(a, dim=1), x)
    run('argmax', lambda a: a.argmax(dim=1), x)
    run('softmax', lambda a: torch.softmax(a, dim=-1), x)
    run('log-softmax-half', lambda a: torch.log_softmax(a.float(), dim=-1).half(), h)
    ln = torch.nn.LayerNorm(1024, device=dev)
    run('layer-norm', lambda a: ln(a), x)
    rms = lambda a: a * torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + 1e-6)
    run('rms-norm-bf16', rms, b)
    run('cumsum', lambda a: torch.cumsum(a, dim=1), x)
    run('gather', lambda a, i: a[i] * 2, x, idx)
    run('index-add', lambda a, i: torch.zeros_like(a).index_add_(0, i[:4096], a), x, idx)
    run('dropout', lambda a: F.dropout(a, p=0.1, training=True), x)
    run('rand', lambda a: a + torch.rand_like(a), x)
    run('where-int', lambda a: torch.where(a > 0, (a * 10).int() % 7, -1), x)
    q = torch.randn(8, 16, 512, 64, device=dev, dtype=torch.float16)
    run('attention-math', lambda q_: torch.softmax(q_ @ q_.transpose(-1, -2) / 8.0, -1) @ q_, q)
    for dt, name in ((torch.float16, 'f16'), (torch.bfloat16, 'bf16'), (torch.float32, 'f32')):
        a = torch.randn(1024, 1024, device=dev, dtype=dt)
        c = torch.randn(1024, 1024, device=dev, dtype=dt)
        run('mm-' + name, lambda m, n: m @ n, a, c, mode='max-autotune-no-cudagraphs')
        run('mm-relu-' + name, lambda m, n: torch.relu(m @ n + 1), a, c, mode='max-autotune-no-cudagraphs')
    a8 = torch.randint(-8, 8, (512, 512), device=dev, dtype=torch.int8)
    run('mm-int8', lambda m: torch._int_mm(m, m), a8, mode='max-autotune-no-cudagraphs')

    sys.exit(0)

os.makedirs(os.path.join(out, 'triton', 'sm_90'), exist_ok=True)
os.makedirs(os.path.join(out, 'triton', 'sm_80'), exist_ok=True)
# Triton's cache and Inductor's copy of it (TORCHINDUCTOR_CACHE_DIR/triton).
caches = [cache, os.environ['TORCHINDUCTOR_CACHE_DIR']]
def found(suffix):
    # One file per compiled kernel (autotuning makes many `triton_mm`):
    # named <kernel>.<first 10 of its cache directory's hash><suffix>.
    files = {}
    for c in caches:
        for f in sorted(glob.glob(os.path.join(c, '**', '*' + suffix), recursive=True)):
            stem = os.path.basename(f)[:-len(suffix)]
            key = stem + '.' + os.path.basename(os.path.dirname(f))[:10]
            files.setdefault(key, f)
    return sorted(files.items())
seen = set()
for key, ptx in found('.ptx'):
    seen.add(key)
    shutil.copy(ptx, os.path.join(out, 'triton', 'sm_90', key + '.ptx'))

# The same kernels for an sm_80-class device: Triton IR recompiled.
from triton.backends.compiler import GPUTarget  # noqa: E402
n80 = 0
deadline = time.time() + float(os.environ.get('SM80_SECONDS', '150'))
for key, ttir in found('.ttir'):
    if time.time() > deadline:
        print('sm_80 recompiles stopped at the time limit')
        break
    name = key
    try:
        k = triton.compile(ttir, target=GPUTarget('cuda', 80, 32))
        with open(os.path.join(out, 'triton', 'sm_80', name + '.ptx'), 'w') as f:
            f.write(k.asm['ptx'])
        n80 += 1
    except Exception as e:
        print('sm_80 recompile failed:', name, str(e).splitlines()[0][:200])
with open(os.path.join(out, 'triton', 'versions.txt'), 'w') as f:
    f.write(f'torch {torch.__version__}\ntriton {triton.__version__}\n'
            f'cuda {torch.version.cuda}\ndevice {torch.cuda.get_device_name()}\n'
            f'sm_90 kernels {len(seen)}\nsm_80 recompiled {n80}\n')
print(open(os.path.join(out, 'triton', 'versions.txt')).read())

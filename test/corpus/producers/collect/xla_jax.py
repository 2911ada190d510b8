"""Collects the PTX XLA generates for JAX programs: pointwise fusions,
reductions, softmax, layer norm, scans, sorts, gathers/scatters, and
what XLA emits itself around matmuls. XLA writes its PTX only when asked
for the emitter's dumps (`--xla_dump_emitter_re=ptx`) and compiles at all
only without JAX's persistent compilation cache, which ignores the dump
flags (a cache hit writes nothing).

Usage (on a CUDA machine with JAX):
  python3 xla_jax.py OUT_DIR      -> OUT_DIR/xla/*.ptx, versions.txt
"""
import glob
import os
import shutil
import sys

out = os.path.abspath(sys.argv[1])
dump = os.path.join(out, 'xla-dump')
os.environ['JAX_ENABLE_COMPILATION_CACHE'] = 'false'
os.environ['XLA_FLAGS'] = f'--xla_dump_to={dump} --xla_dump_emitter_re=ptx'
os.environ.setdefault('XLA_PYTHON_CLIENT_PREALLOCATE', 'false')

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (2048, 1024))
y = jax.random.normal(key, (2048, 1024)) + 1
h = x.astype(jnp.bfloat16)
idx = jax.random.randint(key, (4096,), 0, 2048)
# Inputs are arguments, never closed-over constants (XLA would fold them).
workloads = {
    'pointwise': lambda x, y, h, i: jnp.tanh(x) * y + jnp.exp(-x * x),
    'pointwise-bf16': lambda x, y, h, i: (jax.nn.gelu(h) * h).astype(jnp.float32),
    'reduce': lambda x, y, h, i: (x.sum(axis=1), x.max(axis=0), jnp.argmax(x, axis=1)),
    'softmax': lambda x, y, h, i: jax.nn.softmax(x, axis=-1),
    'layer-norm': lambda x, y, h, i: (x - x.mean(-1, keepdims=True)) * jax.lax.rsqrt(x.var(-1, keepdims=True) + 1e-5),
    'cumsum': lambda x, y, h, i: jnp.cumsum(x, axis=1),
    'sort': lambda x, y, h, i: jnp.sort(x, axis=1),
    'gather-scatter': lambda x, y, h, i: x.at[i].add(1.0)[i],
    'rng': lambda x, y, h, i: jax.random.uniform(jax.random.PRNGKey(1), (4096, 1024)) + x[0, 0],
    'int-ops': lambda x, y, h, i: ((x * 100).astype(jnp.int32) % 7) << 2,
    'matmul-epilogue': lambda x, y, h, i: jax.nn.relu(x @ y.T + 1.0),
    'matmul-bf16': lambda x, y, h, i: (h @ h.T).astype(jnp.float32),
    'conv1d': lambda x, y, h, i: jnp.convolve(x[0], y[0][:31], mode='same'),
    'while-loop': lambda x, y, h, i: jax.lax.fori_loop(0, 10, lambda k, v: v * 0.5 + k, x),
}
for name, fn in workloads.items():
    try:
        jax.block_until_ready(jax.jit(fn)(x, y, h, idx))
        print('ok  ', name, flush=True)
    except Exception as e:  # keep going
        print('FAIL', name, str(e).splitlines()[0][:200], flush=True)

os.makedirs(os.path.join(out, 'xla'), exist_ok=True)
n = 0
for p in sorted(glob.glob(os.path.join(dump, '*.ptx'))):
    shutil.copy(p, os.path.join(out, 'xla', os.path.basename(p)))
    n += 1
with open(os.path.join(out, 'xla', 'versions.txt'), 'w') as f:
    f.write(f'jax {jax.__version__}\njaxlib {jax.lib.__version__ if hasattr(jax.lib, "__version__") else "?"}\n'
            f'device {jax.devices()[0].device_kind}\nptx files {n}\n')
print(open(os.path.join(out, 'xla', 'versions.txt')).read())

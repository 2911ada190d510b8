#!/usr/bin/env python3
"""Fidelity of the producers' corpus on an NVIDIA GPU (issue 22, item 7).

For every kernel of every module in ORIG/<producer>/*.ptx whose NVPTX build
(`zluda-precompile compile --target nvptx --arch sm_90 --emit=asm`, made on
the build machine) is in OURS/<producer>/, runs NVIDIA's JIT of the original
PTX twice and of our build once, on the same inputs, and compares every
byte of every buffer.

The collected PTX has no launch records, so the launch is synthesized the
same way for both builds (and a `differ` is described: the 32-bit words that
differ and, read as f32, their largest distance in ulps): each 64-bit parameter marked `.ptr` (Triton, XLA)
or any 64-bit one is a pointer to its own 16 MiB buffer of the same
pseudo-random floats in [-2, 2); a 32-bit or 16-bit integer is 256 (sizes,
strides); a float 1.5; a byte array of CuPy's CArray or CIndexer size gets
one of 256 elements (a buffer, 8-byte strides), another a pointer to a
buffer in its first 8 bytes and 256 in each further 8; the
block is the kernel's `.reqntid`/`.maxntid` (else 128), the grid 4 blocks,
the dynamic shared memory the most the kernel may have (Triton and XLA size
theirs at launch). Outcomes per kernel: same; differ (NVIDIA's two runs the
same, ours not); nondeterministic (NVIDIA's two runs differ); error (a
launch or load failed in the original too: the synthesized launch is not
one the kernel accepts); ours-error (only our build failed).

Runs each kernel in its own process (a hang or a fault stops only it).
usage: compare_on_device.py ORIG OURS OUT.jsonl [--jobs N]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

BUF = 16 << 20


def kernels_of(text):
  """(name, [(type, is_ptr, array_bytes)], block) of each .entry."""
  out = []
  for m in re.finditer(r'\.entry\s+([\w$]+)\s*\(([^)]*)\)([^{]*)\{', text):
    params = []
    for p in m.group(2).split(','):
      p = p.strip()
      if not p:
        continue
      t = re.search(r'\.(u64|s64|b64|u32|s32|b32|u16|s16|b16|u8|s8|b8|f32|f64|f16|bf16|pred)\b', p)
      arr = re.search(r'\[(\d+)\]', p)
      params.append((t.group(1) if t else 'b32', '.ptr' in p,
                     int(arr.group(1)) if arr else 0))
    block = (128, 1, 1)
    d = re.search(r'\.(?:reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?', m.group(3))
    if d:
      block = tuple(int(x) if x else 1 for x in d.groups())
    out.append((m.group(1), params, block))
  return out


CHILD = r'''
import ctypes, hashlib, json, sys
import numpy as np
import cupy as cp
path, name, params, block, seed = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
BUF = %d
cp.zeros(1)  # the runtime's primary context, current on this thread
cu = ctypes.CDLL('libcuda.so.1')
def check(r, what):
  if r:
    s = ctypes.c_char_p()
    cu.cuGetErrorName(r, ctypes.byref(s))
    sys.exit(f'{what}: {s.value.decode() if s.value else r}')
mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
check(cu.cuModuleLoad(ctypes.byref(mod), path.encode()), 'load')
check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), 'function')
static = ctypes.c_int()
check(cu.cuFuncGetAttribute(ctypes.byref(static), 1, fn), 'attribute')
dyn = max(0, min(200 * 1024, 227 * 1024 - static.value))
check(cu.cuFuncSetAttribute(fn, 8, dyn), 'dynamic shared memory')
rng = np.random.default_rng(seed)
bufs, storage = [], []
def buffer():
  b = cp.asarray(rng.uniform(-2, 2, BUF // 4).astype(np.float32))
  bufs.append(b)
  return b.data.ptr
for t, is_ptr, arr in params:
  if arr:
    # CuPy's structs: CArray<T, n> = {data, size, shape[n], strides[n]} (16 + 16n bytes), CIndexer<n> = {size,
    # shape[n], index[n]} (8 + 16n): 256 elements, 8-byte strides; other sizes: a pointer, then 256s.
    n = (arr - 16) // 16 if arr >= 32 and arr %% 16 == 0 else (arr - 8) // 16 if arr %% 16 == 8 else 0
    shape = [256] if n == 1 else [16, 16] if n == 2 else [4, 8, 8] if n == 3 else []
    if n and len(shape) == n:
      strides = [8 * int(np.prod(shape[i + 1:])) for i in range(n)]
      words = ([buffer(), 256] + shape + strides) if arr %% 16 == 0 else ([256] + shape + [0] * n)
      raw = np.array(words, dtype=np.uint64).tobytes()
    else:
      words = np.full(max((arr + 7) // 8, 1), 256, dtype=np.uint64)
      words[0] = buffer()
      raw = words.tobytes()[:arr]
  elif is_ptr or t in ('u64', 's64', 'b64'):
    raw = np.uint64(buffer()).tobytes()
  elif t == 'f32':
    raw = np.float32(1.5).tobytes()
  elif t == 'f64':
    raw = np.float64(1.5).tobytes()
  elif t in ('u16', 's16', 'b16', 'f16', 'bf16'):
    raw = np.uint16(256).tobytes()
  elif t in ('u8', 's8', 'b8', 'pred'):
    raw = np.uint8(1).tobytes()
  else:
    raw = np.int32(256).tobytes()
  storage.append(ctypes.create_string_buffer(raw, max(len(raw), 8)))
kp = (ctypes.c_void_p * max(len(storage), 1))(*[ctypes.addressof(b) for b in storage])
check(cu.cuLaunchKernel(fn, 4, 1, 1, block[0], block[1], block[2], dyn, None, kp, None), 'launch')
check(cu.cuCtxSynchronize(), 'run')
h = hashlib.sha256()
with open(sys.argv[6], 'wb') as f:
  for b in bufs:
    data = cp.asnumpy(b).tobytes()
    h.update(data)
    f.write(data)
print(json.dumps({'digest': h.hexdigest(), 'bufs': len(bufs), 'dyn': dyn, 'static': static.value}))
''' % BUF


def run_one(path, name, params, block, dump):
  try:
    r = subprocess.run([sys.executable, '-c', CHILD, path, name, json.dumps(params), json.dumps(block), '7', dump],
                       capture_output=True, text=True, timeout=60)
  except subprocess.TimeoutExpired:
    return {'error': 'timeout'}
  if r.returncode != 0:
    return {'error': (r.stderr.strip().splitlines() or ['exit %d' % r.returncode])[-1][:300]}
  return json.loads(r.stdout.strip().splitlines()[-1])


def difference(pa, pc):
  """How two runs' buffers differ: 32-bit words that differ, and for those read as f32 the largest distance in
  units in the last place (both finite) and how many are NaN or infinite on one side only."""
  import numpy as np
  a, c = np.fromfile(pa, dtype=np.int32), np.fromfile(pc, dtype=np.int32)
  bad = np.nonzero(a != c)[0]
  fa, fc = a[bad].view(np.float32), c[bad].view(np.float32)
  finite = np.isfinite(fa) & np.isfinite(fc)
  key = lambda x: np.where(x < 0, np.int64(-2**31) - x.astype(np.int64), x.astype(np.int64))
  ulps = np.abs(key(a[bad][finite]) - key(c[bad][finite]))
  return {'words': int(bad.size), 'max_ulp_f32': int(ulps.max()) if ulps.size else 0,
          'nonfinite_one_side': int((~finite).sum()), 'first_word': int(bad[0]) if bad.size else -1}


def compare(job):
  producer, file, name, params, block, orig, ours = job
  tmp = tempfile.mkdtemp()
  dumps = [os.path.join(tmp, x) for x in ('a', 'b', 'c')]
  try:
    a = run_one(orig, name, params, block, dumps[0])
    b = run_one(orig, name, params, block, dumps[1])
    c = run_one(ours, name, params, block, dumps[2])
    rec = compare_runs(producer, file, name, block, a, b, c, dumps)
  finally:
    shutil.rmtree(tmp, ignore_errors=True)
  return rec


def compare_runs(producer, file, name, block, a, b, c, dumps):
  rec = {'producer': producer, 'file': file, 'kernel': name, 'block': block}
  if 'error' in a:
    rec.update(status='error', why=a['error'])
  elif 'error' in c:
    rec.update(status='ours-error', why=c['error'])
  elif a.get('digest') != b.get('digest'):
    rec.update(status='nondeterministic')
  else:
    rec.update(status='same' if a['digest'] == c['digest'] else 'differ', buffers=a['bufs'])
    if rec['status'] == 'differ':
      rec['difference'] = difference(dumps[0], dumps[2])
  return rec


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument('orig')
  ap.add_argument('ours')
  ap.add_argument('out')
  ap.add_argument('--jobs', type=int, default=6)
  ap.add_argument('--only', help='only files whose name contains this')
  a = ap.parse_args()
  jobs = []
  for producer in sorted(os.listdir(a.ours)):
    for f in sorted(os.listdir(os.path.join(a.ours, producer))):
      orig = os.path.join(a.orig, producer, f)
      ours = os.path.join(a.ours, producer, f)
      if not os.path.exists(orig) or (a.only and a.only not in f):
        continue
      for name, params, block in kernels_of(open(orig, errors='replace').read()):
        jobs.append((producer, f, name, params, block, orig, ours))
  counts = {}
  with open(a.out, 'w') as out, ThreadPoolExecutor(a.jobs) as pool:
    for rec in pool.map(compare, jobs):
      out.write(json.dumps(rec) + '\n')
      out.flush()
      key = (rec['producer'], rec['status'])
      counts[key] = counts.get(key, 0) + 1
  for producer in sorted({k[0] for k in counts}):
    row = {s: n for (p, s), n in counts.items() if p == producer}
    print(producer, json.dumps(row, sort_keys=True))


if __name__ == '__main__':
  main()

#!/usr/bin/env python3
"""Whole kernels on a synthesized launch: NVIDIA's results recorded on an NVIDIA GPU, ours compared in the emulator.

For kernels that come without launch records (Triton's and XLA's GEMMs in test/corpus/producers, the corpus' wmma
program): every pointer parameter gets its own buffer of BUF bytes, each 16-bit half a pseudo-random f16 in [-2, 2)
(as f32 words those are finite too), an integer parameter 256, a float 1.5; the block is the kernel's .reqntid
(else 128 threads, or what the spec says: a one-warp kernel synchronizing with bar.warp.sync only races with
itself in a bigger block), the grid GRID blocks, the dynamic shared memory what the spec says (Triton sizes its
own at launch). What a run wrote is kept as the byte ranges of each buffer that differ from its input.

  python3 replay-synth.py --record OUT.jsonl PTX:KERNEL[:SMEM[:BLOCK]] ... on the NVIDIA machine (CuPy)
  python3 replay-synth.py --reference REF.jsonl --arch gfx1100 --tool zluda-precompile
                                                                       our build of each module in the emulator

Exit status 1 if any kernel's written bytes differ.
"""
from __future__ import annotations

import argparse
import json
import lzma
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUF = 4 << 20
GRID = 4


def halves(seed: str, size: int) -> bytes:
  rng = random.Random(seed)
  def half():  # [-2, 2): exponents 2^-6 .. 2^0, random mantissa and sign
    return rng.getrandbits(1) << 15 | rng.randrange(9, 16) << 10 | rng.getrandbits(10)
  return struct.pack(f'<{size // 2}H', *(half() for _ in range(size // 2)))


def params(ptx: str, kernel: str) -> list[str]:
  """The kinds of the kernel's parameters: 'ptr' (64-bit), 'int', 'float'."""
  m = re.search(r'\.entry\s+' + re.escape(kernel) + r'\s*\((.*?)\)', ptx, re.S)
  kinds = []
  for p in (m.group(1).split(',') if m and m.group(1).strip() else []):
    t = re.search(r'\.(u64|s64|b64|u32|s32|b32|f32|u16|s16|b16)\b', p).group(1)
    kinds.append('ptr' if t.endswith('64') else 'float' if t == 'f32' else 'int')
  return kinds


def block_of(ptx: str, kernel: str) -> int:
  m = re.search(r'\.entry\s+' + re.escape(kernel) + r'\s*\(.*?\)\s*((?:\.\w+[^{]*?)*)\{', ptx, re.S)
  r = re.search(r'\.(?:reqntid|maxntid)\s+(\d+)', m.group(1) if m else '')
  return int(r.group(1)) if r else 128


def launch(spec: str):
  path, kernel, *rest = spec.split(':')
  smem = int(rest[0]) if rest and rest[0] else 0
  ptx = open(os.path.join(ROOT, path)).read()
  kinds = params(ptx, kernel)
  bufs = [halves(f'{path}:{kernel}:{i}', BUF) if k == 'ptr' else None for i, k in enumerate(kinds)]
  block = int(rest[1]) if len(rest) > 1 else block_of(ptx, kernel)
  return path, kernel, smem, kinds, bufs, block


def written(before: bytes, after: bytes) -> list[tuple[int, str]]:
  """The byte ranges of `after` that differ from `before`, as (offset, hex), merged across gaps under 64 bytes."""
  runs, i, n = [], 0, len(before)
  while i < n:
    if before[i] == after[i]: i += 1; continue
    j = i
    while j < n and (before[j] != after[j] or after[j:j + 64] != before[j:j + 64]): j += 1
    runs.append((i, after[i:j].hex()))
    i = j
  return runs


def record(out: str, specs: list[str]) -> int:
  import cupy as cp  # noqa: PLC0415
  with open(out, 'w') as f:
    for spec in specs:
      path, kernel, smem, kinds, bufs, block = launch(spec)
      mod = cp.RawModule(path=os.path.join(ROOT, path))
      fn = mod.get_function(kernel)
      if smem: fn.max_dynamic_shared_size_bytes = smem
      dev = [cp.asarray(bytearray(b), dtype=cp.uint8) if b is not None else None for b in bufs]
      args = [d if d is not None else (cp.int32(256) if k == 'int' else cp.float32(1.5))
              for d, k in zip(dev, kinds)]
      fn((GRID,), (block,), tuple(args), shared_mem=smem)
      cp.cuda.Device().synchronize()
      res = {i: written(b, bytes(d.get())) for i, (b, d) in enumerate(zip(bufs, dev)) if b is not None}
      f.write(json.dumps({'spec': spec, 'block': block, 'grid': GRID, 'written': res}) + '\n')
      print(spec, {i: sum(len(h) // 2 for _, h in r) for i, r in res.items()})
  return 0


def replay(ref: str, arch: str, tool: str, only: list[str] | None = None) -> int:
  sys.path.insert(0, HERE)
  import amdgpu_runner as ar  # noqa: PLC0415
  failed = 0
  opener = lzma.open if ref.endswith('.xz') else open
  with tempfile.TemporaryDirectory() as tmp, opener(ref, 'rt') as f:
    for rec in map(json.loads, f):
      if only and not any(o in rec['spec'] for o in only): continue
      path, kernel, smem, kinds, bufs, block = launch(rec['spec'])
      co = os.path.join(tmp, 'k.hsaco')
      subprocess.run([tool, 'compile', os.path.join(ROOT, path), '--arch', arch, '-o', co], check=True,
                     stderr=subprocess.DEVNULL)
      mem = [ar.Buffer(b) if b is not None else None for b in bufs]
      args = [m if m is not None else (256 if k == 'int' else 1.5) for m, k in zip(mem, kinds)]
      ar.run(open(co, 'rb').read(), kernel, (rec['grid'], 1, 1), (block, 1, 1), args, dynamic_lds=smem)
      same = total = 0
      for i, runs in rec['written'].items():
        got = mem[int(i)].read()
        exp = bytearray(bufs[int(i)])
        for off, h in runs: exp[off:off + len(h) // 2] = bytes.fromhex(h)
        total += sum(len(h) // 2 for _, h in runs)
        same += got == bytes(exp)
        if got != bytes(exp):
          bad = sum(1 for k in range(0, len(exp), 4) if got[k:k + 4] != exp[k:k + 4])
          print(f'  buffer {i}: {bad} words differ')
      ok = same == len(rec['written'])
      failed += not ok
      print(f"{'SAME' if ok else 'DIFFER'} {rec['spec']} [{arch}]: {total} bytes written by NVIDIA, "
            f"{len(rec['written'])} buffers compared")
  return 1 if failed else 0


def main() -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('--record')
  p.add_argument('--reference')
  p.add_argument('--arch', default='gfx1100')
  p.add_argument('--tool', default=os.environ.get('ZLUDA_PRECOMPILE', 'zluda-precompile'))
  p.add_argument('-k', dest='only', action='append', help='replay only the specs containing this')
  p.add_argument('specs', nargs='*')
  a = p.parse_args()
  if a.record: return record(a.record, a.specs)
  return replay(a.reference, a.arch, a.tool, a.only)


if __name__ == '__main__':
  sys.exit(main())

#!/usr/bin/env python3
"""Matrix instructions (mma.sync, wmma, ldmatrix, stmatrix, movmatrix) against NVIDIA's results.

kernels/matrix.ptx holds one single-warp kernel per form. Each runs on inputs generated here from fixed seeds
(random values, a wide exponent range, specials: zeros, infinities, NaNs, subnormals, extreme integers):

  python3 matrix.py --record OUT.jsonl          on a machine with an NVIDIA GPU and CuPy: NVIDIA's results
  python3 matrix.py --tool zluda-precompile --arch gfx1100 [--reference REF] [-k KERNEL]
                                                 our build of the same PTX in the AMD emulator, compared

Integer and data-movement kernels must match byte for byte. Float kernels are compared element by element:
identical bits, or within the bound docs/lowering.md states for the software product (its error in units of
the result's last place, counted and reported); NaN must be NaN. Exit status 1 on any mismatch outside that.
"""
from __future__ import annotations

import argparse
import json
import lzma
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
PTX = os.path.join(HERE, 'kernels', 'matrix.ptx')
# Kernels in a module of their own (the code generated for a function depends on its callers), each the same
# instruction as a kernel of matrix.ptx: run on its inputs and compared with its recorded results.
MODULES = {'mma_f16_f32_reqntid': os.path.join(HERE, 'kernels', 'matrix-reqntid.ptx')}
SAME_AS = {'mma_f16_f32_reqntid': 'mma_f16_f32'}
REFERENCE = os.path.join(HERE, 'reference', 'matrix-h200.jsonl.xz')

# Element formats: (bits, exponent bits, mantissa bits) of the float kinds.
FLOATS = {'f16': (16, 5, 10), 'bf16': (16, 8, 7), 'f32': (32, 8, 23), 'tf32': (32, 8, 23), 'f64': (64, 11, 52)}


def gen_float(rng: random.Random, kind: str, case: str) -> int:
  bits, eb, mb = FLOATS[kind]
  bias = (1 << (eb - 1)) - 1
  sign = rng.getrandbits(1) << (bits - 1)
  mant = rng.getrandbits(mb)
  if case == 'special' and rng.getrandbits(2) == 0:
    emax = (1 << eb) - 1
    pick = rng.getrandbits(3)
    if pick == 0: return sign | (emax << mb)                      # infinity
    if pick == 1: return sign | (emax << mb) | (1 << (mb - 1))    # quiet NaN
    if pick == 2: return sign                                     # zero
    if pick == 3: return sign | (mant or 1)                       # subnormal
    if pick == 4: return sign | ((emax - 1) << mb) | ((1 << mb) - 1)  # largest finite
    return sign | (bias << mb)                                    # one
  if case == 'wide':
    e = rng.randrange(0, (1 << eb) - 1)                           # every finite exponent, subnormals included
  elif case == 'narrow':                                          # few values: exact cancellations and ties
    return sign | ((bias + rng.randrange(-1, 2)) << mb) | (rng.getrandbits(2) << (mb - 2))
  elif case == 'spread':                                          # exponents 2^+-20 apart: truncated small terms
    e = max(1, bias + rng.choice([-20, -12, 0, 1, 9]))
  else:
    e = bias + rng.randrange(-6, 7)
  return sign | (e << mb) | mant


def gen_int(rng: random.Random, kind: str, case: str) -> int:
  if kind in ('s8', 'u8'):
    if case == 'extreme': return rng.choice([0x7f, 0x80, 0xff, 0x01])
    return rng.getrandbits(8)
  if case == 'extreme': return rng.choice([0x7fffffff, 0x80000000, 0x7ffffff0, 0x80000010])
  return rng.getrandbits(32) if case != 'small' else rng.getrandbits(16)


def gen_elems(rng, kind, case, count) -> bytes:
  if kind in FLOATS:
    bits = FLOATS[kind][0]
    fmt = {16: 'H', 32: 'I', 64: 'Q'}[bits]
    return struct.pack(f'<{count}{fmt}', *(gen_float(rng, kind, case) for _ in range(count)))
  if kind in ('s8', 'u8'):
    return bytes(gen_int(rng, kind, case) for _ in range(count))
  return struct.pack(f'<{count}I', *(gen_int(rng, kind, case) for _ in range(count)))


def size_of(kind: str) -> int:
  return {'s8': 1, 'u8': 1, 's32': 4}.get(kind) or FLOATS[kind][0] // 8


# kernel: (class, A kind, B kind, C kind, D kind, lane words of A, B, C)
MMA = {
  'mma_f16_f32': ('f16', 'f16', 'f32', 'f32', 4, 2, 4),
  'mma_bf16_f32': ('bf16', 'bf16', 'f32', 'f32', 4, 2, 4),
  'mma_f16_f16': ('f16', 'f16', 'f16', 'f16', 4, 2, 2),
  'mma_k8_f16_f32': ('f16', 'f16', 'f32', 'f32', 2, 1, 4),
  'mma_k8_bf16_f32': ('bf16', 'bf16', 'f32', 'f32', 2, 1, 4),
  'mma_tf32_k8': ('tf32', 'tf32', 'f32', 'f32', 4, 2, 4),
  'mma_tf32_k4': ('tf32', 'tf32', 'f32', 'f32', 2, 1, 4),
  'mma_s8_k32_sat': ('s8', 's8', 's32', 's32', 4, 2, 4),
  'mma_u8s8_k16': ('u8', 's8', 's32', 's32', 2, 1, 4),
  'mma_s8_m8n8k16': ('s8', 's8', 's32', 's32', 1, 1, 2),
  'mma_f64': ('f64', 'f64', 'f64', 'f64', 2, 2, 4),
}
# wmma kernels: A, B, C kinds, D kind (matrices at in + 0 / 4096 / 8192, D at out)
WMMA = {
  'wmma_f16_f32': ('f16', 'f16', 'f32', 'f32'),
  'wmma_f16_f32_strided': ('f16', 'f16', 'f32', 'f32'),
  'wmma_f16_f16': ('f16', 'f16', 'f16', 'f16'),
  'wmma_f16_shared': ('f16', 'f16', 'f32', 'f32'),
  'wmma_m32n8k16': ('f16', 'f16', 'f32', 'f32'),
  'wmma_m8n32k16': ('f16', 'f16', 'f32', 'f32'),
  'wmma_bf16': ('bf16', 'bf16', 'f32', 'f32'),
  'wmma_tf32': ('tf32', 'tf32', 'f32', 'f32'),
  'wmma_s8': ('s8', 's8', 's32', 's32'),
  'wmma_u8_m32n8k16': ('u8', 'u8', 's32', 's32'),
  'wmma_f64': ('f64', 'f64', 'f64', 'f64'),
}
# data movement: lane input words, lane output words, registers moved
MOVES = {
  'ldmatrix_x4': (17, 4, 4), 'ldmatrix_x4_trans': (17, 4, 4), 'ldmatrix_x2': (17, 2, 2),
  'ldmatrix_x1_trans': (17, 1, 1), 'stmatrix_x4': (5, 16, 4), 'stmatrix_x2_trans': (3, 16, 2),
  'movmatrix': (1, 1, 1),
}


def cases(kernel: str) -> list[str]:
  kinds = MMA.get(kernel) or WMMA.get(kernel)
  if not kinds: return ['random1', 'random2']
  if kinds[0] in ('s8', 'u8'): return ['random1', 'random2', 'small', 'extreme']
  return ['random1', 'random2', 'random3', 'wide', 'special', 'narrow', 'spread']


def make_inputs(kernel: str, case: str) -> tuple[bytes, int]:
  """The kernel's `in` buffer and the size of its `out` buffer."""
  kernel = SAME_AS.get(kernel, kernel)
  rng = random.Random(f'{kernel}/{case}')
  sub = 'random' if case.startswith('random') else case
  if kernel in MMA:
    a, b, c, d, na, nb, nc = MMA[kernel]
    lanes = b''
    for _ in range(32):
      for kind, words in ((a, na), (b, nb), (c, nc)):
        n = words * 4 // size_of(kind)
        lanes += gen_elems(rng, kind, sub, n)
    return lanes, 32 * nc * 4
  if kernel in WMMA:
    a, b, c, d = WMMA[kernel]
    data = b''.join(gen_elems(rng, k, sub, 4096 // size_of(k)) for k in (a, b, c))
    return data, 4096
  nin, nout, regs = MOVES[kernel]
  if kernel.startswith('ldmatrix'):
    rows = rng.sample(range(128), 32)
    data = b''.join(struct.pack('<16I', *(rng.getrandbits(32) for _ in range(16))) + struct.pack('<I', rows[l])
                    for l in range(32))
  elif kernel.startswith('stmatrix'):
    rows = rng.sample(range(128), 32)
    data = b''.join(struct.pack(f'<{regs}I', *(rng.getrandbits(32) for _ in range(regs))) + struct.pack('<I', rows[l])
                    for l in range(32))
  else:
    data = struct.pack('<32I', *(rng.getrandbits(32) for _ in range(32)))
  return data, 32 * nout * 4


def all_runs(recorded_only: bool = False):
  for kernel in list(MMA) + list(WMMA) + list(MOVES) + ([] if recorded_only else list(SAME_AS)):
    for case in cases(SAME_AS.get(kernel, kernel)):
      yield kernel, case


def out_kind(kernel: str) -> str | None:
  kernel = SAME_AS.get(kernel, kernel)
  kinds = MMA.get(kernel) or WMMA.get(kernel)
  return kinds[3] if kinds else None


# Warp w of a run works on in + IN_STRIDE * w and out + OUT_STRIDE * w (kernels/matrix.ptx).
IN_STRIDE, OUT_STRIDE = 16384, 8192


def buffers(data: bytes, out_size: int, warps: int) -> tuple[bytes, bytes]:
  """The `in` and `out` contents of a run of `warps` warps, each on the same inputs."""
  one_in = data + bytes(IN_STRIDE - len(data))
  one_out = b'\xab' * out_size + bytes(OUT_STRIDE - out_size)
  return one_in * warps, one_out * warps


def record(path: str, warps: int) -> int:
  import cupy as cp  # noqa: PLC0415 (only on the NVIDIA machine)
  mod = cp.RawModule(path=PTX)
  differ = 0
  with open(path, 'w') as f:
    for kernel, case in all_runs(recorded_only=True):
      data, out_size = make_inputs(kernel, case)
      fin, fout = buffers(data, out_size, warps)
      din = cp.asarray(bytearray(fin), dtype=cp.uint8)
      dout = cp.asarray(bytearray(fout), dtype=cp.uint8)
      mod.get_function(kernel)((1,), (32 * warps,), (din, dout))
      cp.cuda.Device().synchronize()
      out = bytes(dout.get())
      outs = [out[w * OUT_STRIDE:w * OUT_STRIDE + out_size] for w in range(warps)]
      differ += len(set(outs)) != 1
      f.write(json.dumps({'kernel': kernel, 'case': case, 'in': data.hex(), 'out': outs[0].hex()}) + '\n')
  print(f'{differ} runs where NVIDIA\'s warps disagree')
  return 1 if differ else 0


def ulps(kind: str, x: int, y: int) -> float:
  """Distance in units of the last place between two finite values' bit patterns (sign-magnitude order)."""
  bits = FLOATS[kind][0]
  sign = 1 << (bits - 1)
  def order(v): return -(v & (sign - 1)) if v & sign else v
  return abs(order(x) - order(y))


def is_nan(kind: str, v: int) -> bool:
  bits, eb, mb = FLOATS[kind]
  return (v >> mb) & ((1 << eb) - 1) == (1 << eb) - 1 and v & ((1 << mb) - 1) != 0


def compare(kernel: str, got: bytes, exp: bytes) -> dict:
  kind = out_kind(kernel)
  if kind is None or kind not in FLOATS:
    bad = sum(1 for i in range(0, len(exp), 4) if got[i:i + 4] != exp[i:i + 4])
    return {'elements': len(exp) // 4, 'identical': len(exp) // 4 - bad, 'max_ulps': 0, 'nan_mismatch': 0,
            'exact_required': True, 'different': bad}
  size = FLOATS[kind][0] // 8
  fmt = {2: 'H', 4: 'I', 8: 'Q'}[size]
  g = struct.unpack(f'<{len(got) // size}{fmt}', got)
  e = struct.unpack(f'<{len(exp) // size}{fmt}', exp)
  same = nanbad = 0
  worst = 0.0
  hist: dict[int, int] = {}
  for x, y in zip(g, e):
    if x == y: same += 1; continue
    if is_nan(kind, x) or is_nan(kind, y):
      nanbad += 1  # a NaN against a number, or NaNs of other bits (NVIDIA's are canonical, f64's propagated)
      continue
    u = ulps(kind, x, y)
    worst = max(worst, u)
    bucket = 1 if u <= 1 else 2 if u <= 2 else 4 if u <= 4 else 16 if u <= 16 else 1 << 30
    hist[bucket] = hist.get(bucket, 0) + 1
  return {'elements': len(e), 'identical': same, 'max_ulps': worst, 'nan_mismatch': nanbad,
          'exact_required': False, 'different': len(e) - same, 'ulp_histogram': hist}


def compile_ptx(tool: str, arch: str, tmp: str, ptx: str = PTX) -> bytes:
  out = os.path.join(tmp, f'{os.path.basename(ptx)}.{arch}.hsaco')
  subprocess.run([tool, 'compile', ptx, '--arch', arch, '-o', out], check=True)
  with open(out, 'rb') as f: return f.read()


def main() -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('--record', help='run on NVIDIA (CuPy) and write the results here')
  p.add_argument('--reference', default=REFERENCE)
  p.add_argument('--arch', default='gfx1100')
  p.add_argument('--tool', default=os.environ.get('ZLUDA_PRECOMPILE', 'zluda-precompile'))
  p.add_argument('--bound', type=float, default=float(os.environ.get('ZLUDA_MATRIX_ULPS', '0')),
                 help='ulps a float element may differ by and still pass (default 0: every difference reported)')
  p.add_argument('--warps', type=int, default=2, help='warps per block, each on the same inputs (2: both halves '
                 'of a wave64)')
  p.add_argument('-k', dest='only', action='append', help='only these kernels')
  a = p.parse_args()
  if a.record: return record(a.record, a.warps)
  sys.path.insert(0, HERE)
  import amdgpu_runner as ar  # noqa: PLC0415
  opener = lzma.open if a.reference.endswith('.xz') else open
  with opener(a.reference, 'rt') as f:
    ref = {(r['kernel'], r['case']): r for r in map(json.loads, f)}
  failed = 0
  totals: dict[str, list] = {}
  with tempfile.TemporaryDirectory() as tmp:
    codes = {p: compile_ptx(a.tool, a.arch, tmp, p) for p in {PTX, *MODULES.values()}}
    for kernel, case in all_runs():
      if a.only and kernel not in a.only: continue
      r = ref.get((SAME_AS.get(kernel, kernel), case))
      if r is None:
        print(f'MISSING {kernel}/{case}: no reference'); failed += 1; continue
      data, out_size = make_inputs(kernel, case)
      if data.hex() != r['in']:
        print(f'FAIL {kernel}/{case}: inputs differ from the recorded ones'); failed += 1; continue
      fin, fout = buffers(data, out_size, a.warps)
      out = ar.Buffer(fout)
      ar.run(codes[MODULES.get(kernel, PTX)], kernel, (1, 1, 1), (32 * a.warps, 1, 1), [ar.Buffer(fin), out])
      got = out.read()
      exp = bytes.fromhex(r['out'])
      cs = [compare(kernel, got[w * OUT_STRIDE:w * OUT_STRIDE + out_size], exp) for w in range(a.warps)]
      c = min(cs, key=lambda c: c['identical'])   # the worst warp
      t = totals.setdefault(kernel, [0, 0, 0.0, 0])
      t[0] += c['elements']; t[1] += c['identical']; t[2] = max(t[2], c['max_ulps']); t[3] += c['nan_mismatch']
      ok = c['different'] == 0 or (not c['exact_required'] and c['nan_mismatch'] == 0 and c['max_ulps'] <= a.bound)
      status = 'PASS' if ok else 'FAIL'
      failed += not ok
      extra = '' if c['exact_required'] else f", max {c['max_ulps']:g} ulps {c.get('ulp_histogram', {})}, NaN mismatches {c['nan_mismatch']}"
      print(f"{status} {kernel}/{case} [{a.arch}, {a.warps} warps]: {c['identical']}/{c['elements']} identical{extra}")
  print(f'\n{a.arch}, {a.warps} warps per block (the worst warp counted)')
  print('kernel | elements | identical | max ulps | NaN mismatches')
  for k, (n, s, u, nb) in totals.items():
    print(f'{k} | {n} | {s} | {u:g} | {nb}')
  return 1 if failed else 0


if __name__ == '__main__':
  sys.exit(main())

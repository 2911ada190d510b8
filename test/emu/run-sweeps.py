#!/usr/bin/env python3
"""Runs every differential sweep family (test/verify/sweeps) compiled for an AMD target in the ISA emulator, on
exactly the inputs NVIDIA's outputs were recorded for (`harness --record`, test/verify/record-on-device.sh), and
compares them with that reference: bit for bit (per-256-input SHA-256 digests), `.approx` families within the PTX
ISA's bound (APPROX below).

  ZLUDA_AMD_EMULATOR=... python3 test/emu/run-sweeps.py --reference REF.jsonl.xz [--arch gfx1100] [-k FAMILY...]
      [--tool build/bin/zluda-precompile] [--jsonl RESULTS] [--write-reference OUT.jsonl.xz] [--selfcheck]

The inputs are made here as test/verify/HarnessLogic.h makes them (splitmix64, the edge-value grid, the record
sample of an exhaustive family); each reference record carries a digest of the inputs NVIDIA ran, checked before the
comparison. `--selfcheck` compiles a small C++ program with HarnessLogic.h (g++) and compares its inputs, input
digests and output digests with this port. `--write-reference` writes this run's own outputs in the reference
format (to test the pipeline without NVIDIA's file: e.g. record gfx1201, compare gfx1100 with it).

Each family runs in a worker process (a kernel crashing the emulator's process is reported as such, never skipped);
per family it prints the inputs compared and the mismatches (first differing chunk, and where the reference keeps
NVIDIA's values, the first differing input with both values), or `not runnable: WHY`; then a table.
Exit status: 0 when every family ran and matched, 1 otherwise, 2 on a usage or set-up error.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import lzma
import math
import re
from fractions import Fraction
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SWEEPS = os.path.join(ROOT, 'test', 'verify', 'sweeps')
HARNESS_LOGIC = os.path.join(ROOT, 'test', 'verify', 'HarnessLogic.h')

# --- port of test/verify/HarnessLogic.h ---------------------------------------------------------------------------
EDGES = [
    0, 1, 2, 3, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
    0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff0, 12345, 0xffffcfc7, 0x007fffff, 0x807fffff,
    0x80000001, 0x000116c2, 0x00800000, 0x80800000, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000,
    0xc0200000, 0x40600000, 0x3effffff, 0x3f7fffff, 0x4b000000, 0x4f000000, 0xcf000000, 0x4f800000, 0x7f7fffff,
    0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345]
EDGE_COUNT = len(EDGES)
GRID = EDGE_COUNT ** 3
CHUNK = 256                      # kRecordChunk
RECORD_INPUTS = 806 * CHUNK      # kRecordInputs
RECORD_EXHAUSTIVE = 65536 + CHUNK  # kRecordExhaustive
M64 = (1 << 64) - 1


def seed_of(name: str) -> int:
  seed = 0x9e3779b97f4a7c15
  for ch in name.encode(): seed = (seed * 1099511628211 + ch) & M64
  return seed


def splitmix64(x: int) -> int:
  x = (x + 0x9e3779b97f4a7c15) & M64
  x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & M64
  x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & M64
  return x ^ (x >> 31)


def input_at(seed: int, i: int) -> tuple[int, int, int]:
  """harness::inputAt with the harness's edges."""
  if i < GRID:
    return EDGES[i // (EDGE_COUNT * EDGE_COUNT)], EDGES[(i // EDGE_COUNT) % EDGE_COUNT], EDGES[i % EDGE_COUNT]
  x, y = splitmix64((seed + 2 * i) & M64), splitmix64((seed + 2 * i + 1) & M64)
  return x & 0xffffffff, x >> 32, y & 0xffffffff


def record_exhaustive_at(seed: int, j: int) -> tuple[int, int, int]:
  if j < 65536: return (j * 0x10001) & 0xffffffff, 0, 0
  k = j - 65536
  if k < EDGE_COUNT: return EDGES[k], 0, 0
  return splitmix64((seed + j) & M64) & 0xffffffff, 0, 0


def record_inputs(name: str, exhaustive: bool, n: int) -> tuple[list[int], list[int], list[int]]:
  seed = seed_of(name)
  f = record_exhaustive_at if exhaustive else input_at
  a, b, c = [0] * n, [0] * n, [0] * n
  for j in range(n): a[j], b[j], c[j] = f(seed, j)
  return a, b, c


def raw_chunks(exhaustive: bool) -> list[int]:
  return [0, 65536 // CHUNK if exhaustive else (GRID + CHUNK - 1) // CHUNK]


def inputs_digest(a: list[int], b: list[int], c: list[int]) -> str:
  inter = [v for t in zip(a, b, c) for v in t]
  return hashlib.sha256(struct.pack(f'<{len(inter)}I', *inter)).digest()[:8].hex()


def chunk_digests(out: bytes) -> list[str]:
  return [hashlib.sha256(out[i:i + 8 * CHUNK]).digest()[:8].hex() for i in range(0, len(out), 8 * CHUNK)]


def is_approx(name: str) -> bool: return '_approx' in name


# --- .approx tolerances -------------------------------------------------------------------------------------------
# Per family: (format, metric, bound, domain) -- the PTX ISA's stated maximum error of the instruction. Both NVIDIA's
# result and ours are each within the bound of the exact value, so they may differ by twice the bound; differences
# below the format's smallest normal are accepted too (flush-to-zero / subnormal results). Outside the domain where
# the ISA states a bound, only the class is compared (both NaN, or both not NaN).
#   metric 'abs': |ours - nv| <= 2 * bound; 'rel': <= 2 * bound * |nv|; 'ulp': <= 2 * bound ulps of nv.
APPROX = {}
for z in ('', '_ftz'):
  # sin/cos: absolute 2^-20.5 on [-2 pi, 2 pi], 2^-14.7 on [-100 pi, 100 pi], no bound beyond ('sincos').
  APPROX[f'sin_approx{z}_f32'] = ('f32', 'abs', 2 ** -20.5, 'sincos')
  APPROX[f'cos_approx{z}_f32'] = ('f32', 'abs', 2 ** -20.5, 'sincos')
  APPROX[f'ex2_approx{z}_f32'] = ('f32', 'ulp', 2, None)            # 2 ulp, full range
  # lg2: absolute 2^-22 on (0.5, 2), relative 2^-22 for the other positive finite inputs ('lg2').
  APPROX[f'lg2_approx{z}_f32'] = ('f32', 'abs', 2 ** -22, 'lg2')
  APPROX[f'rsqrt_approx{z}_f32'] = ('f32', 'rel', 2 ** -22.9, None)
  APPROX[f'sqrt_approx{z}_f32'] = ('f32', 'rel', 2 ** -23, None)
  APPROX[f'rcp_approx{z}_f32'] = ('f32', 'ulp', 1, None)
  APPROX[f'div_approx{z}_f32'] = ('f32', 'ulp', 2, 'div')  # 2^-126 <= |b| <= 2^126; beyond 2^126: exact
APPROX['tanh_approx_f32'] = ('f32', 'rel', 2 ** -11, None)
APPROX['ex2_approx_f16x2'] = ('f16x2', 'rel', 2 ** -9.9, None)
APPROX['ex2_approx_ftz_bf16x2'] = ('bf16x2', 'rel', 2 ** -7, None)
# The ISA states no number for rcp.approx.ftz.f64 (a "gross approximation" from the upper 20 mantissa bits, the
# result's lower 32 bits zero): our assumption, 2^-18 relative.
APPROX['rcp_approx_ftz_f64'] = ('f64', 'rel', 2 ** -18, None)

MIN_NORMAL = {'f32': 2.0 ** -126, 'f16': 2.0 ** -14, 'bf16': 2.0 ** -126, 'f64': 2.0 ** -1022}


def _f16(bits: int) -> float: return struct.unpack('<e', struct.pack('<H', bits))[0]
def _bf16(bits: int) -> float: return struct.unpack('<f', struct.pack('<I', bits << 16))[0]
def _f32(bits: int) -> float: return struct.unpack('<f', struct.pack('<I', bits & 0xffffffff))[0]
def _f64(bits: int) -> float: return struct.unpack('<d', struct.pack('<Q', bits))[0]


def _ulp(x: float, fmt: str) -> float:
  mant = {'f32': 23, 'f16': 10, 'bf16': 7, 'f64': 52}[fmt]
  if x == 0 or not math.isfinite(x): return MIN_NORMAL[fmt] * 2.0 ** -mant
  return max(2.0 ** (math.frexp(abs(x))[1] - 1 - mant), MIN_NORMAL[fmt] * 2.0 ** -mant)


def _within(nv: float, us: float, fmt: str, metric: str, bound: float) -> tuple[bool, float]:
  """Whether `us` is within tolerance of `nv`, and the difference in units of the bound."""
  if math.isnan(nv) or math.isnan(us): return math.isnan(nv) and math.isnan(us), 0.0
  if math.isinf(nv) or math.isinf(us): return nv == us, 0.0 if nv == us else math.inf
  d = abs(us - nv)
  if d <= MIN_NORMAL[fmt]: return True, 0.0
  unit = bound if metric == 'abs' else bound * abs(nv) if metric == 'rel' else bound * _ulp(nv, fmt)
  if unit == 0: return d == 0, math.inf
  return d <= 2 * unit, d / unit


def approx_compare(name: str, nv_out: list[int], us_out: list[int], a: list[int], b: list[int]) -> dict:
  fmt, metric, bound, domain = APPROX[name]
  bad = unbounded = explained = 0
  worst = 0.0
  first = None
  for j, (nv, us) in enumerate(zip(nv_out, us_out)):
    if nv == us: continue
    x = _f32(a[j])
    metric_j, bound_j = metric, bound
    if domain == 'sincos' and 2 * math.pi < abs(x) <= 100 * math.pi: bound_j = 2 ** -14.7
    if domain == 'lg2' and not 0.5 < x < 2: metric_j = 'rel'
    if domain == 'sincos' and not abs(x) <= 100 * math.pi or \
       domain == 'div' and 0 < abs(_f32(b[j])) < 2.0 ** -126:
      unbounded += 1
      ok = math.isnan(_f32(nv)) == math.isnan(_f32(us))
      err = 0.0
    elif domain == 'div' and abs(_f32(b[j])) > 2.0 ** 126:
      # the ISA states the result there (0, or NaN for an infinite a): exact, a NaN being any NaN
      ok, err = (True, 0.0) if math.isnan(_f32(nv)) and math.isnan(_f32(us)) else (False, math.inf)
    elif fmt in ('f16x2', 'bf16x2'):
      conv, part = (_f16, 'f16') if fmt == 'f16x2' else (_bf16, 'bf16')
      ok, err = True, 0.0
      for sh in (0, 16):
        o, e = _within(conv((nv >> sh) & 0xffff), conv((us >> sh) & 0xffff), part, metric_j, bound_j)
        ok, err = ok and o, max(err, e)
    elif fmt == 'f64':
      ok, err = _within(_f64(nv), _f64(us), 'f64', metric_j, bound_j)
    else:
      ok, err = _within(_f32(nv), _f32(us), 'f32', metric_j, bound_j) if (nv >> 32) == (us >> 32) == 0 \
          else (False, math.inf)
    if not ok and name == 'rcp_approx_ftz_f64' and abs(_f64(a[j] << 32 | b[j])) > 2.0 ** 1022 \
        and math.isfinite(_f64(a[j] << 32 | b[j])) and _f64(nv) == 0:
      # 1/x is subnormal, which .ftz makes 0 (NVIDIA); the emulator's division steps at such exponents
      # (v_div_extreme_exponents) gave something else before the flush
      explained += 1
      continue
    if not ok:
      bad += 1
      if first is None: first = j
    if math.isfinite(err): worst = max(worst, err)
  return {'mismatches': bad, 'unbounded': unbounded, 'explained': explained, 'worst_in_bounds': round(worst, 3),
          'first': first,
          'tolerance': f'{metric} 2 x {bound:.3g} ({fmt})'}


# --- NaN results the PTX ISA leaves unspecified ------------------------------------------------------------------
# PTX ISA, floating-point instructions: "Single-precision instructions return an unspecified NaN"; half-precision
# likewise. NVIDIA's hardware returns the canonical NaN (0x7fffffff, 0x7fff), AMD's the quieted operand (sign and
# payload kept). Where a family's result lane is f32, f16 or bf16 and the ISA does not define the NaN (it does for
# .NaN min/max, .relu, .sat, conversions to integers and FP8, rcp.approx.ftz.f64), each NaN of ours in that lane is
# compared as NVIDIA's canonical NaN: NaN-ness is still compared bit for bit, the payload is not. Double precision
# keeps payloads ("NaN payloads are supported for double-precision instructions"): an f64 result is compared bit for
# bit when exactly one operand is NaN; with none (0/0, inf - inf: a new NaN, whose sign IEEE 754 leaves open; NVIDIA
# gives 0xfff8000000000000) or two (which payload propagates is unspecified) a NaN of ours counts as NVIDIA's.
CANONICAL_NAN = {'f32': (0x7fffffff, 32), 'f16': (0x7fff, 16), 'bf16': (0x7fff, 16)}
F64_DEFAULT_NAN = 0xfff8000000000000
_FLOAT_LANES = {'f32': [(0, 'f32')], 'f16': [(0, 'f16')], 'bf16': [(0, 'bf16')],
                'f16x2': [(0, 'f16'), (16, 'f16')], 'bf16x2': [(0, 'bf16'), (16, 'bf16')], 'f64': [(0, 'f64')]}
_MODIFIERS = {'rn', 'rm', 'rp', 'rz', 'rni', 'rmi', 'rpi', 'rzi', 'rna', 'ftz', 'noftz'}
_DEFINED_NAN = {'NaN', 'nan', 'relu', 'sat', 'satfinite', 'approx', 'xorsign'}


def nan_lanes(fam: str) -> list[tuple[int, str]]:
  """The (bit offset, format) of each output lane of `fam` whose NaN the PTX ISA leaves unspecified."""
  t = fam.split('_')
  if _DEFINED_NAN & set(t) or t[0] in ('setp', 'set', 'testp', 'slct', 'copysign'): return []
  # cvt.f32.bf16: "NaN input yields unspecified NaN", but NVIDIA keeps the payload (a shift), as AMD does.
  if fam == 'cvt_f32_bf16': return []
  if fam == 'atom_add_v2_f32':   # the new pair, each word xor the other element's old value (undone below)
    return [(0, 'f32'), (32, 'f32')]
  if fam in ('atom_add_f16', 'atom_add_f16x2', 'atom_add_bf16x2'):   # the memory's new value, in the high word
    return [(32 + off, f) for off, f in _FLOAT_LANES[t[-1]]]
  if t[0] == 'atom': return []
  if t[0] == 'cvt':
    types = [x for x in t[1:] if x not in _MODIFIERS]
    # From f64 the payload is defined ("NaN payloads are supported for double-precision instructions"): NVIDIA
    # keeps its top bits, and so must we.
    if len(types) == 2 and types[1] == 'f64': return []
    return _FLOAT_LANES.get(types[0], []) if len(types) == 2 and types[1] in _FLOAT_LANES else []
  return _FLOAT_LANES.get(t[-1], [])


def f64_operands(fam: str, a: int, b: int, c: int) -> list[int]:
  """The f64 operands of an f64 family's instruction (test/verify/gen-sweeps.py F64_IN), as bit patterns."""
  t = fam.split('_')
  if t[0] == 'cvt':
    return [a] if t[-1] == 'f32' else []   # cvt.f64.f32 of an f32 (checked as f32 below)
  ops = [a << 32 | b]
  if t[0] in ('add', 'sub', 'mul', 'div', 'fma'): ops.append(b << 32 | c)
  if t[0] == 'fma': ops.append(a << 32 | c)
  return ops


def _is_nan(bits: int, fmt: str) -> bool:
  if fmt == 'f64': return bits & 0x7fffffffffffffff > 0x7ff0000000000000
  if fmt == 'f32': return bits & 0x7fffffff > 0x7f800000
  return bits & 0x7fff > (0x7c00 if fmt == 'f16' else 0x7f80)


def map_unspecified_nans(fam: str, ours: list[int], a: list[int], b: list[int], c: list[int],
                         nv: list[int] | dict | None = None) -> tuple[list[int], int]:
  """Ours with each NaN whose encoding the ISA leaves open replaced by NVIDIA's (canonical, or with `nv`, the
  full reference, NVIDIA's own NaN there); and how many were replaced."""
  lanes = nan_lanes(fam)
  if not lanes: return ours, 0
  out, n = list(ours), 0
  # atom_add_v2_f32 stores new[0] ^ old[1] (= b) and new[1] ^ old[0] (= a): undo, map, redo.
  xor = (lambda j: b[j] | a[j] << 32) if fam == 'atom_add_v2_f32' else (lambda j: 0)
  for j, v in enumerate(ours):
    v ^= xor(j)
    out[j] ^= xor(j)
    for off, fmt in lanes:
      if fmt == 'f64':
        if not _is_nan(v, 'f64'): continue
        ops = f64_operands(fam, a[j], b[j], c[j])
        nans = sum(_is_nan(x, 'f32' if fam.startswith('cvt') else 'f64') for x in ops)
        if nans == 1: continue
        known = nv.get(j) if isinstance(nv, dict) else nv[j] if nv is not None else None
        if known is not None and _is_nan(known, 'f64'): want = known
        elif nans == 0: want = F64_DEFAULT_NAN
        else: continue   # two NaN operands: NVIDIA's choice is known only from a full reference
        if out[j] != want: out[j], n = want, n + 1
        continue
      canon, width = CANONICAL_NAN[fmt]
      mask = (1 << width) - 1
      lane = (v >> off) & mask
      if _is_nan(lane, fmt) and lane != canon:
        out[j] = (out[j] & ~(mask << off)) | canon << off
        n += 1
    out[j] ^= xor(j)
  return out, n


# --- mismatches the emulator's known, unfixed defects explain ----------------------------------------------------
# An input counts as explained only when NVIDIA's value is the exactly rounded result (computed here with rational
# arithmetic) and the input is of the kind the defect affects (test/emu/defects.py has an ISA-level case of each).
def round_exact(q: Fraction, mant: int, min_exp: int, mode: str = 'rn') -> Fraction:
  """q rounded to a binary format with `mant` fraction bits and smallest normal exponent `min_exp` (subnormals
  included, no overflow handling: callers stay in range), by `mode`: rn (ties to even), rz, rm, rp."""
  if q == 0: return q
  e = max(math.floor(math.log2(abs(q))), min_exp)
  while Fraction(2) ** e > abs(q): e -= 1
  while Fraction(2) ** (e + 1) <= abs(q): e += 1
  e = max(e, min_exp)
  ulp = Fraction(2) ** (e - mant)
  m = q / ulp
  lo = math.floor(m)
  frac = m - lo
  if mode == 'rn': n = lo + (1 if frac > Fraction(1, 2) or (frac == Fraction(1, 2) and lo % 2) else 0)
  elif mode == 'rm': n = lo
  elif mode == 'rp': n = lo + (1 if frac else 0)
  else: n = lo if q > 0 else lo + (1 if frac else 0)   # rz
  return n * ulp


def _half(bits: int) -> Fraction: return Fraction(_f16(bits & 0xffff))


def _exact_f16_fma(fam: str, a16: int, b16: int, c16: int) -> Fraction | None:
  ftz = '_ftz_' in fam
  def val(h):
    if h & 0x7c00 == 0x7c00: return None      # inf/NaN: not this defect
    if ftz and h & 0x7c00 == 0: return Fraction(0)
    return _half(h)
  x, y, z = val(a16), val(b16), val(c16)
  if None in (x, y, z): return None
  r = round_exact(x * y + z, 10, -14)
  if abs(r) > 65504: return None
  if ftz and 0 < abs(r) < Fraction(2) ** -14: return None   # the tininess rule: not this defect
  if '_relu_' in fam and r < 0: r = Fraction(0)
  return r


def explain(fam: str, a: int, b: int, c: int, nv: int, us: int) -> str | None:
  """The unfixed emulator defect that explains NVIDIA's `nv` against our `us` at this input, or None."""
  if fam in ('fma_rn_f16x2', 'fma_rn_ftz_f16x2', 'fma_rn_relu_f16x2', 'fma_rn_ftz_f16'):
    lanes = (0, 16) if fam.endswith('x2') else (0,)
    ok = False
    for sh in lanes:
      n16, u16 = nv >> sh & 0xffff, us >> sh & 0xffff
      if n16 == u16: continue
      r = _exact_f16_fma(fam, a >> sh & 0xffff, b >> sh & 0xffff, c >> sh & 0xffff)
      if r is None or _half(n16) != r or (r == 0 and n16 & 0x8000 != (0x8000 if r < 0 else 0)): return None
      ok = True
    return 'v_fma_f16_double_rounding' if ok else None
  m = (re.fullmatch(r'(rcp|div)_(rm|rp|rz)_f64', fam) or re.fullmatch(r'(div)_(rn)(_ftz)?_f32', fam)
       or re.fullmatch(r'(rcp)_(rn)_f32', fam))   # (rcp_rn_f32: on CDNA, divisors whose reciprocal is subnormal)
  if m:
    if fam.endswith('f64'):
      ops = [1.0, _f64(a << 32 | b)] if m.group(1) == 'rcp' else [_f64(a << 32 | b), _f64(b << 32 | c)]
      mant, emin, got = 52, -1022, _f64(nv)
    else:
      ops = [1.0, _f32(a)] if m.group(1) == 'rcp' else [_f32(a), _f32(b)]
      mant, emin, got = 23, -126, _f32(nv)
    if not all(map(math.isfinite, ops + [got])) or ops[1] == 0 or got == 0: return None
    num, den = map(Fraction, ops)
    q = num / den
    extreme = abs(q) < Fraction(2) ** emin or abs(den) > Fraction(2) ** -emin
    if extreme and Fraction(got) == round_exact(q, mant, emin, m.group(2)): return 'v_div_extreme_exponents'
  return None


# --- reference file -----------------------------------------------------------------------------------------------
def open_text(path: str, mode: str = 'rt'):
  if path.endswith('.xz'): return lzma.open(path, mode)
  if path.endswith('.gz'): return gzip.open(path, mode)
  return open(path, mode[0])


def read_reference(path: str) -> tuple[dict, dict]:
  header, recs = {}, {}
  with open_text(path) as f:
    for line in f:
      if not line.strip(): continue
      r = json.loads(line)
      if 'format' in r: header = r
      else: recs[r['family']] = r
  if header.get('format') != 'zluda-sweep-reference' or header.get('version') != 1:
    raise SystemExit(f'{path}: not a version-1 zluda-sweep-reference file')
  if header.get('chunk') != CHUNK: raise SystemExit(f'{path}: chunk {header.get("chunk")}, expected {CHUNK}')
  return header, recs


def manifest() -> list[dict]:
  cases = []
  with open(os.path.join(SWEEPS, 'manifest')) as f:
    for line in f:
      w = line.split()
      if not w: continue
      c = {'family': w[0], 'suite': 'instructions', 'exhaustive': False, 'shared': 0}
      for x in w[1:]:
        if x == 'exhaustive': c['exhaustive'] = True
        elif x.startswith('suite='): c['suite'] = x[6:]
        elif x.startswith('shared='): c['shared'] = int(x[7:])
      cases.append(c)
  return cases


# --- one family (in the worker) -----------------------------------------------------------------------------------
def describe(a: int, b: int, c: int, nv: int, us: int) -> str:
  return f'a={a:08x} b={b:08x} c={c:08x}: nvidia={nv:016x} ours={us:016x}'


def run_family(ar, tool: str, arch: str, case: dict, ref: dict | None, tmp: str, count: int | None,
               block: int = CHUNK, warps_per_wave: int = 2) -> dict:
  fam = case['family']
  rec = {'family': fam, 'suite': case['suite'], 'arch': arch}
  if ref is not None and 'error' in ref:
    return {**rec, 'status': 'no-reference', 'why': 'not recorded on NVIDIA: ' + ref['error']}
  n = ref['count'] if ref is not None else RECORD_EXHAUSTIVE if case['exhaustive'] else RECORD_INPUTS
  full_n = n
  if count: n = min(n, (count + CHUNK - 1) // CHUNK * CHUNK)
  hsaco = os.path.join(tmp, f'{fam}.{arch}.hsaco')
  r = subprocess.run([tool, 'compile', os.path.join(SWEEPS, f'{fam}.ptx'), '--arch', arch, '-o', hsaco,
                      '--warps-per-wave', str(warps_per_wave)], capture_output=True, text=True)
  if r.returncode:
    why = next((l for l in r.stderr.splitlines() if 'error' in l), r.stderr.strip()[:200])
    return {**rec, 'status': 'compile-error', 'why': why}
  with open(hsaco, 'rb') as f: code = f.read()
  a, b, c = record_inputs(fam, case['exhaustive'], full_n)
  if ref is not None and inputs_digest(a, b, c) != ref['inputs']:
    return {**rec, 'status': 'input-mismatch', 'why': 'the inputs made here differ from those NVIDIA ran '
            '(HarnessLogic.h port out of date?)'}
  a, b, c = a[:n], b[:n], c[:n]
  if n % block:
    return {**rec, 'status': 'not-runnable', 'why': f'blocks of {block} do not divide the {n} inputs'}
  bufs = [ar.Buffer(struct.pack(f'<{n}I', *v)) for v in (a, b, c)]
  o = ar.Buffer(b'\xab' * (8 * n))  # poisoned as the harness does
  t0 = time.perf_counter()
  try:
    # One warp a wave (wave64): launched as the runtime shim does, with twice the threads in x.
    spread = 2 if warps_per_wave == 1 and arch.startswith('gfx9') else 1
    ar.run(code, 'k', (n // block, 1, 1), (block * spread, 1, 1), [o, *bufs, n], dynamic_lds=case['shared'])
  except ar.KernelTrap as e:
    return {**rec, 'status': 'not-runnable', 'why': f'trap: {str(e)[:200]}'}
  except ar.RunnerError as e:
    return {**rec, 'status': 'not-runnable', 'why': f'{type(e).__name__}: {str(e)[:300]}'}
  seconds = time.perf_counter() - t0
  out = o.read()
  rec.update(inputs=n, seconds=round(seconds, 3))
  if ref is None:  # writing a reference
    rec.update(status='ok', mismatches=0, out=out.hex(), digests=chunk_digests(out))
    return rec
  ours = list(struct.unpack(f'<{n}Q', out))
  full_nv = None
  if 'outputs' in ref:
    width = ref['width']
    full_nv = list(struct.unpack(f'<{full_n}{"I" if width == 4 else "Q"}', bytes.fromhex(ref['outputs'])))[:n]
  # NVIDIA's values the reference keeps: all (a full reference) or those of its raw chunks.
  known = full_nv if full_nv is not None else {
      int(k) * CHUNK + i: v for k, h in ref.get('raw', {}).items()
      for i, v in enumerate(struct.unpack(f'<{len(h) // 16}Q', bytes.fromhex(h)))}
  if not is_approx(fam):
    ours, mapped = map_unspecified_nans(fam, ours, a, b, c, known)
    if mapped:
      rec['nan_unspecified'] = mapped
      out = struct.pack(f'<{n}Q', *ours)
  digests = chunk_digests(out)
  if is_approx(fam) and fam in APPROX and 'outputs' in ref:
    width = ref['width']
    raw = bytes.fromhex(ref['outputs'])
    nv = list(struct.unpack(f'<{full_n}{"I" if width == 4 else "Q"}', raw))[:n]
    cmp = approx_compare(fam, nv, ours, a, b)
    rec.update(status='ok', mismatches=cmp['mismatches'], approx=cmp)
    if cmp['explained'] and not cmp['mismatches']:
      rec.update(mismatches=cmp['explained'], explained={'v_div_extreme_exponents': cmp['explained']},
                 first_chunk=f"{cmp['explained']} inputs differ, all explained by emulator defects: "
                             f"v_div_extreme_exponents ({cmp['explained']} inputs)")
    if cmp['first'] is not None:
      j = cmp['first']
      rec['first'] = f'input {j}: ' + describe(a[j], b[j], c[j], nv[j], ours[j]) + f' (beyond {cmp["tolerance"]})'
    return rec
  if full_nv is not None:  # a reference with all outputs (RECORD_FULL=1): every mismatching input
    nv = full_nv
    bad = [j for j in range(n) if nv[j] != ours[j]]
    rec.update(status='ok', mismatches=len(bad), mismatch_unit='inputs')
    if bad:
      j = bad[0]
      rec['first'] = f'input {j}: ' + describe(a[j], b[j], c[j], nv[j], ours[j])
      rec['first_chunk'] = f'chunk {j // CHUNK}; {len(bad)} of {n} inputs differ'
    return rec
  ref_digests = [ref['digests'][i:i + 16] for i in range(0, len(ref['digests']), 16)][:len(digests)]
  bad = [k for k, (x, y) in enumerate(zip(digests, ref_digests)) if x != y]
  rec.update(status='ok', mismatches=len(bad), mismatch_unit='chunks of 256')
  if bad:
    k = bad[0]
    rec['bad_chunks'] = bad
    rec['first_chunk'] = f'chunk {k} (inputs {k * CHUNK}..{k * CHUNK + CHUNK - 1}); {len(bad)} of {len(digests)} chunks differ'
    located = [x for x in bad if str(x) in ref.get('raw', {})]
    if located:
      diff = [x * CHUNK + i for x in located for i in range(CHUNK) if known[x * CHUNK + i] != ours[x * CHUNK + i]]
      rec['located_inputs'] = len(diff)
      rec['first_chunk'] += f'; {len(located)} of them kept by the reference, {len(diff)} inputs differ there'
      why = [explain(fam, a[j], b[j], c[j], known[j], ours[j]) for j in diff]
      if len(located) == len(bad) and diff and all(why):
        rec['explained'] = {w: why.count(w) for w in sorted(set(why))}
        rec['first_chunk'] += '; all explained by emulator defects: ' + ', '.join(
            f'{w} ({n} inputs)' for w, n in rec['explained'].items())
    for rk in located[:1]:
      nvv = struct.unpack(f'<{CHUNK}Q', bytes.fromhex(ref['raw'][str(rk)]))
      for i in range(CHUNK):
        j = rk * CHUNK + i
        if nvv[i] != ours[j]:
          rec['first'] = f'input {j}: ' + describe(a[j], b[j], c[j], nvv[i], ours[j])
          break
    if 'first' not in rec:
      j = k * CHUNK
      where = ''
      if not case['exhaustive'] and j < GRID:
        lo, hi = j // EDGE_COUNT ** 2, min(j + CHUNK - 1, GRID - 1) // EDGE_COUNT ** 2
        where = f'edge grid, a = edges[{lo}..{hi}] = {", ".join(f"{EDGES[x]:08x}" for x in range(lo, hi + 1))}; '
      rec['first'] = (f'{where}NVIDIA values of chunk {k} not in the reference (kept: chunks {sorted(map(int, ref.get("raw", {})))}; '
                      'record this family with RECORD_FULL=1 to locate); '
                      f'ours at input {j}: a={a[j]:08x} b={b[j]:08x} c={c[j]:08x} -> {ours[j]:016x}')
  return rec


def worker(args) -> int:
  import amdgpu_runner as ar
  refs = read_reference(args.reference)[1] if args.reference else {}
  cases = {c['family']: c for c in manifest()}
  with tempfile.TemporaryDirectory() as tmp:
    for fam in args.worker_families:
      print('START ' + fam, flush=True)
      ref = refs.get(fam) if args.reference else None
      if args.reference and ref is None:
        rec = {'family': fam, 'suite': cases[fam]['suite'], 'arch': args.arch, 'status': 'no-reference',
               'why': 'family not in the reference file'}
      else:
        try:
          rec = run_family(ar, args.tool, args.arch, cases[fam], ref, tmp, args.count, args.block,
                           args.warps_per_wave)
        except Exception as e:  # the emulator failing in a way the runner does not classify
          rec = {'family': fam, 'suite': cases[fam]['suite'], 'arch': args.arch, 'status': 'not-runnable',
                 'why': f'{type(e).__name__}: {str(e)[:300]}'}
      print('RESULT ' + json.dumps(rec), flush=True)
  return 0


# --- driver -------------------------------------------------------------------------------------------------------
def run_all(args, fams: list[str]) -> list[dict]:
  results, todo = [], list(fams)
  done = {}
  if args.jsonl and os.path.exists(args.jsonl):
    with open(args.jsonl) as f:
      for l in f:
        if l.strip():
          r = json.loads(l)
          if r.get('arch') == args.arch: done[r['family']] = r
  results = [done[f] for f in todo if f in done]
  todo = [f for f in todo if f not in done]
  while todo:
    cmd = [sys.executable, os.path.abspath(__file__), '--arch', args.arch, '--tool', args.tool,
           '--worker-families', *todo]
    if args.reference: cmd += ['--reference', args.reference]
    if args.count: cmd += ['--count', str(args.count)]
    cmd += ['--block', str(args.block), '--warps-per-wave', str(args.warps_per_wave)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    current = None
    for line in p.stdout:
      if line.startswith('START '): current = line[6:].strip()
      elif line.startswith('RESULT '):
        rec = json.loads(line[7:])
        if args.write_reference: rec['_write'] = True
        results.append(rec)
        todo.remove(rec['family'])
        current = None
        report(rec)
        if args.jsonl:
          with open(args.jsonl, 'a') as f:
            f.write(json.dumps({k: v for k, v in rec.items() if k not in ('out', 'digests', '_write')}) + '\n')
    p.wait()
    if current is not None:  # the worker died in this family
      rec = {'family': current, 'arch': args.arch, 'status': 'not-runnable',
             'why': f'the emulator process died (exit status {p.returncode})'}
      results.append(rec)
      todo.remove(current)
      report(rec)
      if args.jsonl:
        with open(args.jsonl, 'a') as f: f.write(json.dumps(rec) + '\n')
    elif p.returncode and todo:
      raise SystemExit(f'worker failed (exit status {p.returncode}) outside a family')
  return results


def report(r: dict) -> None:
  fam = r['family']
  if r['status'] == 'ok':
    extra = ''
    if 'approx' in r:
      ap = r['approx']
      extra = f"  [{ap['tolerance']}; worst {ap['worst_in_bounds']} x bound; {ap['unbounded']} inputs outside the ISA's bounded range]"
    unit = ' inputs' if 'approx' in r or r.get('mismatch_unit') == 'inputs' else ' chunks' if r['mismatches'] else ''
    if r.get('nan_unspecified'):
      extra += f"  [{r['nan_unspecified']} NaN results of ours compared as NVIDIA's: encoding unspecified by the ISA]"
    line = f"{fam:34} {r['inputs']:8} inputs {r['mismatches']:6}{unit} mismatching{extra}"
    if r['mismatches']:
      line += f"\n    {r.get('first_chunk', '')}\n    first: {r.get('first', '')}"
    print(line, flush=True)
  else:
    label = {'not-runnable': 'not runnable', 'compile-error': 'compile error', 'no-reference': 'no reference',
             'input-mismatch': 'INPUTS DIFFER'}.get(r['status'], r['status'])
    print(f"{fam:34} {label}: {r.get('why', '')}", flush=True)


def write_reference(path: str, arch: str, cases: list[dict], results: list[dict], full: bool = False,
                    block: int = CHUNK) -> None:
  by = {r['family']: r for r in results}
  with open_text(path, 'wt') as f:
    f.write(json.dumps({'format': 'zluda-sweep-reference', 'version': 1, 'device': f'AMD ISA emulator ({arch})',
                        'driver': 0, 'chunk': CHUNK, 'digest': 'sha256-64', 'poison': 171, 'block': block,
                        'count': RECORD_INPUTS, 'exhaustive_count': RECORD_EXHAUSTIVE}) + '\n')
    for c in cases:
      r = by.get(c['family'])
      if r is None: continue
      line = {k: c[k] for k in ('family', 'suite', 'exhaustive', 'shared')}
      if r['status'] != 'ok' or 'out' not in r:
        line['error'] = f"{r['status']}: {r.get('why', '')}"
      else:
        out = bytes.fromhex(r['out'])
        n = len(out) // 8
        a, b, cc = record_inputs(c['family'], c['exhaustive'], n)
        line.update(count=n, inputs=inputs_digest(a, b, cc), digests=''.join(r['digests']),
                    raw={str(k): out[k * 8 * CHUNK:(k + 1) * 8 * CHUNK].hex() for k in raw_chunks(c['exhaustive'])
                         if k * CHUNK < n})
        if full or is_approx(c['family']):
          vals = struct.unpack(f'<{n}Q', out)
          width = 4 if all(v >> 32 == 0 for v in vals) else 8
          line.update(width=width, outputs=struct.pack(f'<{n}{"I" if width == 4 else "Q"}', *vals).hex())
      f.write(json.dumps(line) + '\n')


def table(arch: str, results: list[dict]) -> bool:
  suites: dict[str, dict] = {}
  tot = {'families': 0, 'ok': 0, 'nan': 0, 'inputs': 0, 'mism': 0, 'defect': 0, 'notrun': 0, 'other': 0}
  for r in results:
    s = suites.setdefault(r.get('suite', '?'), dict.fromkeys(tot, 0))
    for d in (s, tot):
      d['families'] += 1
      if r['status'] == 'ok':
        d['inputs'] += r['inputs']
        if r['mismatches'] and r.get('explained'): d['defect'] += 1
        elif r['mismatches']: d['mism'] += 1
        else: d['ok'] += 1
        if not r['mismatches'] and r.get('nan_unspecified'): d['nan'] += 1
      elif r['status'] == 'not-runnable': d['notrun'] += 1
      else: d['other'] += 1
  print(f'\n{arch}: {"suite":16} {"families":>8} {"matching":>8} {"of them NaN*":>12} {"inputs":>11} '
        f'{"mismatching":>11} {"emulator defect**":>17} {"emulator (not runnable)":>23} {"other (compile/no ref)":>21}')
  for name, s in sorted(suites.items()) + [('total', tot)]:
    print(f'{arch}: {name:16} {s["families"]:8} {s["ok"]:8} {s["nan"]:12} {s["inputs"]:11} {s["mism"]:11} '
          f'{s["defect"]:17} {s["notrun"]:23} {s["other"]:21}')
  print(f'{arch}: NaN*: matching with NaN results whose encoding the PTX ISA leaves unspecified compared as NVIDIA\'s')
  print(f'{arch}: **: every differing input located and explained by an unfixed emulator defect (test/emu/defects.py), '
        'NVIDIA\'s value being the exactly rounded one')
  return tot['ok'] + tot['defect'] == tot['families']


SELFCHECK_CPP = r'''
#include "HarnessLogic.h"
#include <cstdio>
int main() {
  const uint8_t abc[] = {'a', 'b', 'c'};
  auto d = harness::sha256(abc, 3);
  std::printf("sha256 %s\n", harness::hex(d.data(), d.size()).c_str());
  const char *names[] = {"add_s32", "abs_f32", "shfl_sync_bfly", "ex2_approx_f16x2"};
  for (const char *name : names)
    for (bool ex : {false, true}) {
      uint64_t n = ex ? harness::kRecordExhaustive : harness::kRecordInputs;
      uint64_t seed = harness::seedOf(name);
      std::vector<uint32_t> a(n), b(n), c(n);
      std::vector<uint64_t> out(n);
      for (uint64_t j = 0; j < n; ++j) {
        harness::Inputs v = harness::recordInputAt(ex, seed, j);
        a[j] = v.a; b[j] = v.b; c[j] = v.c;
        out[j] = harness::splitmix64(v.a ^ (uint64_t(v.b) << 32) ^ (uint64_t(v.c) << 17));
      }
      std::printf("case %s %d %llu %s %s\n", name, int(ex), (unsigned long long)seed,
                  harness::inputsDigest(a, b, c).c_str(), harness::chunkDigests(out).c_str());
      for (uint64_t j : {0ull, 1ull, 2703ull, 65535ull, 65536ull, 65587ull, 65600ull, 140607ull, 140608ull,
                         140609ull, 206335ull})
        if (j < n) std::printf("in %s %d %llu %08x %08x %08x\n", name, int(ex), (unsigned long long)j, a[j], b[j], c[j]);
    }
  std::printf("raw %llu %llu\n", (unsigned long long)harness::rawChunks(false)[1],
              (unsigned long long)harness::rawChunks(true)[1]);
}
'''


def selfcheck() -> int:
  with tempfile.TemporaryDirectory() as tmp:
    src, exe = os.path.join(tmp, 'check.cpp'), os.path.join(tmp, 'check')
    with open(src, 'w') as f: f.write(SELFCHECK_CPP)
    subprocess.run(['g++', '-std=c++17', '-O2', '-I', os.path.dirname(HARNESS_LOGIC), '-I', ROOT, src,
                    os.path.join(ROOT, 'compiler', 'Cache', 'Sha256.cpp'), '-o', exe], check=True)
    lines = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.splitlines()
  bad = 0
  for line in lines:
    w = line.split()
    if w[0] == 'sha256':
      want = hashlib.sha256(b'abc').hexdigest()
      got = w[1]
    elif w[0] == 'case':
      name, ex, seed = w[1], w[2] == '1', int(w[3])
      n = RECORD_EXHAUSTIVE if ex else RECORD_INPUTS
      a, b, c = record_inputs(name, ex, n)
      out = struct.pack(f'<{n}Q', *(splitmix64(x ^ (y << 32) ^ (z << 17)) for x, y, z in zip(a, b, c)))
      want, got = f'{seed_of(name)} {inputs_digest(a, b, c)} {"".join(chunk_digests(out))}', ' '.join(w[3:])
    elif w[0] == 'in':
      name, ex, j = w[1], w[2] == '1', int(w[3])
      want = ' '.join(f'{v:08x}' for v in (record_exhaustive_at if ex else input_at)(seed_of(name), j))
      got = ' '.join(w[4:])
    elif w[0] == 'raw':
      want, got = f'{raw_chunks(False)[1]} {raw_chunks(True)[1]}', ' '.join(w[1:])
    else: continue
    if want != got:
      bad += 1
      print(f'selfcheck MISMATCH: {" ".join(w[:4])}: C++ {got[:80]} / Python {want[:80]}')
  # The tolerance check itself.
  assert _within(1.0, 1.0 + 2 ** -22, 'f32', 'rel', 2 ** -22.5)[0]
  assert not _within(1.0, 1.0 + 2 ** -20, 'f32', 'rel', 2 ** -22.5)[0]
  assert _within(float('nan'), float('nan'), 'f32', 'abs', 1e-6)[0]
  assert not _within(0.0, float('nan'), 'f32', 'abs', 1e-6)[0]
  print(f'selfcheck: {len(lines)} lines from HarnessLogic.h compared with the Python port, {bad} differ')
  return 1 if bad else 0


def main() -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('--arch', default='gfx1100')
  p.add_argument('--tool', default=os.environ.get('ZLUDA_PRECOMPILE', os.path.join(ROOT, 'build', 'bin', 'zluda-precompile')))
  p.add_argument('--reference', help='the reference file (JSON lines; .xz or .gz compressed or plain)')
  p.add_argument('--write-reference', help="write this run's outputs as a reference file instead of comparing")
  p.add_argument('--full', action='store_true', help='with --write-reference: all outputs of every family '
                 '(as RECORD_FULL=1 records them)')
  p.add_argument('--block', type=int, default=CHUNK,
                 help='threads a block (NVIDIA\'s reference: 256); other sizes compare with a reference written here '
                      '(--write-reference) at the same size, e.g. wave64 against wave32 with waves left half empty')
  p.add_argument('--warps-per-wave', type=int, choices=(1, 2), default=2,
                 help='wave64: PTX warps a wave (1: compiled so and launched with twice the threads in x)')
  p.add_argument('--count', type=int, help='compare only the first COUNT inputs of each family (whole chunks)')
  p.add_argument('-k', dest='only', nargs='*')
  p.add_argument('--jsonl', help='results, one JSON line a family; families already there (this arch) are not rerun')
  p.add_argument('--selfcheck', action='store_true')
  p.add_argument('--bad-chunks', help="write the mismatching chunks as RECORD_CHUNKS (FAMILY:K,K,...;...) for a "
                 "reference that keeps NVIDIA's values of them")
  p.add_argument('--worker-families', nargs='*', help=argparse.SUPPRESS)
  args = p.parse_args()
  if args.worker_families is not None: return worker(args)
  if args.selfcheck: return selfcheck()
  if not args.reference and not args.write_reference:
    p.error('give --reference (compare) or --write-reference (record this run)')
  if args.reference and args.write_reference: p.error('--reference and --write-reference exclude each other')
  if args.write_reference and args.count: p.error('--count with --write-reference: a reference has full samples')
  if args.reference:
    header = read_reference(args.reference)[0]
    if header.get('block', CHUNK) != args.block:
      p.error(f"{args.reference} was recorded with blocks of {header.get('block')}; this run: --block {args.block}")
    print(f"reference: {args.reference}: {header.get('device')} (driver {header.get('driver')})", flush=True)
  cases = manifest()
  fams = [c['family'] for c in cases if not args.only or c['family'] in args.only]
  results = run_all(args, fams)
  if args.bad_chunks:   # RECORD_CHUNKS for test/verify/record-on-device.sh: NVIDIA's values of these chunks
    with open(args.bad_chunks, 'w') as f:
      f.write(';'.join(f"{r['family']}:{','.join(map(str, r['bad_chunks']))}" for r in results if r.get('bad_chunks')))
    print(f'wrote {args.bad_chunks}')
  if args.write_reference:
    write_reference(args.write_reference, args.arch, cases, [r for r in results if '_write' in r], args.full,
                    args.block)
    print(f'wrote {args.write_reference}')
  ok = table(args.arch, results)
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())

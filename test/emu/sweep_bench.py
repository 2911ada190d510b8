#!/usr/bin/env python3
"""Runs the differential sweep kernels (test/verify/sweeps/*.ptx) in the AMD emulator: what executes, and how fast.

Each family's kernel k(out, a, b, c, n) is compiled by zluda-precompile for the target, then run over N inputs
(random 32-bit a/b/c seeded by the family name, `--log2n`, default 16) in workgroups of 256. There is no
reference to compare with here (the NVIDIA outputs live with the device harness): this measures coverage (does
the emulator execute the family?) and speed, to size oracle runs; each record has the SHA-256 of the output, so
that two targets' runs (e.g. gfx1100 and gfx1201) can be compared family by family.

  ZLUDA_AMD_EMULATOR=... python3 test/emu/sweep_bench.py [--arch gfx1100] [--log2n 16] [-k FAMILY...] [--jsonl OUT]

With --jsonl, one JSON line per family is appended to OUT and families already there are skipped, so a run
that dies (e.g. a kernel crashing the emulator's process) can be resumed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import amdgpu_runner as ar  # noqa: E402

SWEEPS = os.path.join(os.path.dirname(HERE), 'verify', 'sweeps')


def families() -> list[str]:
  with open(os.path.join(SWEEPS, 'manifest')) as f: return [line.split()[0] for line in f if line.strip()]


def run_family(tool: str, arch: str, fam: str, n: int, tmp: str, block: int = 256) -> dict:
  out = os.path.join(tmp, f'{fam}.hsaco')
  t0 = time.perf_counter()
  r = subprocess.run([tool, 'compile', os.path.join(SWEEPS, f'{fam}.ptx'), '--arch', arch, '-o', out],
                     capture_output=True, text=True)
  t_compile = time.perf_counter() - t0
  if r.returncode:
    why = next((l for l in r.stderr.splitlines() if 'error' in l), r.stderr.strip()[:200])
    return {'family': fam, 'status': 'compile-error', 'why': why}
  with open(out, 'rb') as f: code = f.read()
  rng = random.Random(fam)
  a, b, c = (ar.Buffer(rng.randbytes(4 * n)) for _ in range(3))
  o = ar.Buffer(8 * n)
  t0 = time.perf_counter()
  try:
    res = ar.run(code, 'k', ((n + block - 1) // block, 1, 1), (block, 1, 1), [o, a, b, c, n])
  except ar.KernelTrap as e:
    return {'family': fam, 'status': 'trap', 'why': str(e)[:200], 'seconds': time.perf_counter() - t0}
  except ar.RunnerError as e:
    return {'family': fam, 'status': 'emulator-error', 'why': f'{type(e).__name__}: {str(e)[:300]}',
            'seconds': time.perf_counter() - t0}
  st = res.stats
  return {'family': fam, 'status': 'ok', 'n': n, 'wave_instructions': st.instructions, 'waves': st.waves,
          'seconds': round(st.seconds, 3), 'compiled': st.compiled, 'ptx_compile_s': round(t_compile, 3),
          'per_thread': round(st.instructions / st.waves, 1), 'out_sha256': hashlib.sha256(o.read()).hexdigest()}


def main() -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('--arch', default='gfx1100')
  p.add_argument('--tool', default=os.environ.get('ZLUDA_PRECOMPILE', 'zluda-precompile'))
  p.add_argument('--log2n', type=int, default=16)
  p.add_argument('-k', dest='only', nargs='*')
  p.add_argument('--jsonl')
  a = p.parse_args()
  done = set()
  if a.jsonl and os.path.exists(a.jsonl):
    with open(a.jsonl) as f: done = {json.loads(l)['family'] for l in f if l.strip()}
  fams = [f for f in (a.only or families()) if f not in done]
  totals = {'ok': 0, 'seconds': 0.0, 'instr': 0}
  with tempfile.TemporaryDirectory() as tmp:
    for fam in fams:
      rec = run_family(a.tool, a.arch, fam, 1 << a.log2n, tmp)
      rec['arch'] = a.arch
      if a.jsonl:
        with open(a.jsonl, 'a') as f: f.write(json.dumps(rec) + '\n')
      if rec['status'] == 'ok':
        totals['ok'] += 1
        totals['seconds'] += rec['seconds']
        totals['instr'] += rec['wave_instructions']
        print(f"ok   {fam:32} {rec['wave_instructions']:9} wave-instr ({rec['per_thread']:5}/wave) "
              f"{rec['seconds']:7.2f} s  {rec['wave_instructions'] / rec['seconds']:9,.0f}/s  compiled {rec['compiled']}",
              flush=True)
      else: print(f"{rec['status']:14} {fam}: {rec['why']}", flush=True)
  if totals['seconds']:
    print(f"{totals['ok']}/{len(fams)} ran; {totals['instr']} wave-instructions in {totals['seconds']:.1f} s "
          f"({totals['instr'] / totals['seconds']:,.0f}/s)")
  return 0


if __name__ == '__main__':
  sys.exit(main())

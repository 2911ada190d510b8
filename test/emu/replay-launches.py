#!/usr/bin/env python3
"""Replays real programs' kernel launches, recorded on NVIDIA (the runtime shim's ZLUDA_SHIM_RECORD, written by
test/shim/record-on-device.sh), with our AMDGPU build of the same PTX in the ISA emulator, and compares every byte of
memory with NVIDIA's results.

  ZLUDA_AMD_EMULATOR=... python3 test/emu/replay-launches.py RECORDS [--arch gfx1100] [--tool zluda-precompile]
      [--jsonl RESULTS] [-k PROGRAM...] [--timeout SECONDS]

RECORDS: the recording's folder, or its .tar.xz. For each recorded launch: the module's PTX is compiled here for
ARCH (`zluda-precompile compile --keep-going`), every recorded allocation is mapped at the address it had on the GPU
(so pointers inside memory stay valid) and filled with the bytes it held before the launch, module variables are
written into the code object by name, the kernel runs with the recorded geometry, dynamic shared memory and
parameter bytes (split as the driver laid them out, matched to the code object's explicit arguments), and every
region is compared with NVIDIA's bytes after the launch.

Outcome of a launch: `same`; `MISMATCH` (first differing region and byte, both 32-bit words); `nondeterministic`
(NVIDIA's own two runs differed: compared, reported apart); `not runnable: WHY` (the emulator refused it, it trapped,
ran over the time limit, or an address is taken in this process); `not compiled` (the kernel is left out of the
AMD build: the diagnostic); `not recorded: WHY` (over the recording's bounds). Each launch runs in a worker process
(one that crashes is reported as such). Exit status: 0 when every recorded launch that ran matched, 1 otherwise.
"""
from __future__ import annotations

import argparse
import ctypes
import glob
import json
import mmap
import os
import select
import struct
import subprocess
import sys
import tarfile
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

_MAP_FIXED_NOREPLACE = 0x100000
PAGE = mmap.PAGESIZE


def read_records(folder: str) -> list[dict]:
  """Every line of every PROGRAM.PID.jsonl, in program order then launch order."""
  out = []
  for path in sorted(glob.glob(os.path.join(folder, '*.jsonl'))):
    with open(path) as f:
      out += [json.loads(l) for l in f if l.strip()]
  return out


def compile_module(tool: str, arch: str, folder: str, sha: str, tmp: str, warps_per_wave: int = 2) \
    -> tuple[str | None, str]:
  """The code object of a recorded module (None when nothing compiled) and the compiler's diagnostics."""
  out = os.path.join(tmp, f'{sha}.{arch}.hsaco')
  r = subprocess.run([tool, 'compile', os.path.join(folder, 'modules', f'{sha}.ptx'), '--arch', arch, '--keep-going',
                      '--warps-per-wave', str(warps_per_wave), '-o', out], capture_output=True, text=True)
  # --keep-going writes the kernels that compiled (exit status 1 when some were left out).
  if not os.path.exists(out): return None, r.stderr.strip()
  return out, r.stderr.strip()


class FixedMemory:
  """The pages covering a set of (address, size) regions, mapped at those addresses in this process."""

  def __init__(self, regions: list[tuple[int, int]]):
    import amdgpu_runner as ar
    self._libc, self.maps = ar._libc, []
    spans = sorted((a // PAGE * PAGE, (a + n + PAGE - 1) // PAGE * PAGE) for a, n in regions if n)
    merged = []
    for lo, hi in spans:
      if merged and lo <= merged[-1][1]: merged[-1][1] = max(merged[-1][1], hi)
      else: merged.append([lo, hi])
    try:
      for lo, hi in merged:
        got = self._libc.mmap(lo, hi - lo, mmap.PROT_READ | mmap.PROT_WRITE,
                              ar._MAP_PRIVATE | ar._MAP_ANONYMOUS | ar._MAP_NORESERVE | _MAP_FIXED_NOREPLACE, -1, 0)
        if got != lo:
          if got not in (None, ar._MAP_FAILED): self._libc.munmap(got, hi - lo)
          raise ar.RunnerError(f'address range {lo:#x}..{hi:#x} of a recorded allocation is taken in this process '
                               f'(errno {ctypes.get_errno()})')
        self.maps.append((lo, hi - lo))
    except Exception:
      self.close()
      raise

  def close(self):
    for lo, n in self.maps: self._libc.munmap(lo, n)
    self.maps = []


def split_params(kernel, params: bytes, layout: list[list[int]]) -> list[bytes]:
  """The recorded parameter bytes as the code object's explicit arguments (same count and sizes, in order)."""
  import amdgpu_runner as ar
  explicit = [a for a in kernel.args if not a.value_kind.startswith('hidden_')]
  if len(explicit) != len(layout):
    raise ar.RunnerError(f'{len(layout)} parameters recorded, the code object has {len(explicit)} explicit arguments')
  out = []
  for (off, size), a in zip(layout, explicit):
    if size != a.size:
      raise ar.RunnerError(f'parameter at offset {off}: {size} bytes recorded, the code object says {a.size}')
    out.append(params[off:off + size])
  return out


def word(b: bytes, at: int) -> str:
  at &= ~3
  return b[at:at + 4].ljust(4, b'\0')[::-1].hex()


def replay(ar, rec: dict, folder: str, hsaco: str, approx: bool = False,
           max_wave_instructions: int = 10_000_000, one_warp_per_wave: bool = False) -> dict:
  """Runs one recorded launch; the outcome as a dict. `one_warp_per_wave` (a wave64 build with
  --warps-per-wave 1): launched as the runtime shim does, with twice the threads in x."""
  block = tuple(rec['block'])
  if one_warp_per_wave:
    if block[0] % 32 or 2 * block[0] * block[1] * block[2] > 1024:
      return {'status': 'not-runnable', 'why': f'block {list(block)}: one warp a wave needs x a multiple of 32 and '
              'at most 512 threads'}
    block = (2 * block[0],) + block[1:]
  regions = rec['regions']
  with open(os.path.join(folder, rec['data']), 'rb') as f: blob = f.read()
  before, pos = [], 0
  for r in regions:
    before.append(blob[pos:pos + r['bytes']])
    pos += r['bytes']
  expected = []
  for r, b, changed in zip(regions, before, rec['changed']):
    if changed:
      expected.append(blob[pos:pos + r['bytes']])
      pos += r['bytes']
    else:
      expected.append(b)
  if pos != len(blob): raise ar.RunnerError(f'{rec["data"]}: {len(blob)} bytes, the record describes {pos}')
  with open(hsaco, 'rb') as f: code = ar.load(f.read())
  if rec['kernel'] not in code.co.kernels:
    return {'status': 'not-compiled', 'why': 'the kernel is left out of the AMD build (its diagnostic: the module\'s '
            'compile log above)'}
  kernel = code.co.kernels[rec['kernel']]
  args = split_params(kernel, bytes.fromhex(rec['params']), rec['layout'])
  globals_missing = [r['global'] for r in regions if 'global' in r and r['bytes'] and r['global'] not in code.co.symbols]
  if globals_missing:
    raise ar.RunnerError(f'module variables not in the code object: {", ".join(globals_missing[:4])}')
  mem = FixedMemory([(r['addr'], r['bytes']) for r in regions if 'addr' in r])
  try:
    for r, b in zip(regions, before):
      if not r['bytes']: continue
      if 'addr' in r: ctypes.memmove(r['addr'], b, len(b))
      else: code.write_symbol(r['global'], b)
    t0 = time.perf_counter()
    res = ar.run(code, rec['kernel'], tuple(rec['grid']), block, args, dynamic_lds=rec['shared'],
                 max_wave_instructions=max_wave_instructions)
    seconds = time.perf_counter() - t0
    actual = [(ctypes.string_at(r['addr'], r['bytes']) if 'addr' in r else code.read_symbol(r['global'], r['bytes']))
              if r['bytes'] else b'' for r in regions]
  finally:
    mem.close()
  out = {'seconds': round(seconds, 3), 'wave_instructions': getattr(res.stats, 'wave_instructions', None),
         'bytes': sum(r['bytes'] for r in regions)}
  if expected != actual and approx:
    close, words, worst = approx_close(expected, actual)
    if close:
      out.update(status='approx', why=f'{words} 32-bit words differ, all within 2^-16 relative (largest {worst:.2e}); '
                 'the kernel uses .approx instructions')
      return out
  for i, (e, a) in enumerate(zip(expected, actual)):
    if e != a:
      at = next(j for j in range(min(len(e), len(a))) if e[j] != a[j])
      r = regions[i]
      name = f'global {r["global"]}' if 'global' in r else f'allocation {r["addr"]:#x}'
      out.update(status='mismatch', first=f'region {i} ({name}, {r["bytes"]} bytes) byte {at:#x}: nvidia word '
                 f'{word(e, at)}, ours {word(a, at)}',
                 differing_bytes=sum(sum(x != y for x, y in zip(ee, aa)) for ee, aa in zip(expected, actual)))
      return out
  out['status'] = 'same'
  return out


def key_of(rec: dict) -> str: return f'{rec["program"]}:{rec["launch"]}'


# Launches whose difference is a known limitation of the AMDGPU lowering, not an emulator defect: listed here with
# the reason, counted apart, and described in docs/lowering.md.
KNOWN = {
  ('cooperative_groups', '_Z13groups_kernelPKiPiS1_Pj'):
    'vote.sync at two call sites of a divergent branch (warp.ballot in both arms): NVIDIA\'s independent thread '
    'scheduling joins the arms, an AMD wave runs them one after the other, so each ballot sees its arm\'s lanes '
    '(docs/lowering.md, Warps)',
}


# On wave64 processors (CDNA) only: launches that wait forever because one warp spins for the other warp of its own
# wave, the hazard of putting two PTX warps in one wave (docs/lowering.md, Warps). Counted as known, with the reason.
KNOWN_WAVE64 = {
  ('oss-reduction-k9-int-n16384', '_Z20multi_warp_cg_reduceIiLm128ELm64EEvPT_S1_j'):
    'a cooperative-groups tile of 64 threads is one wave: its barrier (atom.or of a warp bit, then a spin on '
    'ld.acquire until the last warp clears them) has warp 0 spinning while warp 1, the last arriver in the same '
    'wave, waits on the other side of the branch (docs/lowering.md, Warps: the one hazard of wave64)',
}


def uses_approx(ptx: str, kernel: str) -> bool:
  """Whether the kernel (or, when it calls functions, its module) uses PTX `.approx` instructions, whose results the
  ISA bounds but does not define (NVIDIA's hardware approximates; the emulator computes them exactly)."""
  at = ptx.find(f'.entry {kernel}(')
  if at < 0: return '.approx' in ptx
  end = ptx.find('.entry ', at + 7)
  body = ptx[at:end if end > 0 else len(ptx)]
  return '.approx' in body or ('call' in body and '.approx' in ptx)


def approx_close(expected: list[bytes], actual: list[bytes]) -> tuple[bool, int, float]:
  """Every differing 32-bit word of a kernel using `.approx`, read as f32, within 2^-16 relative (2^-20 absolute
  near 0), or NaN against NaN: (all close, words differing, largest relative difference)."""
  n, worst = 0, 0.0
  for e, a in zip(expected, actual):
    for i in range(0, min(len(e), len(a)) - 3, 4):
      if e[i:i + 4] == a[i:i + 4]: continue
      n += 1
      x, y = struct.unpack('<f', e[i:i + 4])[0], struct.unpack('<f', a[i:i + 4])[0]
      if x != x and y != y: continue
      if x != x or y != y or abs(x) == float('inf') or abs(y) == float('inf'): return False, n, float('inf')
      d = abs(x - y)
      rel = d / max(abs(x), abs(y), 1e-30)
      if d > 2 ** -20 and rel > 2 ** -16: return False, n, rel
      worst = max(worst, rel if d > 2 ** -20 else 0.0)
  return True, n, worst


def worker(args) -> int:
  import amdgpu_runner as ar
  hsacos = json.loads(args.worker_hsacos)
  ptx_texts: dict[str, str] = {}
  for rec in read_records(args.records):
    if key_of(rec) not in args.worker_launches: continue
    print('START ' + key_of(rec), flush=True)
    try:
      sha = rec['ptx_sha256']
      if sha not in ptx_texts:   # read once a module, not once a launch
        with open(os.path.join(args.records, 'modules', sha + '.ptx')) as f: ptx_texts[sha] = f.read()
      approx = uses_approx(ptx_texts[sha], rec['kernel'])
      out = replay(ar, rec, args.records, hsacos[rec['ptx_sha256']], approx, args.max_wave_instructions,
                   args.warps_per_wave == 1 and args.arch.startswith('gfx9'))
    except ar.KernelTrap as e:
      out = {'status': 'not-runnable', 'why': f'trap: {str(e)[:200]}'}
    except ar.RunnerError as e:
      out = {'status': 'not-runnable', 'why': f'{type(e).__name__}: {str(e)[:300]}'}
    except Exception as e:  # the emulator failing in a way the runner does not classify
      out = {'status': 'not-runnable', 'why': f'{type(e).__name__}: {str(e)[:300]}'}
    known = KNOWN.get((rec['program'], rec['kernel']))
    if known and out.get('status') == 'mismatch': out.update(status='known', why=known + '; ' + out.get('first', ''))
    known = KNOWN_WAVE64.get((rec['program'], rec['kernel'])) \
      if args.arch.startswith('gfx9') and args.warps_per_wave == 2 else None
    if known and out.get('status') == 'not-runnable' and 'without ending' in out.get('why', ''):
      out.update(status='known', why=known)
    if out.get('status') == 'not-runnable' and 'outside the code object' in out.get('why', ''):
      out['why'] += ' (a code address from the recorded memory: a function pointer of NVIDIA\'s build)'
    print('RESULT ' + json.dumps({'key': key_of(rec), **out}), flush=True)
  return 0


def run_workers(args, todo: list[str], hsacos: dict, on_result) -> None:
  """Runs `todo` launches in worker processes, restarted after a crash or a launch over the time limit."""
  todo = list(todo)
  while todo:
    cmd = [sys.executable, os.path.abspath(__file__), args.records, '--arch', args.arch,
           '--max-wave-instructions', str(args.max_wave_instructions), '--warps-per-wave', str(args.warps_per_wave),
           '--worker-hsacos', json.dumps(hsacos), '--worker-launches', *todo]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1)
    current, started = None, time.monotonic()
    while True:
      ready, _, _ = select.select([p.stdout], [], [], 5)
      if not ready:
        if current and time.monotonic() - started > args.timeout:
          p.kill()
          p.wait()
          on_result({'key': current, 'status': 'not-runnable',
                     'why': f'over the time limit of {args.timeout} s in the emulator'})
          todo.remove(current)
          current = None
          break
        continue
      line = p.stdout.readline()
      if not line: break
      if line.startswith('START '): current, started = line[6:].strip(), time.monotonic()
      elif line.startswith('RESULT '):
        res = json.loads(line[7:])
        todo.remove(res['key'])
        current = None
        on_result(res)
    p.wait()
    if current is not None:
      on_result({'key': current, 'status': 'not-runnable',
                 'why': f'the emulator process died (exit status {p.returncode}); a kernel using printf or the device '
                        'heap faults on the runner\'s guard address (no host service here)'})
      todo.remove(current)


def table(arch: str, records: list[dict], results: dict) -> bool:
  cols = ('launches', 'same', 'approx', 'mismatch', 'known', 'nondeterministic', 'not runnable', 'not compiled',
          'not recorded')
  rows: dict[str, dict] = {}
  for rec in records:
    row = rows.setdefault(rec['program'], dict.fromkeys(cols, 0))
    row['launches'] += 1
    if 'skipped' in rec:
      row['not recorded'] += 1
      continue
    r = results.get(key_of(rec), {})
    st = r.get('status')
    if st == 'same' and not rec['deterministic']: row['nondeterministic'] += 1
    elif st == 'same': row['same'] += 1
    elif st == 'approx': row['approx' if rec['deterministic'] else 'nondeterministic'] += 1
    elif st == 'known': row['known'] += 1
    elif st == 'mismatch': row['nondeterministic' if not rec['deterministic'] else 'mismatch'] += 1
    elif st == 'not-compiled': row['not compiled'] += 1
    else: row['not runnable'] += 1
  total = dict.fromkeys(cols, 0)
  print(f'{arch}: {"program":32s} ' + ' '.join(f'{c:>15s}' for c in cols))
  # approx: bytes equal but for words a kernel using .approx instructions computes (within 2^-16 relative)
  for prog in sorted(rows):
    print(f'{arch}: {prog:32s} ' + ' '.join(f'{rows[prog][c]:15d}' for c in cols))
    for c in cols: total[c] += rows[prog][c]
  print(f'{arch}: {"total (" + str(len(rows)) + " programs)":32s} ' + ' '.join(f'{total[c]:15d}' for c in cols))
  return total['mismatch'] == 0 and total['not runnable'] == 0


def main() -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('records', help="the recording's folder or .tar.xz")
  p.add_argument('--arch', default='gfx1100')
  p.add_argument('--tool', default=os.environ.get('ZLUDA_PRECOMPILE', os.path.join(ROOT, 'build', 'bin', 'zluda-precompile')))
  p.add_argument('--jsonl', help='results, one JSON line a launch')
  p.add_argument('-k', dest='only', nargs='*', help='only these programs')
  p.add_argument('--timeout', type=float, default=300, help='seconds a launch may take in the emulator')
  p.add_argument('--warps-per-wave', type=int, choices=(1, 2), default=2,
                 help='wave64 builds: PTX warps a wave (1: compiled and launched with the upper half idle)')
  p.add_argument('--max-wave-instructions', type=int, default=10_000_000,
                 help='instructions a wave may execute before the launch counts as hung (long kernels need more)')
  p.add_argument('--worker-hsacos', help=argparse.SUPPRESS)
  p.add_argument('--worker-launches', nargs='*', help=argparse.SUPPRESS)
  args = p.parse_args()
  if args.worker_launches is not None: return worker(args)
  with tempfile.TemporaryDirectory() as tmp:
    if os.path.isfile(args.records):
      with tarfile.open(args.records) as t: t.extractall(tmp, filter='data')
      tops = [os.path.join(tmp, d) for d in os.listdir(tmp)]
      args.records = tops[0] if len(tops) == 1 and os.path.isdir(tops[0]) else tmp
    records = [r for r in read_records(args.records) if not args.only or r['program'] in args.only]
    print(f'{len(records)} launches listed ({sum("skipped" in r for r in records)} not recorded) in {args.records}',
          flush=True)
    hsacos, results = {}, {}
    for sha in sorted({r['ptx_sha256'] for r in records if 'skipped' not in r}):
      path, diag = compile_module(args.tool, args.arch, args.records, sha, tmp, args.warps_per_wave)
      if path: hsacos[sha] = path
      else: print(f'module {sha[:16]}: not compiled: {diag[:300]}', flush=True)
    todo = []
    for rec in records:
      if 'skipped' in rec: continue
      if rec['ptx_sha256'] not in hsacos:
        results[key_of(rec)] = {'key': key_of(rec), 'status': 'not-compiled', 'why': 'the module did not compile'}
      else: todo.append(key_of(rec))
    by_key = {key_of(r): r for r in records}
    jsonl = open(args.jsonl, 'w') if args.jsonl else None

    def on_result(res):
      results[res['key']] = res
      rec = by_key[res['key']]
      det = '' if rec['deterministic'] else ' (NVIDIA nondeterministic)'
      what = res['status'] + det
      if res.get('first'): what += ': ' + res['first']
      if res.get('why'): what += ': ' + res['why']
      print(f'{res["key"]} {rec["kernel"][:60]} grid={rec["grid"]} block={rec["block"]}: {what}'
            f'{" (%.1f s)" % res["seconds"] if "seconds" in res else ""}', flush=True)
      if jsonl: jsonl.write(json.dumps({**res, 'kernel': rec['kernel'], 'deterministic': rec['deterministic']}) + '\n')

    for k in list(results): on_result(results[k])
    run_workers(args, todo, hsacos, on_result)
    ok = table(args.arch, records, results)
  return 0 if ok else 1


if __name__ == '__main__':
  sys.exit(main())

#!/usr/bin/env python3
"""End-to-end checks of amdgpu_runner.py: PTX kernels in kernels/ are compiled by zluda-precompile for an AMD
target, run in the emulator, and their outputs compared byte for byte with results computed here in Python.

  ZLUDA_AMD_EMULATOR=/path/to/exported/tinygrad python3 test/emu/selftest.py [--arch gfx1100] [--tool PATH] [-k NAME]

Exit status 0 when every check passes. A check the target cannot run (the compiler refuses it, or the
emulator cannot execute it) is reported as SKIP with the reason, not as a pass.
"""
from __future__ import annotations

import argparse
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import amdgpu_runner as ar  # noqa: E402

KERNELS = os.path.join(HERE, 'kernels')
M32 = 0xffffffff


def u32s(b: bytes) -> list[int]: return list(struct.unpack(f'<{len(b) // 4}I', b))
def pack(v: list[int]) -> bytes: return struct.pack(f'<{len(v)}I', *v)


def assemble_gfx942(llvm: str, tmp: str) -> bytes:
  src, out = os.path.join(tmp, 'cdna.s'), os.path.join(tmp, 'cdna.hsaco')
  with open(src, 'w') as f: f.write(CDNA_SRC)
  subprocess.run([os.path.join(llvm, 'clang'), '-x', 'assembler', '-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx942',
                  '-mcode-object-version=5', src, '-o', out], check=True)
  with open(out, 'rb') as f: return f.read()


def compile_ptx(tool: str, name: str, arch: str, tmp: str) -> bytes:
  # `name` is a kernel of kernels/, or a path under test/ (e.g. verify/sweeps/call_indirect)
  src = os.path.join(os.path.dirname(HERE), name) if '/' in name else os.path.join(KERNELS, name)
  out = os.path.join(tmp, f'{os.path.basename(name)}.{arch}.hsaco')
  r = subprocess.run([tool, 'compile', src + '.ptx', '--arch', arch, '-o', out],
                     capture_output=True, text=True)
  if r.returncode != 0:
    why = next((l for l in r.stderr.splitlines() if 'error' in l), r.stderr.strip()[:300])
    raise ar.UnsupportedByEmulator(f'zluda-precompile refused {name} for {arch}: {why}')
  with open(out, 'rb') as f: return f.read()


# Each check: (kernel, function(code) -> list of (what, got bytes, expected bytes)).

def check_ids3d(code):
  grid, block = (3, 2, 2), (8, 2, 3)
  n = 3 * 2 * 2 * 8 * 2 * 3
  out, ids = ar.Buffer(4 * n), ar.Buffer(8 * n)
  ar.run(code, 'ids3d', grid, block, [out, ids])
  exp_out, exp_ids = [0] * n, [0] * (2 * n)
  for bz in range(grid[2]):
    for by in range(grid[1]):
      for bx in range(grid[0]):
        for tz in range(block[2]):
          for ty in range(block[1]):
            for tx in range(block[0]):
              blk = (bz * grid[1] + by) * grid[0] + bx
              gid = blk * (block[0] * block[1] * block[2]) + (tz * block[1] + ty) * block[0] + tx
              exp_out[gid] = tx * 3 + bx
              exp_ids[2 * gid] = tx | ty << 8 | tz << 16 | bx << 24
              exp_ids[2 * gid + 1] = by | bz << 8 | grid[0] << 16 | grid[1] << 24
  return [('out', out.read(), pack(exp_out)), ('ids', ids.read(), pack(exp_ids))]


def check_ids1d(code):
  # The task's first kernel: tid.x*3 + ctaid.x over a 1-D grid of 4 blocks of 96 (3 waves each).
  grid, block = (4, 1, 1), (96, 1, 1)
  n = grid[0] * block[0]
  out, ids = ar.Buffer(4 * n), ar.Buffer(8 * n)
  ar.run(code, 'ids3d', grid, block, [out, ids])
  exp = [(i % 96) * 3 + i // 96 for i in range(n)]
  return [('out', out.read(), pack(exp))]


def check_shfl_reduce(code):
  grid, block = (3, 1, 1), (64, 1, 1)
  n = grid[0] * block[0]
  rng = random.Random(1)
  vals = [rng.getrandbits(32) for _ in range(n)]
  inp, out, sums = ar.Buffer(pack(vals)), ar.Buffer(4 * n), ar.Buffer(4 * grid[0])
  ar.run(code, 'shfl_reduce', grid, block, [inp, out, sums])
  exp_out = []
  for i in range(n):
    lane = i % 32
    exp_out.append(vals[i + 1] if lane < 31 else vals[i])   # shfl.down 1, clamp 31: the last lane keeps its value
  exp_sums = [sum(vals[b * 64:(b + 1) * 64]) & M32 for b in range(grid[0])]
  return [('out', out.read(), pack(exp_out)), ('sums', sums.read(), pack(exp_sums))]


# shfl_fixed.ptx's shapes, in its order: (mode, b, c).
SHFL_SHAPES = [('bfly', 1, 31), ('bfly', 2, 31), ('bfly', 4, 31), ('bfly', 8, 31), ('bfly', 16, 31), ('bfly', 3, 31), ('bfly', 31, 31), ('bfly', 1, 7711), ('bfly', 1, 7711), ('bfly', 1, 7199), ('bfly', 2, 7199), ('bfly', 1, 6175), ('bfly', 4, 6175), ('bfly', 1, 4127), ('bfly', 8, 4127), ('idx', 0, 31), ('idx', 5, 31), ('idx', 17, 31), ('idx', 31, 31), ('idx', 0, 7199), ('idx', 1, 7199), ('idx', 3, 7199), ('idx', 5, 7199), ('idx', 0, 6175), ('idx', 1, 6175), ('idx', 7, 6175), ('idx', 9, 6175), ('idx', 0, 4127), ('idx', 1, 4127), ('idx', 15, 4127), ('idx', 17, 4127)]


def check_shfl_fixed(code):
  """Both kernels of shfl_fixed.ptx (constant operands: ds_swizzle; registers: ds_bpermute) against PTX's shfl
  (lanes [minLane, maxLane] from c, the own value and p = 0 outside), blocks of 96: three warps, on wave64 a
  wave whose upper half is absent."""
  block = 96
  rng = random.Random(1)
  vals = [rng.getrandbits(32) for _ in range(block)]
  ops = b''.join(struct.pack('<II', b, c) for _, b, c in SHFL_SHAPES)
  exp = []
  for t in range(block):
    for mode, b, c in SHFL_SHAPES:
      seg, lane, base = c >> 8 & 31, t & 31, t & ~31
      lo = lane & seg
      j = lane ^ b if mode == 'bfly' else lo | (b & ~seg)
      ok = j <= lo | (c & 31 & ~seg)
      exp += [vals[base + (j if ok else lane)], int(ok)]
  out = []
  for k in ('kc', 'kr'):
    o = ar.Buffer(8 * len(SHFL_SHAPES) * block)
    ar.run(code, k, (1, 1, 1), (block, 1, 1), [o, ar.Buffer(pack(vals)), ar.Buffer(ops)])
    out.append((k, o.read(), pack(exp)))
  return out


def check_elect(code):
  """elect.sync with a member mask a warp, run by the mask's threads only: d is the lowest lane of the mask (the
  PTX ISA leaves the choice open; this lowering's), p true in that lane; blocks of 160 (five warps: on wave64 the
  last wave half empty)."""
  masks = [0xffffffff, 0x80000000, 0x55555550, 0x00010000, 0xfff00000]
  block = 32 * len(masks)
  out = ar.Buffer(8 * block)
  ar.run(code, 'elect', (1, 1, 1), (block, 1, 1), [out, ar.Buffer(pack(masks))])
  exp = []
  for t in range(block):
    m, lane = masks[t // 32], t % 32
    leader = (m & -m).bit_length() - 1
    exp += [leader, int(lane == leader)] if m >> lane & 1 else [0, 0]
  return [('out', out.read(), pack(exp))]


def check_dyn_smem(code):
  grid, block, k = (5, 1, 1), (128, 1, 1), 12345
  n = grid[0] * block[0]
  vals = [(i * 2654435761) & M32 for i in range(n)]
  inp, out = ar.Buffer(pack(vals)), ar.Buffer(4 * n)
  ar.run(code, 'dyn_smem', grid, block, [inp, out, k], dynamic_lds=4 * block[0])
  exp = []
  for i in range(n):
    b, t = divmod(i, block[0])
    exp.append((vals[b * block[0] + block[0] - 1 - t] * 2 + k) & M32)
  return [('out', out.read(), pack(exp))]


def check_module_var(code):
  grid, block = (4, 1, 1), (48, 1, 1)
  n = grid[0] * block[0]
  out = ar.Buffer(4 * n)
  loaded = ar.load(code)
  loaded.write_symbol('counter', pack([7]))
  res = ar.run(loaded, 'module_var', grid, block, [out])
  exp = [[10, 20, 30, 40][i % 4] + i for i in range(n)]
  return [('out', out.read(), pack(exp)), ('counter', res.code.read_symbol('counter'), pack([7 + n]))]


def check_local_array(code):
  grid, block = (2, 1, 1), (64, 1, 1)
  n = grid[0] * block[0]
  rng = random.Random(2)
  vals = [rng.getrandbits(32) for _ in range(n)]
  inp, out = ar.Buffer(pack(vals)), ar.Buffer(4 * n)
  ar.run(code, 'local_array', grid, block, [inp, out])
  exp = []
  for i in range(n):
    tid, k = i % block[0], vals[i] & 7
    exp.append(sum((tid * 8 + j) * ((j + k) & 7) for j in range(8)) & M32)
  return [('out', out.read(), pack(exp))]


def check_call_indirect(code):
  # The sweep family call_indirect (test/verify/sweeps): calls through a table of function addresses (a relocated
  # global initializer) chosen by a & 3, then a direct call: r9 = f[a & 3](b, c), r10 = r9 ^ c; out = {r9, r10}.
  n = 1024
  rng = random.Random(3)
  a, b, c = ([rng.getrandbits(32) for _ in range(n)] for _ in range(3))
  o = ar.Buffer(8 * n)
  ar.run(code, 'k', (n // 256, 1, 1), (256, 1, 1), [o, ar.Buffer(pack(a)), ar.Buffer(pack(b)), ar.Buffer(pack(c)), n])
  fns = [lambda x, y: (x + y) & M32, lambda x, y: x ^ y, lambda x, y: (x * y) >> 32, lambda x, y: (x + y) & M32]
  exp = []
  for i in range(n):
    r9 = fns[a[i] & 3](b[i], c[i])
    exp += [r9, r9 ^ c[i]]
  return [('out', o.read(), pack(exp))]


def check_alloca(code):
  # test/Conversion/PTXToLLVM/alloca.ptx: two dynamic allocas (a dynamic stack in scratch), reached through generic
  # pointers (cvta.local: flat_* into the private aperture): p[0] = arr[n & 3] + 7 with arr[0] = n (n & 3 == 0 here).
  got, exp = b'', b''
  for n in (4, 8, 100):
    p = ar.Buffer(4)
    ar.run(code, 'k', (1, 1, 1), (32, 1, 1), [p, n])
    got, exp = got + p.read(), exp + pack([n + 7])
  return [('p', got, exp)]


def check_mbarrier(code):
  # kernels/mbarrier.ptx: bulk copies completing transaction bytes, arrivals with expect_tx, waits by parity and by
  # state, expect_tx/complete_tx, arrive_drop, a generic address, a bulk store to global, pending counts (the count
  # before each arrival). The same bytes as NVIDIA's build of this PTX on the H200 (2026-12-02).
  rng = random.Random(5)
  src = [rng.getrandbits(32) for _ in range(3 * 128)]
  out = ar.Buffer(4 * 770)
  ar.run(code, 'mbar', (1, 1, 1), (128, 1, 1), [out, ar.Buffer(pack(src))])
  exp = [(src[it * 128 + t] + it) & M32 for it in range(3) for t in range(128)]
  exp += [0xabcd1234] * 128 + [1] * 128 + [0xabcd1234] + src[257:384] + [3, 2]
  return [('out', out.read(), pack(exp))]


def check_param_address(code):
  # corpus/producers/llvm-nvptx/kernels.O0g.sm_80 (clang -O0 -g): `structs` passes a 16-byte struct by value to a
  # noinline function, which takes its parameter's address (`mov.b64 %rd, combine_param_0; cvta.local.u64`): a
  # .local address, as the PTX ISA says. p[i] = {p[i].a * 2.5, p[i].b + 2} for i < n.
  n = 100
  rng = random.Random(11)
  pairs = [(rng.uniform(-100, 100), rng.randrange(-2**40, 2**40)) for _ in range(128)]
  p = ar.Buffer(b''.join(struct.pack('<dq', a, b) for a, b in pairs))
  ar.run(code, 'structs', (1, 1, 1), (128, 1, 1), [p, n])
  exp = b''.join(struct.pack('<dq', a * 2.5, b + 2) if i < n else struct.pack('<dq', a, b)
                 for i, (a, b) in enumerate(pairs))
  return [('p', p.read(), exp)]


CDNA_SRC = '''\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.text
\t.globl t
\t.p2align 8
\t.type t,@function
t:
\ts_load_dwordx2 s[4:5], s[0:1], 0x0
\ts_lshl_b32 s3, s2, 7
\tv_add_u32 v2, s3, v0
\tv_lshlrev_b32 v10, 2, v2
\tv_mul_u32_u24 v1, 3, v0
\tv_add_u32 v1, s2, v1
\ts_waitcnt lgkmcnt(0)
\tglobal_store_dword v10, v1, s[4:5]
\ts_endpgm
.Lend:
\t.size t, .Lend-t
\t.rodata
\t.p2align 6
\t.amdhsa_kernel t
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_kernarg_size 8
\t\t.amdhsa_next_free_vgpr 16
\t\t.amdhsa_next_free_sgpr 16
\t\t.amdhsa_accum_offset 16
\t\t.amdhsa_float_denorm_mode_32 3
\t\t.amdhsa_system_sgpr_workgroup_id_x 1
\t.end_amdhsa_kernel
\t.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - {.name: t, .symbol: t.kd, .kernarg_segment_size: 8, .kernarg_segment_align: 8, .group_segment_fixed_size: 0,
     .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 16, .vgpr_count: 16,
     .max_flat_workgroup_size: 1024,
     .args: [{.offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}]}
...
\t.end_amdgpu_metadata
'''


def check_cdna_wave64(code):
  # ISA written here (zluda-precompile refuses wave64 targets): gfx942, 2 workgroups of 128 (two wave64s each),
  # out[wg * 128 + tid] = tid * 3 + wg.
  out = ar.Buffer(4 * 256)
  ar.run(code, 't', (2, 1, 1), (128, 1, 1), [out])
  return [('out', out.read(), pack([(i % 128) * 3 + i // 128 for i in range(256)]))]


CHECKS = [('ids3d', check_ids1d, 'ids1d'), ('ids3d', check_ids3d, 'ids3d'), ('shfl_reduce', check_shfl_reduce, 'shfl_reduce'),
          ('shfl_fixed', check_shfl_fixed, 'shfl_fixed'), ('elect', check_elect, 'elect'), ('mbarrier', check_mbarrier, 'mbarrier'),
          ('dyn_smem', check_dyn_smem, 'dyn_smem'), ('module_var', check_module_var, 'module_var'),
          ('local_array', check_local_array, 'local_array'), ('verify/sweeps/call_indirect', check_call_indirect, 'call_indirect'),
          ('Conversion/PTXToLLVM/alloca', check_alloca, 'alloca'),
          ('corpus/producers/llvm-nvptx/kernels.O0g.sm_80', check_param_address, 'param_address'),
          ('asm:gfx942', check_cdna_wave64, 'cdna_wave64')]


def main() -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('--arch', default='gfx1100')
  p.add_argument('--tool', default=os.environ.get('ZLUDA_PRECOMPILE', 'zluda-precompile'))
  p.add_argument('-k', dest='only', action='append', help='run only these checks')
  p.add_argument('--llvm', default='/usr/lib/llvm-22/bin', help='LLVM tools (clang) for the ISA-level check')
  a = p.parse_args()
  failed = 0
  with tempfile.TemporaryDirectory() as tmp:
    for kernel, fn, name in CHECKS:
      if a.only and name not in a.only: continue
      arch = kernel[4:] if kernel.startswith('asm:') else a.arch   # ISA-level checks have their own target
      if kernel.startswith('asm:') and a.arch != 'gfx1100' and not a.only: continue   # (run once, with the default)
      try:
        code = assemble_gfx942(a.llvm, tmp) if kernel.startswith('asm:') else compile_ptx(a.tool, kernel, arch, tmp)
        results = fn(code)
      except (ar.UnsupportedByEmulator, ar.EmulatorUnavailable) as e:
        print(f'SKIP {name} [{arch}]: {e}')
        continue
      except ar.RunnerError as e:
        print(f'FAIL {name} [{arch}]: {type(e).__name__}: {e}')
        failed += 1
        continue
      for what, got, exp in results:
        if got == exp: print(f'PASS {name}.{what} [{arch}]: {len(got)} bytes identical')
        else:
          failed += 1
          bad = [i for i in range(0, len(exp), 4) if got[i:i + 4] != exp[i:i + 4]]
          i = bad[0]
          print(f'FAIL {name}.{what} [{arch}]: {len(bad)} of {len(exp) // 4} words differ; first at word {i // 4}: '
                f'got {got[i:i + 4].hex()} expected {exp[i:i + 4].hex()}')
  return 1 if failed else 0


if __name__ == '__main__':
  sys.exit(main())

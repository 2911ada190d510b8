#!/usr/bin/env python3
"""ISA-level reproducers of the emulator defects amdgpu_runner.py works around.

Each case is a small kernel written in AMDGPU assembly (assembled here with LLVM's clang + lld into a code
object), the values it must produce (computed in Python from the ISA's definition), and the defect it shows.
Every case runs twice, each in its own process:
  emulator: through the emulator's own driver, emu.run_asm(), with no workaround of ours (a crash is reported);
  runner:   through amdgpu_runner.run(), with its workarounds.

  ZLUDA_AMD_EMULATOR=/path/to/exported/tinygrad python3 test/emu/defects.py [-k CASE] [--llvm /usr/lib/llvm-22/bin]

The exit status is 0 when every case's runner result is right (the emulator results are expected to be wrong).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

M32 = 0xffffffff


def u32(x: int) -> int: return x & M32
def f32_bits(x: float) -> int: return struct.unpack('<I', struct.pack('<f', x))[0]
def sext24(x: int) -> int: return (x & 0xffffff) - (1 << 24 if x & 0x800000 else 0)


# ─── kernels ──────────────────────────────────────────────────────────────────

def _wait_k(arch: str) -> str: return 's_wait_kmcnt 0' if arch.startswith('gfx12') else 's_waitcnt lgkmcnt(0)'
def _cdna(arch: str) -> bool: return arch.startswith('gfx9')
def _wait_ds(arch: str) -> str: return 's_wait_dscnt 0' if arch.startswith('gfx12') else 's_waitcnt lgkmcnt(0)'


def asm_kernel(arch: str, body: str, *, lds: int = 0, private: int = 0, workitem_ids: int = 0, denorm: tuple = (3, 3),
               data: str = '', wgid: bool = False, vgprs: int = 16) -> str:
  """A kernel `t(out, in)` (two global pointers): the prologue loads out into s[2:3], in into s[8:9] and leaves
  v10 = 4 * v0 (the lane's dword offset for a 1-D block); `body` computes v1; the epilogue stores it to out[v10].
  CDNA (gfx9xx): wave64, gfx9 mnemonics in the prologue and epilogue."""
  cdna = _cdna(arch)
  load, store = ('s_load_dwordx2', 'global_store_dword') if cdna else ('s_load_b64', 'global_store_b32')
  wave = f'\t\t.amdhsa_accum_offset {vgprs}\n' if cdna else '\t\t.amdhsa_wavefront_size32 1\n'
  return f"""\t.amdgcn_target "amdgcn-amd-amdhsa--{arch}"
\t.text
\t.globl t
\t.p2align 8
\t.type t,@function
t:
\t{load} s[2:3], s[0:1], 0x0
\t{load} s[8:9], s[0:1], 0x8
\t{_wait_k(arch)}
\tv_lshlrev_b32 v10, 2, v0
{body}
\t{store} v10, v1, s[2:3]
\ts_endpgm
.Lend:
\t.size t, .Lend-t
\t.rodata
\t.p2align 6
\t.amdhsa_kernel t
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t\t.amdhsa_kernarg_size 16
\t\t.amdhsa_next_free_vgpr {vgprs}
\t\t.amdhsa_next_free_sgpr 16
{wave}\t\t.amdhsa_float_denorm_mode_32 {denorm[0]}
\t\t.amdhsa_float_denorm_mode_16_64 {denorm[1]}
\t\t.amdhsa_group_segment_fixed_size {lds}
\t\t.amdhsa_private_segment_fixed_size {private}
\t\t.amdhsa_enable_private_segment {1 if private else 0}
\t\t.amdhsa_system_vgpr_workitem_id {workitem_ids}
\t\t.amdhsa_system_sgpr_workgroup_id_x {1 if wgid else 0}
\t.end_amdhsa_kernel
{data}
\t.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--{arch}
amdhsa.kernels:
  - .name: t
    .symbol: t.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: {lds}
    .private_segment_fixed_size: {private}
    .wavefront_size: {64 if cdna else 32}
    .sgpr_count: 16
    .vgpr_count: {vgprs}
    .max_flat_workgroup_size: 1024
    .args:
      - {{.offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}}
      - {{.offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global}}
...
\t.end_amdgpu_metadata
"""


def assemble(src: str, arch: str, llvm: str, tmp: str, name: str) -> bytes:
  s, o = os.path.join(tmp, f'{name}.s'), os.path.join(tmp, f'{name}.hsaco')
  with open(s, 'w') as f: f.write(src)
  r = subprocess.run([os.path.join(llvm, 'clang'), '-x', 'assembler', '-target', 'amdgcn-amd-amdhsa', f'-mcpu={arch}',
                      '-mcode-object-version=5', s, '-o', o], capture_output=True, text=True)
  if r.returncode: raise RuntimeError(f'assembling {name} failed:\n{r.stderr}')
  with open(o, 'rb') as f: return f.read()


# ─── the cases ────────────────────────────────────────────────────────────────
# name -> dict(arch, body or src, block, inputs (u32 per lane), expect(inputs) -> list of u32 (one per lane),
#              kw (asm_kernel options), about)

def bf16(x: float) -> int: return f32_bits(x) >> 16   # exact for the small values used here


def _mul_hi_inputs(n):
  vals = [0x800000, 0xffffff, 0x7fffff, 0x123456, 0xfedcba, 0x000003, 0xff000001, 0xabcdef01]
  return [vals[i % len(vals)] for i in range(n)]


CASES = {
  's_getpc_b64': dict(
    about='s_getpc_b64 is not implemented (its pcode reads PC, which the scalar compiler does not provide); every '
          'kernel reading a module variable or a constant table starts with it',
    body="""\ts_getpc_b64 s[4:5]
\ts_add_u32 s4, s4, value@rel32@lo+4
\ts_addc_u32 s5, s5, value@rel32@hi+12
\ts_load_b32 s6, s[4:5], 0x0
\ts_waitcnt lgkmcnt(0)
\tv_mov_b32 v1, s6""",
    kw=dict(data='\t.p2align 2\nvalue:\n\t.long 0x12345678'),
    expect=lambda inp: [0x12345678] * len(inp)),
  's_setpc_b64': dict(
    about='s_setpc_b64 / s_swappc_b64 (function calls and returns) are not implemented either (pcode reads PC)',
    body="""\ts_load_b64 s[4:5], s[8:9], 0x0
\tv_mov_b32 v1, 1
\ts_waitcnt lgkmcnt(0)
\ts_swappc_b64 s[6:7], s[4:5]
\tv_mov_b32 v1, 2
\t.globl target
target:
\tv_add_nc_u32 v1, 10, v1""",
    pass_symbol='target',    # in[0..1] = the address of `target`
    expect=lambda inp: [11] * len(inp)),
  # The 24-bit multiplies, one case each: operands with high bits set / negative 24-bit values.
  **{f'{op}': dict(
    about=f'{op}: the pcode\'s S0.{t}/S1.{t} keep all 32 bits (no {t} type): high bits are not dropped'
          + (' and negative 24-bit values are not sign-extended' if t == 'i24' else ''),
    body=f"""\tglobal_load_b32 v2, v10, s[8:9]
\tv_mov_b32 v3, 0xff00abcd
\ts_waitcnt vmcnt(0)
\t{op} v1, v2, {'0x654321' if 'mad' not in op else '0xfff001, v3'}""",
    inputs=_mul_hi_inputs,
    expect=(lambda fn: lambda inp: [u32(fn(a)) for a in inp])(fn))
    for op, t, fn in [
      ('v_mul_hi_i32_i24', 'i24', lambda a: (sext24(a) * sext24(0x654321)) >> 32),
      ('v_mul_i32_i24', 'i24', lambda a: sext24(a) * sext24(0x654321)),
      ('v_mad_i32_i24', 'i24', lambda a: sext24(a) * sext24(0xfff001) + 0xff00abcd),
      ('v_mul_hi_u32_u24', 'u24', lambda a: ((a & 0xffffff) * 0x654321) >> 32),
      ('v_mul_u32_u24', 'u24', lambda a: (a & 0xffffff) * 0x654321),
      ('v_mad_u32_u24', 'u24', lambda a: (a & 0xffffff) * 0xfff001 + 0xff00abcd)]},
  'inline_inv2pi_f32': dict(
    about='inline constant 1/(2*pi) (operand 248) reads as 0 in wave 0 of every workgroup: run_asm stores the HW_ID '
          'register value in the same slot of the register file',
    body='\tv_mov_b32 v1, 0.15915494',
    expect=lambda inp: [0x3e22f983] * len(inp)),
  'inline_inv2pi_f64': dict(
    about='64-bit inline constant 1/(2*pi) is the float constant widened (0x3FC45F30_60000000, low word 0x60000000 '
          'with the runner\'s register set-up but without its fix; 0 under run_asm, which also clobbers the slot) '
          'instead of the double 0x3FC45F30_6DC9C882: v_add_f64 v[1:2], 1/(2*pi), 0, low word',
    body="""\t.long 0xd7270001, 0x000100f8   // v_add_f64 v[1:2], 1/(2*pi) (operand 248), 0""",
    expect=lambda inp: [0x6dc9c882] * len(inp)),
  'f32_denormal_kept': dict(
    about='f32 denormals are flushed (run_asm sets DAZ|FTZ) although the descriptor says FLOAT_DENORM_MODE_32 = 3 '
          '(keep): v_mul_f32 of the smallest denormal by 1.0',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mul_f32 v1, 1.0, v2""",
    inputs=lambda n: [1 + i for i in range(n)],
    expect=lambda inp: list(inp)),
  'f32_denormal_flushed': dict(
    about='(the other way: FLOAT_DENORM_MODE_32 = 0 flushes; the runner follows the mode)',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mul_f32 v1, 1.0, v2""",
    kw=dict(denorm=(0, 0)),
    inputs=lambda n: [1 + i for i in range(n)],
    expect=lambda inp: [0] * len(inp)),
  'f64_denormal_kept': dict(
    about='f64 denormals are flushed too (DAZ|FTZ), FLOAT_DENORM_MODE_16_64 = 3: v_mul_f64 of a denormal by 1.0, '
          'low word',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\tv_mov_b32 v3, 0
\ts_waitcnt vmcnt(0)
\tv_mul_f64 v[4:5], 1.0, v[2:3]
\tv_mov_b32 v1, v4""",
    inputs=lambda n: [1 + i for i in range(n)],
    expect=lambda inp: list(inp)),
  's_denorm_mode': dict(
    about='s_denorm_mode has no pcode and is ignored (no MODE register): a kernel starting in flush mode that '
          'switches to keep (s_denorm_mode 0xf) must keep denormals',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\ts_denorm_mode 0xf
\tv_mul_f32 v1, 1.0, v2""",
    kw=dict(denorm=(0, 0)),
    inputs=lambda n: [1 + i for i in range(n)],
    expect=lambda inp: list(inp)),
  's_getreg_mode': dict(
    about='s_getreg_b32 reads "HW registers" from register-file slots 244+id, which overlap the inline constants '
          '(MODE = slot 245 = the constant -2.0). Expected: MODE as compute_pgm_rsrc1 initialises it (denorm 3/3, '
          'DX10_CLAMP, IEEE) = 0x3f0',
    body="""\ts_getreg_b32 s4, hwreg(HW_REG_MODE)
\tv_mov_b32 v1, s4""",
    expect=lambda inp: [0x3f0] * len(inp)),
  's_setreg_mode': dict(
    about='s_setreg_b32 cannot be compiled (its pcode calls writeableBitMask and writes HW_REGISTERS)',
    body="""\ts_mov_b32 s4, 0
\ts_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s4
\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mul_f32 v1, 1.0, v2""",
    inputs=lambda n: [1 + i for i in range(n)],
    expect=lambda inp: [0] * len(inp)),
  'ds_inactive_lanes': dict(
    about='DS loads and stores access LDS for inactive lanes too, at whatever address their VGPRs hold: with a '
          'stale address in an inactive lane the host process reads far outside the LDS buffer (SIGSEGV)',
    body="""\tv_mov_b32 v2, 0x7ffffff0
\tv_mov_b32 v1, 77
\ts_mov_b32 s4, exec_lo
\ts_mov_b32 exec_lo, 1
\tv_mov_b32 v2, 0
\tds_store_b32 v2, v1
\tds_load_b32 v1, v2
\ts_waitcnt lgkmcnt(0)
\ts_mov_b32 exec_lo, s4""",
    kw=dict(lds=64),
    expect=lambda inp: [77] * len(inp)),
  'buffer_gl0_inv': dict(
    about='buffer_gl0_inv / buffer_gl1_inv (after every s_barrier in LLVM output) are not decoded for RDNA3 '
          '(no MUBUF format in the RDNA3 decoder)',
    body="""\tv_mov_b32 v1, 5
\ts_barrier
\tbuffer_gl0_inv
\tbuffer_gl1_inv""",
    expect=lambda inp: [5] * len(inp)),
  's_trap': dict(
    about='s_trap (PTX trap, brkpt, assert) cannot be compiled (its pcode has a quoted string); on the device the '
          'wave stops and the kernel aborts',
    body="""\tv_mov_b32 v1, 1
\ts_trap 2""",
    expect='trap'),
  'src_shared_base_flat': dict(
    about='flat access to LDS through a generic address (src_shared_base aperture): the aperture registers read as '
          'the sign-extended 32-bit slot (0 in run_asm), so flat_load goes to host address 0 + offset (SIGSEGV); '
          'expected: the LDS word written by ds_store',
    body="""\tv_mov_b32 v2, 0
\tv_mov_b32 v3, 42
\tds_store_b32 v2, v3 offset:8
\ts_mov_b64 s[4:5], src_shared_base
\ts_waitcnt lgkmcnt(0)
\tv_mov_b32 v2, 8
\tv_mov_b32 v3, s5
\tflat_load_b32 v1, v[2:3]
\ts_waitcnt vmcnt(0) lgkmcnt(0)""",
    kw=dict(lds=64),
    expect=lambda inp: [42] * len(inp)),
  'src_private_base_flat': dict(
    about='flat access to private (scratch) memory through a generic address (src_private_base): the emulator sends '
          'the generic address to host memory instead of the lane\'s scratch; expected: what scratch_store wrote',
    body="""\tv_add_nc_u32 v3, 100, v0
\tscratch_store_b32 off, v3, off offset:4
\ts_mov_b64 s[4:5], src_private_base
\tv_mov_b32 v2, 4
\tv_mov_b32 v3, s5
\ts_waitcnt vmcnt(0)
\tflat_load_b32 v1, v[2:3]
\ts_waitcnt vmcnt(0) lgkmcnt(0)""",
    kw=dict(private=16),
    expect=lambda inp: [100 + i for i in range(len(inp))]),
  'scratch_two_waves': dict(
    about='run_asm gives all waves of a workgroup one scratch buffer: with 2 waves, wave 1\'s scratch stores '
          'overwrite wave 0\'s while wave 0 waits at the barrier',
    body="""\tv_add_nc_u32 v3, 100, v0
\tscratch_store_b32 off, v3, off offset:4
\ts_waitcnt_vscnt null, 0
\ts_barrier
\tscratch_load_b32 v1, off, off offset:4
\ts_waitcnt vmcnt(0)""",
    kw=dict(private=16),
    block=64,
    expect=lambda inp: [100 + i for i in range(len(inp))]),
  'workitem_id_y_disabled': dict(
    about='run_asm packs tid.y/tid.z into v0 even when the descriptor enables only X (VGPR_WORKITEM_ID = 0); LLVM '
          'then uses v0 unmasked as tid.x. Block (4, 8): v1 := v0, expected x = lane % 4',
    body='\tv_mov_b32 v1, v0\n\tv_lshlrev_b32 v10, 2, v11',   # v11 = the flat lane id, set below
    prologue='\tv_mbcnt_lo_u32_b32 v11, -1, 0',
    block=(4, 8, 1),
    expect=lambda inp: [i % 4 for i in range(len(inp))]),
  'gfx12_flat': dict(
    arch='gfx1201',
    about='RDNA4 flat_load/flat_store to global memory',
    body="""\tv_mov_b32 v1, 0
\tv_add_co_u32 v2, vcc_lo, s8, v10
\tv_add_co_ci_u32_e64 v3, null, s9, 0, vcc_lo
\tflat_load_b32 v4, v[2:3]
\ts_wait_loadcnt_dscnt 0
\tv_add_nc_u32 v4, 1, v4
\tv_add_co_u32 v2, vcc_lo, s2, v10
\tv_add_co_ci_u32_e64 v3, null, s3, 0, vcc_lo
\tflat_store_b32 v[2:3], v4
\ts_wait_storecnt 0
\tflat_load_b32 v1, v[2:3]
\ts_wait_loadcnt_dscnt 0""",
    inputs=lambda n: [1000 + i for i in range(n)],
    expect=lambda inp: [x + 1 for x in inp]),
  'gfx12_atomic_return': dict(
    arch='gfx1201',
    about='RDNA4 global/flat atomics with TH_ATOMIC_RETURN do not write the pre-op value back (the emulator looks '
          'for a `glc` bit, which RDNA4 encodings do not have): global_atomic_add_u32 returning into v1',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_wait_loadcnt 0
\tglobal_store_b32 v10, v2, s[2:3]
\ts_wait_storecnt 0
\tv_mov_b32 v3, 5
\tv_mov_b32 v1, 0
\tglobal_atomic_add_u32 v1, v10, v3, s[2:3] th:TH_ATOMIC_RETURN
\ts_wait_loadcnt 0""",
    inputs=lambda n: [1000 + i for i in range(n)],
    expect=lambda inp: list(inp)),
  'v_rndne_f32': dict(
    about='v_rndne_f32 follows the pcode floor(x + 0.5) with a tie fix-up: -0 and negative values that round to 0 '
          'lose their sign, and x + 0.5 rounds (0.49999997 gives 1.0); the hardware rounds to the nearest '
          'integer, ties to even, keeping the sign',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_rndne_f32 v1, v2""",
    inputs=lambda n: [[f32_bits(x) for x in (-0.0, -0.3, 0.49999997, 2.5, -2.5, 3.5, 1e30, -1.5)][i % 8]
                      for i in range(n)],
    expect=lambda inp: [{f32_bits(-0.0): f32_bits(-0.0), f32_bits(-0.3): f32_bits(-0.0),
                         f32_bits(0.49999997): 0, f32_bits(2.5): f32_bits(2.0), f32_bits(-2.5): f32_bits(-2.0),
                         f32_bits(3.5): f32_bits(4.0), f32_bits(1e30): f32_bits(1e30),
                         f32_bits(-1.5): f32_bits(-2.0)}[a] for a in inp]),
  'v_pk_min_f16_nan': dict(
    about='v_pk_min_f16 (v_pk_max_f16): the halves are compared without the IEEE-mode NaN rules of the scalar '
          'min/max pcode: a quiet NaN operand must give the other operand, a signalling one its quieted self',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mov_b32 v3, 0x3c00c000
\tv_pk_min_f16 v1, v2, v3""",
    inputs=lambda n: [[0x7e00fe18, 0x7d004000, 0x00000000][i % 3] for i in range(n)],
    expect=lambda inp: [{0x7e00fe18: 0x3c00c000, 0x7d004000: 0x7f00c000, 0x00000000: 0x0000c000}[a]
                        for a in inp]),
  'v_pk_min_f16_zero': dict(
    about='v_pk_min_f16 / v_pk_max_f16: the halves are compared without the zero order of the scalar pcode '
          '(V_MIN_F16/V_MAX_F16, which V_PK_MIN_F16/V_PK_MAX_F16 call per half, take -0 < +0): '
          'min(+0, x) and max(-0, x) must be x for x = +0 and -0',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mov_b32 v3, 0x80000000
\tv_pk_min_f16 v4, v3, v2
\tv_pk_max_f16 v5, v3, v2
\tv_and_b32 v4, 0xffff, v4
\tv_and_b32 v5, 0xffff0000, v5
\tv_or_b32 v1, v4, v5""",
    inputs=lambda n: [[0x00000000, 0x80008000, 0x00008000, 0x80000000][i % 4] for i in range(n)],
    expect=lambda inp: list(inp)),
  'vop3p_clamp': dict(
    about='the clamp bit of packed VOP3P float instructions (v_pk_add/mul/fma_f16 ... clamp, which LLVM emits for '
          '.sat on f16x2) is ignored: (a, b) + (a, b) must come out clamped to [0, 1], NaN to 0',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_pk_add_f16 v1, v2, v2 clamp""",
    inputs=lambda n: [[0x3c003c00, 0xbc004000, 0x38003400, 0x7e00c000][i % 4] for i in range(n)],
    expect=lambda inp: [{0x3c003c00: 0x3c003c00, 0xbc004000: 0x00003c00, 0x38003400: 0x3c003800,
                         0x7e00c000: 0x00000000}[a] for a in inp]),
  'vop3_clamp_negative_zero': dict(
    about='the clamp bit of VOP3 float instructions keeps a -0 result (the emulator clamps with a max against +0); '
          'the AMD ISA\'s output modifiers flush -0 to +0, and LLVM folds PTX\'s .sat (which gives +0 for -0) into '
          'the clamp bit: -0 + -0, -0 * 1 and max(-0, -0) with clamp must be +0, in f32 and f16',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_add_f32_e64 v3, v2, v2 clamp
\tv_max_f32_e64 v4, v2, v2 clamp
\tv_mul_f16_e64 v5, v2, 1.0 clamp
\tv_or_b32 v1, v3, v4
\tv_and_b32 v5, 0xffff, v5
\tv_or_b32 v1, v1, v5""",
    inputs=lambda n: [[0x80000000, 0xbf808000, 0x3f000000, 0x3c00bc00][i % 4] for i in range(n)],
    # f32 -0 (f16 +0); f32 -1.0039 (f16 -0); f32 0.5: 1.0 | 0.5 (f16 +0); f32 0.00786: sum | itself (f16 -1 -> 0)
    expect=lambda inp: [{0x80000000: 0, 0xbf808000: 0, 0x3f000000: 0x3f800000,
                         0x3c00bc00: 0x3c80bc00}[a] for a in inp]),
  'v_div_scale_denormal': dict(
    about='v_div_scale_f32 with a denormal denominator gives NaN whatever the denormal mode; with denormals '
          'enabled the ISA scales it by 2^64 (LLVM\'s correctly rounded division, 1/x of a denormal came out '
          'inf): the denominator\'s own scale must be ldexp(x, 64), a normal x unchanged',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_div_scale_f32 v1, null, v2, v2, 1.0""",
    inputs=lambda n: [[0x00200020, 0x00000001, 0x3f800000, 0x807fffff][i % 4] for i in range(n)],
    expect=lambda inp: [{0x00200020: 0x1f800080, 0x00000001: 0x15000000, 0x3f800000: 0x3f800000,
                         0x807fffff: 0xa07ffffe}[a] for a in inp]),
  'v_div_scale_tiny': dict(
    about='v_div_scale_f32 of the numerator: a quotient that would be denormal must scale the numerator by 2^64 '
          'and set VCC (V_DIV_FMAS scales back); a tiny numerator (exponent <= 23) is scaled without VCC. The '
          'emulator does neither as the ISA says (3 * 2^-149 / 1 came out 0, 2^-149 / 2^-126 2^-87); '
          'out = D0 + VCC, denominator 1.0',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_div_scale_f32 v1, vcc_lo, v2, 1.0, v2
\tv_cndmask_b32_e64 v4, 0, 1, vcc_lo
\tv_add_nc_u32_e32 v1, v1, v4""",
    inputs=lambda n: [[0x00000003, 0x01000000, 0x3fc00000][i % 3] for i in range(n)],
    expect=lambda inp: [{0x00000003: 0x15c00001, 0x01000000: 0x21000000, 0x3fc00000: 0x3fc00000}[a]
                        for a in inp]),
  'v_div_fixup_underflow': dict(
    about='v_div_fixup_f32 with a quotient below 2^-150 gives the ISA\'s UNDERFLOW_F32, a constant the ISA does '
          'not define; the emulator uses the smallest denormal, the runner +-0 (the nearest-even rounding of such '
          'a quotient, which LLVM\'s correctly rounded division needs): 2^-126 / FLT_MAX must be +0 (the emulator\'s own '
          'driver flushes denormal results, which hides it there; the runner does not)',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mov_b32 v3, 0x7f7fffff
\tv_div_fixup_f32 v1, 0, v3, v2""",
    inputs=lambda n: [[0x00800000, 0x80800000, 0x3f800000][i % 3] for i in range(n)],
    expect=lambda inp: [{0x00800000: 0, 0x80800000: 0x80000000, 0x3f800000: 0}[a] for a in inp]),
  'v_div_fmas_denormal': dict(
    about='v_div_fmas_f32 with VCC rounds the fma and then its scaling by 2^-64 (twice) where the hardware rounds '
          'once: LLVM\'s correctly rounded division (this sequence) of 0x007fffff by 1.5 must give 0x00555555 '
          '(the exact quotient 0x00555554.aa..), the emulator gives 0x00555554',
    body="""\tglobal_load_b32 v5, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mov_b32 v3, 1.5
\tv_div_scale_f32 v0, null, v3, v3, v5
\tv_div_scale_f32 v7, vcc_lo, v5, v3, v5
\tv_rcp_f32_e32 v4, v0
\tv_fma_f32 v6, -v0, v4, 1.0
\tv_fmac_f32_e32 v4, v6, v4
\tv_mul_f32_e32 v6, v7, v4
\tv_fma_f32 v8, -v0, v6, v7
\tv_fmac_f32_e32 v6, v8, v4
\tv_fma_f32 v7, -v0, v6, v7
\tv_div_fmas_f32 v4, v7, v4, v6
\tv_div_fixup_f32 v1, v4, v3, v5""",
    inputs=lambda n: [[0x007fffff, 0x3fc00000][i % 2] for i in range(n)],
    expect=lambda inp: [{0x007fffff: 0x00555555, 0x3fc00000: 0x3f800000}[a] for a in inp]),
  'v_fma_f16_double_rounding': dict(
    about='v_fma_f16 (and v_pk_fma_f16) round twice in the emulator, through f32 (an f32 result on an f16 midpoint '
          'then rounds to even): f16 0xb210 * 0xe1b8 + 0x1fff = 138.6874962 must be 138.625 (0x5855), the emulator '
          'gives 138.75 (0x5856)',
    unfixed='the emulator converts f64 to f16 through f32 as well, so a wider fma in the pcode rounds twice too; '
            'the few fma.f16 inputs this changes (2-5 chunks of 806 in 4 families) are reported as this defect',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_mov_b32 v3, 0xe1b8
\tv_mov_b32 v4, 0x1fff
\tv_fma_f16 v1, v2, v3, v4
\tv_and_b32 v1, 0xffff, v1""",
    inputs=lambda n: [0xb210] * n,
    expect=lambda inp: [0x5855] * len(inp)),
  'v_div_extreme_exponents': dict(
    about='LLVM\'s correctly rounded f64 division (v_div_scale/rcp/fma/v_div_fmas/v_div_fixup_f64) of 1 by '
          '1.4250831502634231e308 (0x7fe95e08d264fddf), whose quotient is subnormal, must give 0x00050bbd98430548 '
          '(high word 0x00050bbd); the emulator\'s model of the scale/fmas/fixup steps at such exponents (subnormal '
          'quotients, divisors whose reciprocal is subnormal; f32 and f64) does not',
    unfixed='the ISA\'s pseudocode for these steps at extreme exponents is not consistent with itself (scaling a '
            'denominator near the maximum up by 2^128) and the emulator\'s rewrite of it differs again; the f64 '
            'rcp/div inputs with subnormal quotients (28-34 chunks of 806 in rcp.rm/rp/rz.f64, 2-3 in '
            'div.rm/rp/rz.f64) and f32 divisions by numbers above 2^126 (div.rn.ftz.f32) are reported as this '
            'defect, NVIDIA\'s values checked to be the exactly rounded quotients (run-sweeps.py explain())',
    body="""\tv_mov_b32 v12, 0xd264fddf
\tv_mov_b32 v13, 0x7fe95e08
\tv_div_scale_f64 v[0:1], null, v[12:13], v[12:13], 1.0
\tv_rcp_f64_e32 v[2:3], v[0:1]
\tv_fma_f64 v[4:5], -v[0:1], v[2:3], 1.0
\tv_fma_f64 v[2:3], v[2:3], v[4:5], v[2:3]
\tv_fma_f64 v[4:5], -v[0:1], v[2:3], 1.0
\tv_fma_f64 v[2:3], v[2:3], v[4:5], v[2:3]
\tv_div_scale_f64 v[4:5], vcc_lo, 1.0, v[12:13], 1.0
\tv_mul_f64 v[6:7], v[4:5], v[2:3]
\tv_fma_f64 v[0:1], -v[0:1], v[6:7], v[4:5]
\tv_div_fmas_f64 v[0:1], v[0:1], v[2:3], v[6:7]
\tv_div_fixup_f64 v[0:1], v[0:1], v[12:13], 1.0""",
    expect=lambda inp: [0x00050bbd] * len(inp)),
  # LDS d16 loads, one case each (gfx12: the same defect in RDNA4's decoder; one form there).
  **{f'{op}' + ('' if arch == 'gfx1100' else f'_{arch}'): dict(
    arch=arch,
    about=f'{op} writes the loaded value extended to 32 bits into the whole VGPR: the other half of VDST is not '
          'kept' + (' and the value lands in the low half' if op.endswith('_hi') else '') +
          ' (LLVM\'s true16 code keeps two 16-bit values in one VGPR and reads 16-bit shared memory this way)',
    body=f"""\tv_mov_b32 v2, 0
\tv_mov_b32 v3, 0x8234f6f8
\tds_store_b32 v2, v3
\t{_wait_ds(arch)}
\tv_mov_b32 v1, 0xaaaabbbb
\t{op} v1, v2 offset:{off}
\t{_wait_ds(arch)}""",
    kw=dict(lds=64),
    expect=(lambda want: lambda inp: [want] * len(inp))(want))
    for arch, op, off, want in [
      ('gfx1100', 'ds_load_u16_d16', 2, 0xaaaa8234), ('gfx1100', 'ds_load_u16_d16_hi', 2, 0x8234bbbb),
      ('gfx1100', 'ds_load_u8_d16', 1, 0xaaaa00f6), ('gfx1100', 'ds_load_i8_d16_hi', 1, 0xfff6bbbb),
      ('gfx1201', 'ds_load_u16_d16_hi', 2, 0x8234bbbb)]},
  'cdna_v_add_i32_clamp': dict(
    arch='gfx942',
    about='CDNA v_add_i32 (VOP3) ignores its clamp bit (the emulator saturates only RDNA\'s v_add_nc_i32): '
          '0xe5de0329 + 0x85a02c70 must saturate to 0x80000000 (LLVM\'s add.sat.s32)',
    body="""\tglobal_load_dword v2, v10, s[8:9]
\tv_mov_b32 v3, 0x85a02c70
\ts_waitcnt vmcnt(0)
\tv_add_i32 v1, v2, v3 clamp""",
    inputs=lambda n: [0xe5de0329] * n,
    expect=lambda inp: [0x80000000] * len(inp)),
  'cdna_sdwa_abs': dict(
    arch='gfx942',
    about='CDNA SDWA source modifiers (neg, abs) are ignored: v_cmp_lt_f16_sdwa vcc, |v2|, v3 src0_sel:WORD_1 with '
          'the high half -1.875 (0xbf80) and v3 = 2^-14 must be false (LLVM\'s ftz test of an f16x2 half)',
    body="""\tglobal_load_dword v2, v10, s[8:9]
\tv_mov_b32 v3, 0x400
\ts_waitcnt vmcnt(0)
\tv_cmp_lt_f16_sdwa vcc, |v2|, v3 src0_sel:WORD_1 src1_sel:DWORD
\tv_cndmask_b32_e64 v1, 7, 9, vcc""",
    inputs=lambda n: [0xbf800000 if i % 2 else 0x03800000 for i in range(n)],
    expect=lambda inp: [9 if x == 0x03800000 else 7 for x in inp]),
  'cdna_atomic_return': dict(
    arch='gfx942',
    about='CDNA returning atomics (sc0, gfx90a\'s glc) return nothing: the emulator looks for a `glc` field, which '
          'gfx940 encodings call sc0 (every compare-and-swap loop spun): global_atomic_add v1, ..., 5 sc0 on 100 '
          'must give 100',
    body="""\tv_mov_b32 v3, 5
\tglobal_atomic_add v1, v10, v3, s[8:9] sc0
\ts_waitcnt vmcnt(0)""",
    inputs=lambda n: [100] * n,
    expect=lambda inp: [100] * len(inp)),   # each lane its own word
  'global_load_u16_unaligned': dict(
    about='a 16-bit load from an odd address (LLVM merges byte loads into such loads: the hardware\'s unaligned '
          'access mode) reads the aligned half-word holding its first byte: global_load_u16 at bytes 4j + 1 and '
          '4j + 3 (across two words), j = lane % 16; v1 = the first | the second << 16',
    body="""\tv_and_b32 v11, 63, v10
\tglobal_load_u16 v2, v11, s[8:9] offset:1
\tglobal_load_u16 v3, v11, s[8:9] offset:3
\ts_waitcnt vmcnt(0)
\tv_lshl_or_b32 v1, v3, 16, v2""",
    inputs=lambda n: [(0x11223344 + i * 0x01010101) & M32 for i in range(n)],
    expect=lambda inp: [((inp[j] >> 8) & 0xffff) | ((inp[j] >> 24) | (inp[j + 1] & 0xff) << 8) << 16
                        for j in (i % 16 for i in range(len(inp)))]),
  'v_ldexp_f32_large_exponent': dict(
    about='v_ldexp_f32 with an exponent outside [-149, 128]: the emulator multiplies by 2^n computed as a float, '
          'which is 0 or infinity there: ldexp(0, 900) became NaN (0 * inf), ldexp(1.5, -160) 0 as it should, '
          'ldexp(2^-140, 200) inf instead of 2^60. v1 = the three results xor-ed',
    body="""\tv_mov_b32 v2, 0x384
\tv_ldexp_f32 v3, 0, v2
\tv_mov_b32 v2, 0xffffff60
\tv_ldexp_f32 v4, 1.5, v2
\tv_mov_b32 v2, 0xc8
\tv_mov_b32 v5, 0x200
\tv_ldexp_f32 v5, v5, v2
\tv_xor3_b32 v1, v3, v4, v5""",
    expect=lambda inp: [0x5d800000] * len(inp)),
  'cdna_16bit_high_vgpr': dict(
    arch='gfx942',
    about='CDNA 16-bit VOP1/VOP2 operands in v128-v255 are read as the high half of v0-v127 (RDNA3\'s `v2.h` '
          'encoding; on CDNA the field names v130 itself): v_cvt_f32_f16 v1, v130 with v130 = f16 1.5 and v2 = '
          '0x4000_0000 (high half f16 2.0): expected 1.5. LLVM allocates such registers when a function has a large '
          'register budget (the matrix product function under a .reqntid 64 kernel)',
    body="""\tv_mov_b32 v130, 0x3e00
\tv_mov_b32 v2, 0x40000000
\tv_cvt_f32_f16_e32 v1, v130""",
    kw=dict(vgprs=180),
    expect=lambda inp: [0x3fc00000] * len(inp)),
  'cdna_flat_private_x2': dict(
    arch='gfx942',
    about='CDNA flat_load_dwordx2 from the private aperture into its own address VGPRs (LLVM does this for a '
          '64-bit value in a stack slot reached through a generic pointer): the emulator sends the generic address '
          'to host memory; the runner\'s rewrite must keep both loaded dwords (it took CDNA\'s DWORDX2 for one '
          'dword and put the aperture back in the high half). Expected: lane + 100 | 7 << 32',
    body="""\tv_add_u32 v2, 100, v0
\tv_mov_b32 v3, 7
\tscratch_store_dwordx2 off, v[2:3], off offset:8
\ts_mov_b64 s[12:13], src_private_base
\tv_mov_b32 v4, 8
\tv_mov_b32 v5, s13
\ts_waitcnt vmcnt(0)
\tflat_load_dwordx2 v[4:5], v[4:5]
\ts_waitcnt vmcnt(0) lgkmcnt(0)
\tv_cmp_eq_u32 vcc, 7, v5
\tv_cndmask_b32_e64 v1, 0, v4, vcc""",
    kw=dict(private=32),
    expect=lambda inp: [100 + i for i in range(len(inp))]),
  'cdna_flat_lds': dict(
    arch='gfx942',
    about='CDNA flat_* add the SGPR pair named by their SADDR field (LLVM writes 0 there: s[0:1]) to the 64-bit '
          'address: a flat load from the LDS aperture read elsewhere, a flat store to global memory faulted. '
          'Expected: the LDS word ds_write_b32 wrote',
    body="""\tv_mov_b32 v4, 0
\tv_mov_b32 v3, 42
\tds_write_b32 v4, v3 offset:8
\ts_mov_b64 s[12:13], src_shared_base
\ts_waitcnt lgkmcnt(0)
\tv_mov_b32 v4, 8
\tv_mov_b32 v5, s13
\tflat_load_dword v1, v[4:5]
\ts_waitcnt vmcnt(0) lgkmcnt(0)""",
    kw=dict(lds=64),
    expect=lambda inp: [42] * len(inp)),
  'cdna_bpermute_inactive_lanes': dict(
    arch='gfx942',
    about='CDNA ds_bpermute_b32 crashes the emulator (SIGSEGV) when an inactive lane\'s address VGPR holds an '
          'arbitrary value (a reduction\'s tail, a loop\'s finished lanes): lanes 0-15 active read lane 1\'s 77',
    body="""\tv_mov_b32 v1, 77
\tv_mov_b32 v3, 0x7ffffff0
\ts_mov_b64 s[14:15], exec
\ts_mov_b64 exec, 0xffff
\tv_mov_b32 v3, 4
\tds_bpermute_b32 v3, v3, v1
\ts_waitcnt lgkmcnt(0)
\ts_mov_b64 exec, s[14:15]
\tv_mov_b32 v1, v3""",
    expect=lambda inp: [77] * 16 + [0x7ffffff0] * (len(inp) - 16)),
  'cdna_buffer_wbl2': dict(
    arch='gfx942',
    about='CDNA buffer_wbl2 / buffer_inv (L2 write-back and invalidate around agent- and system-scope releases and '
          'acquires, __threadfence) crash the emulator; no caches here: no-ops',
    body="""\tv_mov_b32 v1, 5
\tbuffer_wbl2 sc1
\tbuffer_inv sc1""",
    expect=lambda inp: [5] * len(inp)),
  'gfx950_cvt_pk_bf16_nan': dict(
    arch='gfx950',
    about='gfx950 v_cvt_pk_bf16_f32 rounds a NaN like a number (0x7fffffff + the rounding bias carries into the '
          'sign: 0x8000, -0); a NaN stays a NaN: 0x7fff (quieted, sign and top payload bits kept)',
    body="""\tglobal_load_dword v2, v10, s[8:9]
\ts_waitcnt vmcnt(0)
\tv_cvt_pk_bf16_f32 v1, v2, v2""",
    inputs=lambda n: [0x7fffffff] * n,
    expect=lambda inp: [0x7fff7fff] * len(inp)),
  'cdna_max_signed_zero': dict(
    arch='gfx942',
    about='CDNA v_max_f32/v_min_f32 (and f16, f64): the pcode\'s `S0 == +0.0` / `S1 == -0.0` tests are IEEE '
          'equalities in the emulator (true for either zero), so max(-0, +0) gave -0; the ISA orders -0 < +0 '
          '(LLVM\'s maximumnum is this instruction)',
    body="""\tv_mov_b32 v2, 0x80000000
\tv_mov_b32 v3, 0
\tv_max_f32_e32 v1, v2, v3""",
    expect=lambda inp: [0] * len(inp)),
  **{f'ds_swizzle{"" if arch == "gfx1100" else "_" + arch}': dict(
    arch=arch,
    about='ds_swizzle_b32 cannot be compiled by the emulator (its pcode does not parse on RDNA or CDNA); our shfl '
          'with constant operands uses its bit mode: swizzle(SWAP,1) gives lane i ^ 1',
    body=f"""\tv_add_nc_u32 v2, 100, v0
\tds_swizzle_b32 v1, v2 offset:swizzle(SWAP,1)
\t{_wait_ds(arch)}""" if arch != 'gfx942' else """\tv_add_u32 v2, 100, v0
\tds_swizzle_b32 v1, v2 offset:swizzle(SWAP,1)
\ts_waitcnt lgkmcnt(0)""",
    expect=lambda inp: [100 + (i ^ 1) for i in range(len(inp))])
    for arch in ('gfx1100', 'gfx942')},
  'gfx12_atomic_pk_add_bf16': dict(
    arch='gfx1201',
    about='RDNA4 global_atomic_pk_add_bf16 adds the raw bits as integers (the pcode parser has no bf16 type): '
          '(i, -i) + (1.0, 1.0) must be (i + 1, 1 - i)',
    body="""\tglobal_load_b32 v2, v10, s[8:9]
\ts_wait_loadcnt 0
\tglobal_store_b32 v10, v2, s[2:3]
\ts_wait_storecnt 0
\tv_mov_b32 v3, 0x3f803f80
\tglobal_atomic_pk_add_bf16 v10, v3, s[2:3]
\ts_wait_storecnt 0
\tglobal_load_b32 v1, v10, s[2:3]
\ts_wait_loadcnt 0""",
    inputs=lambda n: [bf16(i) | bf16(-i) << 16 for i in range(n)],
    expect=lambda inp: [bf16(i + 1) | bf16(1 - i) << 16 for i in range(len(inp))]),
}


def build_case(name: str, llvm: str, tmp: str) -> bytes:
  c = CASES[name]
  arch = c.get('arch', 'gfx1100')
  body = c.get('prologue', '') + '\n' + c['body'] if c.get('prologue') else c['body']
  return assemble(asm_kernel(arch, body, **c.get('kw', {})), arch, llvm, tmp, name)


def _block(c) -> tuple:
  b = c.get('block', 64 if _cdna(c.get('arch', 'gfx1100')) else 32)
  return (b, 1, 1) if isinstance(b, int) else b


# ─── running one case (in a child process) ──────────────────────────────────


def run_case(name: str, mode: str, code: bytes) -> dict:
  """Runs case `name` in this process: mode 'runner' (amdgpu_runner.run) or 'emulator' (emu.run_asm, raw)."""
  if mode == 'emulator': os.environ['ZLUDA_EMU_NO_WORKAROUNDS'] = '1'
  import amdgpu_runner as ar
  c = CASES[name]
  block = _block(c)
  n = block[0] * block[1] * block[2]
  inputs = c['inputs'](n) if 'inputs' in c else [0] * n
  out, inp = ar.Buffer(4 * n), ar.Buffer(struct.pack(f'<{n}I', *inputs))
  loaded = ar.load(code)
  if 'pass_symbol' in c: inp.write(struct.pack('<Q', loaded.symbol_addr(c['pass_symbol'])))
  try:
    if mode == 'runner': ar.run(loaded, 't', (1, 1, 1), block, [out, inp])
    else: _run_asm(ar, loaded, block, [out, inp])
  except ar.KernelTrap as e: return {'trap': str(e)}
  except Exception as e: return {'error': f'{type(e).__name__}: {str(e)[:400]}'}
  return {'out': list(struct.unpack(f'<{n}I', out.read()))}


def _run_asm(ar, loaded, block, args):
  """The emulator's own driver: emu.run_asm(entry, size, grid, block, kernarg pointer, rsrc2, scratch, arch)."""
  em = ar.get_emulator()
  kernel = loaded.co.kernels['t']
  kd = kernel.descriptor
  shape = ar.DispatchShape((1, 1, 1), block, 1, 0)
  kernargs = ar.HostMemory(256)
  kernargs.write(ar.build_kernargs(kernel, args, shape, {'shared_hi': 0, 'private_hi': 0}, {}, 'error'))
  entry = loaded.base + kernel.descriptor_symbol.value + kd.kernel_code_entry_byte_offset
  # The CP takes the LDS size from the dispatch packet: give it in rsrc2's GRANULATED_LDS_SIZE (512-byte units), as
  # tinygrad's mock driver does.
  lds_granules = (kernel.group_segment_fixed_size + 511) // 512
  rsrc2 = kd.compute_pgm_rsrc2 | lds_granules << 15
  arch = ar.emulator_arch(loaded.co.processor)
  em.emu.run_asm(entry, loaded.co.image_size, 1, 1, 1, *block, kernargs.addr, rsrc2, kernel.private_segment_fixed_size, arch)


# ─── driver ───────────────────────────────────────────────────────────────────


def _child(name: str, mode: str, hsaco: str) -> dict:
  r = subprocess.run([sys.executable, __file__, '--child', name, mode, hsaco], capture_output=True, text=True)
  if r.returncode < 0: return {'crash': f'killed by signal {-r.returncode}'}
  try: return json.loads(r.stdout.strip().splitlines()[-1])
  except (ValueError, IndexError): return {'error': f'exit {r.returncode}: {r.stderr.strip()[-400:]}'}


def _verdict(c, res: dict) -> tuple[bool, str]:
  block = _block(c)
  n = block[0] * block[1] * block[2]
  inputs = c['inputs'](n) if 'inputs' in c else [0] * n
  if c['expect'] == 'trap':
    if 'trap' in res: return True, 'trapped'
    return False, 'no trap: ' + (str(res['out'][:4]) if 'out' in res else str(res))
  if 'out' not in res: return False, next(iter(res.values()))
  exp = c['expect'](inputs)
  bad = [i for i in range(n) if res['out'][i] != exp[i]]
  if not bad: return True, f'{n} lanes right'
  i = bad[0]
  return False, f'{len(bad)}/{n} lanes wrong, lane {i}: {res["out"][i]:#010x}, expected {exp[i]:#010x}'


def main() -> int:
  if len(sys.argv) > 1 and sys.argv[1] == '--child':
    name, mode, path = sys.argv[2:5]
    with open(path, 'rb') as f: print(json.dumps(run_case(name, mode, f.read())))
    return 0
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  p.add_argument('-k', dest='only', action='append')
  p.add_argument('--llvm', default='/usr/lib/llvm-22/bin')
  a = p.parse_args()
  failed = 0
  with tempfile.TemporaryDirectory() as tmp:
    for name, c in CASES.items():
      if a.only and name not in a.only: continue
      code = build_case(name, a.llvm, tmp)
      path = os.path.join(tmp, f'{name}.hsaco')
      verdicts = {mode: _verdict(c, _child(name, mode, path)) for mode in ('emulator', 'runner')}
      # A defect the runner cannot work around (`unfixed`: why) is listed; its runner verdict is expected wrong,
      # and the comparisons it affects are reported as this defect (docs/verification.md).
      if c.get('unfixed'):
        failed += verdicts['runner'][0] or verdicts['emulator'][0]  # fixed after all: update the case
      else:
        failed += not verdicts['runner'][0]
      print(f'{name} [{c.get("arch", "gfx1100")}]: {c["about"]}')
      for mode, (ok, msg) in verdicts.items(): print(f'    {mode:8} {"ok  " if ok else "WRONG"} {msg}')
      if c.get('unfixed'): print(f'    not worked around: {c["unfixed"]}')
  return 1 if failed else 0


if __name__ == '__main__':
  sys.exit(main())

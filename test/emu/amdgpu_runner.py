#!/usr/bin/env python3
"""Runs AMDGPU code objects (HSA code object v5) in tinygrad's AMD ISA emulator.

This is the first piece of an ISA-emulator oracle for zluda-precompile's AMD output:
it loads a code object the way a ROCm loader would, lays out the kernel
arguments from the code object's metadata, initialises every wave's registers
the way the kernel descriptor asks, and executes a grid of workgroups, one
workgroup after another, over buffers in host memory.

The emulator is NOT part of this project. It is tinygrad's
test/mockgpu/amd/emu.py (MIT), exported outside the repository; the
environment variable ZLUDA_AMD_EMULATOR names the exported folder (the one
holding tinygrad/ and test/). From the emulator we use only its instruction
compiler: `_get_runner(bytes, arch)` turns one decoded instruction into a small
native function of (sgpr file, vgpr file, memory base, LDS, scratch, acc vgpr
file) that executes it for one wave. The register-file layout, the wave and
workgroup scheduling, barriers, the argument/SGPR/VGPR set-up and a few
instructions the emulator lacks or gets wrong are ours (see `Workarounds`).

Python API:
    import amdgpu_runner as ar
    out = ar.Buffer(4 * 256)
    res = ar.run(open('k.hsaco', 'rb').read(), 'k', grid=(4, 1, 1), block=(64, 1, 1), args=[out, 7])
    res.outputs[0]        # bytes of `out` after the run (None for scalar arguments)
    res.stats             # instructions executed, waves, wall time

CLI: amdgpu_runner.py --help
"""
from __future__ import annotations

import argparse
import ctypes
import dataclasses
import inspect
import itertools
import math
import mmap
import os
import platform
import re
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hsaco  # noqa: E402  (our ELF / metadata reader, next to this file)

# ─── errors ───────────────────────────────────────────────────────────────────


class RunnerError(RuntimeError):
  """A kernel or dispatch the runner cannot (or refuses to) run as asked."""


class EmulatorUnavailable(RunnerError):
  """ZLUDA_AMD_EMULATOR is unset or does not hold a usable emulator."""


class UnsupportedByEmulator(RunnerError):
  """The kernel needs something the emulator (or this runner around it) does not model; the result would be wrong."""


class KernelTrap(RunnerError):
  """A wave executed s_trap (PTX trap / brkpt): the kernel aborted, as it would on the device."""

  def __init__(self, msg: str, trap_id: int, block: tuple[int, int, int], wave: int, pc_offset: int):
    super().__init__(msg)
    self.trap_id, self.block, self.wave, self.pc_offset = trap_id, block, wave, pc_offset


# ─── host memory ──────────────────────────────────────────────────────────────

MAX_LDS = 65536

_libc = ctypes.CDLL(None, use_errno=True)
_libc.mmap.restype = ctypes.c_void_p
_libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_MAP_PRIVATE, _MAP_ANONYMOUS, _MAP_NORESERVE = 0x02, 0x20, 0x4000
_MAP_FAILED = ctypes.c_void_p(-1).value


class HostMemory:
  """Page-aligned anonymous memory at a fixed host address; the emulator's kernels dereference addresses directly.

  `align` > page size reserves a larger PROT_NONE window and uses an aligned part of it (the LDS and private
  apertures need 4 GiB-aligned memory so that a flat address `aperture_hi << 32 | offset` lands on it)."""

  def __init__(self, size: int, align: int = mmap.PAGESIZE):
    self.size = max(size, 1)
    length = (self.size + mmap.PAGESIZE - 1) // mmap.PAGESIZE * mmap.PAGESIZE
    reserve = length + (align if align > mmap.PAGESIZE else 0)
    prot = 0 if align > mmap.PAGESIZE else mmap.PROT_READ | mmap.PROT_WRITE
    base = _libc.mmap(None, reserve, prot, _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0)
    if base in (None, _MAP_FAILED): raise MemoryError(f'mmap of {reserve} bytes failed: errno {ctypes.get_errno()}')
    self._base, self._reserve = base, reserve
    self.addr = (base + align - 1) // align * align
    if align > mmap.PAGESIZE and _libc.mprotect(self.addr, length, mmap.PROT_READ | mmap.PROT_WRITE) != 0:
      raise MemoryError(f'mprotect failed: errno {ctypes.get_errno()}')

  def write(self, data: bytes, offset: int = 0):
    if offset + len(data) > self.size: raise ValueError('write past the end of host memory')
    ctypes.memmove(self.addr + offset, bytes(data), len(data))

  def read(self, size: int | None = None, offset: int = 0) -> bytes:
    size = self.size - offset if size is None else size
    if offset + size > self.size: raise ValueError('read past the end of host memory')
    return ctypes.string_at(self.addr + offset, size)

  def fill(self, byte: int, size: int | None = None):
    ctypes.memset(self.addr, byte, self.size if size is None else size)

  def __del__(self):
    if getattr(self, '_base', None): _libc.munmap(self._base, self._reserve)


class ApertureWindow:
  """The LDS and the private aperture, at 4 GiB-aligned host addresses (one per process, reused by every run).

  [A, A + 4 GiB + 64 KiB) is read/write, untouched pages costing nothing: the LDS is its first 64 KiB. The rest
  is there because the emulator's DS instructions access LDS for inactive lanes too (at whatever address their
  VGPRs hold, within 32 bits), which must not fault. A flat address `A >> 32 << 32 | offset` is LDS offset `offset`.
  [A + 8 GiB, A + 12 GiB) is reserved inaccessible: its high word is the private aperture's, so that no buffer can
  sit at an address a flat access would take for a private one."""

  def __init__(self):
    four = 1 << 32
    self._reserve = 4 * four
    base = _libc.mmap(None, self._reserve, 0, _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0)
    if base in (None, _MAP_FAILED): raise MemoryError(f'cannot reserve the aperture window: errno {ctypes.get_errno()}')
    self._base = base
    self.lds_addr = (base + four - 1) // four * four
    if _libc.mprotect(self.lds_addr, four + MAX_LDS, mmap.PROT_READ | mmap.PROT_WRITE) != 0:
      raise MemoryError(f'mprotect failed: errno {ctypes.get_errno()}')
    self.shared_hi = self.lds_addr >> 32
    self.private_hi = self.shared_hi + 2

  def clear_lds(self, fill: int = 0): ctypes.memset(self.lds_addr, fill, MAX_LDS)


_APERTURES: 'ApertureWindow | None' = None


class GuardRegion:
  """1 MiB of reserved, inaccessible address space: what a kernel gets for a runtime service this runner does not
  provide (hostcall/printf buffers, the device heap, the queue): using it faults at once, nothing reads as zero."""

  SIZE = 1 << 20

  def __init__(self):
    addr = _libc.mmap(None, self.SIZE, 0, _MAP_PRIVATE | _MAP_ANONYMOUS | _MAP_NORESERVE, -1, 0)
    if addr in (None, _MAP_FAILED): raise MemoryError('cannot reserve the guard region')
    self.addr = addr


_GUARD: 'GuardRegion | None' = None


def _guard() -> GuardRegion:
  global _GUARD
  if _GUARD is None: _GUARD = GuardRegion()
  return _GUARD


def _apertures() -> 'ApertureWindow':
  global _APERTURES
  if _APERTURES is None: _APERTURES = ApertureWindow()
  return _APERTURES


class Buffer:
  """A global-memory buffer argument. Give `data` (bytes) or `size`; after `run`, read() has the kernel's writes."""

  def __init__(self, data: bytes | int, fill: int = 0):
    size = data if isinstance(data, int) else len(data)
    self.mem = HostMemory(size, align=4096)
    self.mem.fill(fill)
    if not isinstance(data, int): self.mem.write(data)
    self.size = size

  @property
  def addr(self) -> int: return self.mem.addr
  def read(self) -> bytes: return self.mem.read(self.size)
  def write(self, data: bytes, offset: int = 0): self.mem.write(data, offset)


# ─── float environment (MXCSR) ───────────────────────────────────────────────
# The emulator computes float results with the host FPU, so the host's denormal controls decide whether
# denormals are flushed. x86-64 keeps them in MXCSR (DAZ: bit 6, FTZ: bit 15). Two 4-byte routines
# (stmxcsr/ldmxcsr [rdi]; ret) placed in an executable page read and write it without a C compiler.

class _Mxcsr:
  DAZ, FTZ = 1 << 6, 1 << 15

  def __init__(self):
    self.available = platform.machine().lower() in ('x86_64', 'amd64')
    if not self.available: return
    self._page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    self._page.write(bytes([0x0f, 0xae, 0x1f, 0xc3,    # stmxcsr [rdi]; ret
                            0x0f, 0xae, 0x17, 0xc3]))  # ldmxcsr [rdi]; ret
    addr = ctypes.addressof(ctypes.c_char.from_buffer(self._page))
    proto = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint32))
    self._get, self._set = proto(addr), proto(addr + 4)

  def get(self) -> int:
    v = ctypes.c_uint32()
    self._get(ctypes.byref(v))
    return v.value

  def set(self, value: int): self._set(ctypes.byref(ctypes.c_uint32(value)))


_MXCSR = _Mxcsr()


# ─── the emulator ─────────────────────────────────────────────────────────────

# Processor -> emulator architecture. The emulator decodes RDNA3 (gfx11), RDNA4 (gfx12) and CDNA3/4 (gfx94x/gfx950).
def emulator_arch(processor: str) -> str:
  if processor.startswith('gfx11'): return 'rdna3'
  if processor.startswith('gfx12'): return 'rdna4'
  if processor in ('gfx940', 'gfx941', 'gfx942', 'gfx950'): return 'cdna'
  raise UnsupportedByEmulator(f'{processor}: the emulator decodes only gfx11 (RDNA3), gfx12 (RDNA4) and gfx94x/gfx950 (CDNA); '
                              'gfx10 (e.g. gfx1030) and gfx9 before gfx940 (e.g. gfx90a) are not runnable')


# Work-item IDs arrive packed in v0 (x | y << 10 | z << 20) on these processors, one per VGPR (v0, v1, v2) elsewhere.
def _packed_workitem_ids(processor: str) -> bool:
  return processor.startswith(('gfx11', 'gfx12')) or processor in ('gfx90a', 'gfx940', 'gfx941', 'gfx942', 'gfx950')


class Emulator:
  """The loaded emulator module and what this runner needs from it. Loaded once per process (`get_emulator`)."""

  def __init__(self, path: str):
    if not os.path.isfile(os.path.join(path, 'test', 'mockgpu', 'amd', 'emu.py')):
      raise EmulatorUnavailable(f'{path} has no test/mockgpu/amd/emu.py (ZLUDA_AMD_EMULATOR must name the exported tinygrad folder)')
    # tinygrad compiles every decoded instruction to native code with `clang`; prefer LLVM 22's if it is installed.
    llvm_bin = os.environ.get('ZLUDA_AMD_EMULATOR_LLVM_BIN', '/usr/lib/llvm-22/bin')
    if os.path.isdir(llvm_bin) and llvm_bin not in os.environ.get('PATH', '').split(os.pathsep):
      os.environ['PATH'] = llvm_bin + os.pathsep + os.environ.get('PATH', '')
    path = os.path.abspath(path)
    if path not in sys.path: sys.path.insert(0, path)
    for name in [m for m in sys.modules if m == 'test' or m.startswith('test.')]:
      if not os.path.abspath(getattr(sys.modules[name], '__file__', '') or '').startswith(path): del sys.modules[name]
    try:
      import test.mockgpu.amd.emu as emu  # type: ignore[import-not-found]
      from tinygrad.renderer.amd.dsl import EXEC_LO, SCC, VCC_LO, ttmp  # type: ignore[import-not-found]
      from tinygrad.uop.ops import UOp  # type: ignore[import-not-found]
      from tinygrad.dtype import dtypes  # type: ignore[import-not-found]
    except ImportError as e:
      raise EmulatorUnavailable(f'cannot import the emulator from {path}: {e}') from e
    if not os.path.abspath(emu.__file__).startswith(path):
      raise EmulatorUnavailable(f'imported {emu.__file__}, not the emulator under {path}')
    self.emu, self.path = emu, path
    self.UOp, self.dtypes = UOp, dtypes
    # The emulator's register-file layout (sgpr buffer: s0-s127, inline constants 128-255, then PC and scratch stride).
    self.SGPR_COUNT, self.PC_LO, self.PC_HI = emu.SGPR_COUNT, emu.PC_LO_IDX, emu.PC_HI_IDX
    self.SCRATCH_STRIDE, self.ENDPGM_PC = emu.SCRATCH_STRIDE_IDX, emu.ENDPGM_PC
    self.EXEC_LO, self.VCC_LO, self.SCC = EXEC_LO.offset, VCC_LO.offset, SCC.offset
    self.TTMP = [ttmp[i].offset for i in range(16)]
    self.F32_INLINE = dict(emu.F32_INLINE)
    # ZLUDA_EMU_NO_WORKAROUNDS=1 leaves the emulator's instruction compiler as it is (defects.py's raw runs).
    self.workarounds = None if os.environ.get('ZLUDA_EMU_NO_WORKAROUNDS') else Workarounds(self)

  def decode(self, raw: bytes, arch: str):
    return self.emu.decode_inst(raw, arch)

  def op_name(self, inst) -> str:
    return self.emu._op_name(inst)

  def compile(self, raw: bytes, arch: str):
    """(native function, the indices of the buffers it takes) that executes the instruction at the start of `raw`."""
    prg, runtime = self.emu._get_runner(raw, arch)
    return runtime.fxn, tuple(prg.arg.globals)


_EMULATOR: Emulator | None = None


def get_emulator(path: str | None = None) -> Emulator:
  global _EMULATOR
  if _EMULATOR is None:
    path = path or os.environ.get('ZLUDA_AMD_EMULATOR')
    if not path: raise EmulatorUnavailable('set ZLUDA_AMD_EMULATOR to the folder exported from tinygrad (holding tinygrad/ and test/)')
    _EMULATOR = Emulator(path)
  return _EMULATOR


# ─── workarounds for emulator defects ────────────────────────────────────────

# Aperture registers (RDNA/CDNA source operands 235-238). The emulator keeps them as plain 32-bit slots.
SRC_SHARED_BASE, SRC_SHARED_LIMIT, SRC_PRIVATE_BASE, SRC_PRIVATE_LIMIT = 235, 236, 237, 238
INV_2PI_OPERAND = 248
INV_2PI_F64 = 0x3FC45F306DC9C882   # 1/(2*pi) as the hardware's 64-bit inline constant


class Workarounds:
  """Corrections to the emulator's instruction compiler, applied in this process at start-up (never to its files).

    * 64-bit reads of the inline constant 1/(2*pi) (operand 248) give the double 0x3FC45F306DC9C882; the
      emulator widens the float 1/(2*pi), which is a different double.
    * 64-bit reads of src_shared_base/src_private_base (and the limits) give `slot << 32` (| 0xffffffff for the
      limits): the emulator sign-extends the 32-bit slot, so generic addresses built from them are wrong.
    * the 24-bit integer multiplies get their operands' 24-bit conversions spelled out, V_EXP_F16 is computed
      through f32 (see _fix_pcode).
    * RDNA4 global/flat atomics with TH_ATOMIC_RETURN return the pre-op value (the emulator looks for `glc`).
    * packed bf16 atomic adds convert through f32 (no bf16 type in the pcode parser: the sum was an integer one).
    * CDNA's V_ADD_I32/V_SUB_I32 saturate with the clamp bit; CDNA atomics with sc0 (glc) return the pre-op value.
    * f32_to_bf16 (gfx950's v_cvt_pk_bf16_f32) quiets a NaN instead of rounding its bits into the sign.
    * 16-bit loads from odd addresses read their own bytes (the emulator took the aligned half-word).
    * V_LDEXP_F32 scales by 2^n in f64 (the emulator's f32 2^n is 0 or infinity beyond [-149, 127]).
    * CDNA 16-bit VOP1/VOP2 operands in v128-v255 are those registers (the emulator read RDNA3's `.h` halves).
  The other corrections are in the wave loop (`Dispatch`): instructions it executes itself instead of the
  emulator (`Dispatch._hook_table`: PC moves, s_trap, HW registers and MODE, clocks, cache invalidations, flat
  accesses to private memory, RDNA4 flat_*), and its own register, LDS and scratch set-up, which avoids the
  emulator driver's (run_asm's) defects. defects.py reproduces each of them.
  """

  def __init__(self, em: Emulator):
    self.em = em
    emu = em.emu
    self._orig_rsrc_dyn = emu._Ctx.rsrc_dyn
    self._orig_get_pcode = emu.get_pcode
    emu._Ctx.rsrc_dyn = self._make_rsrc_dyn()
    emu.get_pcode = self._make_get_pcode()
    # RDNA4 global/flat atomics: the emulator writes the pre-op value back only when the instruction's `glc` bit is
    # set, which RDNA4 encodings do not have (they say TH_ATOMIC_RETURN: bit 0 of `th`), so a returning atomic
    # never returned anything. Give the RDNA4 encodings a `glc` that reads th[0].
    for cls in (emu.ir4.VGLOBAL, emu.ir4.VFLAT):
      if not hasattr(cls, 'glc'): cls.glc = property(lambda inst: inst.th & 1)
    # CDNA likewise: gfx940's encodings name the return bit `sc0` (bit 16 of FLAT/GLOBAL, 14 of MUBUF: gfx90a's
    # `glc`), so a returning atomic (every compare-and-swap loop) returned nothing.
    for cls in (emu.irc.FLAT, emu.irc.GLOBAL, emu.irc.MUBUF):
      if not hasattr(cls, 'glc'): cls.glc = property(lambda inst: inst.sc0)
    # CDNA's signed V_ADD_I32/V_SUB_I32 (VOP3 only, what LLVM makes of add.sat.s32) ignore the clamp bit: the
    # emulator saturates only RDNA's spellings (V_ADD_NC_I32...). Same operation: use those.
    # f32_to_bf16 (gfx950's v_cvt_pk_bf16_f32) rounds a NaN like a number: 0x7fffffff became 0x8000 (-0). A NaN
    # keeps its sign and top payload bits and is quieted, as the ISA's conversions do.
    funcs, UOp, dtypes = emu._FUNCS, em.UOp, em.dtypes
    orig_bf16 = funcs['f32_to_bf16']
    def f32_to_bf16(v):
      bits = (v.bitcast(dtypes.float32) if v.dtype != dtypes.float32 else v).bitcast(dtypes.uint32)
      u32 = lambda x: UOp.const(x, dtypes.uint32)  # noqa: E731
      nan = (bits & u32(0x7fffffff)) > u32(0x7f800000)
      return nan.where(((bits >> u32(16)) | u32(0x40)).cast(dtypes.uint16), orig_bf16(v))
    funcs['f32_to_bf16'] = f32_to_bf16
    orig_clamp = emu._int_clamp
    renamed = {'V_ADD_I32': 'V_ADD_NC_I32', 'V_SUB_I32': 'V_SUB_NC_I32'}
    emu._int_clamp = lambda op_name, srcs: orig_clamp(renamed.get(op_name, op_name), srcs)
    # CDNA VOP1/VOP2 16-bit operands in v128-v255 were taken as the high half of v0-v127 (RDNA3's encoding of
    # `v0.h`, which CDNA does not have: there an operand field names the whole register): a 16-bit conversion
    # reading v130 read v2's high half. The emulator's three tests of it are given `not CDNA` (the VOPC one
    # already has it), in this process's copy of the two functions.
    self._cdna_16bit_registers(emu)
    # 16-bit loads from word-addressed memory (global, LDS) read the aligned half-word holding their first byte:
    # one at an odd address (LLVM merges byte loads into such loads, as the hardware's unaligned access mode
    # allows) got the wrong bytes. Take the two words around it and shift, as the parser does for 32-bit loads.
    pcode_module = sys.modules[emu.parse_pcode.__module__]
    orig_load = pcode_module.Parser._handle_mem_load
    def handle_mem_load(p, addr, dt):
      mem = p.vars.get('_vmem') if '_vmem' in p.vars else p.vars.get('_lds')
      if mem is None or mem.dtype == dtypes.uint8 or dt not in (dtypes.uint16, dtypes.int16, dtypes.short):
        return orig_load(p, addr, dt)
      adt, u64 = addr.dtype, dtypes.uint64
      active = p.vars.get('_active')
      def word(idx): return mem.index(idx.valid(active) if active is not None else idx)
      lo_idx = addr >> UOp.const(2, adt)
      off = (addr & UOp.const(3, adt)).cast(u64)
      crosses = off.eq(UOp.const(3, u64))
      hi = word(crosses.where(lo_idx + UOp.const(1, adt), lo_idx))
      both = word(lo_idx).cast(u64) | (hi.cast(u64) << UOp.const(32, u64))
      val = ((both >> (off * UOp.const(8, u64))) & UOp.const(0xffff, u64)).cast(dtypes.uint32)
      return pcode_module._cast_to(val, dt)
    pcode_module.Parser._handle_mem_load = handle_mem_load

  @staticmethod
  def _cdna_16bit_registers(emu):
    cdna = '(irc.VOP1, irc.VOP1_DPP16, irc.VOP2, irc.VOP2_DPP16)'
    edits = {
      '_load_vsrc0': [("  if bits['s0'] == 16:", f"  if bits['s0'] == 16 and not isinstance(inst, {cdna}):")],
      '_compile_vop12': [("  write_hi_half = bits['d'] == 16 and (vdst_reg >= _c(128))",
                          f"  write_hi_half = not isinstance(inst, {cdna}) and bits['d'] == 16 and (vdst_reg >= _c(128))"),
                         ("    vsrc1_hi = bits['s0'] == 16 and (vsrc1_reg >= _c(128))",
                          f"    vsrc1_hi = not isinstance(inst, {cdna}) and bits['s0'] == 16 and (vsrc1_reg >= _c(128))")]}
    for fn, subs in edits.items():
      src = inspect.getsource(getattr(emu, fn))
      for old, new in subs:
        if old not in src: raise EmulatorUnavailable(f'the emulator\'s {fn} changed: its CDNA 16-bit fix no longer applies')
        src = src.replace(old, new)
      exec(compile(src, f'<amdgpu_runner: {fn}>', 'exec'), emu.__dict__)

  def _make_rsrc_dyn(self):
    orig, UOp, dtypes = self._orig_rsrc_dyn, self.em.UOp, self.em.dtypes

    def rsrc_dyn(ctx, off, lane, bits=32, literal=None, is_f64=False, do_cast=True):
      val = orig(ctx, off, lane, bits, literal, is_f64, do_cast)
      if bits != 64: return val
      u32, u64 = dtypes.uint32, dtypes.uint64
      c32 = lambda v: UOp.const(v, u32)  # noqa: E731
      is_aperture = (off >= c32(SRC_SHARED_BASE)) & (off <= c32(SRC_PRIVATE_LIMIT))
      slot = ctx.rsgpr_dyn(off, is_aperture).cast(u64) << UOp.const(32, u64)
      is_limit = off.eq(c32(SRC_SHARED_LIMIT)) | off.eq(c32(SRC_PRIVATE_LIMIT))
      aperture = is_limit.where(slot | UOp.const(0xffffffff, u64), slot)
      val = is_aperture.where(aperture, val)
      return off.eq(c32(INV_2PI_OPERAND)).where(UOp.const(INV_2PI_F64, u64), val)
    return rsrc_dyn

  def _make_get_pcode(self):
    orig = self._orig_get_pcode

    def get_pcode(op):
      raw = None
      if op.name in ('V_DIV_SCALE_F32', 'V_DIV_SCALE_F64'): raw = self.em.emu._get_pcode_dict(op)[op]
      return self._fix_pcode(op.name, orig(op), raw)
    return get_pcode

  @staticmethod
  def _fix_pcode(name: str, pcode: str, self_raw: str | None = None) -> str:
    # The 24-bit multiplies (V_MUL[_HI]_{I32_I24,U32_U24}, V_MAD_{I32_I24,U32_U24}): the pcode parser has no
    # i24/u24 type, so `S0.i24` / `S0.u24` are the whole 32-bit register: the high 8 bits are neither dropped nor
    # (for i24) replaced by the sign. Spell the conversions out: sign-extend with a shift pair on i32, mask for u24.
    if name.startswith('V_') and ('.i24' in pcode or '.u24' in pcode):
      pcode = re.sub(r'\b(S[0-2])\.i24\b', r"((\1.i32 << 8U) >> 8U)", pcode)
      pcode = re.sub(r'\b(S[0-2])\.u24\b', r"(\1.u32 & 0xffffffU)", pcode)
    # Packed bf16 atomics (*_PK_ADD_BF16): no bf16 type either, so `x[15 : 0].bf16` is the raw bits and the sum is
    # an integer one. Convert explicitly: bf16 -> f32, add, round to bf16 (nearest even).
    if 'PK_ADD_BF16' in name and '.bf16' in pcode:
      def dest(m: re.Match) -> str:
        rhs = re.sub(r'(\w+\[\d+ : \d+\])\.bf16', r'bf16_to_f32(\1.b16)', m.group(2))
        return f'{m.group(1)}.b16 = f32_to_bf16({rhs});'
      pcode = re.sub(r'(\w+\[\d+ : \d+\])\.bf16 = ([^;\n]*);', dest, pcode)
    # Packed f16 min/max (V_PK_MIN_F16, V_PK_MAX_F16; gfx12's *_NUM_F16): the pcode calls v_min_f16/v_max_f16,
    # which the emulator implements as a plain comparison, without the IEEE-mode NaN rules and the zero order the
    # scalar V_MIN_F16/V_MAX_F16 pcode spells out (a signalling NaN operand gives it quieted, a quiet NaN operand
    # gives the other operand; -0 < +0). Spell them out per half.
    m = re.fullmatch(r'V_PK_(MIN|MAX)(_NUM)?_F16', name)
    if m:
      def half(mm: re.Match) -> str:
        dst, fn, a, b = mm.group(1), mm.group(2), mm.group(3), mm.group(4)
        return (f"if isSignalNAN(64'F({a})) then\n{dst} = 16'F(cvtToQuietNAN(64'F({a})))\n"
                f"elsif isSignalNAN(64'F({b})) then\n{dst} = 16'F(cvtToQuietNAN(64'F({b})))\n"
                f"elsif isNAN(64'F({a})) then\n{dst} = {b}\n"
                f"elsif isNAN(64'F({b})) then\n{dst} = {a}\n"
                f"elsif (64'F(abs({a})) == 0.0) && (64'F(abs({b})) == 0.0) then\n"
                f"{dst} = {'sign' if 'min' in fn else '!sign'}({a}) ? {a} : {b}\n"
                f"else\n{dst} = {fn}({a}, {b})\nendif")
      pcode = re.sub(r'(tmp\[\d+ : \d+\]\.f16) = (v_\w+_f16)\((S0\[\d+ : \d+\]\.f16), (S1\[\d+ : \d+\]\.f16)\);',
                     half, pcode)
    # V_DIV_SCALE_F32/F64: the emulator rewrites the ISA's pcode so that a denormal denominator gives NaN whatever
    # the denormal mode, a tiny numerator sets VCC (V_DIV_FMAS then scales the quotient by 2^-64), and a denormal
    # quotient leaves the numerator unscaled (V_DIV_FMAS then scales it by 2^-64 too): LLVM's correctly rounded
    # division gave inf for 1/denormal, 2^-87 for 2^-149 / 2^-126 and 0 for 3 * 2^-149 / 1. The ISA's own pcode
    # is taken instead, with only what the pcode parser cannot read spelled out (`x / y == DENORM`: the quotient's
    # exponent below the normal range; `1.0 / f64(S1) == DENORM.f64`: never for an f32) and D0 = S0 where no rule
    # scales (defects.py: v_div_scale_denormal, v_div_scale_tiny).
    if name in ('V_DIV_SCALE_F32', 'V_DIV_SCALE_F64') and self_raw is not None:
      dt, k = ('f32', 64) if name.endswith('F32') else ('f64', 128)
      p = self_raw.replace(f'S2.{dt} / S1.{dt} == DENORM.{dt}', f'divWouldBeDenorm(S2.{dt}, S1.{dt})')
      p = p.replace("1.0 / 64'F(S1.f32) == DENORM.f64", '0')
      p = p.replace('1.0 / S1.f64 == DENORM.f64', 'isDENORM(1.0 / S1.f64)')
      p = p.replace(f'S1.{dt} == DENORM.{dt}', f'isDENORM(S1.{dt})')
      p = p.replace(f'D0.{dt} = ldexp(S0.{dt}, {k})\nendif', f'D0.{dt} = ldexp(S0.{dt}, {k})\nelse\nD0.{dt} = S0.{dt}\nendif')
      pcode = p.replace('VCC = 0x0LL', 'VCC.u64[laneId] = 0').replace('VCC = 0x1LL', 'VCC.u64[laneId] = 1')
    # V_DIV_FIXUP_F32/F64: a quotient below 2^-150 (2^-1075) is +-UNDERFLOW, a constant the ISA does not define;
    # the emulator takes the smallest denormal, which makes LLVM's correctly rounded division 1 denormal off
    # (2^-149 / FLT_MAX gave 2^-149). Rounded to nearest, such a quotient is +-0: the runner uses that (an
    # assumption the ISA leaves open; defects.py: v_div_fixup_underflow).
    if name.startswith('V_DIV_FIXUP_F'):
      pcode = pcode.replace('-UNDERFLOW_F32 : UNDERFLOW_F32', '-0.0F : 0.0F')
      pcode = pcode.replace('-UNDERFLOW_F64 : UNDERFLOW_F64', '-0.0 : 0.0')
    # V_DIV_FMAS_F32: the quotient's fma and its scaling by 2^-64 round twice (a denormal quotient came out 1 ulp
    # off: 0x007fffff / 1.5). The fma in f64, scaled, rounded once to f32 (defects.py: v_div_fmas_denormal).
    if name == 'V_DIV_FMAS_F32':
      wide = "fma(64'F(S0.f32), 64'F(S1.f32), 64'F(S2.f32))"
      pcode = (f"if VCC.u64[laneId] then\nD0.f32 = 32'F((exponent(S2.f32) > 127) ? (2.0 ** 64 * {wide}) : "
               f"(2.0 ** -64 * {wide}))\nelse\nD0.f32 = fma(S0.f32, S1.f32, S2.f32)\nendif")
    # CDNA V_MIN/V_MAX (F16, F32, F64): the ISA's pcode tells +0 from -0 with `x == +0.0` / `x == -0.0`, which the
    # emulator evaluates as IEEE equality (true for either zero): max(-0, +0) gave -0. The sign is tested instead
    # (defects.py: cdna_max_signed_zero).
    if re.fullmatch(r'V_(MIN|MAX)_F(16|32|64)(_E32|_E64)?', name) and '== +0.0' in pcode:
      def zero(m: re.Match) -> str:
        x = m.group(1)
        return f"((64'F(abs({x})) == 0.0) && {'!' if m.group(2) == '+' else ''}sign({x}))"
      pcode = re.sub(r"\((?:64'F\()?(S[01]\.f\d+)\)? == ([+-])0\.0\)", zero, pcode)
    # V_LDEXP_F32: the pcode's `S0.f32 * 2.0F ** S1.i32` makes 2^n an f32, 0 or infinity outside [-149, 127]:
    # ldexp(0, 900) was NaN, ldexp(2^-140, 200) infinity. The product in f64 with n clamped to +-400 (beyond,
    # every f32 result is 0 or infinity all the same), rounded once to f32 (defects.py: v_ldexp_f32_large_exponent).
    if re.fullmatch(r'V_LDEXP_F32(_E32|_E64)?', name) and pcode == "D0.f32 = S0.f32 * 2.0F ** S1.i32":
      pcode = ("D0.f32 = 32'F(64'F(S0.f32) * 2.0 ** ((S1.i32 > 400) ? 400 : ((S1.i32 < -400) ? -400 : "
               "S1.i32)))")
    # V_EXP_F16: tinygrad's C renderer emits an invalid bit-cast (2-byte source to float) for the f16 pow; compute
    # 2^x in f32 and round once to f16 instead.
    if name.startswith('V_EXP_F16') and pcode == "D0.f16 = pow(16'2.0, S0.f16)":
      pcode = "D0.f16 = 16'F(pow(2.0F, 32'F(S0.f16)))"
    return pcode


# ─── kernel arguments ─────────────────────────────────────────────────────────


def _pack_int(value: int, size: int, what: str) -> bytes:
  if not -(1 << (8 * size - 1)) <= value < (1 << (8 * size)):
    raise RunnerError(f'{what}: {value} does not fit in {size} bytes')
  return (value & ((1 << (8 * size)) - 1)).to_bytes(size, 'little')


def _pack_scalar(value, size: int, what: str) -> bytes:
  if isinstance(value, Buffer):
    if size != 8: raise RunnerError(f'{what}: a buffer (pointer) given for a {size}-byte argument')
    return struct.pack('<Q', value.addr)
  if isinstance(value, (bytes, bytearray, memoryview)):
    if len(value) != size: raise RunnerError(f'{what}: {len(value)} bytes given for a {size}-byte argument')
    return bytes(value)
  if isinstance(value, bool): value = int(value)
  if isinstance(value, int): return _pack_int(value, size, what)
  if isinstance(value, float):
    fmt = {2: '<e', 4: '<f', 8: '<d'}.get(size)
    if fmt is None: raise RunnerError(f'{what}: a float given for a {size}-byte argument')
    return struct.pack(fmt, value)
  raise RunnerError(f'{what}: cannot pass a {type(value).__name__}')


def _rndne_f32_bits(bits: int) -> int:
  """The bits of an f32 rounded to the nearest integer, ties to even, with its sign."""
  if bits & 0x7f800000 == 0x7f800000: return bits | 0x400000 if bits & 0x7fffff else bits   # NaN, infinity
  x = struct.unpack('<f', struct.pack('<I', bits))[0]
  r = math.copysign(float(round(x)), x)   # Python's round() is ties-to-even and exact on floats
  return struct.unpack('<I', struct.pack('<f', r))[0]


def _packed_float_clamped(name: str, d) -> bool:
  """A packed-half float VOP3P instruction (v_pk_add/mul/fma/min/max_f16 or _bf16) with its clamp bit set."""
  return (name.startswith('V_PK_') and (name.endswith('_F16') or name.endswith('_BF16'))
          and bool(getattr(d, 'clmp', 0)))


def _sdwa_modifiers(raw: bytes) -> bool:
  """Whether a CDNA instruction is VOP1/VOP2/VOPC in SDWA form (src0 = 0xF9) with a source's neg or abs bit."""
  word = int.from_bytes(raw[:4], 'little')
  vop = word >> 31 == 0 or word >> 25 in (0b0111110, 0b0111111)
  return vop and word & 0x1ff == 0xf9 and bool(int.from_bytes(raw[4:8], 'little') & (0b11 << 20 | 0b11 << 28))


def _float_clamped(name: str, d) -> int:
  """The result width (16, 32, 64) of a VOP3 float instruction (not packed) with its clamp bit set, else 0."""
  if not getattr(d, 'clmp', 0) or name.startswith(('V_PK_', 'V_CMP', 'V_CMPX')): return 0
  parts = re.sub(r'_E(32|64)$', '', name).split('_')
  dst = parts[2] if name.startswith('V_CVT_') and len(parts) > 2 else parts[-1]
  return {'F16': 16, 'F32': 32, 'F64': 64}.get(dst, 0)


def _clamp_half(h: int, bf16: bool) -> int:
  """One f16 (or bf16) value clamped to [0, 1], NaN to +0 and -0 to +0, as the clamp bit does (AMD ISA: output
  modifiers flush -0 to +0; see _vop3_clamp)."""
  exp_mask, one = (0x7f80, 0x3f80) if bf16 else (0x7c00, 0x3c00)
  if h & 0x7fff > exp_mask: return 0          # NaN
  if h & 0x8000: return 0                     # negative, -0
  return min(h, one)


@dataclasses.dataclass
class DispatchShape:
  grid: tuple[int, int, int]    # workgroups per dimension
  block: tuple[int, int, int]   # work-items per workgroup per dimension
  grid_dims: int                # 1-3, what hidden_grid_dims and the dispatch packet's setup say
  dynamic_lds: int


SERVICE_KINDS = ('hidden_printf_buffer', 'hidden_hostcall_buffer', 'hidden_heap_v1', 'hidden_queue_ptr')


def _hidden_value(kind: str, shape: DispatchShape, em_apertures: dict, overrides: dict, unserviced: str) -> int | bytes:
  """The value the ROCm runtime (CLR) passes in a hidden argument, or the caller's override."""
  if kind in overrides:
    v = overrides[kind]
    return v.addr if isinstance(v, Buffer) else v
  axis = {'x': 0, 'y': 1, 'z': 2}
  if kind.startswith('hidden_block_count_'): return shape.grid[axis[kind[-1]]]
  if kind.startswith('hidden_group_size_'): return shape.block[axis[kind[-1]]]
  if kind.startswith('hidden_remainder_'): return 0      # grids are whole workgroups here
  if kind.startswith('hidden_global_offset_'): return 0
  if kind == 'hidden_grid_dims': return shape.grid_dims
  if kind == 'hidden_dynamic_lds_size': return shape.dynamic_lds
  if kind == 'hidden_none': return 0                     # padding by definition
  if kind == 'hidden_multigrid_sync_arg': return 0       # CLR: 0 unless a cooperative multi-device launch
  if kind in ('hidden_default_queue', 'hidden_completion_action'): return 0   # CLR: 0 without device-side enqueue
  if kind == 'hidden_shared_base': return em_apertures['shared_hi']
  if kind == 'hidden_private_base': return em_apertures['private_hi']
  if kind in SERVICE_KINDS:
    # LLVM declares these whenever a kernel may use them (any indirect call does). Without a host-side service
    # behind them: 'guard' passes an inaccessible address (a kernel that really uses one faults), 'error' refuses.
    if unserviced == 'guard': return _guard().addr
    raise UnsupportedByEmulator(f'the kernel takes {kind}: pass hidden_overrides={{{kind!r}: ...}} or '
                                "unserviced='guard' (there is no host-side service behind it here)")
  raise RunnerError(f'unknown hidden argument value_kind {kind!r}')


def build_kernargs(kernel: hsaco.Kernel, args: list, shape: DispatchShape, apertures: dict, overrides: dict,
                   unserviced: str = 'guard') -> bytes:
  explicit = kernel.explicit_args
  if len(args) != len(explicit):
    raise RunnerError(f'kernel {kernel.name} takes {len(explicit)} explicit arguments, {len(args)} given')
  seg = bytearray(max(kernel.kernarg_segment_size, kernel.descriptor.kernarg_size))
  for n, (a, v) in enumerate(zip(explicit, args)):
    if a.value_kind not in ('by_value', 'global_buffer'):
      raise UnsupportedByEmulator(f'argument {n} ({a.name}): value_kind {a.value_kind} is not supported')
    seg[a.offset:a.offset + a.size] = _pack_scalar(v, a.size, f'argument {n} ({a.name or a.value_kind})')
  for a in kernel.args:
    if not a.value_kind.startswith('hidden_'): continue
    v = _hidden_value(a.value_kind, shape, apertures, overrides, unserviced)
    seg[a.offset:a.offset + a.size] = _pack_scalar(v, a.size, a.value_kind)
  return bytes(seg)


def _dispatch_packet(shape: DispatchShape, kernel: hsaco.Kernel, kernarg_addr: int, kd_addr: int, private: int) -> bytes:
  """An hsa_kernel_dispatch_packet_t (64 bytes) as CLR fills it, for kernels that read the dispatch pointer."""
  bx, by, bz = shape.block
  gx, gy, gz = (g * b for g, b in zip(shape.grid, shape.block))
  header = 2 | (1 << 8) | (2 << 9) | (2 << 11)   # KERNEL_DISPATCH, barrier, acquire/release system scope
  return struct.pack('<HHHHHHIIIIIQQQQ', header, shape.grid_dims, bx, by, bz, 0, gx, gy, gz, private,
                     kernel.group_segment_fixed_size + shape.dynamic_lds, kd_addr, kernarg_addr, 0, 0)


# ─── loaded code object ───────────────────────────────────────────────────────


class LoadedCodeObject:
  """A code object placed in host memory (relocated), with its instruction cache."""

  def __init__(self, co: hsaco.CodeObject):
    self.co = co
    self.mem = HostMemory(co.image_size + 256, align=65536)  # + room for the emulator's 16-byte instruction fetch
    self.mem.write(co.relocated_image(self.mem.addr))
    self.base = self.mem.addr
    self.program: dict[int, '_Inst'] = {}   # absolute pc -> compiled instruction

  def symbol_addr(self, name: str) -> int:
    if name not in self.co.symbols: raise RunnerError(f'no symbol {name}')
    return self.base + self.co.symbols[name].value

  def read_symbol(self, name: str, size: int | None = None) -> bytes:
    sym = self.co.symbols[name]
    return self.mem.read(sym.size if size is None else size, sym.value)

  def write_symbol(self, name: str, data: bytes):
    self.mem.write(data, self.co.symbols[name].value)


@dataclasses.dataclass
class _Inst:
  pc: int
  size: int
  name: str
  fxn: object           # the emulator's native function (None when a hook executes it)
  globals: tuple        # the buffers it takes (indices into a wave's argument list)
  barrier: bool         # the wave waits here for the others (s_barrier, gfx12 s_barrier_wait)
  yields: bool          # the wave gives way to the others after it (s_sleep: a spin-wait)
  hook: object          # Python implementation (an unbound Dispatch method: hook(dispatch, wave, inst)) or None
  raw: bytes
  stops: bool = False   # barrier or yields: the wave loop stops after it


# ─── the run ─────────────────────────────────────────────────────────────────

TRACE = bool(os.environ.get('ZLUDA_EMU_TRACE'))   # print every executed instruction (stderr)


class _Wave:
  """One wave's register files in the emulator's layout, and the argument list its instructions take."""

  def __init__(self, em: Emulator, wave_size: int, lds_addr: int, scratch_per_lane: int):
    self.wave_size = wave_size
    self.sgpr = (ctypes.c_uint32 * em.SGPR_COUNT)()
    self.vgpr = (ctypes.c_uint32 * (256 * wave_size))()
    self.acc = (ctypes.c_uint32 * (256 * wave_size))() if wave_size == 64 else self.vgpr
    self.s = memoryview(self.sgpr).cast('B').cast('I')
    self.v = memoryview(self.vgpr).cast('B').cast('I')
    self.scratch = HostMemory(scratch_per_lane * wave_size) if scratch_per_lane else None
    scratch_addr = self.scratch.addr if self.scratch else 0
    # Buffer order of the emulator's instruction functions: sgpr, vgpr, vmem (host memory, base 0), lds, scratch, acc.
    self.bufs = [ctypes.c_uint64(ctypes.addressof(self.sgpr)), ctypes.c_uint64(ctypes.addressof(self.vgpr)),
                 ctypes.c_uint64(0), ctypes.c_uint64(lds_addr), ctypes.c_uint64(scratch_addr),
                 ctypes.c_uint64(ctypes.addressof(self.acc))]
    self.argsets: dict[tuple, list] = {}
    self.index, self.done, self.at_barrier, self.executed, self.hwreg, self.init = 0, False, False, 0, {}, None

  def args(self, globals_: tuple) -> list:
    a = self.argsets.get(globals_)
    if a is None: a = self.argsets[globals_] = [self.bufs[g] for g in globals_]
    return a


@dataclasses.dataclass
class RunStats:
  instructions: int = 0     # wave-instructions executed (one instruction of one wave counts once)
  waves: int = 0
  workgroups: int = 0
  compiled: int = 0         # distinct instructions prepared by the emulator in this run (cached or compiled)
  seconds: float = 0.0
  per_op: dict = dataclasses.field(default_factory=dict)   # op name -> executions (when count_ops)

  def __str__(self):
    rate = self.instructions / self.seconds if self.seconds else 0
    return (f'{self.workgroups} workgroups, {self.waves} waves, {self.instructions} wave-instructions '
            f'in {self.seconds:.3f} s ({rate:,.0f}/s), {self.compiled} instructions compiled')


@dataclasses.dataclass
class RunResult:
  outputs: list          # per explicit argument: the buffer's bytes after the run, None for scalars
  stats: RunStats
  code: LoadedCodeObject # e.g. code.read_symbol('my_global') for module variables


# HW register ids (s_getreg/s_setreg) used here; the numbering is shared by gfx9-gfx12 for these.
HW_REG_MODE = 1
HW_REG_HW_ID = 4            # gfx9 (CDNA)
HW_REG_FLAT_SCR_LO, HW_REG_FLAT_SCR_HI = 20, 21
HW_REG_HW_ID1, HW_REG_HW_ID2 = 23, 24   # gfx10+
HW_REG_SHADER_CYCLES = 29


class Dispatch:
  """One kernel dispatch: a grid of workgroups run one after another, waves of a workgroup round-robin between barriers."""

  def __init__(self, em: Emulator, code: LoadedCodeObject, kernel: hsaco.Kernel, shape: DispatchShape, args: list,
               hidden_overrides: dict, private_size: int | None, max_wave_instructions: int, count_ops: bool,
               lds_fill: int, unserviced: str):
    self.em, self.code, self.kernel, self.shape = em, code, kernel, shape
    kd = self.kd = kernel.descriptor
    self.processor = code.co.processor
    self.arch = emulator_arch(self.processor)
    self.wave_size = 32 if kd.wavefront_size32 else 64
    emu_wave = 64 if self.arch == 'cdna' else 32
    if self.wave_size != emu_wave:
      raise UnsupportedByEmulator(f'{kernel.name} is wave{self.wave_size}; the emulator runs {self.arch} as wave{emu_wave} only')
    if kernel.wavefront_size != self.wave_size:
      raise RunnerError(f'metadata .wavefront_size {kernel.wavefront_size} disagrees with the descriptor (wave{self.wave_size})')
    self.threads = shape.block[0] * shape.block[1] * shape.block[2]
    if not 1 <= self.threads <= 1024: raise RunnerError(f'block {shape.block}: 1 to 1024 work-items per workgroup')
    max_flat = kernel.metadata.get('.max_flat_workgroup_size', 1024)
    if self.threads > max_flat: raise RunnerError(f'block of {self.threads} > .max_flat_workgroup_size {max_flat}')
    reqd = kernel.metadata.get('.reqd_workgroup_size')
    if reqd and tuple(reqd) != tuple(shape.block): raise RunnerError(f'block {shape.block} != .reqd_workgroup_size {reqd}')
    self.lds_size = kernel.group_segment_fixed_size + shape.dynamic_lds
    if self.lds_size > MAX_LDS: raise RunnerError(f'{self.lds_size} bytes of LDS > {MAX_LDS}')
    # Private memory per work-item: the fixed frame, plus a stack for kernels with a dynamic one (CLR's default 1 KiB).
    self.private_size = kd.private_segment_fixed_size + (1024 if kd.uses_dynamic_stack else 0) \
        if private_size is None else private_size
    self.private_size = (self.private_size + 15) // 16 * 16
    self.max_wave_instructions, self.count_ops, self.lds_fill = max_wave_instructions, count_ops, lds_fill
    self.quantum = 1000   # instructions a wave runs before the next one gets its turn

    # Memory: LDS and the private aperture sit at 4 GiB-aligned host addresses, so that flat (generic) addresses
    # into them are `aperture_hi << 32 | offset` with offset the LDS / private address.
    self.window = _apertures()
    self.apertures = {'shared_hi': self.window.shared_hi, 'private_hi': self.window.private_hi}
    self.unserviced = unserviced
    self.kernargs = HostMemory(max(len(b := build_kernargs(kernel, args, shape, self.apertures, hidden_overrides, unserviced)), 64))
    self.kernargs.write(b)
    kd_addr = code.base + kernel.descriptor_symbol.value
    self.packet = HostMemory(64)
    self.packet.write(_dispatch_packet(shape, kernel, self.kernargs.addr, kd_addr, self.private_size))
    self.entry = kd_addr + kd.kernel_code_entry_byte_offset
    self.queue_ptr = hidden_overrides.get('queue_ptr')
    self.waves = [_Wave(em, self.wave_size, self.window.lds_addr, self.private_size)
                  for _ in range((self.threads + self.wave_size - 1) // self.wave_size)]
    self._init_templates()
    self._wgid_enabled = kd.enable_sgpr_workgroup_id
    for i, w in enumerate(self.waves): self._prepare_wave(w, i)
    self._hooks = Dispatch._hook_table()
    self.stats = RunStats()
    self.clock = 0
    self._fpu_mode = None   # the MODE[9:0] the host FPU is set for (waves switch in and out)

  # ── register initialisation ──
  def _init_templates(self):
    """The SGPR file every wave starts from: inline constants, apertures, user SGPRs (s0...)."""
    em, kd = self.em, self.kd
    s = [0] * em.SGPR_COUNT
    for i in range(65): s[128 + i] = i                                 # 0..64
    for i in range(16): s[193 + i] = (-(i + 1)) & 0xffffffff           # -1..-16
    for off, val in em.F32_INLINE.items(): s[off] = val                # 0.5 ... 4.0, 1/(2*pi)
    s[SRC_SHARED_BASE] = s[SRC_SHARED_LIMIT] = self.apertures['shared_hi']
    s[SRC_PRIVATE_BASE] = s[SRC_PRIVATE_LIMIT] = self.apertures['private_hi']
    n, self._user_sgpr_at = 0, {}
    for name, count in kd.user_sgprs():
      if name == 'private_segment_buffer':
        vals = [0, 0, self.private_size * self.wave_size, 0]   # base patched per wave in _prepare_wave
      elif name == 'dispatch_ptr': vals = [self.packet.addr & 0xffffffff, self.packet.addr >> 32]
      elif name == 'queue_ptr':
        if self.queue_ptr is None and self.unserviced != 'guard':
          raise UnsupportedByEmulator('the kernel takes the queue pointer (user SGPR): pass hidden_overrides={"queue_ptr": buf} '
                                      "or unserviced='guard'")
        q = _guard().addr if self.queue_ptr is None else \
            self.queue_ptr.addr if isinstance(self.queue_ptr, Buffer) else int(self.queue_ptr)
        vals = [q & 0xffffffff, q >> 32]
      elif name == 'kernarg_segment_ptr': vals = [self.kernargs.addr & 0xffffffff, self.kernargs.addr >> 32]
      elif name == 'dispatch_id': vals = [0, 0]
      elif name == 'flat_scratch_init': vals = [0, 0]          # patched per wave in _prepare_wave
      elif name == 'private_segment_size': vals = [self.private_size]
      else: raise RunnerError(f'user SGPR {name}?')
      self._user_sgpr_at[name] = n
      s[n:n + count] = vals
      n += count
    if kd.kernarg_preload_length:   # gfx90a/gfx94x/gfx950 kernarg preloading: the first kernarg dwords follow
      off = (kd.kernarg_preload >> 7) * 4
      words = struct.unpack_from(f'<{kd.kernarg_preload_length}I', self.kernargs.read(off + 4 * kd.kernarg_preload_length), off)
      s[n:n + len(words)] = words
      n += len(words)
    if n > kd.user_sgpr_count:
      raise RunnerError(f'descriptor enables {n} user SGPRs but USER_SGPR_COUNT is {kd.user_sgpr_count}')
    s[em.SCRATCH_STRIDE] = self.private_size
    self._sgpr_template = (ctypes.c_uint32 * em.SGPR_COUNT)(*s)

  def _prepare_wave(self, w: _Wave, index: int):
    """The parts of wave `index`'s initial state that are the same in every workgroup (computed once)."""
    em, kd, ws = self.em, self.kd, self.wave_size
    sg = (ctypes.c_uint32 * em.SGPR_COUNT).from_buffer_copy(self._sgpr_template)
    scratch = w.scratch.addr if w.scratch else 0
    at = self._user_sgpr_at
    if 'private_segment_buffer' in at:   # a buffer resource for the wave's scratch (base, size)
      sg[at['private_segment_buffer']], sg[at['private_segment_buffer'] + 1] = scratch & 0xffffffff, scratch >> 32 & 0xffff
    if 'flat_scratch_init' in at: sg[at['flat_scratch_init']], sg[at['flat_scratch_init'] + 1] = scratch & 0xffffffff, scratch >> 32
    first = index * ws
    lanes = min(ws, self.threads - first)
    exec_mask = (1 << lanes) - 1
    sg[em.EXEC_LO] = exec_mask & 0xffffffff
    if ws == 64: sg[em.EXEC_LO + 1] = exec_mask >> 32
    sg[em.PC_LO], sg[em.PC_HI] = self.entry & 0xffffffff, self.entry >> 32
    # Work-item ids, one lane per work-item, x fastest: packed in v0 or one per VGPR, only the enabled ones.
    ids = (ctypes.c_uint32 * (3 * ws))()
    bx, by, _ = self.shape.block
    enabled, packed = kd.enable_vgpr_workitem_id, _packed_workitem_ids(self.processor)
    for lane in range(lanes):
      t = first + lane
      x, y, z = t % bx, t // bx % by, t // (bx * by)
      if packed: ids[lane] = x | (y << 10 if enabled >= 1 else 0) | (z << 20 if enabled >= 2 else 0)
      else:
        ids[lane] = x
        if enabled >= 1: ids[ws + lane] = y
        if enabled >= 2: ids[2 * ws + lane] = z
    # HW registers for s_getreg/s_setreg: MODE as compute_pgm_rsrc1 initialises it, the rest as the hardware reports them.
    mode = (kd.float_round_mode_32 | kd.float_round_mode_16_64 << 2 | kd.float_denorm_mode_32 << 4 |
            kd.float_denorm_mode_16_64 << 6 | kd.fp16_ovfl << 23)
    if self.arch != 'rdna4': mode |= kd.enable_dx10_clamp << 8 | kd.enable_ieee_mode << 9   # (no such bits on gfx12)
    hwreg = {HW_REG_MODE: mode, HW_REG_FLAT_SCR_LO: scratch & 0xffffffff, HW_REG_FLAT_SCR_HI: scratch >> 32,
             HW_REG_HW_ID1: index & 0x1f, HW_REG_HW_ID2: 0}
    if self.arch == 'cdna': hwreg[HW_REG_HW_ID] = index & 0xf
    w.init = (sg, ids, hwreg)

  def _start_wave(self, w: _Wave, index: int, block_id: tuple[int, int, int]):
    em, kd = self.em, self.kd
    sg, ids, hwreg = w.init
    ctypes.memmove(w.sgpr, sg, ctypes.sizeof(sg))
    ctypes.memset(w.vgpr, 0, ctypes.sizeof(w.vgpr))
    ctypes.memmove(w.vgpr, ids, ctypes.sizeof(ids))
    if w.acc is not w.vgpr: ctypes.memset(w.acc, 0, ctypes.sizeof(w.acc))
    if w.scratch: w.scratch.fill(0)
    s = w.s
    # System SGPRs after the user SGPRs: workgroup id x/y/z, workgroup info, private segment wave offset.
    n = kd.user_sgpr_count
    for enabled, gid in zip(self._wgid_enabled, block_id):
      if enabled:
        s[n] = gid
        n += 1
    if kd.enable_sgpr_workgroup_info:   # {first_wave[31], ordered_append_term[16:6] = 0, waves in the workgroup[5:0]}
      s[n] = (1 << 31 if index == 0 else 0) | len(self.waves)
      n += 1
    if kd.enable_private_segment: s[n] = 0   # the wave's offset into its scratch (its own buffer here)
    if self.arch == 'rdna4':   # gfx12: workgroup ids also live in TTMP9 (x) and TTMP7 (y | z << 16)
      s[em.TTMP[9]] = block_id[0]
      s[em.TTMP[7]] = (block_id[1] & 0xffff) | (block_id[2] & 0xffff) << 16
    w.index, w.done, w.at_barrier, w.executed, w.block = index, False, False, 0, block_id
    w.hwreg = dict(hwreg)

  # ── instruction cache ──
  def _fetch(self, pc: int) -> _Inst:
    inst = self.code.program.get(pc)
    if inst is not None: return inst
    off = pc - self.code.base
    if not 0 <= off < self.code.co.image_size: raise RunnerError(f'PC {pc:#x} is outside the code object')
    raw = ctypes.string_at(pc, 16)
    undecoded = self._undecoded(raw)
    if undecoded is not None: name, size = undecoded
    else:
      try:
        d = self.em.decode(raw, self.arch)
      except Exception as e:
        raise UnsupportedByEmulator(f'cannot decode the instruction at code offset {off:#x} ({raw[:8].hex()}): {e}') from e
      name, size = self.em.op_name(d), d.size()
    hook = self._hooks.get(name)
    if hook is None and self.arch == 'cdna' and name in ('DS_BPERMUTE_B32', 'DS_PERMUTE_B32'):
      hook = Dispatch._ds_permute   # the emulator's CDNA permutes fault on inactive lanes' addresses
    if hook is None and undecoded is None and _packed_float_clamped(name, d):
      hook = Dispatch._vop3p_clamp
    if hook is None and undecoded is None and _float_clamped(name, d):
      hook = Dispatch._vop3_clamp
    compile_raw = raw[:size + 4]
    if hook is None and undecoded is None and self.arch == 'cdna' and _sdwa_modifiers(raw):
      # The emulator ignores SDWA's source modifiers: run the instruction without them on modified sources.
      hook = Dispatch._sdwa_with_modifiers
      sdwa = int.from_bytes(raw[4:8], 'little') & ~(0b11 << 20 | 0b11 << 28)
      compile_raw = raw[:4] + sdwa.to_bytes(4, 'little') + raw[8:size + 4]
    if hook is None and name.startswith('FLAT_'):
      hook = Dispatch._flat_with_private
      if self.arch == 'cdna':
        # CDNA flat_* access the wrong memory in the emulator (a store to a plain global address faulted, one to
        # the LDS aperture was lost). GLOBAL is the same encoding with SEG = 2 and the same opcodes; with SADDR off
        # it takes the 64-bit address as flat does: compile that (LDS addresses reach the LDS window, which the
        # runner maps at the aperture; private ones are rewritten by the hook). FLAT's offset is unsigned, GLOBAL's
        # signed: bit 12 must be clear.
        # The compiled instruction reads its register fields (SADDR among them) from the code at run time, so the
        # loaded copy of the code is patched too.
        if (raw[0] | raw[1] << 8) & 0x1000: raise UnsupportedByEmulator(f'{name} with an offset of 4 KiB or more')
        compile_raw = raw[:1] + bytes([raw[1] & 0x3f | 0x80]) + raw[2:6] + bytes([raw[6] | 0x7f]) + raw[7:size + 4]
        ctypes.memmove(pc, compile_raw, size)
      if self.arch == 'rdna4':
        # RDNA4 flat_* cannot be compiled (their pcode needs `flat_scratch`); global_* with the same opcode, no
        # saddr, is the same access for global and LDS addresses (private ones are rewritten by the hook).
        if raw[0] & 0x7f != 124: raise UnsupportedByEmulator(f'{name} with saddr at code offset {off:#x}')
        compile_raw = raw[:3] + bytes([0b11101110]) + raw[4:size + 4]
    fxn, gl = None, ()
    if hook is None or hook in (Dispatch._flat_with_private, Dispatch._vop3p_clamp, Dispatch._vop3_clamp,
                                Dispatch._sdwa_with_modifiers):
      try:
        fxn, gl = self.em.compile(compile_raw, self.arch)
      except Exception as e:
        raise UnsupportedByEmulator(f'the emulator cannot execute {name} at code offset {off:#x}: {e}') from e
      self.stats.compiled += 1
    barrier = name in ('S_BARRIER', 'S_BARRIER_WAIT')
    yields = name.startswith('S_SLEEP')
    inst = self.code.program[pc] = _Inst(pc, size, name, fxn, gl, barrier, yields, hook, raw[:size], barrier or yields)
    return inst

  def _undecoded(self, raw: bytes) -> tuple[str, int] | None:
    """(name, size) of the instructions the emulator's decoder does not know but this runner executes."""
    word = int.from_bytes(raw[:4], 'little')
    # gfx11 MUBUF (bits 31:26 = 0b111000) cache invalidations: the emulator has no RDNA3 MUBUF decoding.
    if self.arch == 'rdna3' and word >> 26 == 0b111000:
      op = word >> 18 & 0xff
      if op == 0x2b: return 'BUFFER_GL0_INV', 8
      if op == 0x2c: return 'BUFFER_GL1_INV', 8
    return None

  # ── execution ──
  def run(self):
    t0 = time.perf_counter()
    gx, gy, gz = self.shape.grid
    mx_saved = _MXCSR.get() if _MXCSR.available else None
    try:
      for bz, by, bx in itertools.product(range(gz), range(gy), range(gx)):
        self._run_workgroup((bx, by, bz))
    finally:
      if mx_saved is not None: _MXCSR.set(mx_saved)
    self.stats.seconds = time.perf_counter() - t0

  def _run_workgroup(self, block_id):
    """Runs one workgroup's waves round-robin: each for at most `quantum` instructions (less when it reaches a
    barrier, s_sleep or s_endpgm). A wave at a barrier waits until every wave still running has reached one; waves
    that ended do not count. The time slices let spin-waits on LDS or memory (named barriers) make progress."""
    self.window.clear_lds(self.lds_fill)
    for i, w in enumerate(self.waves): self._start_wave(w, i, block_id)
    self.stats.workgroups += 1
    self.stats.waves += len(self.waves)
    live = list(self.waves)
    while live:
      runnable = [w for w in live if not w.at_barrier]
      if not runnable:                  # all the live waves are at the barrier: release it
        for w in live: w.at_barrier = False
        continue
      for w in runnable: self._run_wave(w)
      live = [w for w in live if not w.done]

  def _run_wave(self, w: _Wave):
    """Runs `w` for up to `quantum` instructions, to its next barrier, s_sleep or s_endpgm."""
    em, s = self.em, w.s
    PC_LO, PC_HI, END = em.PC_LO, em.PC_HI, em.ENDPGM_PC
    program, fetch, argsets = self.code.program, self._fetch, w.argsets
    slow = TRACE or self.count_ops
    executed, quantum = 0, self.quantum
    if w.hwreg[HW_REG_MODE] & 0x3ff != self._fpu_mode: self._apply_float_mode(w.hwreg[HW_REG_MODE])
    try:
      while executed < quantum:
        pc = s[PC_LO] | s[PC_HI] << 32
        inst = program.get(pc)
        if inst is None:
          if pc == END:
            w.done = True
            return
          inst = fetch(pc)
        if slow: self._trace(w, inst)
        if inst.hook is None:
          a = argsets.get(inst.globals)
          inst.fxn(*(a if a is not None else w.args(inst.globals)))
        else: inst.hook(self, w, inst)
        executed += 1
        if inst.stops:
          if inst.barrier: w.at_barrier = True
          return
    finally:
      self.stats.instructions += executed
      self.clock += executed
      w.executed += executed
      if w.executed > self.max_wave_instructions:
        raise RunnerError(f'wave {w.index} of workgroup {w.block} ran {w.executed} instructions without ending '
                          '(an infinite loop, or a wait for something that never comes)')

  def _trace(self, w: _Wave, inst: _Inst):
    if TRACE: print(f'[emu] wg {w.block} wave {w.index} +{inst.pc - self.code.base:#06x} {inst.name}', file=sys.stderr, flush=True)
    if self.count_ops: self.stats.per_op[inst.name] = self.stats.per_op.get(inst.name, 0) + 1

  # ── instructions executed here instead of by the emulator ──
  @staticmethod
  def _hook_table() -> dict:
    """Instruction name -> Dispatch method (unbound: the instruction cache outlives a dispatch)."""
    return {'S_GETPC_B64': Dispatch._s_getpc, 'S_SETPC_B64': Dispatch._s_setpc, 'S_SWAPPC_B64': Dispatch._s_swappc,
            'S_TRAP': Dispatch._s_trap, 'S_SETHALT': Dispatch._s_sethalt,
            'S_GETREG_B32': Dispatch._s_getreg, 'S_SETREG_B32': Dispatch._s_setreg, 'S_SETREG_IMM32_B32': Dispatch._s_setreg,
            'S_DENORM_MODE': Dispatch._s_denorm_mode, 'S_ROUND_MODE': Dispatch._s_round_mode,
            'S_SENDMSG_RTN_B32': Dispatch._s_sendmsg_rtn, 'S_SENDMSG_RTN_B64': Dispatch._s_sendmsg_rtn,
            'S_MEMTIME': Dispatch._s_memtime, 'S_MEMREALTIME': Dispatch._s_memtime,
            # Cache invalidations (gfx11 MUBUF encoding, which the emulator does not decode for RDNA3): no caches here.
            'BUFFER_GL0_INV': Dispatch._next, 'BUFFER_GL1_INV': Dispatch._next,
            # gfx12 cache control (no pcode): no caches here either.
            'GLOBAL_INV': Dispatch._next, 'GLOBAL_WB': Dispatch._next, 'GLOBAL_WBINV': Dispatch._next,
            # CDNA cache write-back/invalidate (agent- and system-scope release/acquire): the emulator faults on them.
            'BUFFER_WBL2': Dispatch._next, 'BUFFER_INV': Dispatch._next, 'S_DCACHE_INV': Dispatch._next,
            'S_DCACHE_WB': Dispatch._next,
            'S_SLEEP': Dispatch._next,
            # The emulator's pcode for v_rndne_f32 is floor(x + 0.5) with a tie fix-up: it loses the sign of
            # -0 and of negative values rounding to zero, and x + 0.5 rounds (0.49999997 -> 1.0).
            'V_RNDNE_F32_E32': Dispatch._v_rndne_f32,
            # ds_swizzle_b32: the emulator cannot compile it (its pcode does not parse).
            'DS_SWIZZLE_B32': Dispatch._ds_swizzle,
            # The emulator's DS d16 loads write the loaded value zero- or sign-extended into the whole VGPR: the
            # other half is not kept and the _HI forms load into the low half (LLVM's true16 code on gfx11+ keeps
            # two 16-bit values in one VGPR and reads LDS this way).
            **{f'DS_{verb}_{t}_D16{hi}': Dispatch._ds_load_d16 for verb in ('LOAD', 'READ') for t in ('U8', 'I8', 'U16')
               for hi in ('', '_HI')}}

  def _next(self, w, inst): self._set_pc(w, inst.pc + inst.size)

  def _v_rndne_f32(self, w, inst):
    """v_rndne_f32_e32 (VOP1) in the active lanes: round to the nearest integer, ties to even, the sign kept
    (IEEE roundToIntegralTiesToEven); NaN quieted, infinities as they are."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    word = int.from_bytes(inst.raw[:4], 'little')
    src0, vdst = word & 0x1ff, word >> 17 & 0xff
    literal = int.from_bytes(inst.raw[4:8], 'little') if src0 == 255 else None
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    for lane in range(ws):
      if not exec_mask >> lane & 1: continue
      bits = v[(src0 - 256) * ws + lane] if src0 >= 256 else literal if literal is not None else s[src0]
      v[vdst * ws + lane] = _rndne_f32_bits(bits)
    self._set_pc(w, inst.pc + inst.size)

  def _ds_load_d16(self, w, inst):
    """ds_load_{u8,i8,u16}_d16[_hi] (gfx9: ds_read_*) in the active lanes: 8 or 16 bits of LDS at ADDR + offset,
    zero- or sign-extended to 16 bits, into the low (or, _HI, the high) half of VDST; the other half is kept."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    w0, w1 = int.from_bytes(inst.raw[:4], 'little'), int.from_bytes(inst.raw[4:8], 'little')
    if self.arch == 'cdna' and w0 >> 25 & 1:
      raise UnsupportedByEmulator(f'{inst.name} into an accumulation VGPR')
    offset, addr_reg, vdst = w0 & 0xffff, w1 & 0xff, w1 >> 24 & 0xff
    name = inst.name
    nbytes, signed, hi = (1 if '8_' in name else 2), '_I8_' in name, name.endswith('_HI')
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    for lane in range(ws):
      if not exec_mask >> lane & 1: continue
      at = (v[addr_reg * ws + lane] + offset) & 0xffffffff
      if at + nbytes > self.lds_size:
        raise RunnerError(f'{name} at code offset {inst.pc - self.code.base:#x}: LDS address {at:#x} is outside the '
                          f'{self.lds_size} bytes of this workgroup')
      val = int.from_bytes(ctypes.string_at(self.window.lds_addr + at, nbytes), 'little')
      if signed and val & 0x80: val |= 0xff00
      old = v[vdst * ws + lane]
      v[vdst * ws + lane] = (old & 0xffff) | val << 16 if hi else (old & 0xffff0000) | val
    self._set_pc(w, inst.pc + inst.size)

  def _ds_permute(self, w, inst):
    """CDNA ds_bpermute_b32 / ds_permute_b32: the emulator's crash (SIGSEGV) when an inactive lane's address VGPR
    holds an arbitrary value (defects.py: cdna_bpermute_inactive_lanes). The lane index is (ADDR + offset) / 4
    modulo the wave size; bpermute reads the source lane's DATA0 where that lane is active (else 0), permute
    writes DATA0 to the addressed lane; only active lanes' VDST are written."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    w0, w1 = int.from_bytes(inst.raw[:4], 'little'), int.from_bytes(inst.raw[4:8], 'little')
    if w0 >> 25 & 1: raise UnsupportedByEmulator(f'{inst.name} into an accumulation VGPR')
    offset, addr, data0, vdst = w0 & 0xffff, w1 & 0xff, w1 >> 8 & 0xff, w1 >> 24 & 0xff
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    active = [i for i in range(ws) if exec_mask >> i & 1]
    lane_of = lambda i: ((v[addr * ws + i] + offset) & 0xffffffff) // 4 % ws  # noqa: E731
    tmp = [0] * ws
    if inst.name == 'DS_BPERMUTE_B32':
      for i in active:
        src = lane_of(i)
        if exec_mask >> src & 1: tmp[i] = v[data0 * ws + src]
    else:
      for i in active: tmp[lane_of(i)] = v[data0 * ws + i]
    for i in active: v[vdst * ws + i] = tmp[i]
    self._set_pc(w, inst.pc + inst.size)

  def _ds_swizzle(self, w, inst):
    """ds_swizzle_b32 (the emulator cannot compile it): in groups of 32 lanes, bit mode (offset[15] = 0) reads lane
    ((i & and) | or) ^ xor of the group, quad mode (offset[15] = 1) lane sel[i % 4] of each 4; a disabled source
    lane reads 0; gfx10+'s FFT and rotate modes (offset >= 0xe000) are refused (defects.py: ds_swizzle)."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    w0, w1 = int.from_bytes(inst.raw[:4], 'little'), int.from_bytes(inst.raw[4:8], 'little')
    if self.arch == 'cdna' and w0 >> 25 & 1: raise UnsupportedByEmulator(f'{inst.name} into an accumulation VGPR')
    offset, data0, vdst = w0 & 0xffff, w1 & 0xff, w1 >> 24 & 0xff   # (the source is the ADDR field)
    if offset >= 0xe000: raise UnsupportedByEmulator(f'{inst.name} in FFT or rotate mode (offset {offset:#x})')
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    def src(i: int) -> int:
      if offset & 0x8000: return i & ~3 | (offset >> (2 * (i & 3)) & 3)
      return i & ~31 | (((i & 31) & (offset & 31)) | (offset >> 5 & 31)) ^ (offset >> 10 & 31)
    out = {}
    for i in range(ws):
      if exec_mask >> i & 1:
        j = src(i)
        out[i] = v[data0 * ws + j] if exec_mask >> j & 1 else 0
    for i, x in out.items(): v[vdst * ws + i] = x
    self._set_pc(w, inst.pc + inst.size)

  def _set_pc(self, w: _Wave, pc: int):
    w.s[self.em.PC_LO], w.s[self.em.PC_HI] = pc & 0xffffffff, pc >> 32 & 0xffffffff

  def _sop1_fields(self, inst: _Inst) -> tuple[int, int]:
    word = int.from_bytes(inst.raw[:4], 'little')
    return word >> 16 & 0x7f, word & 0xff   # sdst, ssrc0

  def _read_sgpr_pair(self, w: _Wave, reg: int, what: str) -> int:
    if reg >= 106 and reg not in (106, 126):
      raise UnsupportedByEmulator(f'{what} with source operand {reg} (not an SGPR pair)')
    return w.s[reg] | w.s[reg + 1] << 32

  def _s_getpc(self, w, inst):   # D = address of the next instruction
    sdst, _ = self._sop1_fields(inst)
    nxt = inst.pc + inst.size
    w.s[sdst], w.s[sdst + 1] = nxt & 0xffffffff, nxt >> 32
    self._set_pc(w, nxt)

  def _s_setpc(self, w, inst):
    _, ssrc0 = self._sop1_fields(inst)
    self._set_pc(w, self._read_sgpr_pair(w, ssrc0, 's_setpc_b64'))

  def _s_swappc(self, w, inst):
    sdst, ssrc0 = self._sop1_fields(inst)
    target, nxt = self._read_sgpr_pair(w, ssrc0, 's_swappc_b64'), inst.pc + inst.size
    w.s[sdst], w.s[sdst + 1] = nxt & 0xffffffff, nxt >> 32
    self._set_pc(w, target)

  def _s_trap(self, w, inst):
    trap_id = int.from_bytes(inst.raw[:2], 'little') & 0xff
    raise KernelTrap(f'{self.kernel.name}: s_trap {trap_id} in workgroup {w.block}, wave {w.index} '
                     f'(code offset {inst.pc - self.code.base:#x})', trap_id, w.block, w.index, inst.pc - self.code.base)

  def _s_sethalt(self, w, inst):
    raise KernelTrap(f'{self.kernel.name}: s_sethalt in workgroup {w.block}, wave {w.index}', -1, w.block, w.index,
                     inst.pc - self.code.base)

  def _hwreg_fields(self, simm16: int) -> tuple[int, int, int]:
    return simm16 & 0x3f, simm16 >> 6 & 0x1f, (simm16 >> 11 & 0x1f) + 1   # id, offset, size

  def _s_getreg(self, w, inst):
    word = int.from_bytes(inst.raw[:4], 'little')
    sdst, (reg, off, size) = word >> 16 & 0x7f, self._hwreg_fields(word & 0xffff)
    # The cycle counter: gfx11 a 20-bit SHADER_CYCLES, gfx12 a 64-bit one as SHADER_CYCLES_LO (29) / _HI (30).
    if reg in (HW_REG_SHADER_CYCLES, HW_REG_SHADER_CYCLES + 1) and self.arch == 'rdna4':
      value = self.clock >> (32 if reg != HW_REG_SHADER_CYCLES else 0) & 0xffffffff
    elif reg == HW_REG_SHADER_CYCLES and self.arch != 'cdna': value = self.clock & 0xfffff
    elif reg in w.hwreg: value = w.hwreg[reg]
    else: raise UnsupportedByEmulator(f's_getreg_b32 of hardware register {reg} (not modelled)')
    if sdst != 124: w.s[sdst] = value >> off & ((1 << size) - 1)
    self._set_pc(w, inst.pc + inst.size)

  def _s_setreg(self, w, inst):
    word = int.from_bytes(inst.raw[:4], 'little')
    reg, off, size = self._hwreg_fields(word & 0xffff)
    if inst.name == 'S_SETREG_IMM32_B32': value = int.from_bytes(inst.raw[4:8], 'little')
    else: value = w.s[word >> 16 & 0x7f]
    if reg not in (HW_REG_MODE, HW_REG_FLAT_SCR_LO, HW_REG_FLAT_SCR_HI):
      raise UnsupportedByEmulator(f's_setreg of hardware register {reg} (not modelled)')
    mask = ((1 << size) - 1) << off
    w.hwreg[reg] = (w.hwreg.get(reg, 0) & ~mask) | (value << off & mask)
    if reg == HW_REG_MODE: self._apply_float_mode(w.hwreg[reg])
    self._set_pc(w, inst.pc + inst.size)

  def _s_denorm_mode(self, w, inst):
    imm = int.from_bytes(inst.raw[:2], 'little') & 0xf
    w.hwreg[HW_REG_MODE] = (w.hwreg[HW_REG_MODE] & ~0xf0) | imm << 4
    self._apply_float_mode(w.hwreg[HW_REG_MODE])
    self._set_pc(w, inst.pc + inst.size)

  def _s_round_mode(self, w, inst):
    imm = int.from_bytes(inst.raw[:2], 'little') & 0xf
    w.hwreg[HW_REG_MODE] = (w.hwreg[HW_REG_MODE] & ~0xf) | imm
    self._apply_float_mode(w.hwreg[HW_REG_MODE])
    self._set_pc(w, inst.pc + inst.size)

  def _apply_float_mode(self, mode: int):
    """Makes the host FPU follow the wave's MODE register where it can, and refuses where it cannot.

    Rounding: the emulator rounds to nearest even whatever MODE says, so a non-zero round mode is refused.
    Denormals: MODE[5:4] (f32) and MODE[7:6] (f16/f64) are 3 (keep), 0 (flush inputs and outputs), 1 (flush
    outputs: FTZ) or 2 (flush inputs: DAZ). The host has one DAZ/FTZ setting for f32 and f64, so the two must
    agree (the emulator computes f16 through f32, where an f16 denormal is a normal number).
    DX10_CLAMP and IEEE (MODE[9:8], gfx9-gfx11): the emulator's pcode reads WAVE_MODE.IEEE as 1 and clamps NaN
    to 0, so both must be set."""
    self._fpu_mode = mode & 0x3ff
    if self.arch != 'rdna4' and mode >> 8 & 3 != 3:
      raise UnsupportedByEmulator(f'MODE DX10_CLAMP={mode >> 8 & 1} IEEE={mode >> 9 & 1}: the emulator always behaves as '
                                  'with both set (NaN clamps to 0, signalling NaNs are quieted by min/max)')
    if mode & 0xf:
      raise UnsupportedByEmulator(f'MODE round mode {mode & 0xf:#x}: the emulator only rounds to nearest even')
    d32, d64 = mode >> 4 & 3, mode >> 6 & 3
    if d32 != d64:
      raise UnsupportedByEmulator(f'MODE denormal modes f32={d32}, f16/f64={d64}: the host FPU has one setting for both')
    if not _MXCSR.available:
      if d32 != 3: raise UnsupportedByEmulator('denormal flushing needs an x86-64 host (MXCSR)')
      return
    flags = (_Mxcsr.DAZ if d32 in (0, 2) else 0) | (_Mxcsr.FTZ if d32 in (0, 1) else 0)
    cur = _MXCSR.get()
    if cur & (_Mxcsr.DAZ | _Mxcsr.FTZ) != flags: _MXCSR.set(cur & ~(_Mxcsr.DAZ | _Mxcsr.FTZ) | flags)

  def _s_sendmsg_rtn(self, w, inst):
    sdst, msg = self._sop1_fields(inst)
    # MSG_RTN_GET_REALTIME (0x83): the clock, modelled as the dispatch's instruction count so far.
    if msg != 0x83: raise UnsupportedByEmulator(f's_sendmsg_rtn message {msg:#x} (only MSG_RTN_GET_REALTIME is modelled)')
    w.s[sdst] = self.clock & 0xffffffff
    if inst.name.endswith('B64'): w.s[sdst + 1] = self.clock >> 32 & 0xffffffff
    self._set_pc(w, inst.pc + inst.size)

  def _s_memtime(self, w, inst):
    word = int.from_bytes(inst.raw[:4], 'little')
    sdata = word >> 6 & 0x7f   # SMEM sdata, bits 12:6 (GCN and RDNA)
    w.s[sdata], w.s[sdata + 1] = self.clock & 0xffffffff, self.clock >> 32 & 0xffffffff
    self._set_pc(w, inst.pc + inst.size)

  def _flat_fields(self, inst: _Inst) -> tuple[int, int, int, bool]:
    """(vaddr, vdata, vdst, returns data) of a FLAT instruction (RDNA3 FLAT / RDNA4 VFLAT / CDNA FLAT encodings)."""
    raw = inst.raw
    if self.arch == 'rdna4':
      w0, w1, w2 = (int.from_bytes(raw[i:i + 4], 'little') for i in (0, 4, 8))
      vaddr, vdata, vdst, ret_bit = w2 & 0xff, w1 >> 23 & 0xff, w1 & 0xff, w1 >> 20 & 1   # th[0]: atomic returns
    else:
      w0, w1 = int.from_bytes(raw[:4], 'little'), int.from_bytes(raw[4:8], 'little')
      vaddr, vdata, vdst = w1 & 0xff, w1 >> 8 & 0xff, w1 >> 24 & 0xff
      ret_bit = w0 >> (14 if self.arch == 'rdna3' else 16) & 1   # GLC (gfx11 bit 14, gfx9 bit 16)
    name = inst.name
    return vaddr, vdata, vdst, 'LOAD' in name or ('ATOMIC' in name and bool(ret_bit))

  def _vop3p_clamp(self, w, inst):
    """A packed f16/bf16 VOP3P instruction with its clamp bit: the emulator ignores that bit for VOP3P (it honours
    it for VOP3), so the instruction runs as compiled and each half of the destination is then clamped in the
    active lanes: to [0, 1], NaN and -0 to +0 (defects.py: vop3p_clamp)."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    inst.fxn(*w.args(inst.globals))
    vdst = inst.raw[0]
    bf16 = 'BF16' in inst.name
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    for lane in range(ws):
      if exec_mask >> lane & 1:
        word = v[vdst * ws + lane]
        v[vdst * ws + lane] = _clamp_half(word & 0xffff, bf16) | _clamp_half(word >> 16, bf16) << 16

  def _vop3_clamp(self, w, inst):
    """A VOP3 float instruction with its clamp bit: the emulator clamps its result to [0, 1] with a max against
    +0, which keeps -0; the AMD ISA's output modifiers flush -0 to +0 (and LLVM folds PTX's `.sat`, which gives +0
    for -0, into the clamp bit). The instruction runs as compiled, then a -0 in the destination of an active lane
    becomes +0 (defects.py: vop3_clamp_negative_zero)."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    inst.fxn(*w.args(inst.globals))
    d = self.em.decode(inst.raw + bytes(16), self.arch)
    bits, vdst = _float_clamped(inst.name, d), inst.raw[0]
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    for lane in range(ws):
      if not exec_mask >> lane & 1: continue
      if bits == 32 and v[vdst * ws + lane] == 0x80000000: v[vdst * ws + lane] = 0
      elif bits == 64 and v[(vdst + 1) * ws + lane] == 0x80000000 and v[vdst * ws + lane] == 0:
        v[(vdst + 1) * ws + lane] = 0
      elif bits == 16:
        shift = 16 if getattr(d, 'opsel', 0) >> 3 & 1 else 0
        if v[vdst * ws + lane] >> shift & 0xffff == 0x8000: v[vdst * ws + lane] &= ~(0xffff << shift) & 0xffffffff

  def _sdwa_with_modifiers(self, w, inst):
    """CDNA SDWA (VOP1/VOP2/VOPC with src0 = 0xF9) with a source's `neg` or `abs`: the emulator ignores both
    (`v_cmp_lt_f16_sdwa vcc, |v2|, ...` compared the signed value). The instruction runs compiled without them, on
    its sources with the modifiers applied to their sign bits (abs clears, neg flips) in the active lanes; the
    sources are put back afterwards, except where the instruction itself wrote the register (defects.py:
    cdna_sdwa_abs)."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    word, sdwa = int.from_bytes(inst.raw[:4], 'little'), int.from_bytes(inst.raw[4:8], 'little')
    vopc, vop1 = word >> 25 == 0b0111110, word >> 25 == 0b0111111
    width = 16 if 'F16' in inst.name else 32 if 'F32' in inst.name else 0
    if not width: raise UnsupportedByEmulator(f'{inst.name}: SDWA neg/abs on a non-float operand')
    if not vopc and sdwa >> 13 & 0b111:
      raise UnsupportedByEmulator(f'{inst.name}: SDWA clamp/omod (the emulator ignores them)')
    srcs = [(sdwa >> 23 & 1, sdwa & 0xff, sdwa >> 16 & 7, sdwa >> 20 & 1, sdwa >> 21 & 1)]
    if not vop1: srcs.append((sdwa >> 31 & 1, word >> 9 & 0xff, sdwa >> 24 & 7, sdwa >> 28 & 1, sdwa >> 29 & 1))
    mods = [(sgpr, reg, sel, neg, ab) for sgpr, reg, sel, neg, ab in srcs if neg or ab]
    if len({(sgpr, reg) for sgpr, reg, *_ in mods}) < len(mods):
      raise UnsupportedByEmulator(f'{inst.name}: SDWA modifiers on both operands of one register')
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    lanes = [l for l in range(ws) if exec_mask >> l & 1]
    saved = []
    for sgpr, reg, sel, neg, ab in mods:
      start, field = ((sel * 8, 8) if sel < 4 else ((sel - 4) * 16, 16) if sel < 6 else (0, 32))
      if field < width: raise UnsupportedByEmulator(f'{inst.name}: SDWA neg/abs on a {field}-bit selection')
      bit = 1 << (start + width - 1)
      def modify(x: int) -> int:
        if ab: x &= ~bit
        return x ^ bit if neg else x
      if sgpr:
        saved.append((True, reg, s[reg], bit))
        s[reg] = modify(s[reg])
      else:
        saved.append((False, reg, {l: v[reg * ws + l] for l in lanes}, bit))
        for l in lanes: v[reg * ws + l] = modify(v[reg * ws + l])
    inst.fxn(*w.args(inst.globals))
    vdst = None if vopc else word >> 17 & 0xff
    dst_sel, dst_unused = sdwa >> 8 & 7, sdwa >> 11 & 3
    d_start, d_field = ((dst_sel * 8, 8) if dst_sel < 4 else ((dst_sel - 4) * 16, 16) if dst_sel < 6 else (0, 32))
    written = ((1 << d_field) - 1) << d_start if dst_unused == 2 else 0xffffffff   # 2: UNUSED_PRESERVE
    for is_sgpr, reg, old, bit in saved:
      if is_sgpr:
        s[reg] = old
      elif reg != vdst:
        for l, x in old.items(): v[reg * ws + l] = x
      elif not bit & written:   # the instruction kept this bit of its destination: put the original back
        for l, x in old.items(): v[reg * ws + l] = v[reg * ws + l] & ~bit | x & bit

  def _flat_with_private(self, w, inst):
    """flat_* with some lanes' addresses in the private aperture: the emulator would access host memory at the
    generic address. Those lanes' addresses are rewritten to their own scratch slots (lane * stride + offset,
    the emulator's scratch layout) for the one instruction, then the address VGPRs are put back."""
    em, s, v, ws = self.em, w.s, w.v, self.wave_size
    hi_private = self.apertures['private_hi']
    vaddr, vdata, vdst, writes = self._flat_fields(inst)
    exec_mask = s[em.EXEC_LO] | (s[em.EXEC_LO + 1] << 32 if ws == 64 else 0)
    lanes = [l for l in range(ws) if exec_mask >> l & 1 and v[(vaddr + 1) * ws + l] == hi_private]
    if not lanes:
      inst.fxn(*w.args(inst.globals))
      return
    if not self.private_size: raise RunnerError(f'{inst.name} into private memory, but the kernel has no private segment')
    name = inst.name
    # Dwords moved: RDNA names the width in bits (B64), CDNA in dwords (DWORDX2); 64-bit atomics end in _X2.
    width = (2 if any(k in name for k in ('B64', '_X2', 'DWORDX2')) else 3 if 'B96' in name or 'DWORDX3' in name
             else 4 if 'B128' in name or 'DWORDX4' in name else 1)
    written = set(range(vdst, vdst + width)) if writes else set()   # (an address VGPR the load overwrites stays so)
    if 'STORE' in name or 'ATOMIC' in name:
      nsrc = width * (2 if 'CMPSWAP' in name else 1)
      if not (vdata + nsrc <= vaddr or vaddr + 2 <= vdata):
        raise UnsupportedByEmulator(f'{name} into private memory with its data and address in the same VGPRs')
    saved = [(l, v[vaddr * ws + l], v[(vaddr + 1) * ws + l]) for l in lanes]
    base = w.scratch.addr
    for l, lo, _ in saved:
      addr = base + l * self.private_size + lo
      v[vaddr * ws + l], v[(vaddr + 1) * ws + l] = addr & 0xffffffff, addr >> 32
    inst.fxn(*w.args(inst.globals))
    for l, lo, hi in saved:
      if vaddr not in written: v[vaddr * ws + l] = lo
      if vaddr + 1 not in written: v[(vaddr + 1) * ws + l] = hi


# ─── public API ──────────────────────────────────────────────────────────────

_LOADED: dict[bytes, LoadedCodeObject] = {}


def load(hsaco_bytes: bytes) -> LoadedCodeObject:
  """Parses and places a code object (cached by content, so a sweep pays for loading and compiling once)."""
  key = bytes(hsaco_bytes)
  if key not in _LOADED: _LOADED[key] = LoadedCodeObject(hsaco.CodeObject(key))
  return _LOADED[key]


def _as3(v) -> tuple[int, int, int]:
  t = (v,) if isinstance(v, int) else tuple(v)
  if not 1 <= len(t) <= 3 or any(not isinstance(x, int) or x < 1 for x in t): raise RunnerError(f'bad dimensions {v!r}')
  return (t + (1, 1))[:3]


def run(hsaco_bytes: bytes | LoadedCodeObject, kernel_name: str, grid=(1, 1, 1), block=(1, 1, 1), args=(),
        dynamic_lds: int = 0, *, grid_dims: int | None = None, hidden_overrides: dict | None = None,
        private_size: int | None = None, max_wave_instructions: int = 10_000_000, count_ops: bool = False,
        lds_fill: int = 0, unserviced: str = 'guard', emulator: str | None = None) -> RunResult:
  """Runs `kernel_name` over grid (workgroups) x block (work-items) and returns the buffers' contents.

  args: one per explicit kernel argument, in order: a Buffer (its address), an int, a float or raw bytes.
  dynamic_lds: bytes of dynamic shared memory (PTX `.extern .shared`), added to .group_segment_fixed_size.
  hidden_overrides: values for hidden arguments the runner has no service for (e.g. hidden_printf_buffer), and
    'queue_ptr' for the queue pointer user SGPR.
  unserviced: for those without an override, 'guard' (an inaccessible address: a kernel that uses it faults)
    or 'error' (refuse to run).
  private_size: bytes of private memory per work-item (default: the fixed frame, + 1 KiB with a dynamic stack).
  """
  em = get_emulator(emulator)
  code = hsaco_bytes if isinstance(hsaco_bytes, LoadedCodeObject) else load(hsaco_bytes)
  if kernel_name not in code.co.kernels:
    raise RunnerError(f'no kernel {kernel_name!r} (kernels: {", ".join(code.co.kernels)})')
  kernel = code.co.kernels[kernel_name]
  g, b = _as3(grid), _as3(block)
  dims = grid_dims or max([1] + [i + 1 for i in range(3) if g[i] > 1 or b[i] > 1])
  shape = DispatchShape(g, b, dims, dynamic_lds)
  d = Dispatch(em, code, kernel, shape, list(args), dict(hidden_overrides or {}), private_size, max_wave_instructions,
               count_ops, lds_fill, unserviced)
  d.run()
  outputs = [a.read() if isinstance(a, Buffer) else None for a in args]
  return RunResult(outputs, d.stats, code)


# ─── CLI ─────────────────────────────────────────────────────────────────────


def _parse_arg(spec: str):
  """buf:SIZE | buf:@FILE | buf:hex:HEX | u8/u16/u32/u64/i32/i64:N | f32/f64:X | hex:HEX (raw by-value bytes)."""
  kind, _, rest = spec.partition(':')
  if kind == 'buf':
    if rest.startswith('@'):
      with open(rest[1:], 'rb') as f: return Buffer(f.read())
    if rest.startswith('hex:'): return Buffer(bytes.fromhex(rest[4:]))
    return Buffer(int(rest, 0))
  if kind in ('u8', 'u16', 'u32', 'u64', 'i8', 'i16', 'i32', 'i64'):
    return _pack_int(int(rest, 0), int(kind[1:]) // 8, spec)
  if kind == 'f32': return struct.pack('<f', float(rest))
  if kind == 'f64': return struct.pack('<d', float(rest))
  if kind == 'hex': return bytes.fromhex(rest)
  raise SystemExit(f'bad --arg {spec!r}')


def _describe(co: hsaco.CodeObject):
  print(f'target {co.target}, image {co.image_size} bytes, {len(co.relocations)} relocations')
  for k in co.kernels.values():
    kd = k.descriptor
    print(f'kernel {k.name}: kernarg {k.kernarg_segment_size} B, LDS {k.group_segment_fixed_size} B, '
          f'private {k.private_segment_fixed_size} B, wave{k.wavefront_size}')
    print(f'  user SGPRs {kd.user_sgprs()} (USER_SGPR_COUNT {kd.user_sgpr_count}), workgroup id {kd.enable_sgpr_workgroup_id}, '
          f'work-item ids {"x xy xyz".split()[kd.enable_vgpr_workitem_id]}, private segment {kd.enable_private_segment}, '
          f'dynamic stack {kd.uses_dynamic_stack}')
    print(f'  MODE: round {kd.float_round_mode_32}/{kd.float_round_mode_16_64}, denorm {kd.float_denorm_mode_32}/'
          f'{kd.float_denorm_mode_16_64}, ieee {kd.enable_ieee_mode}, dx10 clamp {kd.enable_dx10_clamp}')
    for a in k.args: print(f'  [{a.offset:4}] {a.size:2} {a.value_kind}{" " + a.name if a.name else ""}')


def main(argv=None) -> int:
  p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                              epilog='arguments: ' + _parse_arg.__doc__)
  p.add_argument('hsaco')
  p.add_argument('--kernel', '-k', help='kernel name (default: the only one)')
  p.add_argument('--grid', default='1', help='workgroups, X[,Y[,Z]]')
  p.add_argument('--block', default='1', help='work-items per workgroup, X[,Y[,Z]]')
  p.add_argument('--arg', '-a', action='append', default=[], help='one explicit argument (see below), in order')
  p.add_argument('--dynamic-lds', type=int, default=0)
  p.add_argument('--out', action='append', default=[], help='N=FILE: write buffer argument N to FILE after the run')
  p.add_argument('--print', dest='show', action='store_true', help='print every buffer argument (hex) after the run')
  p.add_argument('--info', action='store_true', help='describe the code object and exit')
  p.add_argument('--ops', action='store_true', help='count executions per instruction')
  a = p.parse_args(argv)
  with open(a.hsaco, 'rb') as f: data = f.read()
  co = hsaco.CodeObject(data)
  if a.info:
    _describe(co)
    return 0
  name = a.kernel or (next(iter(co.kernels)) if len(co.kernels) == 1 else None)
  if name is None: raise SystemExit(f'--kernel needed: {", ".join(co.kernels)}')
  args = [_parse_arg(s) for s in a.arg]
  dims = lambda s: tuple(int(x, 0) for x in s.split(','))  # noqa: E731
  try:
    res = run(data, name, dims(a.grid), dims(a.block), args, a.dynamic_lds, count_ops=a.ops)
  except KernelTrap as e:
    print(f'TRAP: {e}', file=sys.stderr)
    return 3
  print(res.stats, file=sys.stderr)
  if a.ops:
    for op, n in sorted(res.stats.per_op.items(), key=lambda x: -x[1]): print(f'  {n:10} {op}', file=sys.stderr)
  for spec in a.out:
    n, _, path = spec.partition('=')
    with open(path, 'wb') as f: f.write(res.outputs[int(n)])
  if a.show:
    for n, o in enumerate(res.outputs):
      if o is not None: print(f'arg {n}: {o.hex()}')
  return 0


if __name__ == '__main__':
  sys.dont_write_bytecode = True
  sys.exit(main())

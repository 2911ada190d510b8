"""Reader for AMDGPU HSA code objects (ELF, code object v4/v5): standard library only.

It gives what a loader needs to dispatch a kernel without ROCm:
  * the ELF's PT_LOAD segments (the image to place in memory), its symbols and
    its dynamic relocations,
  * the NT_AMDGPU_METADATA note, decoded from MessagePack (a small decoder is
    included), with each kernel's arguments (explicit and hidden_*),
  * each kernel's 64-byte kernel descriptor (`<kernel>.kd`), decoded field by
    field as LLVM's AMDGPUUsage "Kernel Descriptor" table describes it.

Nothing here depends on the emulator; amdgpu_runner.py builds on it.
"""
from __future__ import annotations

import dataclasses
import struct

# ─── MessagePack ──────────────────────────────────────────────────────────────


class MsgpackError(ValueError):
  pass


def msgpack_unpack(data: bytes):
  """Decodes one MessagePack value that fills `data` exactly (the metadata note's desc)."""
  value, end = _msgpack_value(data, 0)
  if end != len(data) and data[end:].strip(b'\0'):
    raise MsgpackError(f'{len(data) - end} trailing bytes after the MessagePack value')
  return value


def _msgpack_value(d: bytes, i: int):
  """Returns (value, next offset) of the value at d[i]. Strings are decoded as UTF-8, bin as bytes."""
  if i >= len(d): raise MsgpackError('truncated MessagePack data')
  b = d[i]
  i += 1
  if b <= 0x7f: return b, i                                   # positive fixint
  if b >= 0xe0: return b - 0x100, i                           # negative fixint
  if 0x80 <= b <= 0x8f: return _msgpack_map(d, i, b & 0x0f)   # fixmap
  if 0x90 <= b <= 0x9f: return _msgpack_array(d, i, b & 0x0f) # fixarray
  if 0xa0 <= b <= 0xbf: return _msgpack_str(d, i, b & 0x1f)   # fixstr
  fixed = {0xc0: None, 0xc2: False, 0xc3: True}
  if b in fixed: return fixed[b], i
  # (format byte) -> (struct format of the length/value, what it is)
  sized = {0xc4: ('B', 'bin'), 0xc5: ('H', 'bin'), 0xc6: ('I', 'bin'),
           0xca: ('f', 'num'), 0xcb: ('d', 'num'),
           0xcc: ('B', 'num'), 0xcd: ('H', 'num'), 0xce: ('I', 'num'), 0xcf: ('Q', 'num'),
           0xd0: ('b', 'num'), 0xd1: ('h', 'num'), 0xd2: ('i', 'num'), 0xd3: ('q', 'num'),
           0xd9: ('B', 'str'), 0xda: ('H', 'str'), 0xdb: ('I', 'str'),
           0xdc: ('H', 'array'), 0xdd: ('I', 'array'), 0xde: ('H', 'map'), 0xdf: ('I', 'map')}
  if b in sized:
    fmt, kind = sized[b]
    size = struct.calcsize(fmt)
    if i + size > len(d): raise MsgpackError('truncated MessagePack data')
    (n,) = struct.unpack_from('>' + fmt, d, i)
    i += size
    if kind == 'num': return n, i
    if kind == 'str': return _msgpack_str(d, i, n)
    if kind == 'bin':
      if i + n > len(d): raise MsgpackError('truncated MessagePack bin')
      return bytes(d[i:i + n]), i + n
    if kind == 'array': return _msgpack_array(d, i, n)
    return _msgpack_map(d, i, n)
  raise MsgpackError(f'unsupported MessagePack format byte {b:#04x} at offset {i - 1}')  # ext types, 0xc1


def _msgpack_str(d: bytes, i: int, n: int):
  if i + n > len(d): raise MsgpackError('truncated MessagePack string')
  return d[i:i + n].decode('utf-8'), i + n


def _msgpack_array(d: bytes, i: int, n: int):
  out = []
  for _ in range(n):
    v, i = _msgpack_value(d, i)
    out.append(v)
  return out, i


def _msgpack_map(d: bytes, i: int, n: int):
  out = {}
  for _ in range(n):
    k, i = _msgpack_value(d, i)
    v, i = _msgpack_value(d, i)
    out[k] = v
  return out, i


# ─── ELF ──────────────────────────────────────────────────────────────────────

EM_AMDGPU = 224
PT_LOAD = 1
PT_NOTE = 4
SHT_SYMTAB, SHT_RELA, SHT_NOTE, SHT_DYNSYM = 2, 4, 7, 11
NT_AMDGPU_METADATA = 32
# AMDGPU relocation types (LLVM AMDGPUUsage, "Relocation Records") a loader applies to a linked code object.
R_AMDGPU_NONE, R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64 = 0, 3, 13


class CodeObjectError(ValueError):
  pass


@dataclasses.dataclass
class Segment:
  vaddr: int
  memsz: int
  data: bytes   # the file bytes (filesz of them); the rest of memsz is zero
  flags: int


@dataclasses.dataclass
class Symbol:
  name: str
  value: int
  size: int
  kind: int     # STT_* (st_info & 0xf)
  shndx: int


@dataclasses.dataclass
class Relocation:
  offset: int
  type: int
  symbol: Symbol | None
  addend: int


@dataclasses.dataclass
class KernelDescriptor:
  """The 64-byte kernel descriptor (AMDGPUUsage, "Kernel Descriptor for GFX6-GFX12")."""
  group_segment_fixed_size: int
  private_segment_fixed_size: int
  kernarg_size: int
  kernel_code_entry_byte_offset: int   # signed, relative to the descriptor's own address
  compute_pgm_rsrc3: int
  compute_pgm_rsrc1: int
  compute_pgm_rsrc2: int
  kernel_code_properties: int
  kernarg_preload: int

  @classmethod
  def parse(cls, raw: bytes) -> 'KernelDescriptor':
    if len(raw) < 64: raise CodeObjectError(f'kernel descriptor is {len(raw)} bytes, not 64')
    gs, ps, ks = struct.unpack_from('<III', raw, 0)
    (entry,) = struct.unpack_from('<q', raw, 16)
    rsrc3, rsrc1, rsrc2 = struct.unpack_from('<III', raw, 44)
    props, preload = struct.unpack_from('<HH', raw, 56)
    return cls(gs, ps, ks, entry, rsrc3, rsrc1, rsrc2, props, preload)

  # kernel_code_properties: the user SGPRs, in the order the hardware loads them.
  USER_SGPRS = (('private_segment_buffer', 0, 4), ('dispatch_ptr', 1, 2), ('queue_ptr', 2, 2),
                ('kernarg_segment_ptr', 3, 2), ('dispatch_id', 4, 2), ('flat_scratch_init', 5, 2),
                ('private_segment_size', 6, 1))

  def user_sgprs(self) -> list[tuple[str, int]]:
    """[(name, number of SGPRs)] of the enabled user SGPRs, in load order (from s0)."""
    return [(name, n) for name, bit, n in self.USER_SGPRS if self.kernel_code_properties >> bit & 1]

  @property
  def wavefront_size32(self) -> bool: return bool(self.kernel_code_properties >> 10 & 1)
  @property
  def uses_dynamic_stack(self) -> bool: return bool(self.kernel_code_properties >> 11 & 1)
  @property
  def kernarg_preload_length(self) -> int: return self.kernarg_preload & 0x7f

  # compute_pgm_rsrc2 fields
  @property
  def enable_private_segment(self) -> bool: return bool(self.compute_pgm_rsrc2 & 1)
  @property
  def user_sgpr_count(self) -> int: return self.compute_pgm_rsrc2 >> 1 & 0x1f
  @property
  def enable_trap_handler(self) -> bool: return bool(self.compute_pgm_rsrc2 >> 6 & 1)
  @property
  def enable_sgpr_workgroup_id(self) -> tuple[bool, bool, bool]:
    return tuple(bool(self.compute_pgm_rsrc2 >> b & 1) for b in (7, 8, 9))
  @property
  def enable_sgpr_workgroup_info(self) -> bool: return bool(self.compute_pgm_rsrc2 >> 10 & 1)
  @property
  def enable_vgpr_workitem_id(self) -> int: return self.compute_pgm_rsrc2 >> 11 & 3   # 0: X, 1: X Y, 2: X Y Z
  @property
  def granulated_lds_size(self) -> int: return self.compute_pgm_rsrc2 >> 15 & 0x1ff

  # compute_pgm_rsrc1 fields (the initial MODE register)
  @property
  def float_round_mode_32(self) -> int: return self.compute_pgm_rsrc1 >> 12 & 3
  @property
  def float_round_mode_16_64(self) -> int: return self.compute_pgm_rsrc1 >> 14 & 3
  @property
  def float_denorm_mode_32(self) -> int: return self.compute_pgm_rsrc1 >> 16 & 3
  @property
  def float_denorm_mode_16_64(self) -> int: return self.compute_pgm_rsrc1 >> 18 & 3
  @property
  def enable_dx10_clamp(self) -> bool: return bool(self.compute_pgm_rsrc1 >> 21 & 1)
  @property
  def enable_ieee_mode(self) -> bool: return bool(self.compute_pgm_rsrc1 >> 23 & 1)
  @property
  def fp16_ovfl(self) -> bool: return bool(self.compute_pgm_rsrc1 >> 26 & 1)


@dataclasses.dataclass
class KernelArg:
  offset: int
  size: int
  value_kind: str
  name: str | None
  raw: dict        # the whole metadata map of the argument


@dataclasses.dataclass
class Kernel:
  name: str
  symbol: Symbol            # the kernel's code symbol
  descriptor_symbol: Symbol # `<name>.kd`
  descriptor: KernelDescriptor
  args: list[KernelArg]
  metadata: dict            # the kernel's whole metadata map

  @property
  def kernarg_segment_size(self) -> int: return self.metadata['.kernarg_segment_size']
  @property
  def kernarg_segment_align(self) -> int: return self.metadata.get('.kernarg_segment_align', 8)
  @property
  def group_segment_fixed_size(self) -> int: return self.metadata['.group_segment_fixed_size']
  @property
  def private_segment_fixed_size(self) -> int: return self.metadata['.private_segment_fixed_size']
  @property
  def wavefront_size(self) -> int: return self.metadata['.wavefront_size']
  @property
  def explicit_args(self) -> list[KernelArg]: return [a for a in self.args if not a.value_kind.startswith('hidden_')]


class CodeObject:
  """A parsed AMDGPU code object. `image_size` bytes laid out as the PT_LOAD segments say form its memory image."""

  def __init__(self, data: bytes):
    self.data = bytes(data)
    d = self.data
    if d[:4] != b'\x7fELF': raise CodeObjectError('not an ELF file')
    if d[4] != 2 or d[5] != 1: raise CodeObjectError('not a little-endian ELF64 file')
    (self.e_type, self.e_machine, _, _, self.e_phoff, self.e_shoff, self.e_flags, _, self.e_phentsize,
     self.e_phnum, self.e_shentsize, self.e_shnum, self.e_shstrndx) = struct.unpack_from('<HHIQQQIHHHHHH', d, 16)
    if self.e_machine != EM_AMDGPU: raise CodeObjectError(f'e_machine is {self.e_machine}, not EM_AMDGPU ({EM_AMDGPU})')
    self.os_abi, self.abi_version = d[7], d[8]
    self.segments = self._read_segments()
    self.sections = self._read_sections()
    self.symbols = self._read_symbols()
    self.relocations = self._read_relocations()
    self.metadata = self._read_metadata()
    self.kernels = self._read_kernels()

  # ── raw structures ──
  def _read_segments(self) -> list[Segment]:
    segs = []
    for n in range(self.e_phnum):
      p_type, p_flags, p_offset, p_vaddr, _, p_filesz, p_memsz, _ = struct.unpack_from(
          '<IIQQQQQQ', self.data, self.e_phoff + n * self.e_phentsize)
      if p_type == PT_LOAD:
        if p_filesz > p_memsz: raise CodeObjectError('PT_LOAD segment with filesz > memsz')
        segs.append(Segment(p_vaddr, p_memsz, self.data[p_offset:p_offset + p_filesz], p_flags))
    if not segs: raise CodeObjectError('no PT_LOAD segment')
    return segs

  def _read_sections(self) -> list[dict]:
    secs = []
    for n in range(self.e_shnum):
      (name, typ, flags, addr, off, size, link, info, align, entsize) = struct.unpack_from(
          '<IIQQQQIIQQ', self.data, self.e_shoff + n * self.e_shentsize)
      secs.append(dict(name_off=name, type=typ, flags=flags, addr=addr, offset=off, size=size, link=link,
                       info=info, entsize=entsize))
    if secs and self.e_shstrndx < len(secs):
      strtab = secs[self.e_shstrndx]
      for s in secs: s['name'] = self._cstr(strtab['offset'] + s['name_off'])
    return secs

  def _cstr(self, off: int) -> str:
    end = self.data.index(b'\0', off)
    return self.data[off:end].decode('utf-8')

  def _symtab(self, sec: dict) -> list[Symbol]:
    strtab = self.sections[sec['link']]
    out = []
    for n in range(sec['size'] // 24):
      name, info, _, shndx, value, size = struct.unpack_from('<IBBHQQ', self.data, sec['offset'] + n * 24)
      out.append(Symbol(self._cstr(strtab['offset'] + name), value, size, info & 0xf, shndx))
    return out

  def _read_symbols(self) -> dict[str, Symbol]:
    syms: dict[str, Symbol] = {}
    # .dynsym first (what a loader sees), then .symtab for anything else (e.g. local variables of the module).
    for typ in (SHT_DYNSYM, SHT_SYMTAB):
      for sec in self.sections:
        if sec['type'] == typ:
          for s in self._symtab(sec):
            if s.name and s.name not in syms: syms[s.name] = s
    return syms

  def _read_relocations(self) -> list[Relocation]:
    relocs = []
    for sec in self.sections:
      # Only relocations of the loaded image matter: those whose info is 0 (dynamic, .rela.dyn) or point at an allocated section.
      if sec['type'] != SHT_RELA: continue
      if sec['info'] and not (self.sections[sec['info']]['flags'] & 2): continue  # SHF_ALLOC
      symtab = self._symtab(self.sections[sec['link']]) if sec['link'] else []
      for n in range(sec['size'] // 24):
        off, info, addend = struct.unpack_from('<QQq', self.data, sec['offset'] + n * 24)
        sym_idx, typ = info >> 32, info & 0xffffffff
        relocs.append(Relocation(off, typ, symtab[sym_idx] if sym_idx else None, addend))
    return relocs

  def _notes(self):
    for sec in self.sections:
      if sec['type'] != SHT_NOTE: continue
      off, end = sec['offset'], sec['offset'] + sec['size']
      while off + 12 <= end:
        namesz, descsz, typ = struct.unpack_from('<III', self.data, off)
        name = self.data[off + 12:off + 12 + namesz].rstrip(b'\0').decode()
        desc_off = off + 12 + (namesz + 3) // 4 * 4
        yield name, typ, self.data[desc_off:desc_off + descsz]
        off = desc_off + (descsz + 3) // 4 * 4

  def _read_metadata(self) -> dict:
    found = [desc for name, typ, desc in self._notes() if name == 'AMDGPU' and typ == NT_AMDGPU_METADATA]
    if not found: raise CodeObjectError('no NT_AMDGPU_METADATA note (code object v3 or later expected)')
    # The runtime reads one note: a code object with several would lose the kernels of all but the first there.
    if len(found) > 1: raise CodeObjectError(f'{len(found)} NT_AMDGPU_METADATA notes (the runtime reads one)')
    return msgpack_unpack(found[0])

  def _read_kernels(self) -> dict[str, Kernel]:
    kernels = {}
    for km in self.metadata.get('amdhsa.kernels', []):
      name, kd_name = km['.name'], km['.symbol']
      if kd_name not in self.symbols: raise CodeObjectError(f'kernel {name}: no descriptor symbol {kd_name}')
      kd_sym = self.symbols[kd_name]
      kd = KernelDescriptor.parse(self.read_image(kd_sym.value, 64))
      args = [KernelArg(a['.offset'], a['.size'], a['.value_kind'], a.get('.name'), a) for a in km.get('.args', [])]
      kernels[name] = Kernel(name, self.symbols.get(name), kd_sym, kd, args, km)
    return kernels

  # ── the memory image ──
  @property
  def image_size(self) -> int: return max(s.vaddr + s.memsz for s in self.segments)

  def image(self) -> bytearray:
    """The unrelocated memory image (addresses from 0)."""
    img = bytearray(self.image_size)
    for s in self.segments: img[s.vaddr:s.vaddr + len(s.data)] = s.data
    return img

  def read_image(self, vaddr: int, size: int) -> bytes:
    for s in self.segments:
      if s.vaddr <= vaddr and vaddr + size <= s.vaddr + s.memsz:
        chunk = s.data[vaddr - s.vaddr:vaddr - s.vaddr + size]
        return chunk + b'\0' * (size - len(chunk))
    raise CodeObjectError(f'[{vaddr:#x}, +{size}) is not inside one PT_LOAD segment')

  def relocated_image(self, base: int) -> bytearray:
    """The memory image with its dynamic relocations applied for a load address of `base`."""
    img = self.image()
    for r in self.relocations:
      if r.type == R_AMDGPU_NONE: continue
      if r.type == R_AMDGPU_RELATIVE64: value = base + r.addend
      elif r.type == R_AMDGPU_ABS64:
        if r.symbol is None or r.symbol.shndx == 0:
          raise CodeObjectError(f'R_AMDGPU_ABS64 at {r.offset:#x} against undefined symbol '
                                f'{r.symbol.name if r.symbol else "?"}')
        value = base + r.symbol.value + r.addend
      else: raise CodeObjectError(f'unsupported relocation type {r.type} at {r.offset:#x}')
      struct.pack_into('<Q', img, r.offset, value & (1 << 64) - 1)
    return img

  @property
  def target(self) -> str:
    """The target id, e.g. 'amdgcn-amd-amdhsa--gfx1100'."""
    return self.metadata.get('amdhsa.target', '')

  @property
  def processor(self) -> str:
    """The processor, e.g. 'gfx1100' (target id features such as ':xnack-' removed)."""
    return self.target.rsplit('-', 1)[-1].split(':')[0]

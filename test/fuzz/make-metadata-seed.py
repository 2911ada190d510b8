#!/usr/bin/env python3
"""Writes the metadata fuzzer's seed (seeds/metadata/two-notes.elf, from
stdout): a minimal ELF64 code object whose one PT_NOTE segment holds two
NT_AMDGPU_METADATA notes (two partitions' kernels) and room to spare, the
shape mergeMetadataNotes merges."""
import struct
import sys


def mp_str(s):
    b = s.encode()
    return bytes([0xA0 | len(b)]) + b


def mp_map(pairs):
    out = bytes([0x80 | len(pairs)])
    for k, v in pairs:
        out += mp_str(k) + v
    return out


def mp_arr(items):
    return bytes([0x90 | len(items)]) + b"".join(items)


def doc(kernel):
    return mp_map([("amdhsa.version", mp_arr([b"\x01", b"\x02"])),
                   ("amdhsa.target", mp_str("amdgcn-amd-amdhsa--gfx1100")),
                   ("amdhsa.kernels", mp_arr([mp_map([(".name", mp_str(kernel)),
                                                     (".symbol", mp_str(kernel + ".kd")),
                                                     (".sgpr_count", b"\x10")])]))])


def note(name, ntype, desc):
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    return struct.pack("<III", len(name), len(desc), ntype) + pad(name) + pad(desc)


notes = note(b"AMDGPU\0", 32, doc("first")) + note(b"AMDGPU\0", 32, doc("second"))
notes += b"\0" * 64  # room the merged note and the filler may take
ehsize, phsize = 64, 56
ident = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + b"\0" * 7  # ELF64 LE, HSA ABI
header = ident + struct.pack("<HHIQQQIHHHHHH", 3, 224, 1, 0, ehsize, 0, 0,
                             ehsize, phsize, 1, 64, 0, 0)
phdr = struct.pack("<IIQQQQQQ", 4, 4, ehsize + phsize, 0, 0, len(notes),
                   len(notes), 4)
sys.stdout.buffer.write(header + phdr + notes)

"""Prints a clang offload bundle's entries (id, offset, size) and checks
that each code object starts on a 4096-byte boundary and equals FILE for
the id given as ID=FILE arguments."""
import struct
import sys

data = open(sys.argv[1], "rb").read()
assert data[:24] == b"__CLANG_OFFLOAD_BUNDLE__", "bad magic"
(count,) = struct.unpack_from("<Q", data, 24)
pos = 32
expect = dict(a.split("=", 1) for a in sys.argv[2:])
for _ in range(count):
    offset, size, idlen = struct.unpack_from("<QQQ", data, pos)
    ident = data[pos + 24:pos + 24 + idlen].decode()
    pos += 24 + idlen
    print(f"{ident} size={size} aligned={size == 0 or offset % 4096 == 0}")
    if ident in expect:
        same = data[offset:offset + size] == open(expect[ident], "rb").read()
        print(f"{ident} matches: {same}")

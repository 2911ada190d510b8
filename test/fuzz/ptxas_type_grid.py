#!/usr/bin/env python3
"""Every type combination of the matrix instructions, against ptxas.

The companion of ptxas_flag_grid.py and ptxas_operand_grid.py (issue 18,
item 1): the differential fuzzer's seed 64 found `mma.sp` and
`wgmma.mma_async` taking result and accumulator types ptxas refuses, which
neither grid reaches (their forms are one valid line each). This writes
mma, mma.sp, wgmma.mma_async and wgmma.mma_async.sp with each result type D,
each multiplicand type A (B the same, or A's signed/unsigned or 8-bit-float
partner) and each accumulator type C, in each shape, with fragments of the
sizes the types and the shape make, and runs each line through `ptxas
-arch=ARCH` and `zluda-precompile compile --emit=none`. It prints every
disagreement: LENIENT (we accept what ptxas refuses, with ptxas's message)
or STRICT (we refuse what ptxas accepts).

  python3 test/fuzz/ptxas_type_grid.py --tool build/bin/zluda-precompile
      [--arch sm_90a] [--jobs 2] [--ptx 8.6,9.0] [FAMILY...]

Each line is run at each PTX version of --ptx (8.7 added .f16
accumulators and K 16 to the 8-bit float mma). FAMILYs (mma, mma.sp,
wgmma, wgmma.sp) restrict the run. Exit status 1 when anything disagrees.
Deterministic; 10,412 lines a version (~5 minutes on two cores).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxas_flag_grid as grid  # noqa: E402

BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'f32': 32, 'f64': 64, 's8': 8,
        'u8': 8, 's4': 4, 'u4': 4, 'b1': 1, 's32': 32, 'u32': 32,
        'e4m3': 8, 'e5m2': 8}
RESULTS = ['f16', 'bf16', 'f32', 'f64', 's32']
PARTNER = {'s8': 'u8', 'u8': 's8', 's4': 'u4', 'u4': 's4', 'e4m3': 'e5m2',
           'e5m2': 'e4m3'}
INPUTS = ['f16', 'bf16', 'tf32', 'f32', 'f64', 's8', 'u8', 's4', 'u4', 'b1',
          's32', 'e4m3', 'e5m2']
MMA_SHAPES = [(8, 8, 4), (8, 8, 16), (8, 8, 32), (8, 8, 128), (16, 8, 4),
              (16, 8, 8), (16, 8, 16), (16, 8, 32), (16, 8, 64),
              (16, 8, 128), (16, 8, 256)]
WGMMA_K = [8, 16, 32, 256]
HEADER = """.version {version}
.target {arch}
.address_size 64
.visible .entry k(.param .u64 p)
{{
.reg .pred %p<9>; .reg .b32 %r<99>; .reg .b64 %rd<9>; .reg .f32 %f<99>;
.reg .f64 %fd<99>;
"""


class Registers:
    """Hands out registers of each kind in order, so none repeats."""

    def __init__(self):
        self.next = {'r': 1, 'f': 1, 'fd': 1}

    def take(self, t, n):
        kind = 'fd' if t == 'f64' else 'f' if t == 'f32' else 'r'
        first = self.next[kind]
        self.next[kind] += n
        return '{' + ', '.join('%%%s%d' % (kind, first + i)
                               for i in range(n)) + '}'


def pairs():
    """(A, B) pairs: each input type with itself and its partner."""
    for a in INPUTS:
        yield a, a
        if a in PARTNER:
            yield a, PARTNER[a]


def regs(t, elems):
    """Registers for `elems` elements of type t a lane (32 bits each)."""
    if t == 'f64':
        return max(1, elems)
    return max(1, elems * BITS[t] // 32)


def mma_lines(sparse):
    for m, n, k in MMA_SHAPES:
        if sparse and k < 8:
            continue
        for a, b in pairs():
            for d in RESULTS:
                for c in RESULTS:
                    r = Registers()
                    quad = not sparse and (m, n, k) == (8, 8, 4) and a == 'f16'
                    frag = [
                        r.take(d, (8 if d == 'f32' else 4) if quad else
                               regs(d, m * n // 32)),
                        r.take(a, 2 if quad else
                               regs(a, m * k // 32 // (2 if sparse else 1))),
                        r.take(b, 2 if quad else regs(b, k * n // 32)),
                        r.take(c, (8 if c == 'f32' else 4) if quad else
                               regs(c, m * n // 32))]
                    ops = ''
                    if a == 'b1':
                        ops = '.xor.popc' if not sparse else '.and.popc'
                    line = 'mma%s.sync.aligned.m%dn%dk%d.row.col%s.%s.%s.%s.%s %s' % (
                        '.sp' if sparse else '', m, n, k, ops, d, a, b, c,
                        ', '.join(frag))
                    if sparse:
                        line += ', %r90, 0'
                    yield line + ';'


def wgmma_lines(sparse):
    for k in WGMMA_K:
        kk = k * 2 if sparse else k
        for a, b in pairs():
            for d in RESULTS + ['u32']:
                r = Registers()
                result = r.take(d, 4 if BITS[d] >= 32 else 2)
                imms = (5 if a in ('f16', 'bf16') else
                        1 if a in ('s8', 'u8', 'b1', 's4', 'u4', 's32') else 3)
                ops = '.and.popc' if a == 'b1' else ''
                line = 'wgmma.mma_async%s.sync.aligned.m64n8k%d%s.%s.%s.%s %s, %%rd1, %%rd2' % (
                    '.sp' if sparse else '', kk, ops, d, a, b, result)
                if sparse:
                    line += ', %r90, 0'
                line += ', 1' + ', 1' * (min(imms, 3) - 1) + ', 0' * (imms - 3)
                yield line + ';'


FAMILIES = {
    'mma': lambda: mma_lines(False),
    'mma.sp': lambda: mma_lines(True),
    'wgmma': lambda: wgmma_lines(False),
    'wgmma.sp': lambda: wgmma_lines(True),
}


def main():
    args, _ = grid.arguments(__doc__, lambda ap: ap.add_argument(
        '--ptx', default='8.6,9.0', help='PTX ISA versions, comma-separated'))
    names = [n for n in FAMILIES if not args.names or n in args.names]
    lines = [line for n in names for line in FAMILIES[n]()]
    disagree = 0
    for version in args.ptx.split(','):
        print('.version %s:' % version)
        grid.HEADER = HEADER.replace('{version}', version)
        results = grid.run_all(args, lines)
        disagree += grid.report(results)
        accepted = sum(1 for _, ptxas, _, _ in results if ptxas)
        print('.version %s: %d lines (%s), %d accepted by ptxas' %
              (version, len(lines), ', '.join(names), accepted))
    print('%d disagreements' % disagree)
    return 1 if disagree else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""Every operand kind at every operand position, against ptxas (issue 18).

The companion of ptxas_flag_grid.py: for each instruction form of its FORMS
table (flags left out), each operand in turn is replaced by each kind of
operand PTX has (a register of each type, integer and float immediates, an
address of each kind, a variable's name, vectors, the sink `_`), and each
line goes through `ptxas -arch=ARCH` and `zluda-precompile compile
--emit=none`. It prints every disagreement as LENIENT (we accept what ptxas
refuses, with ptxas's message) or STRICT (we refuse what ptxas accepts;
QUIRK, not counted, for the quirks refused on purpose). Its first run (the
nineteenth session, 8,356 lines) found 2,765 lenient lines: addresses,
vectors, `_`, `!p` and variables' names taken by any instruction (now
InstSpec's p::Addr, p::Vec, p::Discard, p::Negate, p::Symbol), immediate
addresses outside .local, and registers of the wrong type in the operands
no rule typed.

  python3 test/fuzz/ptxas_operand_grid.py --tool build/bin/zluda-precompile
      [--arch sm_90a] [--jobs 2] [NAME...]

NAMEs restrict the run to those rows of ptxas_flag_grid.FORMS. Exit status
1 when anything disagrees. Deterministic.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptxas_flag_grid import FORMS, arguments, report, run_all  # noqa: E402

# What an operand can be, one of each kind.
KINDS = ['%p1', '%rs1', '%r1', '%rd1', '%f1', '%fd1', '%q1', '1', '-1',
         '0x100000000', '0f3F800000', '0d3FF0000000000000', '1.5', '[%rd1]',
         '[%r1]', '[sh]', '[sh+4]', '[%rd1+8]', '[1024]', 'sh', 'k', '_',
         '{%r1, %r2}', '{%f1, %f2}', '{%r1, %r2, %r3, %r4}',
         '{%rd1, %rd2}', '!%p1']


def split_operands(text):
    """Splits at the commas outside braces and brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in '{[':
            depth += 1
        elif c in '}]':
            depth -= 1
        elif c == ',' and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def variants(form):
    """The form's lines with one operand replaced by each kind."""
    line = form.replace('{F}', '').rstrip(';')
    opcode, _, rest = line.partition(' ')
    if not rest:
        return []
    operands = split_operands(rest)
    lines = []
    for i, original in enumerate(operands):
        for kind in KINDS:
            if kind == original:
                continue
            ops = operands[:i] + [kind] + operands[i + 1:]
            lines.append('%s %s;' % (opcode, ', '.join(ops)))
    return lines


def main():
    args, rows = arguments(__doc__)
    lines = []
    for n in rows:
        lines += variants(FORMS[n])
    lines = list(dict.fromkeys(lines))
    results = run_all(args, lines)
    disagree = report(results)
    print('%d lines (%d forms, %d operand kinds), %d disagreements' %
          (len(lines), len(rows), len(KINDS), disagree))
    return 1 if disagree else 0


if __name__ == '__main__':
    sys.exit(main())

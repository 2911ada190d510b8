#!/usr/bin/env python3
"""fma.rz/.rm/.rp.f64 against exact rational arithmetic: writes a kernel of
constant fmas (random operands of every size, cancellations, tiny and
subnormal products and results, overflow, zeros), compiles it to LLVM IR
(O3 folds each fma to its result) and compares every result with the
correctly rounded value computed with fractions.
Usage: check-fma-f64.py ZLUDA_PRECOMPILE WORK_PREFIX SEED
"""
import random, struct, subprocess, sys, math
from fractions import Fraction
def d2h(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
def h2d(h): return struct.unpack('<d', struct.pack('<Q', h))[0]
MAX = sys.float_info.max
def directed(v, mode, zsign):
    if v == 0: return zsign
    try:
        f = float(v)
    except OverflowError:
        f = math.inf if v > 0 else -math.inf
    if math.isinf(f):
        if mode == 'rz': return math.copysign(MAX, f)
        if mode == 'rm': return MAX if f > 0 else -math.inf
        if mode == 'rp': return math.inf if f > 0 else -MAX
    F = Fraction(f)
    if F == v: return f
    if mode == 'rz':
        if abs(F) > abs(v): f = math.nextafter(f, 0.0)
    elif mode == 'rm':
        if F > v: f = math.nextafter(f, -math.inf)
    elif mode == 'rp':
        if F < v: f = math.nextafter(f, math.inf)
    if f == 0: f = math.copysign(0.0, float(v) if v != 0 else 1.0) if mode != 'rm' or v > 0 else -0.0
    return f
tool, work, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
random.seed(seed)
cases = []
def rnd(lo, hi):
    m = random.getrandbits(52) | (1 << 52)
    e = random.randint(lo, hi)
    return math.copysign(math.ldexp(m, e - 52), random.choice([1, -1]))
for _ in range(40):
    a = rnd(-60, 60); b = rnd(-60, 60); d = rnd(-60, 60); cases.append((a, b, d))
for _ in range(20):  # cancellation
    a = rnd(-30, 30); b = rnd(-30, 30); p = a * b
    d = -p + math.ldexp(random.choice([1, -1, 3, -5]), math.frexp(p)[1] - random.randint(53, 110))
    cases.append((a, b, d))
for _ in range(15):  # tiny products, subnormal results
    a = rnd(-560, -480); b = rnd(-560, -480); d = random.choice([0.0, rnd(-1074, -1000), rnd(-1070, -1023), rnd(-400, -300), rnd(-10, 10)])
    cases.append((a, b, d))
for _ in range(10):  # huge
    a = rnd(500, 520); b = rnd(500, 510); d = random.choice([-a * b if math.isfinite(a*b) else -MAX, rnd(1000, 1023), -rnd(1020, 1023)])
    cases.append((a, b, d))
cases += [(1.0, 1.0, -1.0), (-1.0, 1.0, 1.0), (0.0, 5.0, -0.0), (-0.0, 5.0, 0.0), (MAX, 2.0, -MAX), (MAX, 1.5, 0.0),
          (math.ldexp(1, -1074), 0.5, 0.0), (math.ldexp(1, -1074), -0.5, 0.0), (3.0, math.ldexp(1, -1074), math.ldexp(1, -1073))]
modes = ['rz', 'rm', 'rp']
lines = ['.version 8.0', '.target sm_90', '.address_size 64', '.visible .entry k(.param .u64 p) {', '  .reg .f64 %fd<8>;', '  .reg .b64 %rd<2>;', '  ld.param.u64 %rd1, [p];']
off = 0; expect = []
for (a, b, d) in cases:
    for m in modes:
        lines += [f'  mov.f64 %fd1, 0d{d2h(a):016X};', f'  mov.f64 %fd2, 0d{d2h(b):016X};', f'  mov.f64 %fd3, 0d{d2h(d):016X};',
                  f'  fma.{m}.f64 %fd4, %fd1, %fd2, %fd3;', f'  st.global.f64 [%rd1+{off}], %fd4;']
        off += 8
        v = Fraction(a) * Fraction(b) + Fraction(d)
        prod_neg = (math.copysign(1, a) * math.copysign(1, b)) < 0
        if v == 0:
            # IEEE: exact zero sum: same signs -> that sign; else +0 except rm
            if (prod_neg) == (math.copysign(1, d) < 0) and (a * b == 0 or True) and (Fraction(a)*Fraction(b) == 0 and d == 0):
                z = -0.0 if prod_neg else 0.0
            else:
                z = -0.0 if m == 'rm' else 0.0
            expect.append(z)
        else:
            expect.append(directed(v, m, 0.0))
lines += ['  ret;', '}']
open(work + '.ptx', 'w').write('\n'.join(lines) + '\n')
out = subprocess.run([tool, 'compile', work + '.ptx', '--arch', 'gfx1100', '--emit=llvm', '-o', '-'], capture_output=True, text=True)
if out.returncode: print(out.stderr[:2000]); sys.exit(2)
got = []
import re
for l in out.stdout.splitlines():
    m = re.search(r'store double (\S+),', l)
    if m:
        t = m.group(1)
        if t.startswith('0x'): got.append(h2d(int(t, 16)))
        else: got.append(float(t))
    elif 'store double' in l or ('store i64' in l):
        got.append(None)
bad = 0
if len(got) != len(expect): print('count', len(got), len(expect))
for i, (g, e) in enumerate(zip(got, expect)):
    if g is None or d2h(g) != d2h(e):
        bad += 1
        if bad <= 8:
            a, b, d = cases[i // 3]; print('MISMATCH', modes[i % 3], a.hex(), b.hex(), d.hex(), 'got', g if g is None else g.hex(), 'want', e.hex())
print('cases', len(expect), 'mismatches', bad)

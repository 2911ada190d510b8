#!/usr/bin/env python3
"""Differential fuzzing of the PTX front end against ptxas (issue 18, item 1).

Mutants of seed modules (one instruction changed: a type or modifier swapped, added or dropped, an operand
dropped, duplicated, swapped or replaced by a register of another type or an immediate, a state space changed)
go through `ptxas -arch=<the module's target>` and through `zluda-precompile compile --emit=none` (parse and
verify). Each mutant is one of: both accept, both reject, we reject what ptxas accepts (too strict), we accept
what ptxas rejects (too lenient); a run killed by a signal is a crash (ptxas segfaults on a few mutants:
counted apart, outside the agreement rate; ours is a defect). A disagreement or a crash is written to
OUT/<kind>/<n>.ptx with the changed line, our message and ptxas's, to become a lit test once understood.

  python3 test/fuzz/ptxas_differential.py --tool build/bin/zluda-precompile --out DIR [--count N] [--seed S]
      [--jobs J] [--words] SEED.ptx...

--words adds two mutations: a modifier written twice, and a word taken from another instruction of the seeds
(or an unknown one, `.foo`): what the mutations above never write (membar.foo, fence.gl were accepted until
the seventeenth session). A seed that is a split-file lit test contributes its `//--- valid.ptx` part (the
valid forms of test/Frontend/errors/*.ptx: instructions the corpus does not use, such as sured or txq).

Deterministic for a seed list, --seed and --words. Prints the counts and the agreement rate.
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TYPES = ['.u8', '.s8', '.b8', '.u16', '.s16', '.b16', '.f16', '.bf16', '.u32', '.s32', '.b32', '.f32', '.u64',
         '.s64', '.b64', '.f64', '.pred', '.f16x2', '.bf16x2', '.b128']
MODIFIERS = ['.rn', '.rz', '.rm', '.rp', '.rni', '.rzi', '.sat', '.ftz', '.approx', '.full', '.wide', '.hi', '.lo',
             '.cc', '.volatile', '.relaxed', '.acquire', '.release', '.gpu', '.cta', '.sys', '.global', '.shared',
             '.local', '.const', '.param', '.nc', '.v2', '.v4', '.uni', '.sync', '.aligned', '.all', '.any', '.up',
             '.down', '.bfly', '.idx', '.and', '.or', '.xor', '.min', '.max', '.add', '.inc', '.dec', '.exch', '.cas',
             '.eq', '.ne', '.lt', '.le', '.gt', '.ge', '.lo', '.ls', '.hs', '.equ', '.neu', '.nan', '.num', '.clamp',
             '.wrap', '.shiftamt', '.L1::evict_last', '.L2::128B', '.ca', '.cg', '.cs', '.lu', '.cv', '.wb', '.wt']
SPACES = ['.global', '.shared', '.local', '.const', '.param', '']
IMMEDIATES = ['0', '1', '-1', '0x7fffffff', '4294967296', '1.5', '0f3F800000', '0d3FF0000000000000', '0x8000000000000000']
INSTRUCTION = re.compile(r'^(\s*)(@!?%?\w+\s+)?([a-z][\w.:]*)(\s+)(.*);\s*(//.*)?$')
REGDECL = re.compile(r'\.reg\s+(\.\w+)\s+(%\w+)<(\d+)>')


def target_of(text):
  m = re.search(r'^\s*\.target\s+(sm_\d+[af]?)', text, re.M)
  return m.group(1) if m else 'sm_52'


def registers_by_type(text):
  regs = collections.defaultdict(list)
  for t, base, n in REGDECL.findall(text):
    if int(n) > 1:
      regs[t].append(f'{base}1')
  return regs


def split_operands(s):
  out, depth, cur = [], 0, ''
  for ch in s:
    if ch in '[{(':
      depth += 1
    elif ch in ']})':
      depth -= 1
    if ch == ',' and depth == 0:
      out.append(cur.strip())
      cur = ''
    else:
      cur += ch
  if cur.strip():
    out.append(cur.strip())
  return out


def mutate(text, rng, words=None):
  """One changed instruction line: (mutant text, line number, old line, new line), or None. `words`: the
  modifier words of every seed's instructions, for the --words mutations."""
  lines = text.split('\n')
  candidates = [i for i, l in enumerate(lines) if INSTRUCTION.match(l) and not l.lstrip().startswith('.')]
  if not candidates:
    return None
  regs = registers_by_type(text)
  i = rng.choice(candidates)
  indent, guard, opcode, space, rest, _ = INSTRUCTION.match(lines[i]).groups()
  guard = guard or ''
  ops = split_operands(rest)
  parts = opcode.split('.')
  kind = rng.randrange(11 if words else 9)
  if kind == 0 and len(parts) > 1:            # a modifier or type replaced by a type
    j = rng.randrange(1, len(parts))
    parts[j] = rng.choice(TYPES)[1:]
  elif kind == 1:                              # a modifier added
    parts.insert(rng.randrange(1, len(parts) + 1), rng.choice(MODIFIERS)[1:])
  elif kind == 2 and len(parts) > 1:          # a modifier dropped
    del parts[rng.randrange(1, len(parts))]
  elif kind == 3 and ops:                      # an operand dropped
    del ops[rng.randrange(len(ops))]
  elif kind == 4 and ops:                      # an operand duplicated
    j = rng.randrange(len(ops))
    ops.insert(j, ops[j])
  elif kind == 5 and len(ops) > 1:            # two operands swapped
    a, b = rng.sample(range(len(ops)), 2)
    ops[a], ops[b] = ops[b], ops[a]
  elif kind == 6 and ops and regs:            # an operand a register of another type
    ops[rng.randrange(len(ops))] = rng.choice(rng.choice(list(regs.values())))
  elif kind == 7 and ops:                      # an operand an immediate
    ops[rng.randrange(len(ops))] = rng.choice(IMMEDIATES)
  elif kind == 8:                              # a state space changed
    js = [j for j in range(1, len(parts)) if '.' + parts[j] in SPACES]
    if not js:
      return None
    new = rng.choice(SPACES)
    j = rng.choice(js)
    if new:
      parts[j] = new[1:]
    else:
      del parts[j]
  elif kind == 9 and len(parts) > 1:          # a modifier written twice
    j = rng.randrange(1, len(parts))
    parts.insert(rng.randrange(1, len(parts) + 1), parts[j])
  elif kind == 10:                             # another instruction's word, or an unknown one
    parts.insert(rng.randrange(1, len(parts) + 1), rng.choice(words + ['foo']))
  else:
    return None
  new_line = f'{indent}{guard}{".".join(parts)}{space}{", ".join(ops)};'
  if new_line.strip() == lines[i].strip():
    return None
  old = lines[i]
  lines[i] = new_line
  return '\n'.join(lines), i + 1, old.strip(), new_line.strip()


def run(cmd):
  try:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, errors='replace')
  except subprocess.TimeoutExpired:
    return None, 'timeout'
  msg = next((l for l in (r.stderr + r.stdout).splitlines() if 'error' in l.lower()), (r.stderr or r.stdout).strip())
  # Killed by a signal (ptxas segfaults on some mutants): neither accepted
  # nor rejected.
  if r.returncode < 0:
    return 'crash', f'signal {-r.returncode} {msg}'[:300]
  return r.returncode == 0, msg[:300]


def check(job):
  n, path, mutant, line, old, new, tool, ptxas, arch, tmp = job
  f = os.path.join(tmp, f'm{n}.ptx')
  with open(f, 'w') as out:
    out.write(mutant)
  # -c: relocatable, so that a module's .extern functions need no definition.
  theirs, their_msg = run([ptxas, '-c', f'-arch={arch}', f, '-o', '/dev/null'])
  ours, our_msg = run([tool, 'compile', f, '--emit=none'])
  os.unlink(f)
  return n, path, mutant, line, old, new, theirs, their_msg, ours, our_msg


def main():
  ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
  ap.add_argument('seeds', nargs='+')
  ap.add_argument('--tool', required=True)
  ap.add_argument('--ptxas', default='ptxas')
  ap.add_argument('--out', required=True)
  ap.add_argument('--count', type=int, default=500)
  ap.add_argument('--seed', type=int, default=1)
  ap.add_argument('--jobs', type=int, default=2)
  ap.add_argument('--words', action='store_true')
  a = ap.parse_args()
  rng = random.Random(a.seed)
  seeds = []
  for p in sorted(a.seeds):
    text = open(p, errors='replace').read()
    if '//--- valid.ptx\n' in text:
      text = text.split('//--- valid.ptx\n', 1)[1].split('\n//--- ', 1)[0]
    seeds.append((p, text))
  words = None
  if a.words:
    words = sorted({w for _, text in seeds for line in text.split('\n')
                    for m in [INSTRUCTION.match(line)] if m and not line.lstrip().startswith('.')
                    for w in m.group(3).split('.')[1:] if w})
  jobs = []
  with tempfile.TemporaryDirectory() as tmp:
    while len(jobs) < a.count:
      path, text = seeds[rng.randrange(len(seeds))]
      m = mutate(text, rng, words)
      if m:
        jobs.append((len(jobs), path, *m, a.tool, a.ptxas, target_of(text), tmp))
    counts = collections.Counter()
    with ThreadPoolExecutor(a.jobs) as pool:
      for n, path, mutant, line, old, new, theirs, tm, ours, om in pool.map(check, jobs):
        if theirs is None or ours is None:
          counts['timeout'] += 1
          continue
        if 'crash' in (theirs, ours):
          kind = 'we crash' if ours == 'crash' else 'ptxas crashes'
        else:
          kind = ('both accept' if ours else 'too strict') if theirs else ('too lenient' if ours else 'both reject')
        counts[kind] += 1
        if kind in ('too lenient', 'too strict', 'we crash', 'ptxas crashes'):
          d = os.path.join(a.out, kind.replace(' ', '-'))
          os.makedirs(d, exist_ok=True)
          with open(os.path.join(d, f'{n}.ptx'), 'w') as f:
            # (A message of several lines stays a comment.)
            tm, om = (x.replace('\n', '\n// ') for x in (tm, om))
            f.write(f'// from {path}:{line}\n//   {old}\n// ->{new}\n// ptxas: {tm}\n// ours: {om}\n{mutant}')
  total = sum(v for k, v in counts.items() if k not in ('timeout', 'ptxas crashes'))
  agree = counts['both accept'] + counts['both reject']
  print(f'{total} mutants: ' + ', '.join(f'{k} {v}' for k, v in sorted(counts.items())) +
        f'; agreement {agree / max(total, 1):.4f}')


if __name__ == '__main__':
  main()

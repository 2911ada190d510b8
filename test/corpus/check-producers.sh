#!/usr/bin/env bash
# The PTX of other producers (test/corpus/producers/<producer>/, collected by
# the scripts in collect/): every module parses, verifies and round-trips
# (check-corpus.sh), and `build --arch gfx1100` compiles every kernel except
# those left out for an sm_90-only family (wgmma, bulk tensor copies,
# clusters), which are diagnosed by name; the matrix instructions of sm_70 to
# sm_89 (mma.sync, wmma, ldmatrix, stmatrix, movmatrix) compile.
# Prints one row per producer; fails on anything else.
# Usage: check-producers.sh ZLUDA_PRECOMPILE ZLUDA_OPT PRODUCERS_DIR
set -euo pipefail
precompile=$1 opt=$2 dir=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for p in "$dir"/*/; do
  name=$(basename "$p")
  [ "$name" = collect ] && continue
  ls "$p"/*.ptx > /dev/null 2>&1 || continue
  if ! "$here/check-corpus.sh" "$precompile" "$opt" "$p" > "$tmp/$name.parse"; then
    cat "$tmp/$name.parse"; status=1
  fi
  "$precompile" build "$p" --arch gfx1100 --cache "$tmp/cache" -j 2 \
    --json "$tmp/$name.json" > /dev/null 2>&1 || true
  python3 - "$name" "$tmp/$name.json" "$(tail -1 "$tmp/$name.parse")" <<'PY' || status=1
import json, re, sys
name, path, parse = sys.argv[1:4]
d = json.load(open(path))
allowed = re.compile(r'unsupported: (wgmma|'
                     r'cp\.async\.bulk\.tensor|barrier\.cluster|mapa|getctarank|'
                     r'setmaxnreg|cp\.reduce\.async\.bulk\.tensor)')
bad, matrix, seen = [], 0, set()
for b in d['binaries']:
    for k in b['kernels']:
        r = k['results']['gfx1100']
        if r['status'] == 'failed' and (k['module'], k['name']) not in seen:
            seen.add((k['module'], k['name']))
            if allowed.search(r.get('reason', '')):
                matrix += 1
            else:
                bad.append(f"{b['display']}: {k['name']}: {r.get('reason', '')}")
print(f"{name}: {parse}; gfx1100 kernels compiled {d['kernels_compiled']}/{d['kernels']}"
      f" ({matrix} left out for sm_90-only instructions)")
for b in bad[:20]:
    print('  NOT COMPILED', b)
sys.exit(1 if bad else 0)
PY
done
exit $status

#!/usr/bin/env bash
# Benchmark (not a test) of the shared remote cache: on the same inputs,
# alternated runs of
#   compile     build into an empty local cache, no remote
#   http hit    build into an empty local cache, every entry on an HTTP
#               remote (nginx WebDAV on loopback)
#   redis hit   the same from redis-server on loopback
#   local hit   build over a full local cache
# and the median ratios remote hit / compile and remote hit / local hit.
# The servers are this repository's test servers (test/remote/servers.sh),
# on loopback: the network's own latency is not in the figures.
#
# Usage: bench/remote-cache.sh [INPUT] [ARCHS] [RUNS]
#   INPUT  default: libcurand.so.10 of the CUDA toolkit
#   ARCHS  default: gfx1100     RUNS  default: 3 (medians)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
input=${1:-${CUDA_HOME:-/usr/local/cuda}/lib64/libcurand.so.10}
archs=${2:-gfx1100}
runs=${3:-3}
work=$(mktemp -d)
chmod 755 "$work" # nginx serves from inside it as another user
trap '"$root/test/remote/servers.sh" stop "$work/servers"; rm -rf "$work"' EXIT
"$root/test/remote/servers.sh" start "$work/servers" > /dev/null
. "$work/servers/ports.sh"
http=http://127.0.0.1:$HTTP_PORT/bench
redis=redis://127.0.0.1:$REDIS_PORT
now() { date +%s%N; }
timed() { # CACHE [OPTIONS...] -> seconds
  local cache=$1 t0 t1
  shift
  t0=$(now)
  "$tool" build "$input" --arch "$archs" --cache "$cache" -j 2 "$@" > "$work/out" 2>&1 || true
  t1=$(now)
  echo "scale=3; ($t1 - $t0) / 1000000000" | bc
}
# Fill both remotes and one local cache.
timed "$work/full" --remote "$http" > /dev/null
"$tool" cache push "$work/full" --remote "$redis" > /dev/null
head -n 1 "$work/out"
declare -a compile httphit redishit localhit
for i in $(seq "$runs"); do
  rm -rf "$work/c" "$work/h" "$work/r"
  compile+=("$(timed "$work/c")")
  httphit+=("$(timed "$work/h" --remote "$http" --remote-read-only)")
  grep -q "misses 0, rejected 0" "$work/out" || { echo "http: not all hits"; cat "$work/out"; exit 1; }
  redishit+=("$(timed "$work/r" --remote "$redis" --remote-read-only)")
  grep -q "misses 0, rejected 0" "$work/out" || { echo "redis: not all hits"; cat "$work/out"; exit 1; }
  localhit+=("$(timed "$work/full")")
done
diff -r "$work/full/v1/entries" "$work/h/v1/entries" > /dev/null && diff -r "$work/full/v1/entries" "$work/r/v1/entries" > /dev/null &&
  same=identical || same=DIFFERENT
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
c=$(median "${compile[@]}") h=$(median "${httphit[@]}") r=$(median "${redishit[@]}") l=$(median "${localhit[@]}")
printf 'input: %s, processors: %s, %s runs (medians), %s entries (%s)\n' "$(basename "$input")" "$archs" "$runs" \
  "$(find "$work/full/v1/entries" -name '*.zce' | wc -l)" "$(du -sh "$work/full/v1/entries" | cut -f1)"
printf 'compile %s s   http hit %s s   redis hit %s s   local hit %s s\n' "$c" "$h" "$r" "$l"
printf 'http hit / compile %.4f   redis hit / compile %.4f\n' "$(echo "$h / $c" | bc -l)" "$(echo "$r / $c" | bc -l)"
printf 'http hit / local hit %.2f   redis hit / local hit %.2f\n' "$(echo "$h / $l" | bc -l)" "$(echo "$r / $l" | bc -l)"
printf 'entries pulled from both remotes vs compiled: %s\n' "$same"

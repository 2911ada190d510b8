#!/usr/bin/env bash
# Crash safety and concurrency of the cache (used by build-crash.test).
#   crash-and-race.sh TOOL CACHE ROUNDS INPUT...
# Kills `build` with SIGKILL at spread-out moments ROUNDS times, then runs
# four builds at once over overlapping subsets of the inputs, then a
# normal build; prints what `cache verify` finds and the leftovers.
set -u
tool=$1 cache=$2 rounds=$3
shift 3
inputs=("$@")
for ((i = 0; i < rounds; i++)); do
  "$tool" build "${inputs[@]}" --arch gfx1100 --cache "$cache" -j 2 \
    >/dev/null 2>&1 &
  pid=$!
  # 0.05 s to 3 s: before the first entry, between entries, near the end.
  sleep "$(awk -v i="$i" -v n="$rounds" 'BEGIN { printf "%.2f", 0.05 + 2.95 * i / n }')"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
echo "after $rounds kills: $("$tool" cache verify "$cache" | tail -n 1)"
n=${#inputs[@]}
for ((p = 0; p < 4; p++)); do
  # Each process takes a rotated half of the inputs (they overlap).
  subset=()
  for ((k = 0; k < (n + 1) / 2 + 1; k++)); do
    subset+=("${inputs[$(((p + k) % n))]}")
  done
  "$tool" build "${subset[@]}" --arch gfx1100,gfx1201 --cache "$cache" -j 1 \
    >/dev/null 2>&1 &
done
wait
echo "after 4 concurrent builds: $("$tool" cache verify "$cache" | tail -n 1)"
"$tool" build "${inputs[@]}" --arch gfx1100,gfx1201 --cache "$cache" |
  grep '^cache hits'
"$tool" cache verify "$cache" | tail -n 1
echo "entry files: $(find "$cache/v1/entries" -name '*.zce' | wc -l)"
echo "partial files among entries: $(find "$cache/v1/entries" -type f ! -name '*.zce' | wc -l)"

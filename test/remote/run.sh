#!/usr/bin/env bash
# ctest `remote-cache`: build --remote, cache pull and cache push against
# real servers on loopback (the `remote-servers` fixture: nginx with WebDAV
# PUT, redis-server), for both back-ends: misses and uploads, hits, the
# local cache first, read-only mode, 8 concurrent writers, a server killed
# during a run, a corrupted, a truncated and a foreign remote entry, 401
# and a refused upload, a Redis password, an interrupted PUT, and a cache
# pulled on a second "machine" (a fresh directory) serving the runtime shim.
# Usage: run.sh SOURCE_DIR BUILD_DIR SERVERS_DIR WORK_DIR
set -uo pipefail
src=$1 build=$2 servers=$3 work=$4
. "$servers/ports.sh"
Z=$build/bin/zluda-precompile
rm -rf "$work" && mkdir -p "$work" && cd "$work"
H=http://127.0.0.1:$HTTP_PORT
R=redis://127.0.0.1:$REDIS_PORT
inputs=("$src/test/Driver/Inputs/saxpy.ptx" "$src/examples/saxpy/saxpy"
        "$src/test/Binary/Inputs/vadd-exe")
# Empty stores: the fixture's servers may have served an earlier run.
rm -rf "${servers:?}"/nginx/www/*
redis-cli -p "$REDIS_PORT" flushall > /dev/null
redis-cli -p "$REDIS_PW_PORT" -a pa55word --no-auth-warning flushall > /dev/null
fails=0
ok() { echo "ok    $*"; }
bad() { echo "FAIL  $*"; fails=$((fails + 1)); }
# expect DESCRIPTION FILE EXTENDED-REGEX
expect() {
  if grep -Eq -- "$3" "$2"; then ok "$1"; else
    bad "$1: /$3/ not in $2:"; sed 's/^/        /' "$2"; fi
}
# run NAME COMMAND...: stdout to NAME.out, stderr to NAME.err, status NAME.rc
run() {
  local name=$1; shift
  "$@" > "$name.out" 2> "$name.err"; echo $? > "$name.rc"
}
rc() { # rc DESCRIPTION NAME WANT
  if [ "$(cat "$2.rc")" = "$3" ]; then ok "$1 (exit $3)"; else
    bad "$1: exit $(cat "$2.rc"), expected $3"; sed 's/^/        /' "$2.err"; fi
}
build() { # build NAME CACHE REMOTE [OPTION...]: the 3 inputs, 2 processors
  local name=$1 cache=$2 remote=$3; shift 3
  run "$name" "$Z" build "${inputs[@]}" --arch gfx1100,gfx942 --cache "$cache" \
    --remote "$remote" -j 2 "$@"
}
same_entries() { # same_entries DESCRIPTION CACHE1 CACHE2
  if diff -r "$2/v1/entries" "$3/v1/entries" > /dev/null; then ok "$1"; else
    bad "$1: $2 and $3 differ"; fi
}

for backend in http redis; do
  if [ $backend = http ]; then base=$H/team; else base=$R/1; fi
  echo "== $backend: $base"
  # Misses: compiled and uploaded; hits on a fresh machine; local first.
  build $backend-miss $backend-c1 "$base"
  rc "$backend: first build" $backend-miss 0
  expect "$backend: 6 misses, 6 uploaded" $backend-miss.out "hits 0, misses 6, rejected 0, uploaded 6"
  build $backend-hit $backend-c2 "$base"
  expect "$backend: fresh cache, 6 remote hits, nothing compiled" $backend-hit.out \
    "cache hits 6, compiled 0"
  expect "$backend: ... counted as remote hits" $backend-hit.out "hits 6, misses 0, rejected 0, uploaded 0"
  same_entries "$backend: remote hits give the bytes of the compiling build" $backend-c1 $backend-c2
  build $backend-local $backend-c2 "$base"
  expect "$backend: local hits first (no remote lookups)" $backend-local.out \
    "hits 0, misses 0, rejected 0, uploaded 0"

  # Read-only: remote hits used, nothing uploaded.
  run $backend-ro "$Z" build "$src/test/Codegen/Inputs/launch-bounds.ptx" "${inputs[0]}" \
    --arch gfx1100 --cache $backend-c3 --remote "$base" --remote-read-only
  expect "$backend: read-only: hit used, the miss not uploaded" $backend-ro.out \
    "hits 1, misses 1, rejected 0, uploaded 0; .*\(read-only\)"
  run $backend-ro2 "$Z" build "$src/test/Codegen/Inputs/launch-bounds.ptx" \
    --arch gfx1100 --cache $backend-c4 --remote "$base" --remote-read-only
  expect "$backend: read-only: still a miss afterwards" $backend-ro2.out "hits 0, misses 1"

  # A damaged remote entry is rejected, compiled locally, never served.
  key=$("$Z" cache list $backend-c1 | awk '/gfx1100/ {print $1; exit}')
  other=$("$Z" cache list $backend-c1 | awk '/gfx942/ {print $1; exit}')
  entry=$backend-c1/v1/entries/${key:0:2}/$key.zce
  put() { # put KEY FILE: store FILE's bytes as KEY's remote entry
    if [ $backend = http ]; then
      mkdir -p "$servers/nginx/www/team/v1/${1:0:2}" &&
        cp "$2" "$servers/nginx/www/team/v1/${1:0:2}/$1"
    else
      redis-cli -p "$REDIS_PORT" -n 1 -x SET "zluda:v1:$1" < "$2" > /dev/null
    fi
  }
  for damage in corrupted truncated foreign; do
    case $damage in
    corrupted) cp "$entry" bad.zce
               printf '\xff' | dd of=bad.zce bs=1 seek=$(($(stat -c %s "$entry") - 100)) conv=notrunc status=none
               put "$key" bad.zce ;;
    truncated) head -c 500 "$entry" > bad.zce; put "$key" bad.zce ;;
    foreign)   put "$key" "$backend-c1/v1/entries/${other:0:2}/$other.zce" ;;
    esac
    build $backend-$damage $backend-d-$damage "$base" --remote-read-only
    expect "$backend: $damage remote entry rejected" $backend-$damage.out "hits 5, misses 0, rejected 1"
    expect "$backend: ... and said so" $backend-$damage.err "remote cache entry $key .*ignored"
    expect "$backend: ... compiled locally instead" $backend-$damage.out "cache hits 5, compiled 1"
    run $backend-$damage-verify "$Z" cache verify $backend-d-$damage
    rc "$backend: ... the local cache verifies" $backend-$damage-verify 0
  done
  put "$key" "$entry"

  # 8 concurrent writers of the same entries into an empty remote.
  if [ $backend = http ]; then cbase=$H/concurrent; else cbase=$R/8; fi
  for i in 1 2 3 4 5 6 7 8; do build $backend-w$i $backend-w$i "$cbase" & done
  wait
  n=0
  for i in 1 2 3 4 5 6 7 8; do
    [ "$(cat $backend-w$i.rc)" = 0 ] && grep -q "kernels compiled 12/12" $backend-w$i.out && n=$((n + 1))
  done
  [ $n = 8 ] && ok "$backend: 8 concurrent writers all succeeded" || bad "$backend: $n of 8 concurrent writers succeeded"
  build $backend-after $backend-after "$cbase" --remote-read-only
  expect "$backend: ... and left 6 whole entries" $backend-after.out "hits 6, misses 0, rejected 0"
  same_entries "$backend: ... the bytes one writer alone gives" $backend-c1 $backend-after
done

echo "== failures of the server"
# A dead server: one warning, a local build, success.
build dead dead http://127.0.0.1:9/x
rc "dead HTTP server: local build" dead 0
expect "... with one clear warning" dead.err "warning: remote cache http://127.0.0.1:9/x: .*going on with the local cache only"
[ "$(grep -c warning dead.err)" = 1 ] && ok "... only one" || bad "... $(grep -c warning dead.err) warnings"
expect "... everything compiled" dead.out "kernels compiled 12/12"
build deadredis deadredis redis://127.0.0.1:9
expect "dead Redis server: local build, one warning" deadredis.err "remote cache redis://127.0.0.1:9: .*going on with the local cache only"

# Killed during a run: a server of its own, killed after a few requests.
victim=$work/victim
"$src/test/remote/servers.sh" start "$victim" > /dev/null
. "$victim/ports.sh"
# The corpus' small sm_80 modules: a few seconds of work, one upload each.
mapfile -t many < <(find "$src/test/corpus/ptx" -name '*.sm_80.ptx' -size -20k | sort)
# What a local build of them gives (some kernels use what is unsupported).
run killed-ref "$Z" build "${many[@]}" --arch gfx1100 --cache killed-ref -j 1
for backend in http redis; do
  if [ $backend = http ]; then vurl=http://127.0.0.1:$HTTP_PORT/v; else vurl=redis://127.0.0.1:$REDIS_PORT; fi
  "$Z" build "${many[@]}" --arch gfx1100 --cache killed-$backend --remote "$vurl" -j 1 \
    > killed-$backend.out 2> killed-$backend.err &
  pid=$!
  for _ in $(seq 600); do
    if [ $backend = http ]; then n=$(grep -c PUT "$victim/nginx/access.log" 2>/dev/null); else
      n=$(redis-cli -p "$REDIS_PORT" dbsize 2>/dev/null || echo 0); fi
    [ "${n:-0}" -ge 3 ] && break
    sleep 0.05
  done
  if [ $backend = http ]; then kill "$(cat "$victim/nginx/nginx.pid")"; else kill "$(cat "$victim/redis/a.pid")"; fi
  wait $pid; echo $? > killed-$backend.rc
  rc "$backend server killed during a run ($n uploads before): the build goes on" \
    killed-$backend "$(cat killed-ref.rc)"
  expect "... one warning" killed-$backend.err "going on with the local cache only"
  [ "$(grep -c warning killed-$backend.err)" = 1 ] || bad "... $(grep -c warning killed-$backend.err) warnings"
  expect "... everything compiled as locally" killed-$backend.out "$(grep -o 'kernels compiled [0-9/]*' killed-ref.out)"
  same_entries "... the same entries" killed-ref killed-$backend
  expect "... the summary says the remote was lost" killed-$backend.out "unreachable: local only"
done
"$src/test/remote/servers.sh" stop "$victim"
. "$servers/ports.sh"

echo "== access"
build denied denied $H/secure
rc "401 without a token: local build" denied 0
expect "... one warning: access denied" denied.err "remote cache $H/secure: access denied .*HTTP 401"
echo s3cret-token > token.txt
build token token $H/secure --remote-token-file token.txt
expect "bearer token from a file: uploads" token.out "misses 6, rejected 0, uploaded 6"
ZLUDA_REMOTE_TOKEN=s3cret-token build tokenenv tokenenv $H/secure
expect "bearer token from ZLUDA_REMOTE_TOKEN: hits" tokenenv.out "hits 6, misses 0"
build writer writer $H/writers --remote-token-file token.txt
expect "docs' nginx setup: a writer with the token uploads" writer.out "misses 6, rejected 0, uploaded 6"
build reader reader $H/writers
expect "... a reader without it reads" reader.out "hits 6, misses 0"
run reader2 "$Z" build "${inputs[@]}" --arch gfx1201 --cache reader2 --remote $H/writers
expect "... and its uploads are refused (401), once" reader2.err "refuses uploads .*HTTP 401"
mkdir -p "$servers/nginx/www/readonly/v1/${key:0:2}" && cp "$entry" "$servers/nginx/www/readonly/v1/${key:0:2}/$key"
build refused refused $H/readonly
expect "a server refusing uploads (403): reads still used" refused.out "hits 1, misses 5, rejected 0, uploaded 0"
expect "... uploads stop with one warning" refused.err "refuses uploads .*HTTP 403"
build nopw nopw redis://127.0.0.1:$REDIS_PW_PORT
expect "Redis with a password, none given: access denied" nopw.err "access denied .*NOAUTH"
build pw pw redis://:pa55word@127.0.0.1:$REDIS_PW_PORT/3
expect "... given in the URL: uploads" pw.out "misses 6, rejected 0, uploaded 6"
expect "... the password never printed" pw.out "redis://:\*\*\*@127"

echo "== pull, push, the shim"
# An interrupted PUT (the client gone mid-body) is never served.
python3 - "$HTTP_PORT" > interrupted.out <<'EOF'
import socket, sys, urllib.request, urllib.error
port = int(sys.argv[1])
path = '/team/v1/ab/' + 'ab' * 32
s = socket.create_connection(('127.0.0.1', port))
s.sendall(f'PUT {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n'.encode() + b'z' * 1000)
s.close()
import time; time.sleep(0.5)
try:
    urllib.request.urlopen(f'http://127.0.0.1:{port}{path}')
    print('served')
except urllib.error.HTTPError as e:
    print('HTTP', e.code)
EOF
expect "an interrupted PUT is never served" interrupted.out "HTTP 404"

# Second machine: pull what saxpy needs for sm_90 (NVPTX, which the
# recording driver can take), then run it under the shim.
run shim-build "$Z" build "${inputs[0]}" --target nvptx --arch sm_90 --cache first-machine --remote $H/shim
run pull "$Z" cache pull "${inputs[0]}" --target nvptx --arch sm_90 --cache second-machine --remote $H/shim
rc "cache pull" pull 0
expect "... fetched the one entry needed" pull.out "1 entries needed .*0 already here, 1 pulled .*0 not in the remote"
same_entries "... the bytes of the first machine" first-machine second-machine
ZLUDA_SHIM_DRIVER=$build/test/unit/libzluda-recorder-driver.so \
  run shim "$Z" run --cache second-machine --log shim.log -- "$build/bin/zluda-shim-probe" "${inputs[0]}"
expect "... and the shim serves it" shim.log "hit -> served"
run pull2 "$Z" cache pull "${inputs[0]}" --target nvptx --arch sm_90 --cache second-machine --remote $H/shim
expect "pull again: already here" pull2.out "1 already here, 0 pulled"
run pullmiss "$Z" cache pull "${inputs[0]}" --target nvptx --arch sm_80 --cache second-machine --remote $H/shim
rc "pull of an entry the remote lacks" pullmiss 1
expect "... says so" pullmiss.out "1 not in the remote"

run push "$Z" cache push http-c1 --remote $H/pushed
expect "cache push: every entry uploaded" push.out "6 entries pushed .*6 uploaded .*0 already there, 0 corrupt"
run push2 "$Z" cache push http-c1 --remote $H/pushed
expect "push again: all already there" push2.out "0 uploaded .*6 already there"
build pushed pushed $H/pushed --remote-read-only
expect "... and a build hits them" pushed.out "hits 6, misses 0, rejected 0"

if [ $fails -gt 0 ]; then echo "remote-cache: $fails checks failed"; exit 1; fi
echo "remote-cache: all checks passed"

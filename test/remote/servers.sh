#!/usr/bin/env bash
# The remote cache tests' servers, on loopback only (ctest fixture
# `remote-servers`): nginx with WebDAV PUT locations and two redis-server
# instances (one with a password), in WORK_DIR, ports chosen free.
#   servers.sh start WORK_DIR   writes WORK_DIR/ports.sh, returns when they
#                               answer
#   servers.sh stop WORK_DIR
set -euo pipefail
cmd=$1 work=$2
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
case "$cmd" in
start)
  "$0" stop "$work" 2>/dev/null || true
  rm -rf "$work" && mkdir -p "$work/nginx/www" "$work/nginx/tmp" "$work/redis"
  # nginx started as root serves as another user (nobody): it must be able
  # to write where it stores (and to pass through WORK_DIR's parents).
  chmod 777 "$work/nginx/www" "$work/nginx/tmp"
  http=$(free_port) redis=$(free_port) redispw=$(free_port)
  cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 256; }
http {
  access_log $work/nginx/access.log;
  client_body_temp_path $work/nginx/tmp/body;
  proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi;
  uwsgi_temp_path $work/nginx/tmp/uwsgi;
  scgi_temp_path $work/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$http;
    root $work/nginx/www;
    client_max_body_size 1g;
    # The body is written to a temporary file and renamed into place when
    # complete: an interrupted PUT is never served.
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }
    location /secure/ {
      if (\$http_authorization != "Bearer s3cret-token") { return 401; }
      dav_methods PUT;
      create_full_put_path on;
    }
    # docs/cache.md's setup: anyone reads, uploads need the token.
    location /writers/ {
      set \$refuse "";
      if (\$request_method = PUT) { set \$refuse "unauthorized upload"; }
      if (\$http_authorization = "Bearer s3cret-token") { set \$refuse ""; }
      if (\$refuse) { return 401; }
      dav_methods PUT;
      create_full_put_path on;
    }
    location /readonly/ {
      limit_except GET HEAD { deny all; }
    }
  }
}
CONF
  (setsid nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" \
     > /dev/null 2>&1 &)
  (setsid redis-server --bind 127.0.0.1 --port "$redis" --save '' --appendonly no \
     --dir "$work/redis" --pidfile "$work/redis/a.pid" > "$work/redis/a.log" 2>&1 &)
  (setsid redis-server --bind 127.0.0.1 --port "$redispw" --save '' --appendonly no \
     --requirepass pa55word --dir "$work/redis" --pidfile "$work/redis/b.pid" \
     > "$work/redis/b.log" 2>&1 &)
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$http") 2>/dev/null &&
       redis-cli -p "$redis" ping 2>/dev/null | grep -q PONG &&
       redis-cli -p "$redispw" ping 2>/dev/null | grep -q NOAUTH; then
      printf 'HTTP_PORT=%s\nREDIS_PORT=%s\nREDIS_PW_PORT=%s\n' "$http" "$redis" "$redispw" \
        > "$work/ports.sh"
      echo "servers up: nginx :$http, redis :$redis, redis (password) :$redispw"
      exit 0
    fi
    sleep 0.1
  done
  echo "servers did not start"; cat "$work/nginx/error.log" "$work/redis/"*.log 2>/dev/null
  exit 1
  ;;
stop)
  for f in "$work/nginx/nginx.pid" "$work/redis/a.pid" "$work/redis/b.pid"; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  ;;
esac

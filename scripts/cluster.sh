#!/usr/bin/env bash
# Several Herald servers on one shared PostgreSQL database behind nginx, on loopback only.
#
#   scripts/cluster.sh start DIR [NODES]    # prints the balancer URL, then one URL per node
#   scripts/cluster.sh stop DIR
#
# DIR holds the throw-away PostgreSQL cluster (port 55433), each node's log and pid, and
# nginx's configuration. Nodes listen on 127.0.0.1:18101…, nginx on 127.0.0.1:18100 and
# balances round-robin. All nodes share HERALD_SECRET (generated into DIR unless set) and
# HERALD_DATABASE_URL; TLS would end at nginx, which is why only it may set X-Forwarded-*.
# Extra environment for the nodes (e.g. HERALD_PASSWORD_COST=minimum for tests) is passed through;
# HERALD_BINARY picks the build (default: the release build, made if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
command=${1:?start or stop}
dir=${2:?directory}
nodes=${3:-3}
BALANCER_PORT=18100
FIRST_NODE_PORT=18101
PG_PORT=55433

case "$command" in
  start)
    mkdir -p "$dir"
    ./scripts/install-deps.sh nginx >/dev/null
    HERALD=${HERALD_BINARY:-.build/release/herald}
    [ -x "$HERALD" ] || swift build -c release --product herald >/dev/null
    admin=$(scripts/postgres.sh start "$dir/postgres" "$PG_PORT")
    psql "$admin" -q -c "CREATE DATABASE herald" 2>/dev/null || true
    database=${admin%/postgres}/herald
    [ -f "$dir/secret" ] || head -c 32 /dev/urandom | base64 | tr -d '\n' >"$dir/secret"
    upstreams=""
    for n in $(seq 1 "$nodes"); do
      port=$((FIRST_NODE_PORT + n - 1))
      # Behind nginx every connection comes from nginx's address: no per-address limit on the nodes.
      HERALD_SECRET=${HERALD_SECRET:-$(cat "$dir/secret")} HERALD_DATABASE_URL=$database HERALD_ACCESS_LOG=off \
        "$HERALD" serve --host 127.0.0.1 --port "$port" --root "$ROOT" --data "$dir/node$n" \
        --max-connections-per-address 0 \
        >"$dir/node$n.out" 2>"$dir/node$n.err" &
      echo $! >"$dir/node$n.pid"
      upstreams+="    server 127.0.0.1:$port max_fails=1 fail_timeout=2s;"$'\n'
    done
    cat >"$dir/nginx.conf" <<NGINX
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir; proxy_temp_path $dir; fastcgi_temp_path $dir; uwsgi_temp_path $dir; scgi_temp_path $dir;
  upstream herald {
$upstreams    keepalive 64;
  }
  server {
    listen 127.0.0.1:$BALANCER_PORT;
    location / {
      proxy_pass http://herald;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
NGINX
    for n in $(seq 1 "$nodes"); do
      for _ in $(seq 1 300); do grep -q '^listening on ' "$dir/node$n.out" 2>/dev/null && break; sleep 0.02; done
      grep -q '^listening on ' "$dir/node$n.out" || { echo "node $n did not start: $(cat "$dir/node$n.err")" >&2; exit 1; }
    done
    nginx -c "$dir/nginx.conf"
    echo "http://127.0.0.1:$BALANCER_PORT"
    for n in $(seq 1 "$nodes"); do echo "http://127.0.0.1:$((FIRST_NODE_PORT + n - 1))"; done
    ;;
  stop)
    [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
    for pidfile in "$dir"/node*.pid; do
      [ -f "$pidfile" ] || continue
      kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
    done
    for pidfile in "$dir"/node*.pid; do
      [ -f "$pidfile" ] || continue
      while kill -0 "$(cat "$pidfile")" 2>/dev/null; do sleep 0.05; done
      rm -f "$pidfile"
    done
    scripts/postgres.sh stop "$dir/postgres"
    ;;
  *)
    echo "usage: $0 start|stop DIR [NODES]" >&2
    exit 2
    ;;
esac

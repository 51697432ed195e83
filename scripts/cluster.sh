#!/usr/bin/env bash
# Several Herald servers on one shared PostgreSQL database behind nginx over HTTPS, on loopback only.
#
#   scripts/cluster.sh start DIR [NODES]    # prints the balancer URL (https://127.0.0.1:18100), then one URL per node
#   scripts/cluster.sh stop DIR
#
# DIR holds the throw-away PostgreSQL cluster (port 55433), each node's log and pid, and nginx's
# files. Nodes listen on plain HTTP on 127.0.0.1:18101…; nginx runs the repository's
# deploy/nginx.conf as it is, on 127.0.0.1:18100 (TLS, HTTP/2, round-robin, static files from
# Public/): DIR/conf/nginx.conf is a main configuration whose http block includes deploy/nginx.conf
# by absolute path, and nginx runs with `-p DIR -c conf/nginx.conf`, so the three site snippets it
# includes by name are DIR/conf/herald-upstreams.conf, herald-listen.conf and herald-tls.conf.
# The certificate is self-signed, made here with openssl for localhost and 127.0.0.1:
# DIR/conf/herald-cert.pem is what clients verify against (curl --cacert, Python's
# ssl.create_default_context(cafile=…)). All nodes share HERALD_SECRET (generated into DIR unless
# set) and HERALD_DATABASE_URL, and run with HERALD_TRUST_PROXY=1 and
# HERALD_BASE_URL=https://127.0.0.1:18100: TLS ends at nginx, the only one that sets X-Forwarded-*.
# Extra environment for the nodes (e.g. HERALD_PASSWORD_COST=minimum for tests) is passed through;
# HERALD_BINARY picks the build (default: the release build, made if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
command=${1:?start or stop}
dir=${2:?directory}
# Absolute (nginx's -p and the paths in its configuration); a relative DIR is under the checkout.
[[ $dir = /* ]] || dir=$ROOT/$dir
nodes=${3:-3}
BALANCER_PORT=18100
FIRST_NODE_PORT=18101
PG_PORT=55433

case "$command" in
  start)
    mkdir -p "$dir"
    ./scripts/install-deps.sh nginx openssl >/dev/null
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
        HERALD_TRUST_PROXY=1 HERALD_BASE_URL="https://127.0.0.1:$BALANCER_PORT" \
        "$HERALD" serve --host 127.0.0.1 --port "$port" --root "$ROOT" --data "$dir/node$n" \
        --max-connections-per-address 0 \
        >"$dir/node$n.out" 2>"$dir/node$n.err" &
      echo $! >"$dir/node$n.pid"
      upstreams+="server 127.0.0.1:$port max_fails=1 fail_timeout=2s;"$'\n'
    done
    # nginx: deploy/nginx.conf as it is, its three snippets and a self-signed certificate in DIR/conf.
    conf=$dir/conf
    mkdir -p "$conf" "$dir/nginx-temp"
    # nginx's workers (nobody) write large bodies and responses there.
    chmod 0777 "$dir/nginx-temp"
    if [ ! -f "$conf/herald-cert.pem" ]; then
      openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj "/CN=localhost" \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
        -keyout "$conf/herald-key.pem" -out "$conf/herald-cert.pem" 2>/dev/null
    fi
    printf '%s' "$upstreams" >"$conf/herald-upstreams.conf"
    cat >"$conf/herald-listen.conf" <<NGINX
listen 127.0.0.1:$BALANCER_PORT ssl http2;
server_name localhost 127.0.0.1;
NGINX
    cat >"$conf/herald-tls.conf" <<NGINX
ssl_certificate $conf/herald-cert.pem;
ssl_certificate_key $conf/herald-key.pem;
set \$herald_public $ROOT/Public;
NGINX
    cat >"$conf/nginx.conf" <<NGINX
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/nginx-temp/body; proxy_temp_path $dir/nginx-temp/proxy;
  fastcgi_temp_path $dir/nginx-temp/fastcgi; uwsgi_temp_path $dir/nginx-temp/uwsgi; scgi_temp_path $dir/nginx-temp/scgi;
  include $ROOT/deploy/nginx.conf;
}
NGINX
    for n in $(seq 1 "$nodes"); do
      for _ in $(seq 1 300); do grep -q '^listening on ' "$dir/node$n.out" 2>/dev/null && break; sleep 0.02; done
      grep -q '^listening on ' "$dir/node$n.out" || { echo "node $n did not start: $(cat "$dir/node$n.err")" >&2; exit 1; }
    done
    nginx -p "$dir" -c conf/nginx.conf
    echo "https://127.0.0.1:$BALANCER_PORT"
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

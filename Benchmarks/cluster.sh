#!/usr/bin/env bash
# Article page and like+unlike throughput with 1, 2 and 3 Herald nodes on PostgreSQL behind nginx,
# next to one node on SQLite, on this machine (loopback only; each run bounded). Appends a table to
# Benchmarks/RESULTS.md. nginx (scripts/cluster.sh) runs deploy/nginx.conf, so those rows are over
# HTTPS (TLS ends at nginx; wrk does not verify the certificate, curl checks it against the
# cluster's own); the SQLite row is plain HTTP, straight to the node.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-5s}
C=${CONNECTIONS:-32}
WORK=$(mktemp -d)
trap 'scripts/cluster.sh stop "$WORK/c" >/dev/null 2>&1 || true; kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
./scripts/install-deps.sh wrk nginx curl sqlite3 >/dev/null
swift build -c release --product herald >/dev/null

measure() { # url [lua] → "req/s p99ms"
  wrk -t1 -c"$C" -d"$DURATION" --latency ${2:+-s "$2"} "$1" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 } /^ +99%/ { p99 = ms($2) } END { printf "%.0f %.2f", rps, p99 }'
}

session_for() { # base → "herald_session=…" (named __Host-herald_session over HTTPS)
  local jar=$WORK/jar-$RANDOM token
  token=$(curl -s -c "$jar" -b "$jar" "$1/register" | grep -o 'name="csrf_token" value="[^"]*"' | head -1 | cut -d'"' -f4)
  curl -s -o /dev/null -c "$jar" -b "$jar" -d "csrf_token=$token&username=bench$RANDOM$RANDOM&password=bench-pass-phrase-1" "$1/register"
  awk '$6 ~ /^(__Host-)?herald_session$/ { print $6 "=" $7 }' "$jar" | tail -1
}

run_scenarios() { # label base
  local base=$2 slugs
  slugs=$(curl -s "$base/" | grep -o 'href="/articles/[^"]*"' | cut -d/ -f3 | tr -d '"' | tr '\n' ' ')
  local article like
  article=$(SLUGS=$slugs COOKIE= measure "$base/" "$ROOT/Benchmarks/lib/articles.lua")
  like=$(SLUGS=$slugs COOKIE=$(session_for "$base") measure "$base/" "$ROOT/Benchmarks/lib/like-cycle.lua")
  ROWS+=("| $1 | ${article% *} | ${article#* } | ${like% *} | ${like#* } |")
  echo "$1: article $article, like+unlike $like"
  LAST_LIKES=${like% *}
}

ROWS=()
# One node on SQLite, direct.
# wrk's connections all come from 127.0.0.1 but stand for many readers: no per-address limit.
HERALD_ACCESS_LOG=off HERALD_PASSWORD_COST=minimum .build/release/herald serve --port 18199 --data "$WORK/sqlite" --root "$ROOT" \
  --max-connections-per-address 0 >"$WORK/sqlite.out" 2>&1 &
SQLITE_PID=$!
for _ in $(seq 1 300); do grep -q '^listening' "$WORK/sqlite.out" 2>/dev/null && break; sleep 0.02; done
run_scenarios "1 node, SQLite (direct)" http://127.0.0.1:18199
kill -TERM $SQLITE_PID; wait $SQLITE_PID || true

for nodes in 1 2 3; do
  urls=$(HERALD_PASSWORD_COST=minimum scripts/cluster.sh start "$WORK/c" "$nodes")
  # The balancer's certificate is self-signed (scripts/cluster.sh): curl trusts it alone.
  CURL_CA_BUNDLE=$WORK/c/conf/herald-cert.pem run_scenarios "$nodes node(s), PostgreSQL, via nginx (HTTPS)" \
    "$(echo "$urls" | head -1)"
  scripts/cluster.sh stop "$WORK/c" >/dev/null
  rm -rf "$WORK/c"
done
# Issue #22's target for three nodes (the last row): like+unlike ≥ 10,000/s, synchronous_commit on.
THREE_NODE_VERDICT=$(awk -v r="$LAST_LIKES" 'BEGIN { print (r >= 10000) ? "met" : "not met" }')

{
  echo
  echo "## Several nodes: $(date -u +%Y-%m-%d) — commit $(git rev-parse --short HEAD), $(nproc) cores, wrk -t1 -c$C -d$DURATION, all on this one machine"
  echo
  echo "| setup | article req/s | article p99 ms | like+unlike req/s | like+unlike p99 ms |"
  echo "|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  echo
  echo "- like+unlike on PostgreSQL, 3 nodes: $LAST_LIKES/s (target ≥ 10000/s: $THREE_NODE_VERDICT)"
} | tee -a Benchmarks/RESULTS.md

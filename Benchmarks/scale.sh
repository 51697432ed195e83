#!/usr/bin/env bash
# Front-page and article-page latency as the articles table grows: 50, 100k, 1M rows.
# Generates rows straight into SQLite (a recursive CTE: ~1M rows in seconds), starts a release
# build of herald on that data directory (loopback only), and measures each page with wrk
# (bounded: a few seconds per measurement). Appends a dated table to Benchmarks/RESULTS.md.
#
#   Benchmarks/scale.sh [SIZES...]        default: 50 100000 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZES=("${@:-50 100000 1000000}")
[ $# -eq 0 ] && SIZES=(50 100000 1000000)
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-32}

./scripts/install-deps.sh libmicrohttpd-dev libsodium-dev libsqlite3-dev zlib1g-dev libbrotli-dev libzstd-dev pkg-config sqlite3 wrk
swift build -c release --product herald >/dev/null
HERALD=$ROOT/.build/release/herald

source "$ROOT/Benchmarks/lib/herald-server.sh"

measure() { # $1 url, [$2 lua script] → "req/s p50 p99"
  local args=(-t1 -c"$CONNECTIONS" -d"$DURATION" --latency)
  [ -n "${2:-}" ] && args+=(-s "$2")
  wrk "${args[@]}" "$1" | awk '
    /Requests\/sec/ { rps=$2 }
    /^ +50%/ { p50=$2 }
    /^ +99%/ { p99=$2 }
    END { printf "%s %s %s", rps, p50, p99 }'
}

RESULTS=()
for N in "${SIZES[@]}"; do
  DATA=$(mktemp -d)
  start_herald "$DATA"; stop_herald   # creates the schema
  sqlite3 "$DATA/herald.sqlite3" <<SQL
PRAGMA journal_mode=WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $N)
INSERT INTO articles (slug, source_id, title, summary, body, author, section, published_at, updated_at, like_count)
SELECT 'article-' || i, 'bench-' || i, 'Benchmark article number ' || i,
       'A generated summary for article ' || i || ', long enough to look like a real one on the page.',
       replace(hex(zeroblob(400)), '00', 'word ') || char(10) || char(10) || replace(hex(zeroblob(300)), '00', 'text '),
       'Bench Writer', 'world', 1700000000 + i, 1700000000 + i, i % 97
FROM n;
COMMIT;
SQL
  start_herald "$DATA"
  LUA=$(mktemp --suffix .lua)
  cat >"$LUA" <<LUA
math.randomseed(os.time())
request = function() return wrk.format("GET", "/articles/article-" .. math.random(1, $N)) end
LUA
  curl -sf "http://127.0.0.1:$PORT/" >/dev/null
  FRONT=$(measure "http://127.0.0.1:$PORT/")
  ARTICLE=$(measure "http://127.0.0.1:$PORT/" "$LUA")
  DEEP_PAGE=$(( (N + 19) / 20 < 500 ? (N + 19) / 20 : 500 ))
  DEEP=$(measure "http://127.0.0.1:$PORT/?page=$DEEP_PAGE")
  stop_herald
  rm -rf "$DATA" "$LUA"
  RESULTS+=("| $N | ${FRONT// / | } | ${ARTICLE// / | } | $DEEP_PAGE | ${DEEP// / | } |")
  echo "N=$N front: $FRONT  article: $ARTICLE  last page ($DEEP_PAGE): $DEEP"
done

{
  echo
  echo "## Scale: $(date -u +%Y-%m-%d) — $(git rev-parse --short HEAD), $(nproc) cores, wrk -c$CONNECTIONS -d$DURATION beside the server"
  echo
  echo "| articles | front req/s | front p50 | front p99 | article req/s | article p50 | article p99 | last page | last req/s | last p50 | last p99 |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${RESULTS[@]}"
} >>Benchmarks/RESULTS.md
echo "appended to Benchmarks/RESULTS.md"

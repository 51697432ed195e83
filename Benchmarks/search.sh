#!/usr/bin/env bash
# Search latency as the articles table grows (issue #20: p99 <= 20 ms for a two-word query at
# 100,000 articles). Generates articles straight into SQLite — the FTS5 trigram index is filled
# by the same triggers the app uses — starts a release build on that data (loopback only) and
# measures /search with wrk, a few seconds per query. Reports the index's size. Appends a dated
# table to Benchmarks/RESULTS.md.
#
#   Benchmarks/search.sh [SIZES...]        default: 100000 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SIZES=("$@")
[ $# -eq 0 ] && SIZES=(100000 1000000)
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-8}

./scripts/install-deps.sh libmicrohttpd-dev libsodium-dev libsqlite3-dev zlib1g-dev libbrotli-dev libzstd-dev pkg-config sqlite3 wrk
swift build -c release --product herald >/dev/null
HERALD=$ROOT/.build/release/herald

source "$ROOT/Benchmarks/lib/herald-server.sh"

measure() { # $1 url → "req/s p50 p99" (ms)
  wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency "$1" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
    END { printf "%.0f %.2f %.2f", rps, p50, p99 }'
}

# Queries: two rare words (a handful of articles hold both), two common words (every article:
# the ranking must sort them all), a two-character Chinese word, and a four-character one.
QUERIES=("harbour%20ferry42" "council%20budget" "%E5%8C%97%E4%BA%AC" "%E5%B8%82%E8%AE%AE%E4%BC%9A")
NAMES=("two rare words" "two common words" "北京 (2 chars)" "市议会 (3 chars)")

RESULTS=()
for N in "${SIZES[@]}"; do
  DATA=$(mktemp -d)
  start_herald "$DATA"; stop_herald   # creates the schema and the index's triggers
  START=$(date +%s)
  sqlite3 "$DATA/herald.sqlite3" <<SQL
PRAGMA journal_mode=WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $N)
INSERT INTO articles (slug, source_id, title, summary, body, author, section, published_at, updated_at)
SELECT 'article-' || i, 'bench-' || i, 'Council budget report number ' || i,
       'The harbour council discussed its budget, item ' || (i % 997) || '.',
       'The council met on a grey morning to argue about the budget for the harbour and the ferry' || (i % 1000)
         || ' line. ' || CASE WHEN i % 50 = 0 THEN '北京市议会今天讨论了预算。' ELSE '' END
         || replace(hex(zeroblob(60)), '00', 'words ') || char(10) || char(10)
         || 'Residents asked about the tram, the library' || (i % 313) || ' and the market' || (i % 71) || '.',
       'Bench Writer', 'world', 1700000000 + i, 1700000000 + i
FROM n;
COMMIT;
SQL
  BUILD=$(( $(date +%s) - START ))
  SIZE_MB=$(( $(stat -c %s "$DATA/herald.sqlite3") / 1048576 ))
  INDEX_MB=$(sqlite3 "$DATA/herald.sqlite3" "SELECT coalesce(sum(pgsize), 0) / 1048576 FROM dbstat WHERE name LIKE 'articles_search%'" 2>/dev/null || echo "?")
  start_herald "$DATA"
  ROW="| $N | $BUILD s | $SIZE_MB MB | $INDEX_MB MB"
  for index in "${!QUERIES[@]}"; do
    url="http://127.0.0.1:$PORT/search?q=${QUERIES[$index]}"
    curl -sf "$url" >/dev/null
    result=$(measure "$url")
    echo "N=$N ${NAMES[$index]}: $result"
    read -r rps p50 p99 <<<"$result"
    ROW+=" | $rps / $p50 / $p99"
  done
  stop_herald
  rm -rf "$DATA"
  RESULTS+=("$ROW |")
done

{
  echo
  echo "## Search: $(date -u +%Y-%m-%d) — commit $(git rev-parse --short HEAD), $(nproc) cores, SQLite FTS5 trigram, wrk -t1 -c$CONNECTIONS, $DURATION each"
  echo
  echo "req/s / p50 ms / p99 ms for each query; build = inserting the rows with the index's triggers."
  echo
  echo "| articles | build | database | index | ${NAMES[0]} | ${NAMES[1]} | ${NAMES[2]} | ${NAMES[3]} |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${RESULTS[@]}"
} | tee -a Benchmarks/RESULTS.md

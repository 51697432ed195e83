#!/usr/bin/env bash
# Herald against nginx, in one run, on this machine (loopback only; every run bounded in time).
#
#   Benchmarks/run.sh            # ~5 minutes; prints a table and appends it to Benchmarks/RESULTS.md
#   ALL=1 Benchmarks/run.sh      # then cluster.sh and pages-at-scale.sh: every figure of issue #22
#   ACCEPT_ENCODING= Benchmarks/run.sh   # as a client that asks for no encoding (the older runs)
#
# Every request sends a browser's `Accept-Encoding: gzip, deflate, br, zstd` (ACCEPT_ENCODING), and
# the pages of issue #31 are measured again without it (the "no encoding" columns). The ceilings
# are nginx serving the same bytes as Herald's page: its front page and an anonymous article,
# gzipped beforehand (`gzip_static`), and the front page gzipped per request (`gzip on`); and, for
# the figures without an encoding, a 2 KB static file as before.
#
# Starts a release build of Herald on a fresh data directory (demo content plus 1,000 generated
# articles) and nginx serving a 2 KB static file as the ceiling, then measures, interleaved over
# ROUNDS rounds, with wrk beside the server (so the server has about one of the two cores):
#   front page, article page (anonymous reader back with their token cookie; first visit, no
# cookie, so a token is minted; logged in), like+unlike POSTs,
# then once: pages at c=256, a reader's profile and account pages, the section page and feed, a
# Markdown article, an image, the newsroom desk, the anonymous like->login->liked flow per second
# (argon2id included), article p99 while 4 clients log in continuously, peak RSS of a server that
# only served pages at c=256 (no logins: no password-hashing memory), and start-up time with
# 1,000,000 articles. Each figure issue #22 sets a target for is printed with its target.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
C=${CONNECTIONS:-32}
ACCEPT_ENCODING=${ACCEPT_ENCODING-gzip, deflate, br, zstd}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; rm -rf "$WORK"' EXIT

./scripts/install-deps.sh libmicrohttpd-dev libsodium-dev libsqlite3-dev zlib1g-dev libbrotli-dev libzstd-dev libpq-dev \
  libcurl4-openssl-dev pkg-config \
  sqlite3 wrk nginx curl python3 gzip
swift build -c release --product herald >/dev/null
HERALD=$ROOT/.build/release/herald

generate_articles() { # $1 database, $2 count
  sqlite3 "$1" <<SQL >/dev/null
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $2)
INSERT INTO articles (slug, source_id, title, summary, body, author, section, section_slug, published_at, updated_at)
SELECT 'generated-' || i, 'generated-' || i, 'Generated article number ' || i,
       'A generated summary for article ' || i || ', long enough to look like a real one on the page.',
       replace(hex(zeroblob(300)), '00', 'word ') || char(10) || char(10) || replace(hex(zeroblob(250)), '00', 'text '),
       'Bench Writer', 'world', 'world', 1600000000 + i, 1600000000 + i
FROM n;
INSERT INTO sections (slug, name, name_key) VALUES ('world', 'world', 'world') ON CONFLICT DO NOTHING;
COMMIT;
SQL
}

start_herald() { # $1 data dir; sets HERALD_PID and PORT
  # wrk's connections (up to 256) all come from 127.0.0.1 but stand for many readers: no per-address limit.
  HERALD_ACCESS_LOG=off "$HERALD" serve --port 0 --data "$1" --root "$ROOT" --max-connections-per-address 0 \
    >"$WORK/herald.out" 2>"$WORK/herald.err" &
  HERALD_PID=$!
  for _ in $(seq 1 500); do grep -q '^listening on ' "$WORK/herald.out" 2>/dev/null && break; sleep 0.01; done
  PORT=$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$WORK/herald.out")
}

# wrk → "req/s p50 p99" (latencies in ms); AE (default: ACCEPT_ENCODING) is the Accept-Encoding sent.
measure() {
  local ae=${AE-$ACCEPT_ENCODING}
  wrk -t1 -c"${2:-$C}" -d"$DURATION" --latency ${3:+-s "$3"} ${ae:+-H "Accept-Encoding: $ae"} "$1" | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
    END { printf "%.0f %.2f %.2f", rps, p50, p99 }'
}

# --- nginx serving a 2 KB static file -------------------------------------------------------------
mkdir -p "$WORK/www"
head -c 2048 /dev/urandom | base64 -w 100 | head -c 2048 >"$WORK/www/static.txt"
cat >"$WORK/nginx.conf" <<NGINX
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK; proxy_temp_path $WORK; fastcgi_temp_path $WORK; uwsgi_temp_path $WORK; scgi_temp_path $WORK;
  types { text/html html; text/plain txt; }
  # The same bytes as Herald's pages, gzipped beforehand (what a CDN or a static site serves)…
  server { listen 127.0.0.1:18080; root $WORK/www; gzip_static on; }
  # …and gzipped as they are sent, at nginx's default level.
  server { listen 127.0.0.1:18081; root $WORK/www; gzip on; gzip_types text/html; gzip_min_length 1024; }
}
NGINX
NGINX_URL=http://127.0.0.1:18080/static.txt

# --- Herald with demo content and 1,000 generated articles --------------------------------------------
DATA=$WORK/data
start_herald "$DATA"
kill -TERM "$HERALD_PID"; wait "$HERALD_PID" || true
generate_articles "$DATA/herald.sqlite3" 1000
start_herald "$DATA"
BASE=http://127.0.0.1:$PORT
# nginx's copies of Herald's front page and of an anonymous reader's article (their form token
# and return address as one reader gets them), gzipped beforehand at the strongest level.
curl -s -o "$WORK/www/front.html" "$BASE/"
curl -s -o "$WORK/www/article.html" "$BASE/articles/generated-1"
gzip -9 -k "$WORK/www/front.html" "$WORK/www/article.html"
nginx -c "$WORK/nginx.conf"
sleep 0.3
SLUGS=$(sqlite3 "$DATA/herald.sqlite3" "SELECT slug FROM articles ORDER BY random() LIMIT 500" | tr '\n' ' ')
LIKE_SLUGS=$(sqlite3 "$DATA/herald.sqlite3" "SELECT slug FROM articles ORDER BY published_at DESC LIMIT 20" | tr '\n' ' ')

# A reader with a real session (argon2id at interactive cost).
JAR=$WORK/jar
TOKEN=$(curl -s -c "$JAR" -b "$JAR" "$BASE/register" | grep -o 'name="csrf_token" value="[^"]*"' | head -1 | cut -d'"' -f4)
curl -s -o /dev/null -c "$JAR" -b "$JAR" -d "csrf_token=$TOKEN&username=benchreader&password=bench-pass-phrase-1" "$BASE/register"
SESSION=$(awk '$6 == "herald_session" { print $7 }' "$JAR")
[ -n "$SESSION" ] || { echo "could not log in" >&2; exit 1; }
export SLUGS COOKIE="herald_session=$SESSION"
# An anonymous reader who has been here before sends back the form-token cookie minted on their first visit.
RETURNING="herald_csrf=$(curl -s -D - -o /dev/null "$BASE/articles/$(echo "$SLUGS" | cut -d' ' -f1)" \
  | sed -n 's/^Set-Cookie: herald_csrf=\([^;]*\);.*/\1/p' | tr -d '\r')"
[ "$RETURNING" != "herald_csrf=" ] || { echo "no token cookie on a first visit" >&2; exit 1; }
# The reader is also an editor, and writes one article in the newsroom: Markdown with a table and
# a 1200x800 PNG lead image (a real ~250 KB file, made here), for the desk, the media route and the page.
"$HERALD" users --data "$DATA" grant benchreader editor >/dev/null
python3 - "$WORK/lead.png" <<'PY'
import os, struct, sys, zlib
w, h = 1200, 800
# A gradient with 70 rows of noise: ~250 KB, about what a news photo weighs.
raw = b"".join(b"\0" + (os.urandom(w * 3) if y < 70 else bytes((x * 7 + y * 3) % 256 for x in range(w * 3)))
               for y in range(h))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
PY
NEWSROOM_BODY=$(printf '## The figures\n\n| region | votes |\n|---|---:|\n| north | 1200 |\n| south | 980 |\n\n%s' \
  "$(for i in $(seq 1 30); do printf 'Paragraph %s with **bold**, a [link](https://example.com/%s) and ~~struck~~ words.\n\n' "$i" "$i"; done)")
EDITED=$(curl -s -o /dev/null -w '%{redirect_url}' -b "$JAR" -H 'Sec-Fetch-Site: same-origin' \
  -F 'title=Newsroom benchmark article' -F 'section=Politics' -F "body=$NEWSROOM_BODY" \
  -F "image=@$WORK/lead.png;type=image/png" -F 'image_alt=A test pattern' -F 'action=publish' "$BASE/editor/articles")
[ -n "$EDITED" ] || { echo "could not publish the newsroom article" >&2; exit 1; }
MEDIA_PATH=$(curl -s -b "$JAR" "$EDITED" | grep -o '/media/[0-9a-f]*\.png' | head -1)
[ -n "$MEDIA_PATH" ] || { echo "the newsroom article has no image" >&2; exit 1; }
# The reader's comments, for their profile page (written beside the server, as an import would).
sqlite3 "$DATA/herald.sqlite3" >/dev/null <<SQL
INSERT INTO comments (article_id, user_id, body, created_at)
SELECT a.id, u.id, 'A benchmark comment on ' || a.title || '.', 1700000000 + a.id
FROM articles a, users u WHERE u.username = 'benchreader' ORDER BY a.id LIMIT 60;
UPDATE articles SET comment_count = (SELECT count(*) FROM comments c WHERE c.article_id = articles.id);
SQL

declare -A SUM_RPS SUM_P50 MAX_P99
record() { # name "rps p50 p99"
  read -r rps p50 p99 <<<"$2"
  SUM_RPS[$1]=$(( ${SUM_RPS[$1]:-0} + rps ))
  SUM_P50[$1]=$(awk -v a="${SUM_P50[$1]:-0}" -v b="$p50" 'BEGIN { print a + b }')
  MAX_P99[$1]=$(awk -v a="${MAX_P99[$1]:-0}" -v b="$p99" 'BEGIN { print (b > a) ? b : a }')
  printf '  %-28s %8s req/s  p50 %6s ms  p99 %6s ms\n' "$1" "$rps" "$p50" "$p99"
}

for round in $(seq 1 "$ROUNDS"); do
  echo "round $round"
  record "nginx static 2 KB" "$(AE= measure "$NGINX_URL")"
  record "nginx, front page bytes, gzip_static" "$(measure http://127.0.0.1:18080/front.html)"
  record "nginx, front page bytes, gzip on" "$(measure http://127.0.0.1:18081/front.html)"
  record "nginx, article bytes, gzip_static" "$(measure http://127.0.0.1:18080/article.html)"
  record "front page" "$(measure "$BASE/")"
  record "article, anonymous" "$(COOKIE=$RETURNING measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")"
  record "article, first visit" "$(COOKIE= measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")"
  record "article, logged in" "$(measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")"
  record "like+unlike POSTs" "$(SLUGS=$LIKE_SLUGS measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/like-cycle.lua")"
  # The same pages asked for with no encoding, as every run before issue #31 did.
  record "front page, no encoding" "$(AE= measure "$BASE/")"
  record "article, anonymous, no encoding" "$(AE= COOKIE=$RETURNING measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")"
  record "article, first visit, no encoding" "$(AE= COOKIE= measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")"
  record "article, logged in, no encoding" "$(AE= measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")"
done
record "article, anonymous, c=256" "$(COOKIE=$RETURNING measure "$BASE/" 256 "$ROOT/Benchmarks/lib/articles.lua")"
record "front page, c=256" "$(measure "$BASE/" 256)"
record "profile page (60 comments)" "$(COOKIE= PAGE_PATH=/users/benchreader measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"
record "account page, logged in" "$(PAGE_PATH=/account measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"
record "section page" "$(COOKIE= PAGE_PATH=/sections/world measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"
record "section feed" "$(COOKIE= PAGE_PATH=/sections/world/feed.atom measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"
record "Markdown article + image" "$(COOKIE= PAGE_PATH=/articles/newsroom-benchmark-article measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"
record "image from /media (~250 KB)" "$(COOKIE= PAGE_PATH=$MEDIA_PATH measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"
record "newsroom desk, editor" "$(PAGE_PATH=/editor measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/page.lua")"

# Bytes per response, asked for while this server still runs.
# Body bytes of one response: PATH, optional COOKIE, Accept-Encoding (default: ACCEPT_ENCODING).
bytes() {
  local ae=${3-$ACCEPT_ENCODING}
  curl -s -o /dev/null -w '%{size_download}' ${2:+-b "$2"} ${ae:+-H "Accept-Encoding: $ae"} "$BASE$1"
}
ARTICLE=/articles/generated-1
declare -A BYTES=(
  ["front page"]=$(bytes /) ["article, anonymous"]=$(bytes $ARTICLE "$RETURNING") ["article, first visit"]=$(bytes $ARTICLE)
  ["article, logged in"]=$(bytes $ARTICLE "$COOKIE") ["profile page (60 comments)"]=$(bytes /users/benchreader)
  ["account page, logged in"]=$(bytes /account "$COOKIE") ["section page"]=$(bytes /sections/world)
  ["section feed"]=$(bytes /sections/world/feed.atom) ["Markdown article + image"]=$(bytes /articles/newsroom-benchmark-article)
  ["newsroom desk, editor"]=$(bytes /editor "$COOKIE") ["image from /media (~250 KB)"]=$(bytes "$MEDIA_PATH")
  ["nginx, front page bytes, gzip_static"]=$(curl -s -o /dev/null -w '%{size_download}' -H 'Accept-Encoding: gzip' http://127.0.0.1:18080/front.html)
  ["nginx, article bytes, gzip_static"]=$(curl -s -o /dev/null -w '%{size_download}' -H 'Accept-Encoding: gzip' http://127.0.0.1:18080/article.html)
)
FRONT_BR=$(bytes / "" br) FRONT_ZSTD=$(bytes / "" zstd)
FRONT_GZIP=$(bytes / "" gzip) FRONT_IDENTITY=$(bytes / "" "")
ARTICLE_BR=$(bytes $ARTICLE "$RETURNING" br) ARTICLE_ZSTD=$(bytes $ARTICLE "$RETURNING" zstd)
ARTICLE_GZIP=$(bytes $ARTICLE "$RETURNING" gzip) ARTICLE_IDENTITY=$(bytes $ARTICLE "$RETURNING" "")
# Like counts must equal the rows after all that.
MISMATCH=$(sqlite3 "$DATA/herald.sqlite3" "SELECT count(*) FROM articles a WHERE like_count != (SELECT count(*) FROM likes l WHERE l.article_id = a.id)")

# Article p99 while 4 clients log in continuously.
python3 "$ROOT/Benchmarks/lib/flows.py" login "$BASE" 8 4 >"$WORK/logins.txt" &
LOGINS=$!
sleep 1
UNDER_LOGIN=$(COOKIE= measure "$BASE/" "$C" "$ROOT/Benchmarks/lib/articles.lua")
wait "$LOGINS"
record "article while 4 log in" "$UNDER_LOGIN"
LOGIN_RATE=$(cut -d' ' -f1 "$WORK/logins.txt")

# The whole anonymous flow: like -> login -> liked article (argon2id included).
FLOWS=$(python3 "$ROOT/Benchmarks/lib/flows.py" flow "$BASE" 10 4 | cut -d' ' -f1)

RSS_KB=$(awk '/VmHWM/ { print $2 }' "/proc/$HERALD_PID/status")
kill -TERM "$HERALD_PID"; wait "$HERALD_PID" || true

# Peak RSS of a server that served only pages (no logins, so no password-hashing memory), at c=256.
start_herald "$DATA"
BASE=http://127.0.0.1:$PORT
COOKIE=$RETURNING measure "$BASE/" 256 "$ROOT/Benchmarks/lib/articles.lua" >/dev/null
COOKIE= measure "$BASE/" 256 "$ROOT/Benchmarks/lib/articles.lua" >/dev/null
measure "$BASE/" 256 >/dev/null
PAGES_RSS_KB=$(awk '/VmHWM/ { print $2 }' "/proc/$HERALD_PID/status")
kill -TERM "$HERALD_PID"; wait "$HERALD_PID" || true

# Start-up to the first served request with 1,000,000 articles (short bodies: start-up reads none).
BIG=$WORK/big
start_herald "$BIG"; kill -TERM "$HERALD_PID"; wait "$HERALD_PID" || true
sqlite3 "$BIG/herald.sqlite3" <<SQL >/dev/null
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
INSERT INTO articles (slug, source_id, title, summary, body, author, section, section_slug, published_at, updated_at)
SELECT 'generated-' || i, 'generated-' || i, 'Generated article ' || i, 'Summary ' || i, 'Body of article ' || i,
       'Bench Writer', 'world', 'world', 1600000000 + i, 1600000000 + i
FROM n;
INSERT INTO sections (slug, name, name_key) VALUES ('world', 'world', 'world') ON CONFLICT DO NOTHING;
COMMIT;
SQL
STARTED=$(date +%s%N)
HERALD_ACCESS_LOG=off "$HERALD" serve --port 18181 --data "$BIG" --root "$ROOT" >/dev/null 2>&1 &
HERALD_PID=$!
until curl -sf -o /dev/null http://127.0.0.1:18181/; do sleep 0.002; done
STARTUP_MS=$(( ($(date +%s%N) - STARTED) / 1000000 ))
kill -TERM "$HERALD_PID"; wait "$HERALD_PID" || true

NGINX_RPS=$(( SUM_RPS["nginx static 2 KB"] / ROUNDS ))
avg() { echo $(( SUM_RPS[$1] / ${2:-$ROUNDS} )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
atleast() { awk -v r="$1" -v t="$2" 'BEGIN { print (r >= t) ? "met" : "not met" }'; }
# Issue #31's targets: against nginx serving the same page's bytes gzipped beforehand.
declare -A CEILING=(
  ["front page"]="nginx, front page bytes, gzip_static" ["article, anonymous"]="nginx, article bytes, gzip_static"
  ["article, first visit"]="nginx, article bytes, gzip_static" ["article, logged in"]="nginx, article bytes, gzip_static"
)
declare -A TARGET=(["front page"]=0.60 ["article, anonymous"]=0.60 ["article, first visit"]=0.60 ["article, logged in"]=0.30)
declare -A PLAIN_TARGET=(["front page"]=0.55 ["article, anonymous"]=0.60 ["article, first visit"]=0.60)
row() { # name rounds
  local rps; rps=$(avg "$1" "$2")
  local p50; p50=$(awk -v s="${SUM_P50[$1]}" -v n="$2" 'BEGIN { printf "%.2f", s / n }')
  local ceiling="${CEILING[$1]:-}" of="" target=""
  if [ -n "$ceiling" ]; then
    of="$(ratio "$rps" "$(avg "$ceiling")")× of ${ceiling#nginx, }"
    target="≥ ${TARGET[$1]}×: $(atleast "$(ratio "$rps" "$(avg "$ceiling")")" "${TARGET[$1]}")"
  else
    of="$(ratio "$rps" "$NGINX_RPS")× of the 2 KB file"
  fi
  local plain="" plain_of="" plain_target=""
  if [ -n "${SUM_RPS[$1, no encoding]:-}" ]; then
    plain=$(avg "$1, no encoding" "$2"); plain_of="$(ratio "$plain" "$NGINX_RPS")×"
    [ -n "${PLAIN_TARGET[$1]:-}" ] && plain_target="≥ ${PLAIN_TARGET[$1]}×: $(atleast "$(ratio "$plain" "$NGINX_RPS")" "${PLAIN_TARGET[$1]}")"
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$rps" "${BYTES[$1]:-}" "$p50" "${MAX_P99[$1]}" \
    "$of" "$target" "$plain" "$plain_of" "$plain_target"
}
verdict() { # value limit → met / not met (value ≤ limit)
  [ "$1" -le "$2" ] && echo met || echo "not met"
}
{
  echo
  echo "## Herald vs nginx: $(date -u +%Y-%m-%d) — commit $(git rev-parse --short HEAD), $(nproc) cores, wrk -t1 beside the server, c=$C unless noted, $ROUNDS rounds of $DURATION, Accept-Encoding: ${ACCEPT_ENCODING:-none}${HERALD_METRICS_TOKEN:+, metrics on (HERALD_METRICS_TOKEN set)}"
  echo
  echo "| scenario | req/s | bytes/response | p50 ms | p99 ms (worst round) | of nginx | target (#31) | no encoding req/s | of nginx 2 KB | target (#31) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for name in "nginx static 2 KB" "nginx, front page bytes, gzip_static" "nginx, front page bytes, gzip on" \
    "nginx, article bytes, gzip_static" "front page" "article, anonymous" "article, first visit" "article, logged in" \
    "like+unlike POSTs"; do row "$name" "$ROUNDS"; done
  for name in "article, anonymous, c=256" "front page, c=256" "profile page (60 comments)" "account page, logged in" \
    "section page" "section feed" "Markdown article + image" "image from /media (~250 KB)" "newsroom desk, editor" \
    "article while 4 log in"; do row "$name" 1; done
  echo
  echo "Anonymous readers send back the token cookie of their first visit; a first visit sends no cookie and is given one."
  echo "Bytes per response are the body as sent. nginx's gzip_static copies are \`gzip -9\` of Herald's identity pages."
  echo
  echo "- front page bytes: br $FRONT_BR, zstd $FRONT_ZSTD, gzip $FRONT_GZIP, identity $FRONT_IDENTITY; br is $(ratio "$FRONT_BR" "$FRONT_GZIP")× gzip's (target ≤ 0.85×: $(awk -v r="$(ratio "$FRONT_BR" "$FRONT_GZIP")" 'BEGIN { print (r <= 0.85) ? "met" : "not met" }'))"
  echo "- anonymous article bytes: br $ARTICLE_BR, zstd $ARTICLE_ZSTD, gzip $ARTICLE_GZIP, identity $ARTICLE_IDENTITY"
  echo "- like counts not equal to their rows after the run: $MISMATCH"
  echo "- logins/s by 4 clients (argon2id, interactive cost) during the article run: $LOGIN_RATE"
  echo "- anonymous like -> login -> liked article, 4 clients: $FLOWS flows/s"
  echo "- peak RSS after all of the above: $(( RSS_KB / 1024 )) MB (includes the password-hashing pool's working memory)"
  echo "- peak RSS of a server that served only pages, at c=256: $(( PAGES_RSS_KB / 1024 )) MB (target ≤ 64 MB: $(verdict $(( PAGES_RSS_KB / 1024 )) 64))"
  echo "- start-up to first served front page with 1,000,000 articles: $STARTUP_MS ms (target ≤ 100 ms: $(verdict "$STARTUP_MS" 100))"
} | tee -a Benchmarks/RESULTS.md

# The rest of issue #22's figures come from their own scripts, each printing its targets:
# PostgreSQL behind nginx with three nodes, and the second wave's pages at scale.
if [ "${ALL:-}" = 1 ]; then
  Benchmarks/cluster.sh
  Benchmarks/pages-at-scale.sh
else
  echo "like+unlike on PostgreSQL with 3 nodes: Benchmarks/cluster.sh; the pages at scale: Benchmarks/pages-at-scale.sh"
  echo "(ALL=1 Benchmarks/run.sh runs both after this, about 8 minutes more)"
fi

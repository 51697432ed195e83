#!/usr/bin/env bash
# The second wave's pages at scale (issue #22): a section page, search, a profile, /me/replies,
# /editor and /moderation, each p99 <= 5 ms (search <= 20 ms) at c=32 with 100,000 published
# articles and 1,000,000 comments.
#
# Makes a fresh data directory, lets herald create the schema, registers one reader over HTTP
# (made editor and moderator on the command line), then generates straight into SQLite with
# recursive CTEs: 12 sections, 100,000 published articles (the search index filled by its own
# triggers), 300 drafts and scheduled articles, 10,000 readers, 1,000,000 comments (a third of them
# replies, up to three deep; 1 % hidden), likes, a few thousand reports and the record of
# moderation actions — every count equal to its rows. The benchmark reader has 2,000 comments and
# 5,000 replies to them. Then a release herald serves it (loopback only) and wrk measures each
# page (-t1 -c32, random choices where there are several: sections, readers, queries).
# Prints a table with each target and appends it, dated, to Benchmarks/RESULTS.md.
#
# Takes about three minutes: ~50 s to generate (~600 MB of data), then for each page a 2 s
# warm-up that asks for every one of its paths (search's cached trigram counts, SQLite's and the
# system's caches: the steady state of a running site) and two rounds of 5 s measured.
#
#   Benchmarks/pages-at-scale.sh
#   KEEP_DATA=/tmp/scale-data Benchmarks/pages-at-scale.sh   # generate there once, reuse after
#
# DURATION (5s), ROUNDS (2) and CONNECTIONS (32) change how wrk runs; a page's p99 is its worst
# round's. PAGES (an extended regular expression, default every page) picks the rows to measure:
#   PAGES=search KEEP_DATA=/tmp/scale-data Benchmarks/pages-at-scale.sh
#   HERALD=/tmp/herald-before PAGES=search KEEP_DATA=/tmp/scale-data Benchmarks/pages-at-scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-32}
ROUNDS=${ROUNDS:-2}
PAGES=${PAGES:-.}
ARTICLES=100000
READERS=10000
READER=benchreader

./scripts/install-deps.sh libmicrohttpd-dev libsodium-dev libsqlite3-dev zlib1g-dev libbrotli-dev libzstd-dev pkg-config sqlite3 wrk curl
# HERALD=path measures that binary instead of building this checkout (another build, same data).
if [ -z "${HERALD:-}" ]; then
  swift build -c release --product herald >/dev/null
  HERALD=$ROOT/.build/release/herald
fi

source "$ROOT/Benchmarks/lib/herald-server.sh"

if [ -n "${KEEP_DATA:-}" ]; then
  DATA=$KEEP_DATA
  mkdir -p "$DATA"
else
  DATA=$(mktemp -d)
fi
DB=$DATA/herald.sqlite3
cleanup() {
  [ -n "${PID:-}" ] && kill -TERM "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  [ -z "${KEEP_DATA:-}" ] && rm -rf "$DATA"
  return 0
}
trap cleanup EXIT

generate() {
  rm -rf "${DATA:?}"/*
  start_herald "$DATA"   # creates the schema, the search index and its triggers
  local base=http://127.0.0.1:$PORT jar token session
  jar=$(mktemp)
  token=$(curl -s -c "$jar" -b "$jar" "$base/register" | grep -o 'name="csrf_token" value="[^"]*"' | head -1 | cut -d'"' -f4)
  curl -s -o /dev/null -c "$jar" -b "$jar" -d "csrf_token=$token&username=$READER&password=bench-pass-phrase-1" "$base/register"
  session=$(awk '$6 == "herald_session" { print $7 }' "$jar")
  rm -f "$jar"
  [ -n "$session" ] || { echo "could not register $READER" >&2; exit 1; }
  stop_herald; PID=
  "$HERALD" users --data "$DATA" grant "$READER" editor >/dev/null
  "$HERALD" users --data "$DATA" grant "$READER" moderator >/dev/null

  local now t0 c0 started
  now=$(date +%s)
  t0=$(( now - ARTICLES * 30 - 3600 ))   # an article every 30 s, the newest an hour ago
  c0=$(( now - 2000000 - 600 ))          # a comment every 2 s, the newest ten minutes ago
  started=$(date +%s)
  sqlite3 "$DB" >/dev/null <<SQL
PRAGMA journal_mode=WAL;
PRAGMA foreign_keys=ON;
BEGIN;
INSERT INTO sections (slug, name, name_key) VALUES
  ('world', 'World', 'world'), ('politics', 'Politics', 'politics'), ('business', 'Business', 'business'),
  ('technology', 'Technology', 'technology'), ('science', 'Science', 'science'), ('health', 'Health', 'health'),
  ('sport', 'Sport', 'sport'), ('culture', 'Culture', 'culture'), ('opinion', 'Opinion', 'opinion'),
  ('travel', 'Travel', 'travel'), ('climate', 'Climate', 'climate'), ('education', 'Education', 'education');

-- 100,000 published articles, ids 1..100000 (a section each, in turn); the search index's
-- insert trigger indexes each one.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $ARTICLES)
INSERT INTO articles (id, slug, source_id, title, summary, body, author, section, section_slug, published_at, updated_at)
SELECT i, 'article-' || i, 'bench-' || i,
       s.name || ': ' || CASE i % 5 WHEN 0 THEN 'Council budget vote' WHEN 1 THEN 'Harbour ferry timetable'
         WHEN 2 THEN 'Library opening hours' WHEN 3 THEN 'Market traders protest' ELSE 'Tram line extension' END
         || ', report ' || i,
       'The harbour council discussed its budget, item ' || (i % 997) || '.',
       'The council met on a grey morning to argue about the budget for the harbour and the ferry' || (i % 1000)
         || ' line. ' || CASE WHEN i % 50 = 0 THEN '北京市议会今天讨论了预算。' ELSE '' END
         || replace(hex(zeroblob(60)), '00', 'words ') || char(10) || char(10)
         || 'Residents asked about the tram, the library' || (i % 313) || ' and the market' || (i % 71) || '. '
         || replace(hex(zeroblob(60)), '00', 'more text '),
       'Bench Writer', s.name, s.slug, $t0 + i * 30, $t0 + i * 30
FROM n JOIN sections s ON s.rowid = 1 + i % 12;

-- The newsroom's desk: 200 drafts and 100 scheduled articles, changed in the last hours.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO articles (slug, title, summary, body, author, section, section_slug, published_at, updated_at, draft,
                      slug_fixed, author_id, body_html)
SELECT 'desk-' || i, 'Desk article ' || i, 'Being written.', 'Draft text ' || i || '.', '$READER', s.name, s.slug,
       CASE WHEN i % 3 = 0 THEN $now + i * 3600 ELSE $now - 60 END, $now - i * 60,
       CASE WHEN i % 3 = 0 THEN 0 ELSE 1 END, CASE WHEN i % 3 = 0 THEN 1 ELSE 0 END, 1,
       '<p>Draft text ' || i || '.</p>'
FROM n JOIN sections s ON s.rowid = 1 + i % 12;

-- 10,000 readers, ids 2..10001 (the benchmark reader, registered above, is 1). Nobody logs in
-- as them: the hash is a placeholder.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $READERS)
INSERT INTO users (id, username, username_key, password_hash, created_at)
SELECT i + 1, 'reader' || i, 'reader' || i, 'generated', $c0 - 86400 * 30 + i * 60 FROM n;

-- 700,000 conversations (top-level comments), ids 1..700000: one in ten under the 1,000 newest
-- articles, the rest spread evenly; every 350th by the benchmark reader; ~1 % hidden.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700000)
INSERT INTO comments (id, article_id, user_id, body, created_at, hidden, parent_id, thread_id, reply_to_user, reply_read)
SELECT i,
       CASE WHEN i % 10 = 0 THEN $ARTICLES - 999 + (i / 10) % 1000 ELSE 1 + (i * 7919) % $ARTICLES END,
       CASE WHEN i % 350 = 0 THEN 1 ELSE 2 + (i * 104729) % $READERS END,
       'Comment ' || i || ': I read this twice and I still think the council has the budget wrong.'
         || CASE WHEN i % 3 = 0 THEN char(10) || char(10) || 'The ferry and the tram were promised years ago.' ELSE '' END,
       $c0 + i * 2, CASE WHEN i % 101 = 0 AND i % 350 <> 0 THEN 1 ELSE 0 END, NULL, i, NULL, 1
FROM n;

-- 250,000 replies to them (ids 700001..950000, each to a different conversation)…
WITH RECURSIVE n(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM n WHERE j < 250000)
INSERT INTO comments (id, article_id, user_id, body, created_at, hidden, parent_id, thread_id, reply_to_user, reply_read)
SELECT 700000 + j, p.article_id, 2 + (j * 31337) % $READERS,
       'Reply ' || j || ': not quite; the minutes of the last meeting say otherwise.',
       $c0 + (700000 + j) * 2, CASE WHEN j % 103 = 0 THEN 1 ELSE 0 END, p.id, p.id, p.user_id, 1
FROM n JOIN comments p ON p.id = 1 + (j * 15485863) % 700000;

-- …45,000 replies to replies (ids 950001..995000)…
WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 45000)
INSERT INTO comments (id, article_id, user_id, body, created_at, hidden, parent_id, thread_id, reply_to_user, reply_read)
SELECT 950000 + k, p.article_id, 2 + (k * 7) % $READERS, 'Answer ' || k || ': they were read out in full, I was there.',
       $c0 + (950000 + k) * 2, 0, p.id, p.thread_id, p.user_id, 1
FROM n JOIN comments p ON p.id = 700001 + (k * 7907) % 250000;

-- …and 5,000 replies to the benchmark reader's comments (ids 995001..1000000), the last 200 unread.
WITH RECURSIVE n(m) AS (SELECT 1 UNION ALL SELECT m + 1 FROM n WHERE m < 5000)
INSERT INTO comments (id, article_id, user_id, body, created_at, hidden, parent_id, thread_id, reply_to_user, reply_read)
SELECT 995000 + m, p.article_id, 2 + (m * 7) % $READERS, 'Reply to you, ' || m || ': have you read the budget itself?',
       $c0 + (995000 + m) * 2, CASE WHEN m % 97 = 0 THEN 1 ELSE 0 END, p.id, p.thread_id, p.user_id,
       CASE WHEN m > 4800 THEN 0 ELSE 1 END
FROM n JOIN comments p ON p.id = 350 * (1 + (m * 13) % 2000);

UPDATE id_counters SET last = (SELECT max(id) FROM comments) WHERE name = 'comments';

-- Likes: ~300,000 (one per reader and article at most).
WITH RECURSIVE n(q) AS (SELECT 1 UNION ALL SELECT q + 1 FROM n WHERE q < 300000)
INSERT OR IGNORE INTO likes (user_id, article_id, liked_at)
SELECT 2 + (q / 30) % $READERS, 1 + (q * 102947) % $ARTICLES, $now - q FROM n;

-- Reports: 3,000 comments reported by 1 to 5 readers each (never their own), four reasons; those
-- on hidden comments, and one comment in seven's, closed (hidden or dismissed).
WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 3000),
k(y) AS (VALUES (1), (2), (3), (4), (5))
INSERT OR IGNORE INTO comment_reports (comment_id, user_id, reason, created_at, is_open)
SELECT c.id, 2 + (x * 17 + y * 1009) % $READERS,
       CASE (x + y) % 4 WHEN 0 THEN 'spam' WHEN 1 THEN 'abuse' WHEN 2 THEN 'off-topic' ELSE 'other' END,
       $now - x * 60, CASE WHEN c.hidden = 1 OR x % 7 = 0 THEN 0 ELSE 1 END
FROM r JOIN k ON y <= 1 + (x * x) % 5 JOIN comments c ON c.id = 1 + (x * 104723) % 1000000
WHERE c.user_id <> 2 + (x * 17 + y * 1009) % $READERS;

-- The record of moderation: each hidden comment's hiding.
INSERT INTO moderation_actions (actor, action, target, note, at)
SELECT 'moderator', 'hide', 'comment ' || id, 'generated', created_at + 60 FROM comments WHERE hidden = 1 ORDER BY id;

-- Every count equal to its rows.
UPDATE articles SET
  comment_count = (SELECT count(*) FROM comments c WHERE c.article_id = articles.id AND c.hidden = 0),
  like_count = (SELECT count(*) FROM likes l WHERE l.article_id = articles.id);
UPDATE users SET unread_replies = (
  SELECT count(*) FROM comments WHERE reply_to_user = users.id AND reply_read = 0 AND hidden = 0 AND user_id <> users.id);
COMMIT;
SQL
  # Since migration 12 each comment also counts its open reports (the moderation queue's order).
  if [ -n "$(sqlite3 "$DB" "SELECT 1 FROM pragma_table_info('comments') WHERE name = 'open_reports'")" ]; then
    sqlite3 "$DB" <<'SQL'
UPDATE comments SET open_reports = (
  SELECT count(*) FROM comment_reports r WHERE r.comment_id = comments.id AND r.is_open = 1)
WHERE id IN (SELECT comment_id FROM comment_reports WHERE is_open = 1);
SQL
  fi
  sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
  echo "generated in $(( $(date +%s) - started )) s: $(( $(stat -c %s "$DB") / 1048576 )) MB"
  echo "herald_session=$session" >"$DATA/bench-cookie"
}

if [ -z "${KEEP_DATA:-}" ] || [ ! -s "$DATA/bench-cookie" ]; then generate; fi
COOKIE=$(cat "$DATA/bench-cookie")

OPEN_REPORTS_CHECK=0
if [ -n "$(sqlite3 "$DB" "SELECT 1 FROM pragma_table_info('comments') WHERE name = 'open_reports'")" ]; then
  OPEN_REPORTS_CHECK="(SELECT count(*) FROM comments c WHERE open_reports <> (
    SELECT count(*) FROM comment_reports r WHERE r.comment_id = c.id AND r.is_open = 1))"
fi
sqlite3 -separator ' ' "$DB" <<SQL | { read -r articles comments wrong; echo "data: $articles published articles, $comments comments, $wrong counts not equal to their rows"; [ "$wrong" = 0 ]; }
SELECT (SELECT count(*) FROM articles WHERE draft = 0 AND published_at <= unixepoch()),
       (SELECT count(*) FROM comments),
       (SELECT count(*) FROM articles a WHERE comment_count <> (SELECT count(*) FROM comments c WHERE c.article_id = a.id AND c.hidden = 0)
          OR like_count <> (SELECT count(*) FROM likes l WHERE l.article_id = a.id))
       + (SELECT count(*) FROM users u WHERE unread_replies <> (SELECT count(*) FROM comments c
          WHERE c.reply_to_user = u.id AND c.reply_read = 0 AND c.hidden = 0 AND c.user_id <> u.id))
       + $OPEN_REPORTS_CHECK;
SQL

start_herald "$DATA"
BASE=http://127.0.0.1:$PORT

paths() { printf '%s ' "$@"; }
SECTION_PATHS=$(for s in $(sqlite3 "$DB" "SELECT slug FROM sections"); do for p in 1 2 3; do
  [ "$p" = 1 ] && echo "/sections/$s" || echo "/sections/$s?page=$p"; done; done | tr '\n' ' ')
PROFILE_PATHS=$(for i in $(seq 1 500); do echo "/users/reader$(( (i * 7919) % READERS + 1 ))"; done | tr '\n' ' ')
# Rare words: each held by 100 to 320 of the 100,000 articles ("ferry123": i % 1000 = 123,
# "library123": i % 313 = 123). Two words (a rare one with a common or a middling one), one rare
# word, one common word (every article holds it: the 1,000 newest matches are ranked).
TWO_WORDS=$(for i in $(seq 1 200); do
  case $(( i % 3 )) in
    0) echo "/search?q=harbour%20ferry$(( 100 + (i * 37) % 900 ))" ;;
    1) echo "/search?q=library$(( 100 + (i * 13) % 213 ))%20market$(( 10 + i % 61 ))" ;;
    *) echo "/search?q=tram%20library$(( 100 + (i * 7) % 213 ))" ;;
  esac; done | tr '\n' ' ')
ONE_WORD=$(for i in $(seq 1 200); do
  case $(( i % 2 )) in
    0) echo "/search?q=ferry$(( 100 + (i * 37) % 900 ))" ;;
    *) echo "/search?q=library$(( 100 + (i * 13) % 213 ))" ;;
  esac; done | tr '\n' ' ')
COMMON_WORD=$(paths /search?q=council /search?q=budget /search?q=harbour /search?q=residents /search?q=morning)
# Chinese, without spaces (one article in 50 holds 北京市议会今天讨论了预算): two-character pieces
# only (北京, 议会, 预算, 北京议会 → 北京 + 议会), and with a longer word beside them.
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
CHINESE=$(for q in 北京 议会 预算 北京议会 今天讨论 "北京 budget" "议会 harbour"; do echo "/search?q=$(enc "$q")"; done | tr '\n' ' ')

measure() { # MARKER PATHS [COOKIE] → "req/s p50 p99" (ms) for each of ROUNDS runs, after a warm-up that asks for every path
  local marker=$1
  local -x PATHS=$2 COOKIE=${3:-}
  # The first path must answer 200 with what the page lists (MARKER), not an empty page.
  # The whole page is read before it is searched: `curl | grep -q` fails under pipefail when grep
  # stops at the first match while curl is still writing a large page (curl's exit 23).
  local page
  for path in $PATHS; do
    page=$(curl -sf ${COOKIE:+-b "$COOKIE"} "$BASE$path") && grep -q -- "$marker" <<<"$page" \
      || { echo "GET $path: failed or without $marker" >&2; exit 1; }
    break
  done
  SEQUENTIAL=1 wrk -t1 -c4 -d2s -s "$ROOT/Benchmarks/lib/paths.lua" "$BASE/" >/dev/null
  for _ in $(seq 1 "$ROUNDS"); do
    wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$ROOT/Benchmarks/lib/paths.lua" "$BASE/" | awk '
      function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
      /Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
      / Non-2xx or 3xx responses/ { bad = $NF }
      END { if (bad) { print "non-2xx answers: " bad > "/dev/stderr"; exit 1 }; printf "%.0f %.2f %.2f\n", rps, p50, p99 }'
  done
}

ROWS=()
ALL_MET=yes
run() { # name target-ms MARKER PATHS [COOKIE]: req/s and p50 averaged over the rounds, p99 the worst round's
  grep -qE -- "$PAGES" <<<"$1" || return 0
  local results rps p50 p99 met
  results=$(measure "$3" "$4" "${5:-}")
  read -r rps p50 p99 < <(awk '{ r += $1; a += $2; if ($3 > w) w = $3 } END { printf "%.0f %.2f %.2f\n", r / NR, a / NR, w }' <<<"$results")
  met=$(awk -v p="$p99" -v t="$2" 'BEGIN { print (p <= t) ? "yes" : "no" }')
  [ "$met" = yes ] || ALL_MET=no
  ROWS+=("| $1 | $rps | $p50 | $p99 | $2 | $met |")
  printf '%-38s %8s req/s  p50 %7s ms  p99 %7s ms  target %2s ms  %s\n' "$1" "$rps" "$p50" "$p99" "$2" "$met"
}

run "section page (12 sections, pages 1-3)" 5 'class="story-title"' "$SECTION_PATHS"
run "search, two rare words" 20 'class="story search-result"' "$TWO_WORDS"
run "search, one rare word" 20 'class="story search-result"' "$ONE_WORD"
run "search, one common word" 20 'class="story search-result"' "$COMMON_WORD"
run "search, Chinese without spaces" 20 'class="story search-result"' "$CHINESE"
run "profile (random readers)" 5 '<li class="comment">' "$PROFILE_PATHS"
run "profile ($READER, 2,000 comments)" 5 '<li class="comment">' "$(paths /users/$READER)"
run "/me/replies (5,000 replies)" 5 'class="reply-item' "$(paths /me/replies)" "$COOKIE"
run "/editor (logged-in editor)" 5 'data-article-id=' "$(paths /editor)" "$COOKIE"
run "/moderation (logged-in moderator)" 5 'data-report-count=' "$(paths /moderation)" "$COOKIE"

OPEN=$(sqlite3 "$DB" "SELECT count(*), count(DISTINCT comment_id) FROM comment_reports WHERE is_open = 1" | tr '|' ' ')
{
  echo
  echo "## Pages at scale: $(date -u +%Y-%m-%d) — commit $("$HERALD" --version | sed -n 's/.*commit \([0-9a-f]\{7\}\).*/\1/p'), $(nproc) cores, wrk -t1 -c$CONNECTIONS beside the server, $ROUNDS rounds of $DURATION"
  echo
  echo "100,000 published articles (12 sections, 300 drafts and scheduled), 10,000 readers, 1,000,000 comments"
  echo "(a third replies, 1 % hidden), open reports: ${OPEN% *} on ${OPEN#* } comments. req/s and p50 averaged over the rounds,"
  echo "p99 the worst round's, in ms."
  echo
  echo "| page | req/s | p50 | p99 | target p99 | met |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${ROWS[@]}"
  [ "$PAGES" = . ] || echo "(only the pages matching PAGES=$PAGES)"
} | tee -a Benchmarks/RESULTS.md >/dev/null
echo "appended to Benchmarks/RESULTS.md; every target met: $ALL_MET"

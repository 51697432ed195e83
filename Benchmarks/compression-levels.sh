#!/usr/bin/env bash
# Size and time of every gzip, brotli and zstd level on Herald's own pages, and of the templates
# a shared page is compressed into: the measurement the levels in PageEncoder were chosen by.
#
#   Benchmarks/compression-levels.sh        # ~1 minute; prints one table per page
#
# Starts a release build on a fresh data directory (the demo content), makes a reader with 20
# comments under one article, saves the pages (front page, an anonymous article, the commented
# article, the reader's front page and account page, the site's feed) and runs
# `compression-bench` on them (Benchmarks/CompressionBench).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d)
trap 'kill "${PID:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT
swift build -c release --product herald >/dev/null
swift build -c release --product compression-bench >/dev/null
HERALD_ACCESS_LOG=off HERALD_PASSWORD_COST=minimum HERALD_COMMENTS_PER_MINUTE=100 .build/release/herald serve \
  --port 0 --data "$WORK/data" --root "$ROOT" >"$WORK/out" 2>/dev/null &
PID=$!
for _ in $(seq 1 300); do grep -q '^listening on ' "$WORK/out" 2>/dev/null && break; sleep 0.02; done
BASE=$(sed -n 's/^listening on //p' "$WORK/out")
token() { grep -o 'name="csrf_token" value="[^"]*"' | head -1 | cut -d'"' -f4; }
JAR=$WORK/jar
T=$(curl -s -c "$JAR" -b "$JAR" "$BASE/register" | token)
curl -s -o /dev/null -c "$JAR" -b "$JAR" -d "csrf_token=$T&username=levels_reader&password=a-long-pass-phrase" "$BASE/register"
SLUG=$(curl -s "$BASE/" | grep -o 'href="/articles/[^"]*"' | head -1 | cut -d/ -f3 | tr -d '"')
OTHER=$(curl -s "$BASE/" | grep -o 'href="/articles/[^"]*"' | sed -n 5p | cut -d/ -f3 | tr -d '"')
for i in $(seq 1 20); do
  curl -s -o /dev/null -b "$JAR" -H 'Sec-Fetch-Site: same-origin' \
    --data-urlencode "body=Comment $i: a reader's thoughts on the story, a sentence or two long, as most comments are." \
    "$BASE/articles/$OTHER/comments"
done
curl -s -o "$WORK/front.html" "$BASE/"
curl -s -o "$WORK/article.html" "$BASE/articles/$SLUG"
curl -s -o "$WORK/article-20-comments.html" "$BASE/articles/$OTHER"
curl -s -b "$JAR" -o "$WORK/front-logged-in.html" "$BASE/"
curl -s -b "$JAR" -o "$WORK/account.html" "$BASE/account"
curl -s -o "$WORK/feed.atom" "$BASE/feed.atom"
cd "$WORK" && "$ROOT/.build/release/compression-bench" front.html article.html article-20-comments.html \
  front-logged-in.html account.html feed.atom

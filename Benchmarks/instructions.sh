#!/usr/bin/env bash
# Instructions and heap allocations per request for one page, counted by valgrind's callgrind:
# the same figure on every run, where req/s on this shared machine moves by a quarter from one
# minute to the next. For comparing two builds of one change, not for comparing with nginx
# (the kernel's share of a request, sends and wakeups, is not counted).
#
#   Benchmarks/instructions.sh PATH [REQUESTS] [COOKIE]
#   DATA=/tmp/scale-data Benchmarks/instructions.sh /moderation 20 "$(cat /tmp/scale-data/bench-cookie)"
#   HERALD=/tmp/herald-before Benchmarks/instructions.sh /       # another build of the server
#
# Serves DATA (default: a fresh directory with the demo content) on a loopback port under
# callgrind, asks for PATH ten times to warm up, then counts REQUESTS (default 50) more, one at a
# time. A page cache entry lasts a second, and a request under callgrind takes tens of
# milliseconds, so cached pages are re-rendered about once in twenty requests here: compare like
# with like. KEEP=FILE keeps the callgrind output for `callgrind_annotate --inclusive=yes FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${1:?usage: Benchmarks/instructions.sh PATH [REQUESTS] [COOKIE]}
REQUESTS=${2:-50}
COOKIE=${3:-}
PORT=${PORT:-18390}

./scripts/install-deps.sh valgrind curl
if [ -z "${HERALD:-}" ]; then
  swift build -c release --product herald >/dev/null
  HERALD=$ROOT/.build/release/herald
fi
WORK=$(mktemp -d)
DEMO=--no-demo
if [ -z "${DATA:-}" ]; then DATA=$WORK/data; DEMO=; fi
trap 'kill "${PID:-}" 2>/dev/null || true; rm -rf "$WORK"' EXIT

HERALD_ACCESS_LOG=off valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.%p" --dump-instr=no \
  "$HERALD" serve --port "$PORT" --data "$DATA" --root "$ROOT" $DEMO --max-connections-per-address 0 \
  >/dev/null 2>"$WORK/valgrind.log" &
PID=$!
ask() { curl -s -o /dev/null ${COOKIE:+-b "$COOKIE"} "http://127.0.0.1:$PORT$TARGET"; }
for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/health" && break; sleep 0.1; done
for _ in $(seq 1 10); do ask; done
callgrind_control --zero "$PID" >/dev/null 2>&1
for _ in $(seq 1 "$REQUESTS"); do ask; done
callgrind_control --dump "$PID" >/dev/null 2>&1
sleep 0.5
DUMP=$(ls "$WORK"/callgrind.*.1)
[ -n "${KEEP:-}" ] && cp "$DUMP" "$KEEP"

INSTRUCTIONS=$(awk '/^(summary|totals):/ { print $2; exit }' "$DUMP")
# Calls into malloc: each call line ("calls=N …") follows the "cfn=" naming its callee; names
# are compressed to "(id)" after their first appearance.
MALLOCS=$(awk '
  /^c?fn=\([0-9]+\) / { id = $1; sub(/^c?fn=/, "", id); name[id] = $2 }
  /^cfn=/ { id = $1; sub(/^cfn=/, "", id); callee = name[id]; next }
  /^calls=/ { if (callee == "malloc") { split($1, c, "="); n += c[2] }; callee = ""; next }
  END { print n + 0 }' "$DUMP")
printf '%s %s: %d instructions, %.1f mallocs per request (%d requests)\n' \
  "$(basename "$HERALD")" "$TARGET" $((INSTRUCTIONS / REQUESTS)) "$(awk -v m="$MALLOCS" -v n="$REQUESTS" 'BEGIN { print m / n }')" \
  "$REQUESTS"

# Shared by Benchmarks/scale.sh and Benchmarks/search.sh: a release herald on a data directory
# (loopback only, no demo content), started and stopped. Source it with HERALD and ROOT set.

start_herald() { # $1 data dir → sets PID, PORT
  local out; out=$(mktemp)
  # wrk's connections all come from 127.0.0.1 but stand for many readers: no per-address limit.
  HERALD_ACCESS_LOG=off "$HERALD" serve --port 0 --data "$1" --root "$ROOT" --no-demo --max-connections-per-address 0 \
    >"$out" 2>/dev/null &
  PID=$!
  # Start-up on a large database (1M articles) may take a while: up to 30 s.
  for _ in $(seq 1 3000); do grep -q '^listening on ' "$out" && break; sleep 0.01; done
  PORT=$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$out" | head -1)
  rm -f "$out"
  [ -n "$PORT" ] || { echo "herald did not start" >&2; exit 1; }
}

stop_herald() { kill -TERM "$PID"; wait "$PID" || true; }

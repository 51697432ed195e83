#!/usr/bin/env bash
# Operations tests (issue #21), each against the real `herald` binary on loopback:
#   Tests/ops/test_backup.py   herald backup; a restore that keeps every like acknowledged before it
#   Tests/ops/test_metrics.py  /metrics behind a token or on --metrics-port, read with prometheus_client
#   Tests/ops/test_logs.py     JSON logs, request ids, log levels; no secret in any log line
#   Tests/ops/test_deploy.py   herald --version, deploy/herald.service (systemd-analyze), READY=1/STOPPING=1
# (deploy/nginx.conf is run by scripts/cluster.sh and checked by Tests/cluster/test_cluster.py.)
#
#   scripts/ops-test.sh                    build herald if stale, run them all
#   scripts/ops-test.sh --no-build         use .build/debug/herald as it is (fails if it is missing)
#   scripts/ops-test.sh [--no-build] NAME…  only those (backup, metrics, logs, deploy)
#
# Installs Debian's python3-venv, python3-aiosmtpd (the SMTP sink for the mail metric) and systemd
# (systemd-analyze) when missing, and prometheus_client into a virtualenv at .build/ops-venv.
# Each test is bounded by OPS_TEST_TIMEOUT seconds (default 300). Ends with "ops: N passed, N failed"
# (checks, over all the tests) and a non-zero status when any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
names=()
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    backup|metrics|logs|deploy) names+=("$arg") ;;
    *) echo "ops-test: unknown argument: $arg" >&2; exit 2 ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(backup metrics logs deploy)

herald=${HERALD_BINARY:-.build/debug/herald}
export PYTHONDONTWRITEBYTECODE=1
venv=.build/ops-venv
requirements=Tests/ops/requirements.txt
timeout_seconds=${OPS_TEST_TIMEOUT:-300}
started=$SECONDS

source scripts/lib/test-env.sh

# 1. Debian packages, and prometheus_client in a virtualenv of its own (reinstalled only when
#    requirements.txt changes).
./scripts/install-deps.sh python3 python3-venv python3-aiosmtpd systemd
ensure_venv "$venv" "$requirements" ops-test

# 2. herald itself.
ensure_herald "$build" "$herald" ops-test

# 3. The tests, each bounded in time; SIGKILL 10 s after the SIGTERM if one will not stop.
passed=0
failed=0
status=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for name in "${names[@]}"; do
  code=0
  f=0
  # pipefail: the test's own status, not tee's.
  HERALD_BINARY=$herald timeout --kill-after=10 "$timeout_seconds" \
    "$venv/bin/python" "Tests/ops/test_$name.py" | tee "$log" || code=$?
  counts=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed" "$log" | tail -1 || true)
  if [ -n "$counts" ]; then
    p=$(echo "$counts" | sed -E 's/^[a-z]+: ([0-9]+) passed.*/\1/')
    f=$(echo "$counts" | sed -E 's/^[a-z]+: [0-9]+ passed, ([0-9]+) failed.*/\1/')
    passed=$((passed + p))
    failed=$((failed + f))
  fi
  if [ "$code" -ne 0 ]; then
    status=1
    if [ -z "$counts" ] || [ "$f" -eq 0 ]; then
      # Died (or timed out) before its own count: one failure for it.
      echo "ops-test: Tests/ops/test_$name.py exited with status $code"
      failed=$((failed + 1))
    fi
  fi
done
echo "ops-test: $((SECONDS - started)) s"
echo "ops: $passed passed, $failed failed"
exit "$status"

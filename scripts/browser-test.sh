#!/usr/bin/env bash
# Real-browser end-to-end test: headless Chromium, driven by Selenium, against a herald
# server the test starts itself (Tests/browser/test_browser.py).
#
#   scripts/browser-test.sh             install what is missing, build herald if stale, run the test
#   scripts/browser-test.sh --no-build  use .build/debug/herald as it is (fails if it is missing)
#
# Installs Debian's chromium and chromium-driver (and python3-venv) when missing, and Selenium
# into a virtualenv at .build/browser-venv (the system Python is not touched). Screenshots go to
# .build/browser-screenshots/. Exits non-zero when the test fails or takes longer than
# BROWSER_TEST_TIMEOUT seconds (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "browser-test: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

herald=.build/debug/herald
venv=.build/browser-venv
requirements=Tests/browser/requirements.txt
screenshots=.build/browser-screenshots
timeout_seconds=${BROWSER_TEST_TIMEOUT:-300}
started=$SECONDS

source scripts/lib/test-env.sh

# 1. Debian packages: the browser, its driver, and venv for Debian's python3.
./scripts/install-deps.sh python3 python3-venv chromium chromium-driver

# 2. Selenium in a virtualenv of its own; 3. herald itself.
ensure_venv "$venv" "$requirements" browser-test
ensure_herald "$build" "$herald" browser-test

# 4. The test, bounded in time; SIGKILL 10 s after the SIGTERM if it will not stop.
mkdir -p "$screenshots"
status=0
timeout --kill-after=10 "$timeout_seconds" \
  "$venv/bin/python" Tests/browser/test_browser.py \
  --herald "$herald" --root . --screenshots "$screenshots" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "browser-test: timed out after ${timeout_seconds}s" >&2
fi
echo "browser-test: exit status $status after $((SECONDS - started))s; screenshots in $screenshots/"
exit "$status"

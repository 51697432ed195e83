#!/usr/bin/env bash
# Real-browser end-to-end test: headless Chromium, driven by Selenium, against a herald
# server the test starts itself (Tests/browser/test_browser.py).
#
#   scripts/browser-test.sh             install what is missing, build herald if stale, run the test
#   scripts/browser-test.sh --no-build  use .build/debug/herald as it is (fails if it is missing)
#   scripts/browser-test.sh --only look run only the steps whose name holds the word
#
# Installs Debian's chromium and chromium-driver (and python3-venv) when missing, and Selenium
# into a virtualenv at .build/browser-venv (the system Python is not touched). Screenshots go to
# .build/browser-screenshots/ (look-*.png: every main page at 1280 and 390 px, light and dark). Exits non-zero when the test fails or takes longer than
# BROWSER_TEST_TIMEOUT seconds (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --only) [ $# -ge 2 ] || { echo "browser-test: --only needs a word" >&2; exit 2; }; only=(--only "$2"); shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "browser-test: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

herald=.build/debug/herald
venv=.build/browser-venv
requirements=Tests/browser/requirements.txt
screenshots=.build/browser-screenshots
timeout_seconds=${BROWSER_TEST_TIMEOUT:-300}
started=$SECONDS

source scripts/lib/test-env.sh

# 1. Debian packages: the browser, its driver, and venv for Debian's python3; and Noto CJK, a
#    font the stylesheet names for Traditional Chinese, so that the zh-TW step's screenshots show
#    the text (a reader's system has such fonts; this machine has none by default).
./scripts/install-deps.sh python3 python3-venv chromium chromium-driver fonts-noto-cjk

# 2. Selenium in a virtualenv of its own; 3. herald itself.
# --no-deps: the file pins every package itself. --ignore-requires-python: axe-selenium-python 3.0.0
# (the one release with axe-core 4) declares Python >= 3.12, but its one module is plain Selenium
# calls that run on Debian 12's 3.11; its pytest dependency is for its own plugin, not used here.
ensure_venv "$venv" "$requirements" browser-test --no-deps --ignore-requires-python
ensure_herald "$build" "$herald" browser-test

# 4. The test, bounded in time; SIGKILL 10 s after the SIGTERM if it will not stop.
mkdir -p "$screenshots"
status=0
timeout --kill-after=10 "$timeout_seconds" \
  "$venv/bin/python" Tests/browser/test_browser.py \
  --herald "$herald" --root . --screenshots "$screenshots" "${only[@]}" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "browser-test: timed out after ${timeout_seconds}s" >&2
fi
echo "browser-test: exit status $status after $((SECONDS - started))s; screenshots in $screenshots/"
exit "$status"

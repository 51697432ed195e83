#!/usr/bin/env bash
# Content-coding tests (issue #31): pages asked for in br, zstd and gzip from the real `herald`,
# decoded with real decoders (Python's gzip, Google's brotli, python-zstandard) and compared byte
# for byte with the same reader's uncompressed page (Tests/encodings/test_encodings.py).
#
#   scripts/encoding-test.sh             build herald if stale, run the test
#   scripts/encoding-test.sh --no-build  use .build/debug/herald as it is (fails if it is missing)
#
# Installs python3-venv when missing, and the decoders into a virtualenv at .build/encodings-venv
# (Tests/encodings/requirements.txt). Bounded by ENCODING_TEST_TIMEOUT seconds (default 300).
# Ends with "encodings: N passed, N failed"; non-zero when any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "encoding-test: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

herald=${HERALD_BINARY:-.build/debug/herald}
venv=.build/encodings-venv
export PYTHONDONTWRITEBYTECODE=1

source scripts/lib/test-env.sh
./scripts/install-deps.sh python3 python3-venv
ensure_venv "$venv" Tests/encodings/requirements.txt encoding-test
ensure_herald "$build" "$herald" encoding-test

HERALD_BINARY=$herald timeout --kill-after=10 "${ENCODING_TEST_TIMEOUT:-300}" \
  "$venv/bin/python" Tests/encodings/test_encodings.py

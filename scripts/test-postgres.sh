#!/usr/bin/env bash
# Runs the Swift test suites again with PostgreSQL as the store: a throw-away cluster on
# 127.0.0.1:55432, stopped and removed afterwards, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'scripts/postgres.sh stop "$dir/cluster"; rm -rf "$dir"' EXIT
url=$(scripts/postgres.sh start "$dir/cluster" "${HERALD_TEST_POSTGRES_PORT:-55432}")
echo "Running the test suites against PostgreSQL ($url)"
HERALD_TEST_DATABASE_URL=$url swift test --skip-build --parallel

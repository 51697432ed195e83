#!/bin/sh
# Renders the article page benchmark in release mode.
# Usage: Benchmarks/templates.sh [templates-directory] [iterations]
set -eu
cd "$(dirname "$0")/.."
exec swift run -c release template-bench "$@"

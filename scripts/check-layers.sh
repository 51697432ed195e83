#!/usr/bin/env bash
# The architecture's rules that a grep can prove (ARCHITECTURE.md, "The layers"); `make test` runs it.
#   - controllers reach data only through services: no controller names a *Store type;
#   - who may do what is decided once: no role check outside the route guards and the services;
#   - templates get typed view models: no [String: MustacheValue] literal in a controller;
#   - services know nothing of HTTP, and stores neither.
set -euo pipefail
cd "$(dirname "$0")/.."
failed=0
fail() { echo "check-layers: $1" >&2; echo "$2" >&2; failed=1; }

found=$(grep -rnE '\b[A-Z][A-Za-z]*Store\b' Sources/Herald/Controllers --include='*.swift' | grep -vE '^\S+:[0-9]+:\s*//' || true)
[ -z "$found" ] || fail "a controller names a store (go through a service):" "$found"

found=$(grep -rnE '\.grants\(' Sources/Herald --include='*.swift' \
  | grep -vE '^Sources/Herald/(Services/|App/RouteGuards\.swift)' || true)
[ -z "$found" ] || fail "a role is checked outside the route guards and the services:" "$found"

found=$(grep -rn '\[String: MustacheValue\]' Sources/Herald/Controllers --include='*.swift' || true)
[ -z "$found" ] || fail "a controller builds a template's values by hand (use a PageModel in Views/Pages):" "$found"

found=$(grep -rlnE '^(internal |public )?import HTTP$' Sources/Herald/Services Sources/Herald/Store --include='*.swift' || true)
[ -z "$found" ] || fail "a service or a store imports HTTP:" "$found"

[ "$failed" = 0 ] || exit 1
echo "check-layers: every rule holds"

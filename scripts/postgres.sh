#!/usr/bin/env bash
# A throw-away PostgreSQL cluster on loopback, for tests and benchmarks.
#
#   scripts/postgres.sh start DIR [PORT]   # prints the admin URL: postgres://herald@127.0.0.1:PORT/postgres
#   scripts/postgres.sh stop DIR
#
# Installs Debian's postgresql when missing. The cluster lives in DIR (owned by the postgres
# user, as initdb requires when run by root), listens on 127.0.0.1 only, non-default port
# (55432 unless given), trust authentication for the local role "herald". Never for production.
set -euo pipefail
cd "$(dirname "$0")/.."
command=${1:?start or stop}
dir=${2:?directory}
port=${3:-55432}

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ]; then
  ./scripts/install-deps.sh postgresql
  # Debian starts a default cluster on 5432; this project does not use it.
  (pg_ctlcluster --help >/dev/null 2>&1 && for c in $(pg_lsclusters -h 2>/dev/null | awk '{print $1"/"$2}'); do pg_ctlcluster ${c%/*} ${c#*/} stop || true; done) || true
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$command" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
      chown postgres:postgres "$dir"
      # The postgres user must be able to reach it: open the temp directories on the way (search only).
      parent=$(dirname "$(readlink -f "$dir")")
      while [ "$parent" != "/" ]; do
        case "$parent" in /tmp/*) chmod a+x "$parent" ;; esac
        parent=$(dirname "$parent")
      done
    fi
    if [ ! -f "$dir/PG_VERSION" ]; then
      as_postgres "$bin/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_postgres "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir -c fsync=on -c max_connections=300" start >/dev/null
    as_postgres "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c \
      "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'herald') THEN CREATE ROLE herald LOGIN SUPERUSER; END IF; END \$\$;" >/dev/null
    echo "postgres://herald@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_postgres "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
    ;;
  *)
    echo "usage: $0 start|stop DIR [PORT]" >&2
    exit 2
    ;;
esac

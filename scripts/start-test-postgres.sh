#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests (docs/decisions/0035-two-engines.md): initialises a cluster in a
# temporary folder the first time, starts it on a loopback port (and a socket in that folder), and prints
# its DATABASE_URL on stdout, so `export TEST_DATABASE_URL=$(bash scripts/start-test-postgres.sh)` works.
# Idempotent: a second call finds the running server and prints the same URL. `... stop` stops it.
# Uses Debian's package (`apt-get install postgresql`); as root, the server runs as the `postgres` user,
# which PostgreSQL requires. Trust authentication on 127.0.0.1 only, fsync off: it holds test data, nothing else.
set -euo pipefail

port=${TEST_POSTGRES_PORT:-54329}
dir=${TEST_POSTGRES_DIR:-${TMPDIR:-/tmp}/jalsa-test-postgres-$port}
url="postgres://postgres@127.0.0.1:$port/postgres"

# Debian keeps the server's programs out of PATH (/usr/lib/postgresql/<major>/bin); take the newest.
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ]; then
  bin=$(dirname "$(command -v pg_ctl 2>/dev/null || echo /nonexistent/pg_ctl)")
fi
if [ ! -x "$bin/pg_ctl" ] || [ ! -x "$bin/initdb" ]; then
  echo "start-test-postgres: no PostgreSQL server found (install it: apt-get install -y postgresql)" >&2
  exit 1
fi

# The server refuses to run as root: run it as the postgres user then (Debian's package creates it).
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "${1:-}" = stop ]; then
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2
  fi
  exit 0
fi

if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
  echo "$url"
  exit 0
fi

mkdir -p "$dir"
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
fi
if [ ! -f "$dir/data/PG_VERSION" ]; then
  echo "start-test-postgres: initialising a cluster in $dir/data" >&2
  as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync --encoding=UTF8 --locale=C.UTF-8 >/dev/null
fi
echo "start-test-postgres: starting on 127.0.0.1:$port" >&2
as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >&2
echo "$url"

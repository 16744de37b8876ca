#!/usr/bin/env bash
# A throwaway PostgreSQL server on 127.0.0.1 for tests and benchmarks, from
# Debian's postgresql package (initdb + pg_ctl):
#   dev/postgres-server.sh start ROOT [durable]   prints the port on stdout
#   dev/postgres-server.sh stop ROOT              stops it and removes ROOT
# ROOT is a new folder (data/, log, socket). As root, the server runs as the
# postgres user (initdb refuses root). Superuser "floe", trust auth on
# 127.0.0.1 only. Without "durable", fsync is off (tests check the catalog's
# logic, not the disk's); with it, PostgreSQL's defaults (fsync on,
# synchronous_commit on), for measuring commits. Exit 77 when PostgreSQL is
# not installed here. Used by tests/catalog/conformance/postgres_test_server.cc
# and bench/serve-commits.sh.
set -euo pipefail
cmd=${1:?start|stop}
root=${2:?root folder}
bin=""
for candidate in /usr/lib/postgresql/15/bin /usr/lib/postgresql/16/bin /usr/lib/postgresql/17/bin /usr/local/bin /usr/bin; do
  if [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then bin=$candidate; break; fi
done
if [ -z "$bin" ]; then echo "PostgreSQL is not installed here (no initdb / pg_ctl)" >&2; exit 77; fi
as_server_user() {
  if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then echo "running as root without a postgres user to run initdb as" >&2; exit 77; fi
    # From inside ROOT: the postgres user may not enter the caller's folder.
    (cd "$root" && /usr/sbin/runuser -u postgres -- "$@")
  else
    (cd "$root" && "$@")
  fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
case "$cmd" in
  start)
    mkdir -p "$root"
    [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1 && chown postgres: "$root"
    as_server_user "$bin/initdb" -D "$root/data" -U floe --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$root/initdb.log" 2>&1 ||
      { echo "initdb failed: $(tail -3 "$root/initdb.log")" >&2; exit 1; }
    settings="-c fsync=off -c full_page_writes=off"
    [ "${3:-}" = durable ] && settings=""
    for _ in 1 2 3 4 5; do
      port=$(free_port)
      if as_server_user "$bin/pg_ctl" -D "$root/data" -l "$root/log" -w -t 30 \
          -o "-c listen_addresses=127.0.0.1 -p $port -k $root $settings -c max_connections=200" start >/dev/null 2>&1; then
        echo "$port"
        exit 0
      fi
    done
    echo "pg_ctl start failed; see $root/log" >&2
    exit 1
    ;;
  stop)
    [ -d "$root/data" ] && as_server_user "$bin/pg_ctl" -D "$root/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$root"
    ;;
  *) echo "usage: $0 start|stop ROOT [durable]" >&2; exit 2 ;;
esac

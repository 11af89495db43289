#!/usr/bin/env bash
# A private, throwaway PostgreSQL for the tests (PurserPostgresTests), on a free loopback port.
#
#   scripts/postgres.sh start [DIR]   start a server in DIR (made if not given; its path goes to stderr) and print its
#                                     URL, postgres://postgres@127.0.0.1:PORT/purser_test, on stdout
#   scripts/postgres.sh stop DIR      stop it and delete DIR (harmless if it never started)
#   scripts/postgres.sh start-pair DIR
#                                     start a primary in DIR/primary and a synchronous standby of it in DIR/standby
#                                     (pg_basebackup -R; synchronous_standby_names = '*' once it streams), and print
#                                     the URL naming both, postgres://postgres@127.0.0.1:P1,127.0.0.1:P2/purser_test?
#                                     target_session_attrs=read-write; the primary's and the standby's own URLs go to
#                                     DIR/primary.url and DIR/standby.url. Fail over by hand: kill -9 the primary's
#                                     postmaster (first line of DIR/primary/data/postmaster.pid), then
#                                     pg_ctl -D DIR/standby/data promote. `stop DIR` stops both.
#
#   export PURSER_TEST_DATABASE_URL="$(scripts/postgres.sh start /tmp/pg)"; swift test --filter PurserPostgresTests
#   scripts/postgres.sh stop /tmp/pg
#
# Installs Debian's postgresql package when initdb is missing. The server binaries refuse to run as root, so as root
# DIR is handed to the postgres user and the server runs as that user. Authentication is `trust` on 127.0.0.1 and a
# socket in DIR only. fsync is off (a test server: quicker, not crash-safe); PURSER_POSTGRES_DURABLE=1 keeps it on,
# for benchmarks whose decisions must be durable.
set -euo pipefail

usage() {
  echo "usage: $0 start [DIR] | start-pair DIR | stop DIR" >&2
  exit 2
}

# The directory of initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/N/bin, else install it.
postgres_bin() {
  local initdb
  initdb="$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$initdb" ]; then
    echo "postgres.sh: installing PostgreSQL (apt-get install postgresql)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    initdb="$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)"
  fi
  dirname "$(readlink -f "$initdb")"
}

# Runs a server binary as the postgres user when we are root (the binaries refuse root), else as ourselves.
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local dir="${1:-}" bin port fsync=off
  if [ -z "$dir" ]; then
    dir="$(mktemp -d -t purser-postgres.XXXXXX)"
    echo "postgres.sh: server in $dir (stop it with: $0 stop $dir)" >&2
  fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
  [ "${PURSER_POSTGRES_DURABLE:-0}" = 1 ] && fsync=on
  bin="$(postgres_bin)"
  as_server_user "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log"
  # A free port can be taken between the probe and the bind: try a few.
  for _ in 1 2 3 4 5; do
    port="$(free_port)"
    if as_server_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=$fsync -c max_connections=300" start >/dev/null; then
      as_server_user "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres purser_test
      echo "postgres://postgres@127.0.0.1:$port/purser_test"
      return 0
    fi
  done
  echo "postgres.sh: the server did not start; see $dir/server.log" >&2
  return 1
}

# Starts the server of DATA on PORT with its socket and log beside DATA.
start_server() {
  local bin="$1" data="$2" port="$3" fsync=off
  [ "${PURSER_POSTGRES_DURABLE:-0}" = 1 ] && fsync=on
  as_server_user "$bin/pg_ctl" -D "$data" -l "$data/../server.log" -w -t 60 \
    -o "-h 127.0.0.1 -p $port -k $(dirname "$data") -c fsync=$fsync -c max_connections=300 \
        -c wal_retrieve_retry_interval=100ms" start >/dev/null
}

start_pair() {
  local dir="${1:-}" bin primary standby
  [ -n "$dir" ] || usage
  mkdir -p "$dir/primary" "$dir/standby"
  dir="$(cd "$dir" && pwd)"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir" "$dir/primary" "$dir/standby"
  bin="$(postgres_bin)"
  primary="$(free_port)"
  standby="$(free_port)"
  as_server_user "$bin/initdb" -D "$dir/primary/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log"
  start_server "$bin" "$dir/primary/data" "$primary"
  as_server_user "$bin/createdb" -h 127.0.0.1 -p "$primary" -U postgres purser_test
  as_server_user "$bin/pg_basebackup" -D "$dir/standby/data" -R -X stream -c fast --no-sync \
    -h 127.0.0.1 -p "$primary" -U postgres
  start_server "$bin" "$dir/standby/data" "$standby"
  local sql=("$bin/psql" -h 127.0.0.1 -p "$primary" -U postgres -d postgres -Atqc)
  until [ "$("${sql[@]}" "SELECT count(*) FROM pg_stat_replication")" != 0 ]; do sleep 0.05; done
  "${sql[@]}" "ALTER SYSTEM SET synchronous_standby_names = '*'" >/dev/null
  "${sql[@]}" "SELECT pg_reload_conf()" >/dev/null
  until [ "$("${sql[@]}" "SELECT sync_state FROM pg_stat_replication")" = sync ]; do sleep 0.05; done
  echo "postgres://postgres@127.0.0.1:$primary/purser_test" >"$dir/primary.url"
  echo "postgres://postgres@127.0.0.1:$standby/purser_test" >"$dir/standby.url"
  echo "postgres://postgres@127.0.0.1:$primary,127.0.0.1:$standby/purser_test?target_session_attrs=read-write"
}

stop() {
  local dir="${1:-}" data
  [ -n "$dir" ] || usage
  for data in "$dir/data" "$dir/primary/data" "$dir/standby/data"; do
    if [ -f "$data/postmaster.pid" ]; then
      as_server_user "$(postgres_bin)/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    fi
  done
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "${2:-}" ;;
  start-pair) start_pair "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac

#!/usr/bin/env bash
# The production PostgreSQL stack, throwaway and on loopback: one etcd, three PostgreSQL servers each run by its own
# Patroni (synchronous_mode: a leader, a synchronous standby and a replica), and a pgbouncer in front of the leader.
#
#   scripts/postgres-ha.sh start [DIR] [--pool-mode session|transaction]
#                                            start it all in DIR (made if not given; its path goes to stderr), wait
#                                            until the leader, the synchronous standby and the replica all stream,
#                                            create purser_test, and print two URLs, KEY=URL, one a line:
#                                              direct=postgres://postgres@127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/
#                                                     purser_test?target_session_attrs=read-write
#                                              pgbouncer=postgres://postgres@127.0.0.1:PB/purser_test
#                                            (also in DIR/direct.url and DIR/pgbouncer.url, the bare URL)
#   scripts/postgres-ha.sh status DIR        patronictl list: who leads, who is the synchronous standby
#   scripts/postgres-ha.sh failover DIR      switch over to the synchronous standby (patronictl switchover --force),
#                                            wait until it takes writes, print `OLD -> NEW`
#   scripts/postgres-ha.sh kill-leader DIR   SIGKILL the leader's postmaster and print its node's name; Patroni then
#                                            promotes the synchronous standby by itself (primary_start_timeout 0:
#                                            no restart of the crashed primary first)
#   scripts/postgres-ha.sh leader DIR        print the leader's node name and PostgreSQL port (nothing when none)
#   scripts/postgres-ha.sh wait-healthy DIR  wait (up to 60 s) until a leader, a synchronous standby and a replica
#                                            all stream again, as after start (a killed leader rejoins as a replica)
#   scripts/postgres-ha.sh stop DIR          stop everything started in DIR and delete DIR (harmless if it never
#                                            started, or only half)
#
#   eval "$(scripts/postgres-ha.sh start /tmp/ha)"   # sets $direct and $pgbouncer
#   psql "$pgbouncer" -c 'select 1'; scripts/postgres-ha.sh kill-leader /tmp/ha; scripts/postgres-ha.sh stop /tmp/ha
#
# DIR holds: etcd/ (data) and etcd.log; node1..3/ each with patroni.yml, patroni.log (Patroni's log and its
# PostgreSQL's) and data/; pgbouncer/ (pgbouncer.ini, userlist.txt) and pgbouncer.log; nodes.txt, a line per node:
# NAME PGPORT RESTPORT DATADIR (`curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:RESTPORT/leader` is 200 on
# the leader only); pids/, the pids of etcd, the three Patronis and pgbouncer, which `stop` ends (SIGTERM, then
# SIGKILL; then any postmaster still running, by its postmaster.pid). Patroni's scope is `purser`, its etcd namespace
# `/purser-ha/`; ttl 10, loop_wait 2, retry_timeout 4 (Patroni wants loop_wait + 2 * retry_timeout <= ttl), so a
# failover takes a few seconds.
#
# How pgbouncer follows the leader: pgbouncer 1.18 takes one host per database, so pgbouncer.ini's `* = host=...
# port=...` names the leader, and DIR/follow-leader.sh, Patroni's on_role_change and on_start callback, rewrites it:
# when its node becomes the primary it waits until the node takes writes, points that line at the node's port and
# RELOADs pgbouncer on its admin console (SIGHUP if that fails). pgbouncer then closes its connections to the old
# leader (server_fast_close, even in session mode) and opens new ones to the new. The callback's log is
# DIR/follow-leader.log.
#
# pgbouncer lets in the user postgres only (auth_type trust still wants the name in its userlist.txt), and its pool
# mode is session, or transaction with `start DIR --pool-mode transaction` (or PURSER_PGBOUNCER_POOL_MODE); max_client_conn 1000, default_pool_size 50, at most 250
# server connections (PostgreSQL's max_connections is 300). pgbouncer 1.18 refuses a client that sends a startup
# parameter other than the few it tracks (client_encoding, DateStyle, TimeZone, standard_conforming_strings,
# application_name), in every pool mode, unless that parameter is in ignore_startup_parameters, and then it is
# dropped, not applied: so a client that sets search_path at startup cannot go through this pgbouncer
# (`FATAL: unsupported startup parameter: search_path`).
#
# Installs what is missing from Debian: patroni, etcd-server, etcd-client, pgbouncer, postgresql (with sudo when not
# root). Their packages would start Debian's own services (etcd on 2379, pgbouncer on 6432, the cluster 15/main on
# 5432); while installing, a /usr/sbin/policy-rc.d that answers 101 forbids that (written only if there is none, and
# removed after), and under systemd the new services are disabled. PostgreSQL and pgbouncer refuse to run as root,
# and Patroni runs PostgreSQL itself, so as root DIR is handed to the postgres user and Patroni and pgbouncer run as
# that user (etcd runs as the caller). Authentication is `trust` on
# 127.0.0.1, also for replication. fsync is off (quicker, not crash-safe); PURSER_POSTGRES_DURABLE=1 keeps it on.
set -euo pipefail

usage() {
  echo "usage: $0 start [DIR] [--pool-mode session|transaction] | status DIR | failover DIR | kill-leader DIR | leader DIR | wait-healthy DIR | stop DIR" >&2
  exit 2
}

die() {
  echo "postgres-ha.sh: $*" >&2
  exit 1
}

# A failed start: what to read, and how to clean up what did start.
start_failed() {
  die "$*; clean up with: $0 stop $dir"
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# What runs a server as the postgres user when we are root (they refuse root); as anyone else, nothing.
server_user=()
[ "$(id -u)" -eq 0 ] && server_user=(runuser -u postgres --)

# N distinct free loopback ports, one a line (all bound at once, so no two are the same).
free_ports() {
  python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print("\n".join(str(s.getsockname()[1]) for s in socks))' "$1"
}

# Installs the Debian packages that are missing, without letting their services start.
install_packages() {
  local missing=() guard=0 pkg
  [ -x /usr/bin/patroni ] || missing+=(patroni)
  [ -x /usr/bin/etcd ] || missing+=(etcd-server)
  [ -x /usr/bin/etcdctl ] || missing+=(etcd-client)
  [ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
  ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "postgres-ha.sh: installing ${missing[*]} (apt-get install)" >&2
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=1
    trap 'as_root rm -f /usr/sbin/policy-rc.d' EXIT
    printf '#!/bin/sh\n# postgres-ha.sh: no service starts while it installs packages\nexit 101\n' |
      as_root tee /usr/sbin/policy-rc.d >/dev/null
    as_root chmod 755 /usr/sbin/policy-rc.d
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  if [ "$guard" = 1 ]; then
    as_root rm -f /usr/sbin/policy-rc.d
    trap - EXIT
  fi
  if [ -d /run/systemd/system ]; then
    for pkg in "${missing[@]}"; do
      case "$pkg" in etcd-server) pkg=etcd ;; etcd-client) continue ;; esac
      as_root systemctl disable --now "$pkg" >/dev/null 2>&1 || true
    done
  fi
}

# The newest /usr/lib/postgresql/N/bin.
postgres_bin() {
  ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1
}

# Starts "$@" detached (its own session) with output appended to LOG, and records its pid in DIR/pids/NAME.
launch() {
  local name="$1" log="$2"
  shift 2
  (cd "$dir" && exec setsid "$@") >>"$log" 2>&1 </dev/null &
  local pidfile="$dir/pids/$name"
  for _ in $(seq 100); do
    [ -s "$pidfile" ] && return 0
    sleep 0.05
  done
  start_failed "$name did not start; see $log"
}

# The pid in DIR/pids/NAME when that process is alive and still one of DIR's (its command line names DIR).
owned_pid() {
  local pid
  pid="$(cat "$dir/pids/$1" 2>/dev/null || true)"
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$dir/" && echo "$pid"
  return 0
}

patronictl_() {
  /usr/bin/patronictl -c "$dir/node1/patroni.yml" "$@"
}

# The cluster as Patroni's REST API (GET /cluster, of the first node that answers) shows it, as lines
# `ROLE NAME STATE LAG-IN-BYTES` (ROLE: Leader, Sync_Standby, Replica; the leader's LAG: -). Quicker than
# patronictl list, which takes seconds to start on a busy machine.
members() {
  python3 - "$dir/nodes.txt" <<'EOF' 2>/dev/null || true
import json, sys, urllib.request
roles = {"leader": "Leader", "sync_standby": "Sync_Standby", "replica": "Replica"}
for line in open(sys.argv[1]):
    try:
        cluster = json.load(urllib.request.urlopen("http://127.0.0.1:%s/cluster" % line.split()[2], timeout=2))
    except Exception:
        continue
    for m in cluster.get("members", []):
        print(roles.get(m.get("role"), m.get("role")), m.get("name"), m.get("state") or "-", m.get("lag", "-"))
    break
EOF
}

# The line of nodes.txt of the node whose REST API says it is the primary (none: nothing).
leader_node() {
  python3 - "$dir/nodes.txt" <<'EOF' 2>/dev/null || true
import sys, urllib.request
for line in open(sys.argv[1]):
    try:
        urllib.request.urlopen("http://127.0.0.1:%s/primary" % line.split()[2], timeout=2)
    except Exception:
        continue
    print(line.strip())
    break
EOF
}

# Whether PostgreSQL on PORT takes a write (a transaction id, committed).
writable() {
  PGCONNECT_TIMEOUT=2 timeout 10 "$bin/psql" -h 127.0.0.1 -p "$1" -U postgres -d postgres -Atqc \
    "select pg_is_in_recovery() or txid_current() is null" 2>/dev/null | grep -qx f
}

set_dir() {
  [ -n "${1:-}" ] || usage
  dir="$(cd "$1" 2>/dev/null && pwd)" || die "$1: no such directory"
  [ -f "$dir/nodes.txt" ] || die "$dir holds no cluster of postgres-ha.sh (no nodes.txt)"
  bin="$(postgres_bin)"
}

write_patroni_yml() {
  local n="$1" pg="$2" rest="$3" fsync="$4" nosync=""
  [ "$fsync" = off ] && nosync="
    - no-sync"
  cat >"$dir/node$n/patroni.yml" <<EOF
scope: purser
namespace: /purser-ha/
name: node$n
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$rest
  connect_address: 127.0.0.1:$rest
etcd3:
  hosts: 127.0.0.1:$etcd_client
watchdog:
  mode: "off"
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    primary_start_timeout: 0
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 300
        fsync: "$fsync"
        wal_level: replica
        hot_standby: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 128MB
  initdb:
    - encoding: UTF8
    - locale: C$nosync
postgresql:
  listen: 127.0.0.1:$pg
  connect_address: 127.0.0.1:$pg
  data_dir: $dir/node$n/data
  bin_dir: $bin
  pgpass: $dir/node$n/pgpass
  use_unix_socket: false
  authentication:
    superuser:
      username: postgres
    replication:
      username: replicator
      password: replicator
    rewind:
      username: postgres
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  parameters:
    unix_socket_directories: $dir/node$n
    wal_retrieve_retry_interval: 100ms
  basebackup:
    - checkpoint: fast$nosync
  callbacks:
    on_role_change: $dir/follow-leader.sh $pg
    on_start: $dir/follow-leader.sh $pg
EOF
}

write_follow_leader() {
  cat >"$dir/follow-leader.sh" <<EOF
#!/bin/sh
# Patroni's on_role_change/on_start callback (postgres-ha.sh): \`follow-leader.sh PGPORT ACTION ROLE CLUSTER\`.
# When this node is the primary: wait until it takes writes, point pgbouncer at it, RELOAD pgbouncer.
port="\$1" action="\$2" role="\$3"
log="$dir/follow-leader.log"
ini="$dir/pgbouncer/pgbouncer.ini"
case "\$role" in master | primary | promoted) ;; *) exit 0 ;; esac
i=0
until [ "\$("$bin/psql" -h 127.0.0.1 -p "\$port" -U postgres -d postgres -Atqc 'select pg_is_in_recovery()' \\
  2>/dev/null)" = f ]; do
  i=\$((i + 1))
  [ \$i -gt 300 ] && { echo "\$(date +%T.%N) \$action \$role: port \$port never took writes" >>"\$log"; exit 1; }
  sleep 0.1
done
[ -f "\$ini" ] || exit 0
exec 9>"$dir/pgbouncer/follow.lock"
flock 9
sed "s/^\\* = .*/* = host=127.0.0.1 port=\$port/" "\$ini" >"\$ini.new" && mv "\$ini.new" "\$ini"
if "$bin/psql" -h 127.0.0.1 -p "\$(sed -n 's/^listen_port = //p' "\$ini")" -U postgres -d pgbouncer -qc RELOAD \\
  >/dev/null 2>&1; then how=RELOAD; else kill -HUP "\$(cat "$dir/pids/pgbouncer")" && how=SIGHUP; fi
echo "\$(date +%T.%N) \$action \$role: pgbouncer -> port \$port (\$how)" >>"\$log"
EOF
  chmod 755 "$dir/follow-leader.sh"
}

write_pgbouncer_ini() {
  local port="$1" leader_port="$2"
  cat >"$dir/pgbouncer/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$leader_port

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir = $dir/pgbouncer
auth_type = trust
auth_file = $dir/pgbouncer/userlist.txt
admin_users = postgres
stats_users = postgres
pool_mode = $pool_mode
max_client_conn = 1000
default_pool_size = 50
max_db_connections = 250
server_login_retry = 0.5
server_connect_timeout = 5
server_fast_close = 1
EOF
  echo '"postgres" ""' >"$dir/pgbouncer/userlist.txt"
}

start() {
  dir=""
  pool_mode="${PURSER_PGBOUNCER_POOL_MODE:-session}"
  while [ $# -gt 0 ]; do
    case "$1" in
      --pool-mode) pool_mode="${2:-}"; shift 2 ;;
      *) [ -z "$dir" ] || usage; dir="$1"; shift ;;
    esac
  done
  case "$pool_mode" in session | transaction) ;; *) die "--pool-mode must be session or transaction" ;; esac
  local fsync=off ports n deadline state leader pb
  if [ -z "$dir" ]; then
    dir="$(mktemp -d -t purser-ha.XXXXXX)"
    echo "postgres-ha.sh: cluster in $dir (stop it with: $0 stop $dir)" >&2
  fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  [ -e "$dir/nodes.txt" ] && die "$dir already holds a cluster (stop it with: $0 stop $dir)"
  [ "${PURSER_POSTGRES_DURABLE:-0}" = 1 ] && fsync=on
  install_packages
  bin="$(postgres_bin)"
  mkdir -p "$dir/pids" "$dir/etcd" "$dir/node1" "$dir/node2" "$dir/node3" "$dir/pgbouncer"
  chmod 700 "$dir/etcd"
  mapfile -t ports < <(free_ports 9)
  etcd_client="${ports[0]}"
  local etcd_peer="${ports[1]}"
  pb="${ports[2]}"
  : >"$dir/nodes.txt.new"
  for n in 1 2 3; do
    echo "node$n ${ports[$((2 + n))]} ${ports[$((5 + n))]} $dir/node$n/data" >>"$dir/nodes.txt.new"
    write_patroni_yml "$n" "${ports[$((2 + n))]}" "${ports[$((5 + n))]}" "$fsync"
  done
  mv "$dir/nodes.txt.new" "$dir/nodes.txt"
  write_follow_leader
  [ "$(id -u)" -eq 0 ] && chown -R postgres: "$dir/pids" "$dir/node1" "$dir/node2" "$dir/node3" "$dir/pgbouncer" &&
    chown postgres: "$dir"

  # etcd 3.4 runs on arm64 and others only when told to.
  local etcd_arch
  etcd_arch="$(dpkg --print-architecture)"
  [ "$etcd_arch" = amd64 ] && etcd_arch=""
  launch etcd "$dir/etcd.log" sh -c 'echo $$ >"$0"; exec "$@"' "$dir/pids/etcd" \
    env ${etcd_arch:+ETCD_UNSUPPORTED_ARCH=$etcd_arch} /usr/bin/etcd --name purser-ha \
    --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-cluster "purser-ha=http://127.0.0.1:$etcd_peer" --initial-cluster-state new \
    --initial-cluster-token "purser-ha-$etcd_client"
  deadline=$((SECONDS + 60))
  until /usr/bin/etcdctl --endpoints "http://127.0.0.1:$etcd_client" endpoint health >/dev/null 2>&1; do
    [ -n "$(owned_pid etcd)" ] && [ $SECONDS -lt $deadline ] || start_failed "etcd did not come up; see $dir/etcd.log"
    sleep 0.2
  done

  for n in 1 2 3; do
    launch "patroni$n" "$dir/node$n/patroni.log" "${server_user[@]}" sh -c 'echo $$ >"$0"; exec "$@"' \
      "$dir/pids/patroni$n" /usr/bin/patroni "$dir/node$n/patroni.yml"
  done
  wait_healthy || start_failed "see $dir/node1/patroni.log, $dir/node2/patroni.log, $dir/node3/patroni.log (and \
$dir/etcd.log)"
  leader="$(leader_node | cut -d' ' -f1)"
  local leader_port
  leader_port="$(awk -v l="$leader" '$1 == l { print $2 }' "$dir/nodes.txt")"
  "$bin/psql" -h 127.0.0.1 -p "$leader_port" -U postgres -d postgres -qc 'CREATE DATABASE purser_test' >/dev/null

  write_pgbouncer_ini "$pb" "$leader_port"
  [ "$(id -u)" -eq 0 ] && chown -R postgres: "$dir/pgbouncer"
  launch pgbouncer "$dir/pgbouncer.log" "${server_user[@]}" sh -c 'echo $$ >"$0"; exec "$@"' "$dir/pids/pgbouncer" \
    /usr/sbin/pgbouncer "$dir/pgbouncer/pgbouncer.ini"
  deadline=$((SECONDS + 60))
  until PGCONNECT_TIMEOUT=2 "$bin/psql" -h 127.0.0.1 -p "$pb" -U postgres -d purser_test -Atqc 'select 1' \
    >/dev/null 2>&1; do
    [ -n "$(owned_pid pgbouncer)" ] && [ $SECONDS -lt $deadline ] ||
      start_failed "pgbouncer did not come up; see $dir/pgbouncer.log"
    sleep 0.2
  done
  # A promotion between reading the leader and writing pgbouncer.ini found no pgbouncer.ini to rewrite: check.
  if [ "$(leader_node | cut -d' ' -f2)" != "$leader_port" ]; then
    start_failed "the leader changed while starting; see $dir/node*/patroni.log"
  fi

  local direct="postgres://postgres@127.0.0.1:${ports[3]},127.0.0.1:${ports[4]},127.0.0.1:${ports[5]}/purser_test"
  direct="$direct?target_session_attrs=read-write"
  echo "$direct" >"$dir/direct.url"
  echo "postgres://postgres@127.0.0.1:$pb/purser_test" >"$dir/pgbouncer.url"
  echo "direct=$direct"
  echo "pgbouncer=postgres://postgres@127.0.0.1:$pb/purser_test"
}

# Waits up to 60 s for a leader, a synchronous standby and a replica, all running, the standbys less than 1 MB
# behind and streaming (a Patroni that exits fails at once); fails with the cluster's state on stderr.
wait_healthy() {
  local deadline=$((SECONDS + 60)) state leader n
  while :; do
    state="$(members)"
    leader="$(awk '$1 == "Leader" && $3 == "running" { print $2 }' <<<"$state")"
    if [ -n "$leader" ] &&
      [ "$(awk '$1 != "Leader" && $3 == "running" && $4 ~ /^[0-9]+$/ && $4 < 1048576' <<<"$state" | wc -l)" = 2 ] &&
      grep -q '^Sync_Standby ' <<<"$state" &&
      [ "$("$bin/psql" -h 127.0.0.1 -p "$(awk -v l="$leader" '$1 == l { print $2 }' "$dir/nodes.txt")" \
        -U postgres -d postgres -Atqc "select count(*) filter (where state = 'streaming') || ' ' ||
          count(*) filter (where sync_state = 'sync') from pg_stat_replication" 2>/dev/null)" = "2 1" ]; then
      return 0
    fi
    if [ $SECONDS -ge $deadline ]; then
      echo "postgres-ha.sh: the cluster was not healthy within 60 s:" >&2
      echo "$state" >&2
      return 1
    fi
    for n in 1 2 3; do
      [ -n "$(owned_pid "patroni$n")" ] || { echo "postgres-ha.sh: Patroni of node$n exited" >&2; return 1; }
    done
    sleep 0.5
  done
}

status() {
  set_dir "${1:-}"
  patronictl_ list
}

failover() {
  set_dir "${1:-}"
  local old sync new_port deadline
  old="$(leader_node | cut -d' ' -f1)"
  [ -n "$old" ] || die "no leader now; see: $0 status $dir"
  sync="$(members | awk '$1 == "Sync_Standby" && $3 == "running" { print $2 }')"
  [ -n "$sync" ] || die "no synchronous standby to switch over to; see: $0 status $dir"
  patronictl_ switchover --leader "$old" --candidate "$sync" --force >&2
  new_port="$(awk -v l="$sync" '$1 == l { print $2 }' "$dir/nodes.txt")"
  deadline=$((SECONDS + 60))
  until [ "$(leader_node | cut -d' ' -f1)" = "$sync" ] && writable "$new_port"; do
    [ $SECONDS -lt $deadline ] || die "$sync did not take over within 60 s; see $dir/node*/patroni.log"
    sleep 0.1
  done
  echo "$old -> $sync"
}

kill_leader() {
  set_dir "${1:-}"
  local name pg rest data pid
  read -r name pg rest data <<<"$(leader_node)"
  [ -n "$name" ] || die "no leader now; see: $0 status $dir"
  pid="$(head -n 1 "$data/postmaster.pid")"
  kill -KILL "$pid"
  echo "$name"
}

# The pids of the postmasters of DIR's data dirs that run (by their postmaster.pid, if that process's command line
# still names the data dir).
postmasters() {
  local n data pid
  for n in 1 2 3; do
    data="$dir/node$n/data"
    pid="$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)"
    if [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF "$data"; then
      echo "$pid"
    fi
  done
}

# Whether any of PIDS runs.
any_alive() {
  local pid
  for pid in "$@"; do kill -0 "$pid" 2>/dev/null && return 0; done
  return 1
}

# Ends PIDS: SIGTERM, up to WAIT seconds for them to go, then SIGKILL.
end_pids() {
  local wait="$1"
  shift
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for _ in $(seq $((wait * 10))); do
    any_alive "$@" || return 0
    sleep 0.1
  done
  kill -KILL "$@" 2>/dev/null || true
}

stop() {
  [ -n "${1:-}" ] || usage
  [ -d "$1" ] || return 0
  dir="$(cd "$1" && pwd)"
  if [ ! -e "$dir/nodes.txt" ] && [ ! -d "$dir/pids" ]; then
    rmdir "$dir" 2>/dev/null || die "$dir is not a directory of postgres-ha.sh; leaving it alone"
    return 0
  fi
  local pids=() n pid
  pid="$(owned_pid pgbouncer)"
  end_pids 10 ${pid:+"$pid"}
  # Patroni stops its PostgreSQL on SIGTERM (and needs etcd for that: etcd goes last). All three at once: the
  # synchronous standby then waits up to 2 * loop_wait to be released by a leader that is stopping too, which is
  # still no slower than stopping the standbys first. Up to 30 s; but once no PostgreSQL of DIR runs, a Patroni has
  # only etcd to tidy, which is thrown away: it gets 1 s more (it takes seconds to exit on a busy machine).
  for n in 1 2 3; do
    pid="$(owned_pid "patroni$n")"
    [ -z "$pid" ] || pids+=("$pid")
  done
  if [ "${#pids[@]}" -gt 0 ]; then
    kill -TERM "${pids[@]}" 2>/dev/null || true
    local waited=0 grace=0
    while [ $waited -lt 300 ] && [ $grace -lt 10 ] && any_alive "${pids[@]}"; do
      [ -z "$(postmasters)" ] && grace=$((grace + 1))
      waited=$((waited + 1))
      sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
  fi
  # Any postmaster left (Patroni killed, or gone), and its children.
  for pid in $(postmasters); do
    mapfile -t pids < <(ps -o pid= --ppid "$pid" | tr -d " ")
    kill -KILL "${pids[@]}" "$pid" 2>/dev/null || true
  done
  pid="$(owned_pid etcd)"
  end_pids 3 ${pid:+"$pid"}
  # Anything else still naming DIR (a process started here whose pid was not recorded, a callback).
  mapfile -t pids < <(ps -eo pid=,comm=,args= | awk -v d="$dir/" -v self=$$ '
    $1 != self && index($0, d) &&
      $2 ~ /^(etcd|patroni|postgres|pgbouncer|runuser|follow-leader\.s|pg_basebackup|pg_rewind|initdb|pg_ctl)$/ {
      print $1
    }')
  [ "${#pids[@]}" -gt 0 ] && kill -KILL "${pids[@]}" 2>/dev/null || true
  sleep 0.2
  rm -rf "$dir"
}

case "${1:-}" in
  start) shift; start "$@" ;;
  status) status "${2:-}" ;;
  failover) failover "${2:-}" ;;
  kill-leader) kill_leader "${2:-}" ;;
  leader)
    set_dir "${2:-}"
    leader_node | awk '{ print $1, $2 }'
    ;;
  wait-healthy)
    set_dir "${2:-}"
    wait_healthy || die "see $dir/node*/patroni.log"
    ;;
  stop) stop "${2:-}" ;;
  *) usage ;;
esac

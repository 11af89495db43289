#!/usr/bin/env bash
# Runs COMMAND and turns a stall into a failure that says where it stood: when COMMAND prints nothing for SECONDS,
# it prints the Swift Testing tests started and not finished, every descendant process's threads (gdb, when
# installed) and their TCP sockets, kills the command's processes and exits 1. Otherwise it exits with COMMAND's
# status. scripts/test.sh runs `swift test` under it: a test process that stalls (every task waiting, seen a few
# times with the PostgreSQL outage tests beside the rest) then fails CI with evidence instead of running into its
# time limit.
#
#   bash scripts/stall-watchdog.sh SECONDS COMMAND [ARGUMENT...]
set -uo pipefail
if [ "$#" -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: stall-watchdog.sh SECONDS COMMAND [ARGUMENT...]" >&2
  exit 2
fi
limit="$1"
shift
log="$(mktemp -t purser-watchdog.XXXXXX)"
trap 'rm -f "$log"' EXIT
"$@" > "$log" 2>&1 &
runner=$!
# The command's output, as it comes (tail ends once the command has).
tail -n +1 -f --pid="$runner" "$log" &
mirror=$!

descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}

report() {
  echo "stall-watchdog: no output for ${limit} s from: $*"
  echo "stall-watchdog: Swift Testing tests started and not finished:"
  comm -23 \
    <(grep -aoE '◇ Test .* started\.' "$log" | sed -E 's/◇ Test (.*) started\./\1/' | sort -u) \
    <(grep -aoE '[✔✘] Test .* (passed|failed)' "$log" | sed -E 's/[✔✘] Test (.*) (passed|failed)/\1/' | sort -u) \
    | sed 's/^/  /'
  for pid in "$runner" $(descendants "$runner"); do
    echo "stall-watchdog: process $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-160)"
    if command -v gdb > /dev/null; then
      timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 16" 2>/dev/null \
        | grep -aE '^Thread|^#' | sed -E 's/ \(.*\) at / at /' | cut -c1-200 | sed 's/^/  /'
    fi
    ss -tanp 2>/dev/null | grep "pid=$pid," | sed 's/^/  socket: /'
  done
}

last=-1
quiet=0
while kill -0 "$runner" 2> /dev/null; do
  sleep 5
  size="$(stat -c %s "$log")"
  if [ "$size" = "$last" ]; then quiet=$((quiet + 5)); else quiet=0; last="$size"; fi
  if [ "$quiet" -ge "$limit" ]; then
    report "$@"
    kill -9 "$runner" $(descendants "$runner") 2> /dev/null
    wait "$runner" 2> /dev/null
    wait "$mirror" 2> /dev/null
    echo "stall-watchdog: killed; failing"
    exit 1
  fi
done
wait "$runner"
code=$?
wait "$mirror" 2> /dev/null
exit "$code"

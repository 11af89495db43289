# Sourced by the scripts that start `purser serve` in the background (referee.sh, schemathesis.sh,
# console-browser.sh): one way to learn the port it chose.

# wait_for_serve_port LOG PID: prints the port of the "listening on HOST:PORT" line `purser serve` writes to LOG,
# waiting up to 30 s; prints nothing (and returns 1) when the line does not come or the process PID exits first.
wait_for_serve_port() {
  local log="$1" pid="$2" port=""
  for _ in $(seq 1 300); do
    port="$(sed -n 's/.*listening on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$log" 2>/dev/null | head -1 || true)"
    [ -n "$port" ] && { echo "$port"; return 0; }
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# Sourced by the scripts that hold a running `purser serve` to openapi.yaml (schemathesis.sh, edge-values.sh): one
# server with every route on, started the same way for both.
#
# The server: the App Store simulator hosted in it, a temporary data directory, port 0 (the port is read from its log),
# JWT authentication (HS256, a token the script mints), an admin token, the app's own spends, and a webhook endpoint
# where nothing listens (a test event is reported undelivered, as in production, not refused for want of an endpoint).
# JWT rather than development mode: in development any X-Purser-User value is a user, so a check that invalid
# credentials are refused could not pass, by design.
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"

# start_every_route_serve NAME SUBJECT: installs the Python venv, starts the server and sets repo, venv, work (a
# temporary directory removed on exit, the server's log in work/serve.log), server_pid (stopped on exit), port,
# admin_token and user_token (a JWT whose sub is SUBJECT, valid for an hour). NAME prefixes its messages.
start_every_route_serve() {
  local name="$1" subject="$2"
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  purser="${PURSER_BIN:-$repo/.build/debug/purser}"
  [ -x "$purser" ] || { echo "$name: $purser is not built (run swift build first)" >&2; exit 1; }
  bash "$repo/scripts/python-venv.sh"
  venv="${PURSER_VENV:-$repo/.venv}"
  work="$(mktemp -d)"
  server_pid=""
  trap stop_every_route_serve EXIT

  local secret hook_port hook_secret
  secret="$("$venv/bin/python" -c 'import secrets; print(secrets.token_hex(32))')"
  admin_token="$("$venv/bin/python" -c 'import secrets; print(secrets.token_hex(24))')"
  hook_port="$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  hook_secret="$("$venv/bin/python" -c 'import base64, os; print("whsec_" + base64.b64encode(os.urandom(32)).decode())')"
  cat >"$work/purser.json" <<JSON
{
  "host": "127.0.0.1", "port": 0, "dataDirectory": "$work/data",
  "catalogFile": "$repo/examples/catalog.json", "appStore": "simulator",
  "auth": {"mode": "jwt", "jwt": {"algorithm": "HS256"}},
  "reconciliation": {"intervalSeconds": 0}, "wallet": {"clientSpend": true},
  "webhooks": {"endpoints": [{"url": "http://127.0.0.1:$hook_port/hooks", "secret": "$hook_secret"}]}
}
JSON
  PURSER_AUTH_JWT_SECRET="$secret" PURSER_ADMIN_TOKEN="$admin_token" \
    "$purser" serve --config "$work/purser.json" >"$work/serve.log" 2>&1 &
  server_pid=$!
  port="$(wait_for_serve_port "$work/serve.log" "$server_pid")" \
    || { echo "$name: purser serve did not start"; cat "$work/serve.log"; exit 1; }

  # A user's token: HS256 over {"sub", "exp"} with the server's secret (the standard library is enough).
  user_token="$("$venv/bin/python" - "$secret" "$subject" <<'PY'
import base64, hashlib, hmac, json, sys, time
def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
signing_input = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(
    json.dumps({"sub": sys.argv[2], "exp": int(time.time()) + 3600}).encode())
signature = hmac.new(sys.argv[1].encode(), signing_input.encode(), hashlib.sha256).digest()
print(signing_input + "." + b64(signature))
PY
)"
}

# stop_every_route_serve: stops the server and removes its directory (the EXIT trap).
stop_every_route_serve() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}

#!/usr/bin/env bash
# No request takes the server down: every route of openapi.yaml driven with edge values in every number, string,
# array and object, and in path and query parameters (scripts/edge_values/drive.py), against a running `purser serve`
# with every route on (JWT users, an admin token, the app's own spends, a webhook endpoint); after each request the
# server must still answer /health, and no answer may be a 500. Prints the requests that cost the server the most CPU.
#
#   PURSER_BIN   the purser binary (default: .build/debug/purser)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
[ -x "$purser" ] || { echo "edge-values.sh: $purser is not built (run swift build first)" >&2; exit 1; }
bash "$repo/scripts/python-venv.sh"
venv="${PURSER_VENV:-$repo/.venv}"

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

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
  || { echo "edge-values.sh: purser serve did not start"; cat "$work/serve.log"; exit 1; }

user_token="$("$venv/bin/python" - "$secret" <<'PY'
import base64, hashlib, hmac, json, sys, time
def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
signing_input = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(
    json.dumps({"sub": "edge-user", "exp": int(time.time()) + 3600}).encode())
signature = hmac.new(sys.argv[1].encode(), signing_input.encode(), hashlib.sha256).digest()
print(signing_input + "." + b64(signature))
PY
)"

status=0
"$venv/bin/python" "$repo/scripts/edge_values/drive.py" "http://127.0.0.1:$port" "$repo/openapi.yaml" \
  "$user_token" "$admin_token" "$server_pid" || status=$?
kill -0 "$server_pid" 2>/dev/null || { echo "edge-values.sh: purser serve exited"; tail -20 "$work/serve.log"; status=1; }
if grep -qE '^[^ ]+ critical ' "$work/serve.log"; then
  echo "edge-values.sh: the server logged critical errors:"; grep -E '^[^ ]+ critical ' "$work/serve.log" | head
  status=1
fi
exit "$status"

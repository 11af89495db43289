#!/usr/bin/env bash
# Holds a running `purser serve` to openapi.yaml with schemathesis: every operation, schemathesis's default checks
# (server errors, status codes, content types, response headers and schemas, negative and positive data, auth that
# is really enforced, 405 with Allow for undeclared methods, …), a bounded number of examples per operation.
# Exits non-zero on any finding.
#
# The server: the App Store simulator hosted in it, a temporary data directory, port 0 (the port is read from its log),
# JWT authentication (HS256, a token this script mints) and an admin token. JWT rather than development mode: in
# development any X-Purser-User value is a user, so schemathesis's check that invalid credentials are refused could
# not pass, by design.
#
#   PURSER_BIN          the purser binary (default: .build/debug/purser)
#   SCHEMATHESIS_MAX_EXAMPLES  examples per operation (default 100)
#   SCHEMATHESIS_SEED   a seed to repeat a run (default: random, printed)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
max_examples="${SCHEMATHESIS_MAX_EXAMPLES:-100}"
seed="${SCHEMATHESIS_SEED:-$RANDOM$RANDOM}"
[ -x "$purser" ] || { echo "schemathesis.sh: $purser is not built (run swift build first)" >&2; exit 1; }

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
# A webhook endpoint where nothing listens, so the webhook routes answer as they do in production (a test event is
# reported undelivered, not refused for want of an endpoint).
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
  || { echo "schemathesis.sh: purser serve did not start"; cat "$work/serve.log"; exit 1; }

# A user's token: HS256 over {"sub", "exp"} with the server's secret (the standard library is enough).
user_token="$("$venv/bin/python" - "$secret" <<'PY'
import base64, hashlib, hmac, json, sys, time
def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
signing_input = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(
    json.dumps({"sub": "schemathesis", "exp": int(time.time()) + 3600}).encode())
signature = hmac.new(sys.argv[1].encode(), signing_input.encode(), hashlib.sha256).digest()
print(signing_input + "." + b64(signature))
PY
)"

echo "schemathesis.sh: purser serve on port $port; $max_examples examples per operation, seed $seed"
# One worker: with two, schemathesis' threads parse lambda sources (Hypothesis' descriptions) with `ast.parse` at
# once, and CPython 3.11 (before 3.11.8, gh-106905) can then fail with "SystemError: AST constructor recursion depth
# mismatch", a runtime error of the tool that failed two runs here, not a finding about Purser.
start=$(date +%s)
status=0
PURSER_ST_USER_TOKEN="$user_token" PURSER_ST_ADMIN_TOKEN="$admin_token" \
  "$venv/bin/schemathesis" --config-file "$repo/scripts/schemathesis/schemathesis.toml" run "$repo/openapi.yaml" \
  --url "http://127.0.0.1:$port" --max-examples "$max_examples" --seed "$seed" --workers 1 \
  --report ndjson --report-ndjson-path "$work/events.ndjson" --no-color || status=$?
elapsed=$(( $(date +%s) - start ))
# Every request schemathesis sent and recorded (its checks' extra probes included), from its NDJSON report.
requests="$("$venv/bin/python" - "$work/events.ndjson" <<'PY' 2>/dev/null || echo "?"
import json, sys
total = 0
for line in open(sys.argv[1]):
    event = json.loads(line)
    if "ScenarioFinished" in event:
        total += len(event["ScenarioFinished"]["recorder"].get("interactions") or {})
print(total)
PY
)"
echo "schemathesis.sh: $requests requests in ${elapsed}s (exit $status)"
# A defect the answers did not show (a swallowed error) still fails the run.
if grep -qE '^[^ ]+ (error|critical) ' "$work/serve.log"; then
  echo "schemathesis.sh: the server logged errors:"; grep -E '^[^ ]+ (error|critical) ' "$work/serve.log" | head -20
  status=1
fi
exit "$status"

#!/usr/bin/env bash
# The referee: Apple's official Python library (app-store-server-library) and Purser check each other; Standard
# Webhooks' own Python library (standardwebhooks) checks the webhooks Purser sends (3.), and prometheus_client's
# parser reads its metrics (4.).
#   1. What Purser's App Store simulator signs, Apple's SignedDataVerifier must accept.
#      Apple's App Store Server API client talks to the simulator's Server API and verifies what it answers.
#   2. What a chain with Apple's OIDs that Purser never saw signs, `purser verify` must accept (and reject when
#      tampered with).
# Needs a built `purser` (PURSER_BIN, default .build/debug/purser); makes its own venv via python-venv.sh.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
bundle="com.example.purser.referee"
app_id=1234567890
[ -x "$purser" ] || { echo "referee: $purser is not built (run swift build first)" >&2; exit 1; }

bash "$repo/scripts/python-venv.sh"
py="${PURSER_VENV:-$repo/.venv}/bin/python"

work="$(mktemp -d)"
sim_pid=""
serve_pid=""
cleanup() {
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null && wait "$sim_pid" 2>/dev/null
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

passed=0
failed=0
check() {  # check NAME COMMAND...: runs the command, counts the outcome
  local name="$1"; shift
  if "$@" >"$work/out" 2>&1; then
    passed=$((passed + 1)); echo "referee: ok   $name"
  else
    failed=$((failed + 1)); echo "referee: FAIL $name"; sed 's/^/    /' "$work/out"
  fi
}
fails() { ! "$@"; }

# 1. The simulator signs; Apple's library verifies.
port="$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$purser" appstore-sim --port "$port" --data-dir "$work/sim" --bundle-id "$bundle" --app-apple-id "$app_id" \
  >"$work/sim.log" 2>&1 &
sim_pid=$!
base="http://127.0.0.1:$port/simulator/v1"
for _ in $(seq 1 100); do
  curl -sf "$base/root-certificate" -o "$work/sim-root.der" && break
  sleep 0.2
done
[ -s "$work/sim-root.der" ] || { echo "referee: the simulator did not start"; cat "$work/sim.log"; exit 1; }

purchase() {  # purchase ENVIRONMENT → prints the transaction id; writes $work/ENV.jws
  curl -sf -X POST "$base/purchases" -H 'Content-Type: application/json' \
    -d "{\"productId\": \"com.example.purser.gold60\", \"environment\": \"$1\", \"appAccountToken\": \"$(cat /proc/sys/kernel/random/uuid)\"}" \
    | "$py" -c 'import json, sys; r = json.load(sys.stdin); open(sys.argv[1], "w").write(r["signedTransaction"]); print(r["transactionId"])' "$work/$1.jws"
}
purchase Sandbox >/dev/null
production_id="$(purchase Production)"
curl -sf -X POST "$base/transactions/$production_id/refund" \
  | "$py" -c 'import json, sys; open(sys.argv[1], "w").write(json.load(sys.stdin)["signedNotification"])' "$work/refund-notification.jws"

check "Apple's library verifies a simulator Sandbox transaction" \
  "$py" "$repo/scripts/referee/verify_with_apple.py" --root "$work/sim-root.der" --bundle-id "$bundle" \
  --environment Sandbox "$work/Sandbox.jws"
check "Apple's library verifies a simulator Production transaction and REFUND notification" \
  "$py" "$repo/scripts/referee/verify_with_apple.py" --root "$work/sim-root.der" --bundle-id "$bundle" \
  --environment Production --app-apple-id "$app_id" "$work/Production.jws" "$work/refund-notification.jws"
check "Apple's library refuses a simulator transaction for another bundle" \
  fails "$py" "$repo/scripts/referee/verify_with_apple.py" --root "$work/sim-root.der" --bundle-id com.example.other \
  --environment Sandbox "$work/Sandbox.jws"

# 1a. App transactions (StoreKit's AppTransaction, sent with StoreKit 1 receipts): Apple's library verifies the
#     simulator's in both environments, and their appTransactionId is the one the same device's purchases carry.
for env in Sandbox Production; do
  curl -sf "$base/devices/device-1/app-transaction?environment=$env" \
    | "$py" -c 'import json, sys; open(sys.argv[1], "w").write(json.load(sys.stdin)["signedAppTransaction"])' \
      "$work/app-$env.jws"
done
app_transaction_matches_purchase() {
  "$py" "$repo/scripts/referee/verify_with_apple.py" --root "$work/sim-root.der" --bundle-id "$bundle" \
    --environment "$1" ${2:+--app-apple-id "$2"} --kind app-transaction "$work/app-$1.jws" >"$work/app.json" || return 1
  "$py" - "$work/app.json" "$work/Sandbox.jws" <<'PY'
import base64, json, sys
verified = json.loads(open(sys.argv[1]).read())
payload = open(sys.argv[2]).read().strip().split(".")[1]
purchase = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
if verified["appTransactionId"] != purchase.get("appTransactionId"):
    sys.exit(f"app transaction {verified['appTransactionId']} but the purchase says {purchase.get('appTransactionId')}")
PY
}
check "Apple's library verifies a simulator Sandbox app transaction; its id is the purchases'" \
  app_transaction_matches_purchase Sandbox
check "Apple's library verifies a simulator Production app transaction (app Apple id checked)" \
  app_transaction_matches_purchase Production "$app_id"
check "Apple's library refuses a simulator Production app transaction for another app Apple id" \
  fails app_transaction_matches_purchase Production 42

# 1b. App receipts: Apple's ReceiptUtility reads a transaction id from a simulator receipt, and Purser's parser lists it.
for product in com.example.purser.gold60 com.example.purser.gold120; do
  curl -sf -X POST "$base/purchases" -H 'Content-Type: application/json' \
    -d "{\"productId\": \"$product\", \"deviceId\": \"referee-phone\"}" >/dev/null
done
curl -sf "$base/devices/referee-phone/receipt" \
  | "$py" -c 'import json, sys; open(sys.argv[1], "w").write(json.load(sys.stdin)["receipt"])' "$work/receipt.b64"
receipt_ids_agree() {
  local apple_id
  apple_id="$("$py" "$repo/scripts/referee/receipt_transaction_id.py" "$work/receipt.b64")" || return 1
  "$purser" receipt "$work/receipt.b64" | "$py" -c '
import json, sys
ids = [entry["transactionId"] for entry in json.load(sys.stdin)["inAppPurchases"]]
sys.exit(0 if sys.argv[1] in ids and len(ids) == 2 else f"Apple read {sys.argv[1]}, Purser parsed {ids}")' "$apple_id"
}
check "Apple's ReceiptUtility and purser receipt read the same transaction from a simulator receipt" receipt_ids_agree

# 1b'. The receipt's PKCS#7 signature (the simulator's RSA chain: root, WWDR-like intermediate, leaf): OpenSSL verifies
#      it independently, and so does `purser receipt --verify` (receipts.verification local's check).
curl -sf "$base/receipt-root-certificate" -o "$work/receipt-root.der"
openssl x509 -inform DER -in "$work/receipt-root.der" -out "$work/receipt-root.pem"
base64 -d "$work/receipt.b64" >"$work/receipt.der"
check "OpenSSL verifies the simulator receipt's PKCS#7 signature to its receipt root" \
  openssl cms -verify -binary -inform DER -in "$work/receipt.der" -CAfile "$work/receipt-root.pem" -purpose any \
  -out /dev/null
check "purser receipt --verify accepts the simulator receipt with its receipt root" \
  "$purser" receipt --verify --root "$work/receipt-root.der" "$work/receipt.b64"
check "purser receipt --verify refuses it without that root (untrusted_chain)" \
  fails "$purser" receipt --verify "$work/receipt.b64"

# 1c. App Store Server API: Apple's AppStoreServerAPIClient, pointed at the simulator, gets transaction info, every
#     page of the transaction history and an order lookup, verifies each signed transaction, and is refused (401)
#     with a token from an unknown key, with the wrong audience, or expired.
server_api_client() {
  "$py" "$repo/scripts/referee/server_api_client.py" --base-url "http://127.0.0.1:$port" --root "$work/sim-root.der" \
    --bundle-id "$bundle"
}
check "Apple's App Store Server API client reads and verifies the simulator's answers; bad tokens get 401" \
  server_api_client

# 2. An independently generated chain with Apple's OIDs signs; Purser verifies.
"$py" "$repo/scripts/referee/sign_with_own_chain.py" --out "$work/own" --bundle-id "$bundle" --environment Sandbox \
  --app-apple-id "$app_id" >/dev/null
verify_own() { "$purser" verify --root "$work/own/root.der" --bundle-id "$bundle" --environment Sandbox "$@"; }
matches_expected() {
  verify_own "$work/own/transaction.jws" | "$py" -c '
import json, sys
printed = json.load(sys.stdin)["transaction"]
expected = json.load(open(sys.argv[1]))
different = {k: (v, printed.get(k)) for k, v in expected.items() if printed.get(k) != v}
sys.exit(f"fields differ: {different}" if different else 0)' "$work/own/expected.json"
}
check "purser verify accepts a transaction signed by a foreign Apple-shaped chain, fields intact" matches_expected
check "purser verify accepts a notification signed by that chain" verify_own "$work/own/notification.jws"
tampered_refused() { ! verify_own "$work/own/tampered.jws" 2>"$work/err" && grep -q '^bad_signature: ' "$work/err"; }
check "purser verify refuses the tampered transaction with bad_signature" tampered_refused
check "purser verify refuses that chain when its root is not trusted" \
  fails "$purser" verify --bundle-id "$bundle" "$work/own/transaction.jws"

# 3. Webhooks: a running `purser serve` posts an event for every credit, signed per Standard Webhooks; the
#    standardwebhooks package (the specification's own Python library) verifies every one, and rejects a tampered
#    body and a request received ten minutes after it was signed. The receiver is down while the credits happen
#    and starts afterwards: every event still arrives (retried every second here).
free_port() { "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
hook_port="$(free_port)"
hook_secret="$("$py" -c 'import base64, os; print("whsec_" + base64.b64encode(os.urandom(32)).decode())')"
metrics_port="$(free_port)"
metrics_token="$("$py" -c 'import secrets; print(secrets.token_urlsafe(24))')"
cat >"$work/serve.json" <<JSON
{
  "host": "127.0.0.1", "port": 0, "dataDirectory": "$work/serve-data", "bundleId": "$bundle",
  "catalogFile": "$repo/examples/catalog.json", "appStore": "simulator", "auth": {"mode": "development"},
  "reconciliation": {"intervalSeconds": 1},
  "webhooks": {"endpoints": [{"url": "http://127.0.0.1:$hook_port/purser"}], "retrySeconds": [1, 1, 1, 1, 1, 1, 1, 1],
               "pollIntervalSeconds": 0.2},
  "metrics": {"port": $metrics_port}
}
JSON
admin_token="$("$py" -c 'import secrets; print(secrets.token_urlsafe(24))')"
PURSER_WEBHOOKS_ENDPOINTS_0_SECRET="$hook_secret" PURSER_METRICS_TOKEN="$metrics_token" PURSER_ADMIN_TOKEN="$admin_token" \
  "$purser" serve --config "$work/serve.json" >"$work/serve.log" 2>&1 &
serve_pid=$!
serve_port="$(wait_for_serve_port "$work/serve.log" "$serve_pid")" || true  # webhooks_verified reports a missing one
credit() {  # credit USER: an order, a simulator purchase with its token, the submission; prints the decision
  local order token jws
  order="$(curl -sf -X POST "http://127.0.0.1:$serve_port/v1/orders" -H "X-Purser-User: $1" \
    -H 'Content-Type: application/json' -d '{"productId": "com.example.purser.gold60"}')"
  token="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["appAccountToken"])' "$order")"
  jws="$(curl -sf -X POST "http://127.0.0.1:$serve_port/simulator/v1/purchases" -H 'Content-Type: application/json' \
    -d "{\"productId\": \"com.example.purser.gold60\", \"appAccountToken\": \"$token\"}" \
    | "$py" -c 'import json, sys; print(json.load(sys.stdin)["signedTransaction"])')"
  curl -sf -X POST "http://127.0.0.1:$serve_port/v1/transactions" -H "X-Purser-User: $1" \
    -H 'Content-Type: application/json' -d "{\"signedTransaction\": \"$jws\"}"
}
wallet() {  # wallet USER ID AMOUNTS: a spend or deposit through the admin API; prints the answer
  curl -s -X POST "http://127.0.0.1:$serve_port/admin/v1/wallets/$1/transactions" \
    -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
    -d "{\"id\": \"$2\", \"amounts\": $3, \"reason\": \"referee\"}"
}
webhooks_verified() {
  [ -n "$serve_port" ] || { cat "$work/serve.log"; return 1; }
  # The hosted simulator also sends Apple's notification at once, which may credit first: either way, credited.
  credit alice | grep -Eq '"(d|alreadyD)elivered"' && credit bob | grep -Eq '"(d|alreadyD)elivered"' || return 1
  # A deposit and a spend: each a wallet.changed event.
  wallet alice quest-1 '{"gems": 5}' | grep -q '"replayed":false' || return 1
  wallet alice shop-1 '{"gold": -20}' | grep -q '"gold":40' || return 1
  sleep 1.5  # the first attempts fail: nothing listens yet
  "$py" "$repo/scripts/referee/webhook_receiver.py" --port "$hook_port" --out "$work/webhooks.jsonl" &
  receiver_pid=$!
  for _ in $(seq 1 100); do
    [ "$(wc -l <"$work/webhooks.jsonl" 2>/dev/null || echo 0)" -ge 4 ] && break
    sleep 0.1
  done
  kill "$receiver_pid" 2>/dev/null; wait "$receiver_pid" 2>/dev/null
  "$py" "$repo/scripts/referee/verify_webhooks.py" --secret "$hook_secret" --records "$work/webhooks.jsonl" --expect 2 \
    --expect-wallet 2 --bundle-id "$bundle"
}
check "standardwebhooks verifies every event purser serve posted (credits, a deposit, a spend; receiver down at first), rejects tampering and age" \
  webhooks_verified

# 4. Metrics: prometheus_client's own parser reads GET /metrics (its own port, behind its token) after the two
#    credits above, an order left waiting, a forged submission, and a StoreKit 1 receipt sent with an app transaction
#    for another app (ignored, counted as wrong_bundle), and a 422, a 400 and a 404; the series operators alert on
#    are there, and every error is counted and timed under its own status.
metrics_parsed() {
  local sim="http://127.0.0.1:$serve_port/simulator/v1" receipt app_transaction
  curl -sf -X POST "http://127.0.0.1:$serve_port/v1/orders" -H "X-Purser-User: carol" \
    -H 'Content-Type: application/json' -d '{"productId": "com.example.purser.gold60"}' >/dev/null || return 1
  curl -s -X POST "http://127.0.0.1:$serve_port/v1/transactions" -H "X-Purser-User: carol" \
    -H 'Content-Type: application/json' -d '{"signedTransaction": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}' >/dev/null
  receipt="$(curl -sf "$sim/devices/device-1/receipt" | "$py" -c 'import json, sys; print(json.load(sys.stdin)["receipt"])')"
  app_transaction="$(curl -sf "$sim/devices/device-1/app-transaction?bundleId=com.example.other" \
    | "$py" -c 'import json, sys; print(json.load(sys.stdin)["signedAppTransaction"])')"
  curl -sf -X POST "http://127.0.0.1:$serve_port/v1/transactions" -H "X-Purser-User: carol" \
    -H 'Content-Type: application/json' \
    -d "{\"receipt\": \"$receipt\", \"appTransaction\": \"$app_transaction\"}" >/dev/null || return 1
  # One client error of each kind: each must be counted and timed under its own status, never as a 500.
  answered() {  # answered STATUS CURL-ARGUMENTS...: the request gets STATUS
    local got
    got="$(curl -s -o /dev/null -w '%{http_code}' -H "X-Purser-User: carol" "${@:2}")"
    [ "$got" = "$1" ] || { echo "expected $1, got $got: ${*:2}"; return 1; }
  }
  answered 422 -X POST "http://127.0.0.1:$serve_port/v1/orders" -H 'Content-Type: application/json' \
    -d '{"productId": "com.example.purser.no-such-product"}' || return 1
  answered 400 -X POST "http://127.0.0.1:$serve_port/v1/orders" -H 'Content-Type: application/json' \
    -d '{"productId": "com.example.purser.gold60", "quantity": 11}' || return 1
  answered 404 "http://127.0.0.1:$serve_port/v1/orders/00000000-0000-4000-8000-000000000000" || return 1
  # A spend the balance cannot cover: 422, counted as insufficient.
  wallet bob shop-2 '{"gold": -1000}' | grep -q insufficient_balance || return 1
  # An open hold: the gauge counts it.
  curl -sf -X POST "http://127.0.0.1:$serve_port/admin/v1/wallets/bob/holds" -H "Authorization: Bearer $admin_token" \
    -H 'Content-Type: application/json' \
    -d '{"id": "auction-1", "amounts": {"gold": 10}, "expiresInSeconds": 600, "reason": "referee"}' >/dev/null || return 1
  "$py" "$repo/scripts/referee/check_metrics.py" --url "http://127.0.0.1:$metrics_port/metrics" \
    --token="$metrics_token" --delivered 2 --app "$bundle"
}
check "prometheus_client parses purser serve's /metrics and finds the alerting series; no token, 401" metrics_parsed
kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null || true
serve_pid=""

echo "referee: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

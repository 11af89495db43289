#!/usr/bin/env bash
# The support console in a real browser: installs Debian's Chromium and its driver if they are missing (apt) and
# Selenium into the project's venv (scripts/python-venv.sh), starts `purser serve` with the App Store simulator, a
# console operator of each role (one hash made by `purser console hash-password`) and the admin token, makes a purchase that no
# order names (unbound: support's case), a purchase Apple signs with the wrong type (refused), and a second server whose
# App Store (a simulator process) is stopped, and a studio (one server for two apps, an unbound purchase in each),
# and drives the console through scripts/console/drive_roles.py (roles, approvals, revocation),
# scripts/console/drive_console.py and scripts/console/drive_studio.py (the app switcher, search and roles per app).
# Screenshots go to the server guide's Resources/console/ (PurserServer.docc). Exits non-zero on any failure.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
[ -x "$purser" ] || { echo "console-browser.sh: build first (swift build), or set PURSER_BIN" >&2; exit 1; }

# A CJK font (5 MB) so the Simplified Chinese pages render in the screenshots.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null \
  || [ ! -d /usr/share/fonts/truetype/wqy ]; then
  echo "console-browser.sh: installing chromium, chromium-driver and fonts-wqy-microhei (apt)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei >/dev/null
fi
bash "$repo/scripts/python-venv.sh" >/dev/null
py="${PURSER_VENV:-$repo/.venv}/bin/python"

work="$(mktemp -d)"
serve_pid=""
sim_pid=""
down_pid=""
studio_pid=""
cleanup() {
  [ -n "$sim_pid" ] && kill -CONT "$sim_pid" 2>/dev/null && kill "$sim_pid" 2>/dev/null
  for pid in "$serve_pid" "$down_pid" "$studio_pid"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
  wait 2>/dev/null; rm -rf "$work"
}
trap cleanup EXIT

password="$("$py" -c 'import secrets; print(secrets.token_urlsafe(18))')"
# An endpoint where nothing listens and no retries: every event is dead at once, for the webhooks page.
hook_secret="$("$py" -c 'import base64, os; print("whsec_" + base64.b64encode(os.urandom(32)).decode())')"
hash="$(printf '%s\n' "$password" | "$purser" console hash-password)"
cat >"$work/serve.json" <<JSON
{
  "host": "127.0.0.1", "port": 0, "dataDirectory": "$work/data", "catalogFile": "$repo/examples/catalog.json",
  "appStore": "simulator", "auth": {"mode": "development"}, "reconciliation": {"intervalSeconds": 0},
  "console": {"operators": [{"name": "li", "passwordHash": "$hash"},
                            {"name": "zhao", "passwordHash": "$hash", "role": "support"},
                            {"name": "mei", "passwordHash": "$hash", "role": "viewer"}],
              "grantLimit": 100, "sampleIntervalSeconds": 0.5},
  "webhooks": {"endpoints": [{"url": "http://127.0.0.1:9/nothing-listens", "secret": "$hook_secret"}],
               "retrySeconds": [], "pollIntervalSeconds": 0.2}
}
JSON
: >"$work/serve.log"
PURSER_ADMIN_TOKEN="$("$py" -c 'import secrets; print(secrets.token_urlsafe(24))')" \
  "$purser" serve --config "$work/serve.json" >"$work/serve.log" 2>&1 &
serve_pid=$!
port="$(wait_for_serve_port "$work/serve.log" "$serve_pid")" || { cat "$work/serve.log"; exit 1; }
base="http://127.0.0.1:$port"

# A purchase made without an order (no appAccountToken): Apple's notification records it unbound.
transaction="$(curl -sf -X POST "$base/simulator/v1/purchases" -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.gold60"}' | "$py" -c 'import json, sys; print(json.load(sys.stdin)["transactionId"])')"
apple_order="$(curl -sf "$base/simulator/v1/transactions/$transaction" \
  | "$py" -c 'import json, sys; print(json.load(sys.stdin)["appleOrderId"])')"
for _ in $(seq 1 100); do  # until the notification has recorded it
  curl -sf "$base/simulator/v1/notifications" | grep -q "$transaction" && break
  sleep 0.1
done
sleep 0.5

# Dave orders the product, and a purchase of it comes without a token: the queue offers dave as its owner.
curl -sf -X POST "$base/v1/orders" -H "X-Purser-User: dave" -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.gold60"}' >/dev/null
queued="$(curl -sf -X POST "$base/simulator/v1/purchases" -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.gold60"}' | "$py" -c 'import json, sys; print(json.load(sys.stdin)["transactionId"])')"
# And a credit, whose webhook event dies at the endpoint where nothing listens.
order="$(curl -sf -X POST "$base/v1/orders" -H "X-Purser-User: erin" -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.gold60"}' | "$py" -c 'import json, sys; print(json.load(sys.stdin)["appAccountToken"])')"
curl -sf -X POST "$base/simulator/v1/purchases" -H 'Content-Type: application/json' \
  -d "{\"productId\": \"com.example.purser.gold60\", \"appAccountToken\": \"$order\"}" >/dev/null
# Frank pays for the non-consumable, but Apple signs it as a consumable: refused, and only his page shows it.
order="$(curl -sf -X POST "$base/v1/orders" -H "X-Purser-User: frank" -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.noads"}' | "$py" -c 'import json, sys; print(json.load(sys.stdin)["appAccountToken"])')"
refused="$(curl -sf -X POST "$base/simulator/v1/purchases" -H 'Content-Type: application/json' \
  -d "{\"productId\": \"com.example.purser.noads\", \"type\": \"Consumable\", \"appAccountToken\": \"$order\"}" \
  | "$py" -c 'import json, sys; print(json.load(sys.stdin)["transactionId"])')"
sleep 1.5

# A second server whose App Store is a simulator in its own process, stopped once nina's purchase is credited:
# Apple hangs (connections open, nothing answers), and support must still see the ledger's record within seconds.
"$purser" appstore-sim --port 0 --data-dir "$work/sim" >"$work/sim.log" 2>&1 &
sim_pid=$!
sim_port="$(wait_for_serve_port "$work/sim.log" "$sim_pid")" || { cat "$work/sim.log"; exit 1; }
cat >"$work/down.json" <<JSON
{
  "host": "127.0.0.1", "port": 0, "dataDirectory": "$work/down", "catalogFile": "$repo/examples/catalog.json",
  "appStore": "simulator", "simulator": {"url": "http://127.0.0.1:$sim_port"}, "auth": {"mode": "development"},
  "reconciliation": {"intervalSeconds": 0}, "finishing": {"intervalSeconds": 0},
  "console": {"operators": [{"name": "li", "passwordHash": "$hash"}]}
}
JSON
PURSER_ADMIN_TOKEN="$("$py" -c 'import secrets; print(secrets.token_urlsafe(24))')" \
  "$purser" serve --config "$work/down.json" >"$work/down.log" 2>&1 &
down_pid=$!
down_port="$(wait_for_serve_port "$work/down.log" "$down_pid")" || { cat "$work/down.log"; exit 1; }
down="http://127.0.0.1:$down_port"
order="$(curl -sf -X POST "$down/v1/orders" -H "X-Purser-User: nina" -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.gold60"}' | "$py" -c 'import json, sys; print(json.load(sys.stdin)["appAccountToken"])')"
jws="$(curl -sf -X POST "http://127.0.0.1:$sim_port/simulator/v1/purchases" -H 'Content-Type: application/json' \
  -d "{\"productId\": \"com.example.purser.gold60\", \"appAccountToken\": \"$order\"}" \
  | "$py" -c 'import json, sys; print(json.load(sys.stdin)["signedTransaction"])')"
nina="$(curl -sf -X POST "$down/v1/transactions" -H "X-Purser-User: nina" -H 'Content-Type: application/json' \
  -d "{\"signedTransaction\": \"$jws\"}" | "$py" -c 'import json, sys; print(json.load(sys.stdin)["transactionId"])')"
kill -STOP "$sim_pid"

# A studio: one server for two games, li an admin in both (seeded), and a purchase without an order in each.
cat >"$work/studio.json" <<JSON
{
  "host": "127.0.0.1", "port": 0, "dataDirectory": "$work/studio", "catalogFile": "$repo/examples/catalog.json",
  "appStore": "simulator", "auth": {"mode": "development"}, "reconciliation": {"intervalSeconds": 0},
  "console": {"operators": [{"name": "li", "passwordHash": "$hash"}]},
  "apps": [{"bundleId": "com.example.dragons"}, {"bundleId": "com.example.racers"}]
}
JSON
PURSER_ADMIN_TOKEN="$("$py" -c 'import secrets; print(secrets.token_urlsafe(24))')" \
  "$purser" serve --config "$work/studio.json" >"$work/studio.log" 2>&1 &
studio_pid=$!
studio_port="$(wait_for_serve_port "$work/studio.log" "$studio_pid")" || { cat "$work/studio.log"; exit 1; }
studio="http://127.0.0.1:$studio_port"
studio_transactions=""
for app in com.example.dragons com.example.racers; do
  id="$(curl -sf -X POST "$studio/simulator/v1/purchases" -H 'Content-Type: application/json' \
    -d "{\"productId\": \"com.example.purser.gold60\", \"bundleId\": \"$app\"}" \
    | "$py" -c 'import json, sys; print(json.load(sys.stdin)["transactionId"])')"
  studio_transactions="$studio_transactions${studio_transactions:+,}$id"
done
for id in ${studio_transactions//,/ }; do  # until both notifications are sent
  for _ in $(seq 1 100); do
    curl -sf "$studio/simulator/v1/notifications" | grep -q "$id" && break
    sleep 0.1
  done
done
sleep 0.5

# Roles first, while both unbound transactions are still unbound (drive_console.py binds them).
"$py" "$repo/scripts/console/drive_roles.py" --base "$base" --admin li --support zhao --viewer mei \
  --password="$password" --unbound-transaction-id "$transaction" \
  --screenshots "$repo/Sources/PurserServer/PurserServer.docc/Resources/console"
"$py" "$repo/scripts/console/drive_console.py" --base "$base" --operator li --password="$password" \
  --apple-order-id "$apple_order" --transaction-id "$transaction" --queued-transaction-id "$queued" \
  --refused-transaction-id "$refused" --apple-down-base "$down" --apple-down-transaction-id "$nina" \
  --screenshots "$repo/Sources/PurserServer/PurserServer.docc/Resources/console"
"$py" "$repo/scripts/console/drive_studio.py" --base "$studio" --admin li --password="$password" \
  --apps com.example.dragons,com.example.racers --transactions "$studio_transactions" \
  --screenshots "$repo/Sources/PurserServer/PurserServer.docc/Resources/console"

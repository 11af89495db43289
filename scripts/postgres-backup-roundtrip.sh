#!/usr/bin/env bash
# The PostgreSQL backup procedure of the server guide ("SQLite and PostgreSQL"), tested: a private server gets a ledger written by `purser serve`
# (credits, a refund, wallet spends and deposits, audit records, outbox events), `pg_dump -Fc`
# copies it, `pg_restore` puts the copy into a new database, and `purser ledger check` on both finds every rule held
# and prints the same balances' totals, balances' checksum and rows per table.
# Usage: PURSER_BIN=.build/debug/purser bash scripts/postgres-backup-roundtrip.sh
set -euo pipefail
purser="${PURSER_BIN:?set PURSER_BIN to the purser binary}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d -t purser-pg-backup.XXXXXX)"
server="$work/server"
chmod 755 "$work"  # the server runs as the postgres user when we are root
cleanup() {
  bash "$here/postgres.sh" stop "$server" || true
  rm -rf "$work"
}
[ -n "${KEEP:-}" ] || trap cleanup EXIT

url="$(bash "$here/postgres.sh" start "$server")"
base="${url%/*}"
# The server's own version of the tools (Debian's /usr/bin/pg_dump is a wrapper that picks a cluster).
bin="$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pg_dump 2>/dev/null | sort -V | tail -n 1 || command -v pg_dump)")"
hostport="${base#postgres://postgres@}"
host="${hostport%:*}"
port="${hostport##*:}"

# A ledger with credits, a refund, wallet spends and deposits, audit records and outbox events: `purser serve` on the
# database, with the App Store simulator inside it, driven over HTTP as an app and a game backend would.
mkdir -p "$work/data"
"$purser" serve --config "$here/../examples/demo.json" --data-dir "$work/data" --port 0 --database-url "$url" \
  >"$work/serve.log" 2>&1 &
serve_pid=$!
. "$here/serve-port.sh"
port_http="$(wait_for_serve_port "$work/serve.log" "$serve_pid")" || { cat "$work/serve.log"; exit 1; }
api="http://127.0.0.1:$port_http"
admin=(-H "Authorization: Bearer demo-admin-token-change-me" -H 'Content-Type: application/json')
json() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }
for n in $(seq 1 12); do
  user="player-$((n % 4))"
  token="$(curl -sf -X POST "$api/v1/orders" -H "X-Purser-User: $user" -H 'Content-Type: application/json' \
    -d '{"productId": "com.example.purser.gold60"}' | json '["appAccountToken"]')"
  purchase="$(curl -sf -X POST "$api/simulator/v1/purchases" -H 'Content-Type: application/json' \
    -d "{\"productId\": \"com.example.purser.gold60\", \"appAccountToken\": \"$token\"}")"
  jws="$(echo "$purchase" | json '["signedTransaction"]')"
  curl -sf -X POST "$api/v1/transactions" -H "X-Purser-User: $user" -H 'Content-Type: application/json' \
    -d "{\"signedTransaction\": \"$jws\"}" >/dev/null
  curl -sf -X POST "$api/admin/v1/wallets/$user/transactions" "${admin[@]}" \
    -d "{\"id\": \"spend-$n\", \"amounts\": {\"gold\": -$((n + 5))}, \"reason\": \"shop\"}" >/dev/null
  if [ "$n" = 3 ]; then
    id="$(echo "$purchase" | json '["transactionId"]')"
    curl -sf -X POST "$api/simulator/v1/transactions/$id/refund" >/dev/null
  fi
done
curl -sf -X POST "$api/admin/v1/wallets/player-1/transactions" "${admin[@]}" \
  -d '{"id": "goodwill-1", "amounts": {"gold": 25}, "reason": "sorry"}' >/dev/null
sleep 1  # the refund's notification
kill "$serve_pid"
wait "$serve_pid" || true

"$bin/pg_dump" -h "$host" -p "$port" -U postgres -Fc -f "$work/ledger.dump" purser_test
"$bin/createdb" -h "$host" -p "$port" -U postgres purser_restored
"$bin/pg_restore" -h "$host" -p "$port" -U postgres --exit-on-error -d purser_restored "$work/ledger.dump"

"$purser" ledger check --database-url "$url" | tee "$work/original.out"
"$purser" ledger check --database-url "$base/purser_restored" | tee "$work/restored.out"
. "$here/same-ledger.sh"
same_ledger postgres-backup-roundtrip "$work/original.out" "$work/restored.out" \
  "checked:" "balances' totals" "balances' checksum" "rows:"
echo "postgres-backup-roundtrip: pg_dump, pg_restore into a new database, ledger check: the same ledger ($(grep '^checked:' "$work/restored.out"))"

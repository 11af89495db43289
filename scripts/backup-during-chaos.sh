#!/usr/bin/env bash
# A backup of a SQLite ledger taken while `purser chaos` drives a real `purser serve` (killed and restarted by the
# server-kill family), restored into a fresh data directory, checked with `purser ledger check`: the copy is sound,
# holds every rule, and restoring it gives the same balances' totals, balances' checksum and rows per table as the
# backup reported.
# Usage: PURSER_BIN=.build/debug/purser bash scripts/backup-during-chaos.sh
set -euo pipefail
purser="${PURSER_BIN:?set PURSER_BIN to the purser binary}"
work="$(mktemp -d -t purser-backup-chaos.XXXXXX)"
trap 'rm -rf "$work"' EXIT
ledger="$work/run/purser/ledger"

"$purser" chaos --purchases 1500 --devices 30 --users 60 --concurrency 12 --baselines none --seed random \
  --storage sqlite --replicas 1 --directory "$work/run" --quiet >"$work/chaos.out" 2>&1 &
chaos=$!
# Wait for the ledger, let the run decide a few hundred purchases, then back it up while the run goes on.
for _ in $(seq 1 300); do
  [ -f "$ledger/purser.sqlite" ] && break
  sleep 0.1
done
sleep 6
"$purser" backup --data-dir "$ledger" --to "$work/backup.sqlite" | tee "$work/backup.out"
kill -0 "$chaos" 2>/dev/null || { echo "backup-during-chaos: the chaos run ended before the backup; nothing was proven"; exit 1; }
wait "$chaos" || { cat "$work/chaos.out"; echo "backup-during-chaos: the chaos run failed"; exit 1; }
# The ledger is the chaos app's (com.example.chaos): restored as that app's, since restore refuses another app's backup.
cat >"$work/chaos-app.json" <<JSON
{"bundleId": "com.example.chaos", "dataDirectory": "$work/restored"}
JSON
"$purser" restore --config "$work/chaos-app.json" --from "$work/backup.sqlite" >"$work/restore.out"
"$purser" ledger check --config "$work/chaos-app.json" | tee "$work/check.out"
. "$(dirname "${BASH_SOURCE[0]}")/same-ledger.sh"
same_ledger backup-during-chaos "$work/backup.out" "$work/check.out" "balances' totals" "balances' checksum" "rows:"
echo "backup-during-chaos: a backup taken mid-run restored and checked ($(grep '^checked:' "$work/check.out"))"

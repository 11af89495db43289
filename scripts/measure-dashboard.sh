#!/usr/bin/env bash
# A benchmark, not part of CI: times GET /console/dashboard on a SQLite ledger holding ROWS audit records spread over
# 60 days (credits, one revoke in 20, one rejection in 50) and 48 hours of queue samples, six times, as BIN's
# `purser serve` answers it, and prints the query plan of the hourly counts (the audit_log_at index).
# Usage: scripts/measure-dashboard.sh BIN ROWS   (e.g. .build/release/purser 5000000; needs sqlite3 and curl)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/serve-port.sh"
bin="$(realpath "$1")"; rows="$2"
work="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
echo '{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}' > catalog.json
# serve_once LOG: starts `purser serve` on a port of its own; sets pid and port.
serve_once() {
  PURSER_ADMIN_TOKEN=tok "$bin" serve --port 0 --appstore simulator --auth development --data-dir data \
    --catalog catalog.json --bundle-id com.example.game >"$1" 2>&1 &
  pid=$!
  port="$(wait_for_serve_port "$1" "$pid")" || { cat "$1"; exit 1; }
}
serve_once serve1.log  # makes and migrates the ledger
kill "$pid"; wait "$pid" || true
now=$(date +%s%3N)
sqlite3 data/purser.sqlite <<SQL
PRAGMA journal_mode=WAL;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
SELECT $now - (i * 5184000000 / $rows), 'transaction', 't' || i,
       CASE WHEN i % 20 = 0 THEN 'revoked' WHEN i % 50 = 1 THEN 'rejected' ELSE 'credited' END, 'bench', ''
FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 575)
INSERT INTO queue_samples (at, webhook_backlog, unbound) SELECT $now - i * 300000, i % 17, i % 5 FROM n;
SELECT COUNT(*) AS audit_rows FROM audit_log;
SQL
serve_once serve2.log
base="http://127.0.0.1:$port"
cookie=$(curl -s -o /dev/null -D - -X POST "$base/console/sign-in" -d 'token=tok' | grep -i '^set-cookie' \
  | sed 's/^[^:]*: //; s/;.*//' | tr -d '\r')
for _ in 1 2 3 4 5 6; do
  curl -s -o page.html -w "dashboard: %{http_code} in %{time_total} s\n" -H "Cookie: $cookie" "$base/console/dashboard"
done
grep -o '<desc id="chart-hourly-desc">[^<]*' page.html
sqlite3 data/purser.sqlite "EXPLAIN QUERY PLAN SELECT at / 3600000 AS hour, event, COUNT(*) AS n FROM audit_log
  WHERE at >= $((now - 172800000)) AND subject = 'transaction' GROUP BY at / 3600000, event;"

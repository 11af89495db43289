#!/usr/bin/env bash
# A benchmark, not part of CI: times GET /console/dashboard on a SQLite ledger holding ROWS audit records spread over
# 60 days (credits, one revoke in 20, one rejection in 50) and 48 hours of queue samples, six times, as BIN's
# `purser serve` answers it, and prints the query plan of the hourly counts (the audit_log_at index).
# Usage: scripts/measure-dashboard.sh BIN ROWS   (e.g. .build/release/purser 5000000; needs sqlite3 and curl)
set -euo pipefail
bin="$(realpath "$1")"; rows="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir data
echo '{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}' > catalog.json
args=(serve --port 18555 --appstore simulator --auth development --data-dir data --catalog catalog.json --bundle-id com.example.game)
PURSER_ADMIN_TOKEN=tok "$bin" "${args[@]}" > serve1.log 2>&1 & pid=$!
for _ in $(seq 100); do curl -sf localhost:18555/health >/dev/null && break; sleep 0.2; done
kill $pid; wait $pid || true
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
PURSER_ADMIN_TOKEN=tok "$bin" "${args[@]}" > serve2.log 2>&1 & pid=$!
for _ in $(seq 100); do curl -sf localhost:18555/health >/dev/null && break; sleep 0.2; done
cookie=$(curl -s -o /dev/null -D - -X POST localhost:18555/console/sign-in -d 'token=tok' | grep -i '^set-cookie' | sed 's/^[^:]*: //; s/;.*//' | tr -d '\r')
for i in 1 2 3 4 5 6; do
  curl -s -o page.html -w "dashboard: %{http_code} in %{time_total} s\n" -H "Cookie: $cookie" localhost:18555/console/dashboard
done
grep -o '<desc id="chart-hourly-desc">[^<]*' page.html
sqlite3 data/purser.sqlite "EXPLAIN QUERY PLAN SELECT at / 3600000 AS hour, event, COUNT(*) AS n FROM audit_log WHERE at >= $((now - 172800000)) AND subject = 'transaction' GROUP BY at / 3600000, event;"
kill $pid; wait $pid || true

#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   0. the habits a script can hold: the layout rules (scripts/check-layout.sh) and `swift format lint`;
#   0b. the DocC catalogs (Purser, PurserWebhooks, PurserServer) built with warnings as errors, after the build (whose
#      Snippets/ are the guides' Swift samples); preview one with
#      `swift package --disable-sandbox preview-documentation --target Purser`;
#   1. build everything with warnings as errors in Purser's own targets, and run every Swift test (unit, SQLite
#      ledger, live HTTP; then the purser binary's; then the timed suites), the PostgreSQL ledger's against a private
#      server (scripts/postgres.sh),
#      under scripts/stall-watchdog.sh (five silent minutes fail the run with the tests in flight and a thread dump);
#   1b. the StoreKit interface check (scripts/check-storekit-interface.sh): the SDK's Apple-only code compiled against
#      hand-written interfaces of Apple's frameworks, and mutants it must reject; then an app package that depends on
#      the SDK with `traits: []` resolves no package at all (scripts/check-sdk-dependencies.sh); the SDK guides' app,
#      built from their manifest sample with their portable samples, runs their simulator test against a live
#      `purser serve` (scripts/check-sdk-guides.sh; their Apple-only samples are in the interface check);
#   2. the README's five-minute tour run as written (scripts/readme-walkthrough.sh); the referee: Apple's official
#      Python library against Purser, in both directions, standardwebhooks and prometheus_client; the alerting rules
#      under promtool (a unit test per alert) and a real Prometheus scraping a live serve: every documented metric
#      present, the rules healthy, the alert guide quoting each rule, the Grafana dashboard's every query and label
#      one the server exports (scripts/check-prometheus.sh, which installs Debian's prometheus); schemathesis
#      against a running `purser serve` (openapi.yaml is the contract); every route of openapi.yaml with edge values
#      in every field, the server answering /health after each (scripts/edge-values.sh); the support console in
#      Chromium driven by Selenium; each fuzz target in Fuzz/ for 30 seconds;
#   3. short chaos runs (every fault family): a fixed seed in process; a random seed for a studio of two apps in
#      process (--apps 2, one game backend for both apps: the cross-app and webhook-id-reused invariants); random seeds (printed) against a real
#      `purser serve` process on SQLite and against two replicas on PostgreSQL, killed and restarted, whose own
#      primary is killed and standby promoted (database-failover); then a SQLite backup taken mid-chaos, restored and
#      checked (scripts/backup-during-chaos.sh); a PostgreSQL ledger dumped, restored into a new database and checked
#      (scripts/postgres-backup-roundtrip.sh); the production stack (scripts/postgres-ha.sh: Patroni, etcd,
#      pgbouncer in transaction mode): the PostgreSQL conformance suites through pgbouncer, and a chaos run through
#      pgbouncer while Patroni fails over (--database-ha patroni-pgbouncer).
# Installs what it needs itself (libsqlite3-dev when its header is missing, a Python venv with app-store-server-library, schemathesis, selenium, opentelemetry-proto (the tracing test's OTLP receiver); Chromium,
# Patroni, etcd and pgbouncer from Debian's packages). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== system libraries (libsqlite3-dev)"
bash scripts/system-libraries.sh
echo "== layout"
bash scripts/check-layout.sh
echo "== swift format lint (.swift-format)"
swift format lint --strict --parallel -r Sources Tests Fuzz Snippets Package.swift
echo "== swift build --build-tests (warnings are errors in Purser's targets; the guides' snippets in Snippets/ too)"
export PURSER_WARNINGS_AS_ERRORS=1
swift build --build-tests
echo "== DocC: each catalog with warnings as errors (a broken link, symbol, snippet or parameter doc fails)"
for target in Purser PurserWebhooks PurserServer; do
  started=$SECONDS
  swift package --disable-sandbox generate-documentation --target "$target" --warnings-as-errors
  echo "docs: $target in $((SECONDS - started)) s"
done
preview="swift package --disable-sandbox preview-documentation --target Purser   # or PurserWebhooks, PurserServer"
echo "   To read them in a browser: $preview"
echo "== PostgreSQL (a private server for PurserPostgresTests, stopped on exit)"
PURSER_POSTGRES_DIR="$(mktemp -d -t purser-postgres.XXXXXX)"
trap 'bash scripts/postgres.sh stop "$PURSER_POSTGRES_DIR"' EXIT
PURSER_TEST_DATABASE_URL="$(bash scripts/postgres.sh start "$PURSER_POSTGRES_DIR")"
export PURSER_TEST_DATABASE_URL
echo "== the stall watchdog fails a command silent for its limit and names the test in flight"
if watched="$(bash scripts/stall-watchdog.sh 5 bash -c 'echo "◇ Test stalls() started."; sleep 60')"; then
  echo "stall-watchdog.sh let a stalled command pass"; exit 1
fi
grep -qx '  stalls()' <<< "$watched" || { echo "stall-watchdog.sh did not name the test in flight: $watched"; exit 1; }
echo "== swift test"
# The suites whose checks are times (a connection closed within a bound, an answer by a deadline, a database back
# within a wait, a failover's gap) run alone after the rest: their bounds are about Purser, and beside some 400
# other tests on two cores a timer fired seconds late.
# PostgresServerOutageTests and PostgresRestartUnderLoadTests, which take a database away under a live server, also
# run there: with the whole suite beside them the test process has stalled (every task waiting, no timer pending) in
# 4 of about 20 runs, always with these two unfinished; alone they have not stalled.
timed='ConnectionLimitTests|OperationDeadlineTests|PostgresOutageTests|PostgresFailoverTests'
timed+='|PostgresServerOutageTests|PostgresRestartUnderLoadTests'
# Both runs go through stall-watchdog.sh: five minutes without a line fails the run and prints the tests in flight,
# every thread of the test process (gdb) and its sockets, instead of waiting for CI's time limit.
# The purser binary's tests (PurserCLITests) run after the in-process ones: each starts `purser serve`, the simulator
# or a command as a child process, some fifty at once, and beside them (a load average of 22 on two cores) the
# in-process servers of the SDK's tests answered after their clients' 15 s time-out (85 issues in each of three
# runs); apart, both pass in about the time they took together.
bash scripts/stall-watchdog.sh 300 swift test --skip-build --skip "$timed|PurserCLITests"
echo "== swift test: the purser binary's tests (PurserCLITests)"
bash scripts/stall-watchdog.sh 300 swift test --skip-build --skip "$timed" --filter PurserCLITests
echo "== swift test: the timed suites alone"
bash scripts/stall-watchdog.sh 300 swift test --skip-build --filter "$timed"
echo "== StoreKit interface check (the SDK's Apple branch, no Mac needed)"
bash scripts/check-storekit-interface.sh
echo "== an app that depends on the SDK (traits: []) resolves no package: a throwaway app package built and run"
bash scripts/check-sdk-dependencies.sh
PURSER_BIN="$(swift build --show-bin-path)/purser"
echo "== the SDK's guides as written: an app from their manifest (MemberImportVisibility, a checkout not named"
echo "   purser) builds their samples and runs their simulator test against a live purser serve"
PURSER_BIN="$PURSER_BIN" bash scripts/check-sdk-guides.sh
echo "== the README's five-minute tour, run as written"
PURSER_BIN="$PURSER_BIN" bash scripts/readme-walkthrough.sh
echo "== referee (Apple's app-store-server-library)"
PURSER_BIN="$PURSER_BIN" bash scripts/referee.sh
echo "== the alerting rules: promtool's checks and unit tests (each alert fires, and stays quiet), then Debian's"
echo "   Prometheus scraping a live purser serve and evaluating them, and the Grafana dashboard's queries"
PURSER_BIN="$PURSER_BIN" bash scripts/check-prometheus.sh
echo "== schemathesis: a running purser serve held to openapi.yaml"
PURSER_BIN="$PURSER_BIN" bash scripts/schemathesis.sh
echo "== edge values: every route of openapi.yaml, every field at its edges; no 500, /health after each"
PURSER_BIN="$PURSER_BIN" bash scripts/edge-values.sh
echo "== the support console in a real browser (Chromium driven by Selenium; installs them if missing)"
PURSER_BIN="$PURSER_BIN" bash scripts/console-browser.sh
echo "== fuzzing: each libFuzzer target in Fuzz/ for 30 s"
PURSER_BIN="$PURSER_BIN" bash scripts/fuzz.sh 30
echo "== chaos (every fault family): seed 1 with the server in process; a random seed with the server as a real"
echo "   purser serve process on SQLite, killed with SIGKILL and restarted (server-kill); a random seed with two"
echo "   replicas on PostgreSQL, each killed and restarted, on a primary and synchronous standby the run starts itself,"
echo "   the primary killed with SIGKILL and the standby promoted at least once (database-failover); a random seed"
echo "   for a studio of two apps in process, each running the plan (--apps 2: nothing may land in the other app)"
"$PURSER_BIN" chaos --purchases 2000 --devices 40 --users 80 --concurrency 16 --baseline-purchases 500 --seed 1
"$PURSER_BIN" chaos --apps 2 --purchases 1000 --devices 20 --users 40 --concurrency 8 --baselines none --seed random
"$PURSER_BIN" chaos --purchases 2000 --devices 40 --users 80 --concurrency 16 --baselines none --seed random \
  --storage sqlite --replicas 1
# PURSER_DATABASE_URL names another database, as a shell that followed the README may: the replicas must not use it.
# With --faults all (the default) database-failover is on: the run uses a primary and standby of its own, not the
# private server above, and the report must list at least one failover.
PURSER_DATABASE_URL="${PURSER_TEST_DATABASE_URL%/*}/not_the_chaos_database" \
  "$PURSER_BIN" chaos --purchases 1000 --devices 24 --users 48 --concurrency 12 --baselines none --seed random \
  --storage postgres --replicas 2 --database-url "$PURSER_TEST_DATABASE_URL"
echo "== the production PostgreSQL stack (scripts/postgres-ha.sh: etcd, three servers under Patroni in synchronous"
echo "   mode, pgbouncer in transaction pool mode): the PostgreSQL ledger's conformance suites through pgbouncer; then"
echo "   a random seed whose two replicas go through pgbouncer while Patroni fails over (a SIGKILL of the leader's"
echo "   PostgreSQL, then a switchover, alternately)"
PURSER_HA_DIR="$(mktemp -d -t purser-ha.XXXXXX)"
trap 'bash scripts/postgres-ha.sh stop "$PURSER_HA_DIR"; bash scripts/postgres.sh stop "$PURSER_POSTGRES_DIR"' EXIT
bash scripts/postgres-ha.sh start "$PURSER_HA_DIR" --pool-mode transaction >/dev/null
PURSER_TEST_DATABASE_URL="$(cat "$PURSER_HA_DIR/pgbouncer.url")" PURSER_TEST_DATABASE_POOLER=pgbouncer \
  bash scripts/stall-watchdog.sh 300 swift test --skip-build \
  --filter 'PostgresLedgerStoreTests|PostgresSettlementBatchTests|PostgresRefundRaceTests|PostgresStartProblemTests'
bash scripts/postgres-ha.sh stop "$PURSER_HA_DIR"
"$PURSER_BIN" chaos --purchases 400 --devices 16 --users 32 --concurrency 8 --baselines none --seed random \
  --storage postgres --replicas 2 --rate database-failover=0.005 --database-ha patroni-pgbouncer
echo "== a SQLite backup taken mid-chaos, restored into a fresh directory and checked with purser ledger check"
PURSER_BIN="$PURSER_BIN" bash scripts/backup-during-chaos.sh
echo "== the server guide's PostgreSQL backup: pg_dump, pg_restore into a new database, purser ledger check on both"
PURSER_BIN="$PURSER_BIN" bash scripts/postgres-backup-roundtrip.sh
echo "== done. The guides, in a browser: $preview"

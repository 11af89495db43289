#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   0. the habits a script can hold: the layout rules (scripts/check-layout.sh) and `swift format lint`;
#   1. build everything with warnings as errors in Purser's own targets, and run every Swift test (unit, SQLite
#      ledger, live HTTP, the purser binary);
#   2. the referee: Apple's official Python library against Purser, in both directions; schemathesis against a
#      running `purser serve` (openapi.yaml is the contract); each fuzz target in Fuzz/ for 30 seconds;
#   3. short chaos runs (every fault family): a fixed seed in process, and a random seed (printed) against a real
#      `purser serve` process that is killed and restarted.
# Installs what it needs itself (a Python venv with app-store-server-library and schemathesis). Exits non-zero on
# any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== layout"
bash scripts/check-layout.sh
echo "== swift format lint (.swift-format)"
swift format lint --strict --parallel -r Sources Tests Fuzz Package.swift
echo "== swift build --build-tests (warnings are errors in Purser's targets)"
export PURSER_WARNINGS_AS_ERRORS=1
swift build --build-tests
echo "== swift test"
swift test --skip-build
PURSER_BIN="$(swift build --show-bin-path)/purser"
echo "== referee (Apple's app-store-server-library)"
PURSER_BIN="$PURSER_BIN" bash scripts/referee.sh
echo "== schemathesis: a running purser serve held to openapi.yaml"
PURSER_BIN="$PURSER_BIN" bash scripts/schemathesis.sh
echo "== fuzzing: each libFuzzer target in Fuzz/ for 30 s"
PURSER_BIN="$PURSER_BIN" bash scripts/fuzz.sh 30
echo "== chaos (every fault family): seed 1 with the server in process, then a random seed with the server as a"
echo "   real purser serve process on SQLite that is killed with SIGKILL and restarted (server-kill)"
"$PURSER_BIN" chaos --purchases 2000 --devices 40 --users 80 --concurrency 16 --baseline-purchases 500 --seed 1
"$PURSER_BIN" chaos --purchases 2000 --devices 40 --users 80 --concurrency 16 --baselines none --seed random \
  --storage sqlite --replicas 1

#!/usr/bin/env bash
# The whole test suite, as the README's quick start and CI run it:
#   1. build everything and run every Swift test (unit, SQLite ledger, live HTTP, the purser binary);
#   2. the referee: Apple's official Python library against Purser, in both directions.
# Installs what it needs itself (a Python venv with app-store-server-library). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== swift build --build-tests"
swift build --build-tests
echo "== swift test"
swift test --skip-build
echo "== referee (Apple's app-store-server-library)"
PURSER_BIN="$(swift build --show-bin-path)/purser" bash scripts/referee.sh

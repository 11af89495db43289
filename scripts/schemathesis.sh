#!/usr/bin/env bash
# Holds a running `purser serve` to openapi.yaml with schemathesis: every operation, schemathesis's default checks
# (server errors, status codes, content types, response headers and schemas, negative and positive data, auth that
# is really enforced, 405 with Allow for undeclared methods, …), a bounded number of examples per operation.
# Exits non-zero on any finding.
#
# The server: scripts/every-route-serve.sh (JWT users, an admin token, every route on).
#
#   PURSER_BIN          the purser binary (default: .build/debug/purser)
#   SCHEMATHESIS_MAX_EXAMPLES  examples per operation (default 100)
#   SCHEMATHESIS_SEED   a seed to repeat a run (default: random, printed)
set -euo pipefail
max_examples="${SCHEMATHESIS_MAX_EXAMPLES:-100}"
seed="${SCHEMATHESIS_SEED:-$RANDOM$RANDOM}"
. "$(dirname "${BASH_SOURCE[0]}")/every-route-serve.sh"
start_every_route_serve schemathesis.sh schemathesis

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

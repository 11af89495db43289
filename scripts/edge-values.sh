#!/usr/bin/env bash
# No request takes the server down: every route of openapi.yaml driven with edge values in every number, string,
# array and object, and in path and query parameters (scripts/edge_values/drive.py), against a running `purser serve`
# with every route on (JWT users, an admin token, the app's own spends, a webhook endpoint); after each request the
# server must still answer /health, and no answer may be a 500. Prints the requests that cost the server the most CPU.
#
#   PURSER_BIN   the purser binary (default: .build/debug/purser)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/every-route-serve.sh"
start_every_route_serve edge-values.sh edge-user

status=0
"$venv/bin/python" "$repo/scripts/edge_values/drive.py" "http://127.0.0.1:$port" "$repo/openapi.yaml" \
  "$user_token" "$admin_token" "$server_pid" || status=$?
kill -0 "$server_pid" 2>/dev/null || { echo "edge-values.sh: purser serve exited"; tail -20 "$work/serve.log"; status=1; }
if grep -qE '^[^ ]+ critical ' "$work/serve.log"; then
  echo "edge-values.sh: the server logged critical errors:"; grep -E '^[^ ]+ critical ' "$work/serve.log" | head
  status=1
fi
exit "$status"

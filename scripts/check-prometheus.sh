#!/usr/bin/env bash
# Purser's Prometheus rules, alert guide and Grafana dashboard held to a real Prometheus (Debian's `prometheus` and
# `promtool`, installed when missing):
#   1. `promtool check rules` over examples/prometheus-alerts.yml and `promtool test rules` over
#      examples/prometheus-alerts.test.yml: for every alert, series that must fire it and series that must not; for
#      every recorded series, its value;
#   2. teeth: for every metric and recorded name the rules use, a copy of the rules with it misspelt fails the tests;
#   3. the alert guide (MetricsAndAlerts.md) quotes every alert's exact expression, severity and delay, with what to
#      do (scripts/alert-guide.py, which also shows that a changed quote or a missing section is refused);
#   4. Prometheus itself, configured from examples/prometheus.yml, scrapes a live `purser serve --config
#      examples/demo.json` (reconciliation, finishing, backups and retention every second, a webhook endpoint that
#      never answers) driven with purchases, a purchase for another app, a forged submission and wallet deposits:
#      the target is up, every rule evaluates with health ok and every recorded series has a value, an alert on a
#      histogram's quantile compares it with a live bucket boundary, and every series the guide's table lists is in
#      Prometheus (scripts/prometheus-live.py);
#   5. examples/grafana-dashboard.json: every metric and label its queries use is one the live /metrics has, each
#      query is answered by Prometheus, and copies with a metric or a label misspelt are refused
#      (scripts/grafana-dashboard.py).
# Runs every check and exits non-zero naming those that failed; about 40 s once installed (two processors).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$repo/scripts/serve-port.sh"
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v promtool >/dev/null || ! command -v prometheus >/dev/null; then
  echo "check-prometheus: installing Debian's prometheus (apt-get install), no service started" >&2
  guard=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=1
    printf '#!/bin/sh\n# check-prometheus.sh: no service starts while it installs packages\nexit 101\n' |
      as_root tee /usr/sbin/policy-rc.d >/dev/null
    as_root chmod 755 /usr/sbin/policy-rc.d
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >&2
  [ "$guard" = 1 ] && as_root rm -f /usr/sbin/policy-rc.d
fi

bash "$repo/scripts/python-venv.sh" >/dev/null
py="${PURSER_VENV:-$repo/.venv}/bin/python"
started=$SECONDS
failed=()

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
rules="$repo/examples/prometheus-alerts.yml"
tests="$repo/examples/prometheus-alerts.test.yml"
guide="$repo/Sources/PurserServer/PurserServer.docc/MetricsAndAlerts.md"

section() { echo "== $1 [at $((SECONDS - started)) s]"; }
section "promtool check rules, promtool test rules"
promtool check rules "$rules"
promtool test rules "$tests"

section "every metric and recorded name the rules use is one a test needs: misspelt, the tests fail"
# Series names as the rules write them (`…_bucket`, `…_count` included), comments aside; a name followed by `=` is a
# label, one between colons part of a recorded name; and the recorded names themselves.
names="$(sed -E 's/^\s*#.*//' "$rules" |
  grep -oP '(?<![\w:])(purser|http)_[a-z0-9_]+(?![\w:])(?!\s*=)|(?<=record: )\S+' | sort -u)"
# One mutant per name, as many at once as there are processors (each `promtool test rules` takes a few seconds).
uncovered="$(printf '%s\n' $names | work="$work" rules="$rules" tests="$tests" xargs -P "$(nproc)" -I{} bash -c '
  dir="$work/mutant/$1" && mkdir -p "$dir" && cp "$tests" "$dir/" &&
  sed -E "s/\\b$1\\b/$1_misspelt/g" "$rules" >"$dir/prometheus-alerts.yml" &&
  promtool test rules "$dir/prometheus-alerts.test.yml" >/dev/null 2>&1 && echo "$1"' _ {})" || true
uncovered=($uncovered)
if [ ${#uncovered[@]} -gt 0 ]; then
  echo "check-prometheus: the rule tests pass with these misspelt in the rules: ${uncovered[*]}" >&2
  failed+=("misspelt names")
fi
echo "  $(wc -w <<<"$names") names ($(grep -c : <<<"$names") recorded): $(($(wc -w <<<"$names") - ${#uncovered[@]}))" \
  "of them misspelt make the tests fail"

section "the alert guide quotes every alert"
"$py" "$repo/scripts/alert-guide.py" "$rules" "$guide" || failed+=("alert guide")

section "Prometheus scraping a live purser serve, driven with traffic"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
[ -x "$purser" ] || { echo "check-prometheus: build first (swift build), or set PURSER_BIN" >&2; exit 1; }
free_port() { "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# The workers every second, and a webhook endpoint nobody listens on (attempts fail, one retry, then dead), so that
# every series the guide lists has a value within seconds; the rest is examples/demo.json as it ships.
PURSER_METRICS_PORT=0 PURSER_RECONCILIATION_INTERVAL_SECONDS=1 PURSER_FINISHING_INTERVAL_SECONDS=1 \
  PURSER_BACKUP_INTERVAL_SECONDS=1 PURSER_RETENTION_INTERVAL_SECONDS=1 \
  PURSER_WEBHOOKS_ENDPOINTS_0_URL="http://127.0.0.1:$(free_port)/purser" \
  PURSER_WEBHOOKS_ENDPOINTS_0_SECRET="whsec_$(head -c 32 /dev/urandom | base64)" \
  PURSER_WEBHOOKS_RETRY_SECONDS=1 PURSER_WEBHOOKS_POLL_INTERVAL_SECONDS=0.2 \
  "$purser" serve --config "$repo/examples/demo.json" --port 0 --data-dir "$work/data" >"$work/serve.log" 2>&1 &
pids+=($!)
port="$(wait_for_serve_port "$work/serve.log" "${pids[0]}")" || { cat "$work/serve.log"; exit 1; }
metrics_port=""
for _ in $(seq 1 100); do
  metrics_port="$(sed -n 's|.*metrics at http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$work/serve.log" | head -1)"
  [ -n "$metrics_port" ] && break
  sleep 0.1
done
[ -n "$metrics_port" ] || { cat "$work/serve.log"; echo "check-prometheus: no metrics listener" >&2; exit 1; }

# Prometheus first, so that it sees the counters move (a rate needs two samples of the same series).
prometheus_port="$(free_port)"
prometheus="http://127.0.0.1:$prometheus_port"
sed -e "s|127.0.0.1:9464|127.0.0.1:$metrics_port|" -e 's/_interval: 30s/_interval: 1s/' \
  -e "s|  - prometheus-alerts.yml|  - $rules|" "$repo/examples/prometheus.yml" >"$work/prometheus.yml"
grep -q "127.0.0.1:$metrics_port" "$work/prometheus.yml" && grep -q "$rules" "$work/prometheus.yml" || {
  echo "check-prometheus: examples/prometheus.yml no longer has the target or rule file this check replaces" >&2
  exit 1
}
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do
  curl -sf "$prometheus/api/v1/query?query=up" | grep -q '"1"\]' && break
  sleep 0.5
done

api="http://127.0.0.1:$port"
json() { "$py" -c "import json, sys; print(json.load(sys.stdin)$1)"; }
post() {  # post PATH BODY [CURL-ARGUMENTS...], as $user (alice outside purchase)
  curl -s -X POST "$api$1" -H 'Content-Type: application/json' -H "X-Purser-User: ${user:-alice}" "${@:3}" -d "$2"
}
purchase() {  # purchase USER: an order, the hosted simulator's purchase with its token, the app's submission
  local user="$1" token jws decision
  token="$(post /v1/orders '{"productId": "com.example.purser.gold60"}' -f | json '["appAccountToken"]')"
  jws="{\"productId\": \"com.example.purser.gold60\", \"appAccountToken\": \"$token\"}"
  jws="$(post /simulator/v1/purchases "$jws" -f | json '["signedTransaction"]')"
  decision="$(post /v1/transactions "{\"signedTransaction\": \"$jws\"}" -f | json '["decision"]')"
  case "$decision" in delivered) ;; *)
    echo "check-prometheus: $user's purchase was $decision, not credited" >&2
    exit 1
    ;;
  esac
}
deposit() {  # deposit USER ID: five gems through the admin API (demo.json's admin token)
  post "/admin/v1/wallets/$1/transactions" "{\"id\": \"$2\", \"amounts\": {\"gems\": 5}, \"reason\": \"check\"}" \
    -f -H 'Authorization: Bearer demo-admin-token-change-me' >/dev/null
}
# Apple's notifications held back until the purchases are credited, so each credit is the app's submission's
# (cause client, counted twice: the recorded rate moves), then sent: each is found credited already.
post /simulator/v1/notifications/faults '{"pause": true}' -f
purchase alice
deposit alice check-1
# A purchase of another app (its notification is ignored, as unknown_bundle), and a forged submission (malformed).
post /simulator/v1/purchases '{"productId": "com.example.purser.gold60", "bundleId": "com.example.other"}' -f >/dev/null
post /v1/transactions '{"signedTransaction": "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}' -o /dev/null
sleep 2.5  # two scrapes: the second round moves every counter the first made
purchase bob
deposit bob check-2
post /simulator/v1/notifications/faults '{"pause": false}' -f
post /simulator/v1/notifications/deliver '' -f >/dev/null
echo "  traffic: 2 purchases credited, 1 of another app, 1 forged submission, 2 deposits; then Apple's notifications"

"$py" "$repo/scripts/prometheus-live.py" --prometheus "$prometheus" --rules "$rules" --guide "$guide" ||
  failed+=("live Prometheus")

section "the Grafana dashboard's queries, against the live /metrics and Prometheus"
"$py" "$repo/scripts/grafana-dashboard.py" --dashboard "$repo/examples/grafana-dashboard.json" \
  --metrics "http://127.0.0.1:$metrics_port/metrics" --prometheus "$prometheus" || failed+=("Grafana dashboard")

if [ ${#failed[@]} -gt 0 ]; then
  echo "check-prometheus: FAILED ($((SECONDS - started)) s): $(IFS=,; echo "${failed[*]}")" >&2
  exit 1
fi
echo "check-prometheus: ok ($((SECONDS - started)) s)"

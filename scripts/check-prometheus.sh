#!/usr/bin/env bash
# Purser's alerting rules held to a real Prometheus (Debian's `prometheus` and `promtool`, installed when missing):
#   1. `promtool check rules` over examples/prometheus-alerts.yml;
#   2. `promtool test rules` over examples/prometheus-alerts.test.yml: for every alert, series that must fire it and
#      series that must not;
#   3. teeth: for every metric the rules name, a copy of the rules with that name misspelt must fail those tests;
#   4. Prometheus itself, configured from examples/prometheus.yml, scrapes a live `purser serve --config
#      examples/demo.json` after a purchase: the target is up, every rule evaluates without error, and the purchase's
#      series (credits, decisions, the ledger write's and the request's durations) are queryable.
# Exits non-zero on any failure; about half a minute once installed.
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

echo "== promtool check rules, promtool test rules"
promtool check rules "$rules"
promtool test rules "$tests"

echo "== every metric the rules name is one a test needs: misspelt, the tests fail"
mkdir -p "$work/mutant"
cp "$tests" "$work/mutant/"
# Series names as the rules write them (`…_bucket`, `…_count` included); a name followed by `=` is a label.
metrics="$(grep -oP '\b(purser|http)_[a-z_]+\b(?!\s*=)' "$rules" | sort -u)"
for metric in $metrics; do
  sed -E "s/\\b${metric}\\b/${metric}_misspelt/g" "$rules" >"$work/mutant/prometheus-alerts.yml"
  if promtool test rules "$work/mutant/prometheus-alerts.test.yml" >/dev/null 2>&1; then
    echo "check-prometheus: the alert tests pass with $metric misspelt in the rules; they do not cover it" >&2
    exit 1
  fi
  echo "  $metric misspelt: the tests fail, as they must"
done

echo "== Prometheus scraping a live purser serve"
purser="${PURSER_BIN:-$repo/.build/debug/purser}"
[ -x "$purser" ] || { echo "check-prometheus: build first (swift build), or set PURSER_BIN" >&2; exit 1; }
PURSER_METRICS_PORT=0 "$purser" serve --config "$repo/examples/demo.json" --port 0 --data-dir "$work/data" \
  >"$work/serve.log" 2>&1 &
pids+=($!)
port="$(wait_for_serve_port "$work/serve.log" "${pids[0]}")" || { cat "$work/serve.log"; exit 1; }
metrics_port=""
for _ in $(seq 1 100); do
  metrics_port="$(sed -n 's|.*metrics at http://127.0.0.1:\([0-9]*\)/metrics.*|\1|p' "$work/serve.log" | head -1)"
  [ -n "$metrics_port" ] && break
  sleep 0.1
done
[ -n "$metrics_port" ] || { cat "$work/serve.log"; echo "check-prometheus: no metrics listener" >&2; exit 1; }
# One purchase, as the README's tour makes it, so the credit's series exist.
api="http://127.0.0.1:$port"
json() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }
token="$(curl -sf -X POST "$api/v1/orders" -H 'X-Purser-User: alice' -H 'Content-Type: application/json' \
  -d '{"productId": "com.example.purser.gold60"}' | json '["appAccountToken"]')"
jws="$(curl -sf -X POST "$api/simulator/v1/purchases" -H 'Content-Type: application/json' \
  -d "{\"productId\": \"com.example.purser.gold60\", \"appAccountToken\": \"$token\"}" | json '["signedTransaction"]')"
decision="$(curl -sf -X POST "$api/v1/transactions" -H 'X-Purser-User: alice' -H 'Content-Type: application/json' \
  -d "{\"signedTransaction\": \"$jws\"}" | json '["decision"]')"
# Apple's notification may credit it first: then the app's submission finds it credited.
case "$decision" in delivered | alreadyDelivered) ;; *)
  echo "check-prometheus: the purchase was $decision, not credited" >&2
  exit 1
  ;;
esac

prometheus_port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
sed -e "s|127.0.0.1:9464|127.0.0.1:$metrics_port|" -e 's/_interval: 30s/_interval: 1s/' \
  -e "s|  - prometheus-alerts.yml|  - $rules|" "$repo/examples/prometheus.yml" >"$work/prometheus.yml"
grep -q "127.0.0.1:$metrics_port" "$work/prometheus.yml" && grep -q "$rules" "$work/prometheus.yml" || {
  echo "check-prometheus: examples/prometheus.yml no longer has the target or rule file this check replaces" >&2
  exit 1
}
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
PROMETHEUS="http://127.0.0.1:$prometheus_port" python3 - <<'PY' || { tail -20 "$work/prometheus.log"; exit 1; }
import json, os, sys, time, urllib.parse, urllib.request

base = os.environ["PROMETHEUS"]

def get(path):
    with urllib.request.urlopen(base + path, timeout=5) as answer:
        return json.load(answer)["data"]

def wait(what, ready, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = ready()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.5)
    sys.exit(f"check-prometheus: {what} within {seconds} s")

targets = wait("no target up", lambda: [t for t in get("/api/v1/targets")["activeTargets"] if t["health"] == "up"])
print(f"  target up: {targets[0]['scrapeUrl']}")
def evaluated():
    rules = [rule for group in get("/api/v1/rules")["groups"] for rule in group["rules"]]
    done = [rule for rule in rules if rule.get("lastEvaluation", "").startswith("20")]
    return rules if rules and len(done) == len(rules) else None
rules = wait("not every rule evaluated", evaluated)
broken = [f"{rule['name']}: {rule.get('lastError')}" for rule in rules if rule["health"] != "ok"]
if broken:
    sys.exit("check-prometheus: rules that do not evaluate: " + "; ".join(broken))
print(f"  {len(rules)} rules evaluated, health ok: " + ", ".join(rule["name"] for rule in rules))
for query in ["purser_credits_total", "purser_decisions_total", "purser_ledger_write_duration_seconds_count",
              "http_server_request_duration_seconds_count"]:
    found = wait(f"no {query}", lambda: get("/api/v1/query?" + urllib.parse.urlencode({"query": query}))["result"])
    print(f"  {query}: {len(found)} series, e.g. {found[0]['metric']} = {found[0]['value'][1]}")
PY
echo "check-prometheus: ok"

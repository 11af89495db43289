"""The metrics referee: the `prometheus_client` package's own text-format parser reads what a running `purser serve`
answers at GET /metrics (its own listener, `metrics.port`, behind `metrics.token`) after a few purchases, and the
series an operator alerts on must be there with sensible values. A scrape without the token must get 401.
Exits 1 on the first check that fails, printing what it found."""
import argparse
import sys
import time
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def fail(message: str) -> None:
    print(f"check_metrics: {message}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--delivered", type=int, required=True, help="credits made before the scrape")
    parser.add_argument("--app", required=True, help="the served app's bundle id: every purser_ sample's app label")
    args = parser.parse_args()

    try:
        urllib.request.urlopen(args.url, timeout=10)
        fail("a scrape without the token was answered")
    except urllib.error.HTTPError as error:
        if error.code != 401:
            fail(f"a scrape without the token got {error.code}, not 401")

    def scrape() -> dict:
        request = urllib.request.Request(args.url, headers={"Authorization": f"Bearer {args.token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            if not response.headers.get("Content-Type", "").startswith("text/plain"):
                fail(f"Content-Type {response.headers.get('Content-Type')}")
            text = response.read().decode("utf-8")
        return {family.name: family for family in text_string_to_metric_families(text)}

    # Reconciliation runs every second in the referee's configuration: wait (up to 20 s) for a finished one.
    for _ in range(100):
        families = scrape()
        if "purser_reconciliation_runs" in families:
            break
        time.sleep(0.2)

    def family(name: str, kind: str):
        if name not in families:
            fail(f"no {name} among {sorted(families)}")
        if families[name].type != kind:
            fail(f"{name} is a {families[name].type}, not a {kind}")
        return families[name]

    def value(name: str, kind: str, suffix: str = "", **labels: str) -> float:
        found = [s.value for s in family(name, kind).samples
                 if s.name == name + suffix and all(s.labels.get(k) == v for k, v in labels.items())]
        if not found:
            fail(f"no sample {name}{suffix} with {labels}")
        return sum(found)

    submitted = value("http_server_request_duration_seconds", "histogram", "_count",
                      http_route="/v1/transactions", http_request_method="POST", http_response_status_code="200")
    if submitted < args.delivered:
        fail(f"{submitted} timed POST /v1/transactions, expected at least {args.delivered}")
    # Each credit is decided for the app's submission and again for Apple's notification (the hosted simulator
    # sends it at once; whichever comes second is told the transaction is credited already). Each credit went to
    # its order's owner: exactly one `delivered` per credit, whoever came first (a notification's credit was once
    # counted as `deliveredToOtherAccount`, as if it had gone to another account). Carol's receipt, later, is
    # answered `deliveredToOtherAccount`: those purchases are alice's and bob's.
    delivered = value("purser_decisions", "counter", "_total", decision="delivered")
    if delivered != args.delivered:
        fail(f"purser_decisions_total counts {delivered} delivered for {args.delivered} credits")
    causes = {s.labels.get("cause"): s.value for s in family("purser_credits", "counter").samples
              if s.name == "purser_credits_total"}
    if not set(causes) <= {"client", "notification", "reconciliation", "support"}:
        fail(f"purser_credits_total has causes {sorted(causes)}")
    if sum(causes.values()) != args.delivered:
        fail(f"purser_credits_total counts {causes} for {args.delivered} credits")
    if value("purser_verification_failures", "counter", "_total", code="malformed") < 1:
        fail("the forged submission is not counted in purser_verification_failures_total")
    if value("purser_verification_failures", "counter", "_total", code="wrong_bundle") < 1:
        fail("the receipt's app transaction for another app is not counted in purser_verification_failures_total")
    if value("purser_ledger_write_duration_seconds", "histogram", "_count", operation="settle") < args.delivered:
        fail("purser_ledger_write_duration_seconds does not time every settlement")
    for gauge in ["purser_transactions_unbound", "purser_transactions_unbound_oldest_age_seconds",
                  "purser_orders_waiting", "purser_orders_waiting_oldest_age_seconds",
                  "purser_webhooks_backlog_events", "purser_webhooks_backlog_oldest_age_seconds",
                  "purser_webhooks_dead_events"]:
        if value(gauge, "gauge") < 0:
            fail(f"{gauge} is negative")
    if value("purser_orders_waiting", "gauge") < 1:
        fail("the order left waiting is not in purser_orders_waiting")
    if value("purser_webhooks_attempts", "counter", "_total", outcome="delivered") < args.delivered:
        fail("purser_webhooks_attempts_total{outcome=delivered} does not count the deliveries")
    if value("purser_reconciliation_runs", "counter", "_total", outcome="ok") < 1:
        fail("no finished reconciliation run in purser_reconciliation_runs_total")
    if value("purser_reconciliation_last_success_timestamp_seconds", "gauge") < time.time() - 60:
        fail("purser_reconciliation_last_success_timestamp_seconds is not recent")
    family("purser_reconciliation_findings", "counter")
    # The referee's 422, 400 and 404: counted and timed under their own status (errors were once all "500", and
    # the duration histogram had no error answers at all).
    for method, route, status in [("POST", "/v1/orders", "422"), ("POST", "/v1/orders", "400"),
                                  ("GET", "/v1/orders/{id}", "404")]:
        for name, kind, suffix in [("hb_requests", "counter", "_total"),
                                   ("http_server_request_duration_seconds", "histogram", "_count")]:
            if value(name, kind, suffix, http_route=route, http_request_method=method,
                     http_response_status_code=status) < 1:
                fail(f"{name}{suffix} has no {status} for {method} {route}")
    internal = [s for s in family("hb_requests", "counter").samples if s.labels.get("http_response_status_code") == "500"]
    if internal:
        fail(f"hb_requests_total counts answers as 500 though none was: {internal}")
    # The referee's deposit and spend applied, and its spend beyond the balance refused.
    for kind, outcome in [("deposit", "applied"), ("spend", "applied"), ("spend", "insufficient")]:
        found = [s.value for s in family("purser_wallet_transactions", "counter").samples
                 if s.name == "purser_wallet_transactions_total" and s.labels.get("kind") == kind
                 and s.labels.get("outcome") == outcome]
        if sum(found) != 1:
            fail(f"purser_wallet_transactions_total{{kind={kind},outcome={outcome}}} is not 1")
    if value("purser_wallet_holds_open", "gauge") != 1:
        fail("the referee's open hold is not in purser_wallet_holds_open")
    lag_bounds = {s.labels.get("le") for s in family("purser_notifications_intake_lag_seconds", "histogram").samples}
    if "86400.0" not in lag_bounds:
        fail(f"the intake lag histogram lacks its one-day bucket: {sorted(lag_bounds)}")
    if value("purser_notifications_intake_lag_seconds", "histogram", "_count") < args.delivered:
        fail("the simulator's notifications are not timed in purser_notifications_intake_lag_seconds")
    if value("purser_notifications_last_received_timestamp_seconds", "gauge") < time.time() - 300:
        fail("purser_notifications_last_received_timestamp_seconds is not recent")
    # Every Purser series says which app it counts (a studio serves several).
    unlabelled = [s for f in families.values() if f.name.startswith("purser_") for s in f.samples
                  if s.labels.get("app") != args.app]
    if unlabelled:
        fail(f"purser_ samples without app={args.app}: {unlabelled[:5]}")
    print(f"check_metrics: {len(families)} families parsed by prometheus_client; the alerting series are there")


if __name__ == "__main__":
    main()

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
    # sends it at once; whichever comes second is told the transaction is credited already): at least one
    # delivered-kind decision per credit, each counted under its kind.
    kinds = {s.labels.get("decision") for s in family("purser_decisions", "counter").samples}
    decided = sum(value("purser_decisions", "counter", "_total", decision=kind) for kind in kinds
                  if kind in ("delivered", "alreadyDelivered", "deliveredToOtherAccount"))
    if decided < args.delivered:
        fail(f"purser_decisions_total counts {decided} delivered-kind decisions for {args.delivered} credits")
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
    lag_bounds = {s.labels.get("le") for s in family("purser_notifications_intake_lag_seconds", "histogram").samples}
    if "86400.0" not in lag_bounds:
        fail(f"the intake lag histogram lacks its one-day bucket: {sorted(lag_bounds)}")
    if value("purser_notifications_intake_lag_seconds", "histogram", "_count") < args.delivered:
        fail("the simulator's notifications are not timed in purser_notifications_intake_lag_seconds")
    if value("purser_notifications_last_received_timestamp_seconds", "gauge") < time.time() - 300:
        fail("purser_notifications_last_received_timestamp_seconds is not recent")
    print(f"check_metrics: {len(families)} families parsed by prometheus_client; the alerting series are there")


if __name__ == "__main__":
    main()

"""The referee for Purser's webhooks: the standardwebhooks package (the specification's own Python library)
verifies the signature of every request a running `purser serve` posted (recorded by webhook_receiver.py), and
rejects the same request with its body tampered with, or received ten minutes after it was signed; every payload
names its app (bundleId).
Exits non-zero with a reason on any disagreement."""
import argparse
import datetime as dt
import json
import sys

import standardwebhooks
from standardwebhooks import webhooks as library


def rejects(webhook: standardwebhooks.Webhook, body: str, headers: dict) -> bool:
    try:
        webhook.verify(body, headers)
    except standardwebhooks.WebhookVerificationError:
        return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--records", required=True)
    parser.add_argument("--expect", type=int, required=True, help="distinct transaction.credited events expected")
    parser.add_argument("--expect-wallet", type=int, default=0, help="distinct wallet.changed events expected")
    parser.add_argument("--bundle-id", required=True, help="the app every payload must name (bundleId)")
    args = parser.parse_args()
    webhook = standardwebhooks.Webhook(args.secret)
    records = [json.loads(line) for line in open(args.records, encoding="utf-8") if line.strip()]
    credited = set()
    wallet = set()
    for record in records:
        headers, body = record["headers"], record["body"]
        event = webhook.verify(body, headers)
        # The Standard Webhooks payload structure, and the app it is of (a studio sends several apps' events).
        if set(event) != {"type", "timestamp", "data", "bundleId"}:
            return fail(f"not the Standard Webhooks payload structure with bundleId: {sorted(event)}")
        if event["bundleId"] != args.bundle_id:
            return fail(f"{headers['webhook-id']} names bundle {event['bundleId']}, not {args.bundle_id}")
        data = event["data"]
        if event["type"] == "transaction.credited":
            missing = {"transactionId", "originalTransactionId", "userId", "productId", "quantity", "grants",
                       "environment", "occurredAt", "sequence", "cause"} - set(data)
            if missing:
                return fail(f"{headers['webhook-id']} lacks {sorted(missing)}")
            credited.add(headers["webhook-id"])
        if event["type"] == "wallet.changed":
            missing = {"id", "userId", "amounts", "balances", "cause", "reason", "occurredAt", "sequence"} - set(data)
            if missing:
                return fail(f"{headers['webhook-id']} lacks {sorted(missing)}")
            wallet.add(headers["webhook-id"])
        tampered = body.replace('"gold":60', '"gold":6000') if '"gold":60' in body else body + " "
        if not rejects(webhook, tampered, headers):
            return fail(f"a tampered body of {headers['webhook-id']} verified")
    if len(credited) != args.expect:
        return fail(f"expected {args.expect} credited events, received {len(credited)} ({len(records)} posts)")
    if len(wallet) != args.expect_wallet:
        return fail(f"expected {args.expect_wallet} wallet.changed events, received {len(wallet)}")

    # The same genuine request, received ten minutes after it was signed: outside the five-minute tolerance.
    class Later(dt.datetime):
        @classmethod
        def now(cls, tz=None):  # noqa: ANN001, ANN206
            return dt.datetime.now(tz) + dt.timedelta(minutes=10)

    library.datetime = Later
    try:
        if not rejects(webhook, records[0]["body"], records[0]["headers"]):
            return fail("a request ten minutes old verified")
    finally:
        library.datetime = dt.datetime
    print(f"standardwebhooks verified {len(records)} posts ({len(credited)} credited, {len(wallet)} wallet.changed "
          f"events); rejected tampered "
          f"bodies and a ten-minute-old request")
    return 0


def fail(reason: str) -> int:
    print(f"verify_webhooks: {reason}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Apple's App Store Server API client (app-store-server-library) against Purser's simulator.

Against a running `purser appstore-sim`, this script
  1. buys a few consumables on its own simulated device (the control API),
  2. generates a P-256 key with `cryptography` and registers it
     (POST /simulator/v1/server-api/keys),
  3. calls Get Transaction Info, Get Transaction History v2 (every page) and Look Up Order ID with Apple's
     AppStoreServerAPIClient, and verifies every signed transaction it gets with Apple's SignedDataVerifier,
  4. cross-checks the request bodies the library sends: Send Consumption Information v1 and v2 (read back through
     the control API), Set App Account Token (read back through Get Transaction Info) and Get Refund History,
  5. shows that a token signed by an unregistered key, one with the wrong audience and an expired one are refused
     with HTTP 401.
It prints the key fields as JSON and exits 1 on the first check that fails.

Pointing the library at the simulator: AppStoreServerAPIClient (3.x) takes only an Environment, which picks
Apple's host; there is no base-URL parameter. Every request URL is `self._base_url + path`
(BaseAppStoreServerAPIClient._get_full_url), so after construction this script sets the private attribute
`_base_url` to the simulator's address (checking first that the attribute exists).
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import uuid
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import referee_common as common  # noqa: E402  (re-executes under the project venv if needed)

import jwt  # noqa: E402
import requests  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

from appstoreserverlibrary.api_client import (  # noqa: E402
    APIException,
    AppStoreServerAPIClient,
    GetTransactionHistoryVersion,
)
from appstoreserverlibrary.models.AccountTenure import AccountTenure  # noqa: E402
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest  # noqa: E402
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1  # noqa: E402
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus  # noqa: E402
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus  # noqa: E402
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1  # noqa: E402
from appstoreserverlibrary.models.Environment import Environment  # noqa: E402
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased  # noqa: E402
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded  # noqa: E402
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus  # noqa: E402
from appstoreserverlibrary.models.Platform import Platform  # noqa: E402
from appstoreserverlibrary.models.PlayTime import PlayTime  # noqa: E402
from appstoreserverlibrary.models.RefundPreference import RefundPreference  # noqa: E402
from appstoreserverlibrary.models.RefundPreferenceV1 import RefundPreferenceV1  # noqa: E402
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest  # noqa: E402
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest  # noqa: E402
from appstoreserverlibrary.models.UserStatus import UserStatus  # noqa: E402

RefereeError = common.RefereeError


def check(condition: bool, message: str) -> None:
    if not condition:
        raise RefereeError(message)


def new_key() -> tuple[bytes, str]:
    """A P-256 key: (PKCS #8 PEM private key, as in a .p8 file; PEM public key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    public_pem = key.public_key().public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo)
    return private_pem, public_pem.decode()


def make_client(base_url: str, private_pem: bytes, key_id: str, issuer_id: str, bundle_id: str) -> AppStoreServerAPIClient:
    client = AppStoreServerAPIClient(private_pem, key_id, issuer_id, bundle_id, Environment.SANDBOX)
    check(hasattr(client, "_base_url"), "this app-store-server-library has no _base_url attribute to redirect")
    client._base_url = base_url.rstrip("/")
    return client


def refused_with_401(call) -> bool:
    try:
        call()
    except APIException as error:
        return error.http_status_code == 401
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", required=True, help="the simulator, e.g. http://127.0.0.1:8081")
    parser.add_argument("--root", required=True, type=Path, help="the simulator's root certificate (DER)")
    parser.add_argument("--bundle-id", required=True)
    parser.add_argument("--purchases", type=int, default=23, help="consumables to buy (over 20 makes two pages)")
    args = parser.parse_args()
    base = args.base_url.rstrip("/")
    control = f"{base}/simulator/v1"
    device = f"referee-server-api-{uuid.uuid4().hex[:8]}"

    # 1. Purchases on a device of our own: that device is one customer for the simulator.
    bought = []
    for index in range(args.purchases):
        answer = requests.post(f"{control}/purchases", timeout=10, json={
            "productId": "com.example.purser.gold60" if index % 2 else "com.example.purser.gem10",
            "bundleId": args.bundle_id, "environment": "Sandbox", "deviceId": device})
        answer.raise_for_status()
        bought.append(answer.json()["transactionId"])

    # 2. An App Store Connect key, registered with the simulator.
    private_pem, public_pem = new_key()
    issuer_id, key_id = str(uuid.uuid4()), uuid.uuid4().hex[:10].upper()
    requests.post(f"{control}/server-api/keys", timeout=10, json={
        "issuerId": issuer_id, "keyId": key_id, "bundleId": args.bundle_id, "publicKeyPEM": public_pem,
    }).raise_for_status()
    client = make_client(base, private_pem, key_id, issuer_id, args.bundle_id)
    verifier = common.make_verifier([args.root.read_bytes()], args.bundle_id, Environment.SANDBOX, None)

    # 3a. Get Transaction Info.
    info = client.get_transaction_info(bought[0])
    first = common.verify_transaction(verifier, info.signedTransactionInfo)
    check(first["transactionId"] == bought[0], f"Get Transaction Info answered {first['transactionId']}")

    # 3b. Get Transaction History v2, every page.
    revision, pages, history = None, 0, []
    while True:
        page = client.get_transaction_history(bought[0], revision, TransactionHistoryRequest(),
                                              GetTransactionHistoryVersion.V2)
        pages += 1
        check(page.bundleId == args.bundle_id and page.rawEnvironment == "Sandbox",
              f"history page for {page.bundleId} / {page.rawEnvironment}")
        history += [common.verify_transaction(verifier, jws)["transactionId"] for jws in page.signedTransactions]
        revision = page.revision
        if not page.hasMore:
            break
        check(pages < 100, "the history never ends")
    check(history == bought, f"history lists {history}, bought {bought}")
    check(pages == (len(bought) + 19) // 20, f"{len(bought)} transactions in {pages} pages")

    # 3c. Look Up Order ID, with the order id the simulator put on the customer's e-mail receipt.
    record = requests.get(f"{control}/server-api/purchases/{bought[1]}", timeout=10)
    record.raise_for_status()
    order_id = record.json()["appleOrderId"]
    order = client.look_up_order_id(order_id)
    ordered = [common.verify_transaction(verifier, jws)["transactionId"] for jws in order.signedTransactions or []]
    check(order.status == OrderLookupStatus.VALID and ordered == [bought[1]], f"order {order_id}: {order.status} {ordered}")
    unknown = client.look_up_order_id("NOSUCHORDR")
    check(unknown.status == OrderLookupStatus.INVALID, f"an unknown order id has status {unknown.status}")

    # 4. The bodies Apple's library sends, read back.
    token = str(uuid.uuid4())
    consumption = ConsumptionRequestV1(
        customerConsented=True, consumptionStatus=ConsumptionStatus.PARTIALLY_CONSUMED, platform=Platform.APPLE,
        sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
        appAccountToken=token, accountTenure=AccountTenure.THIRTY_DAYS_TO_NINETY_DAYS,
        playTime=PlayTime.ONE_TO_SIX_HOURS, lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
        lifetimeDollarsPurchased=LifetimeDollarsPurchased.FIFTY_DOLLARS_TO_NINETY_NINE_DOLLARS_AND_NINETY_NINE_CENTS,
        userStatus=UserStatus.ACTIVE, refundPreference=RefundPreferenceV1.PREFER_DECLINE)
    with warnings.catch_warnings():
        # Version 1 of Send Consumption Information (Purser's consumption.version v1); deprecated in the library.
        warnings.simplefilter("ignore", DeprecationWarning)
        client.send_consumption_data(bought[0], consumption)
    stored = requests.get(f"{control}/server-api/consumption/{bought[0]}", timeout=10)
    stored.raise_for_status()
    sent = client._get_request_json(consumption)
    check(stored.json() == sent, f"consumption stored {stored.json()}, sent {sent}")

    # Version 2 (the library's current send_consumption_information), which Purser sends by default now.
    consumption_v2 = ConsumptionRequest(
        customerConsented=True, deliveryStatus=DeliveryStatus.DELIVERED, sampleContentProvided=False,
        refundPreference=RefundPreference.GRANT_PRORATED, consumptionPercentage=25000)
    client.send_consumption_information(bought[1], consumption_v2)
    stored_v2 = requests.get(f"{control}/server-api/consumption/v2/{bought[1]}", timeout=10)
    stored_v2.raise_for_status()
    sent_v2 = client._get_request_json(consumption_v2)
    check(stored_v2.json() == sent_v2, f"consumption v2 stored {stored_v2.json()}, sent {sent_v2}")

    client.set_app_account_token(bought[2], UpdateAppAccountTokenRequest(appAccountToken=token))
    updated = common.verify_transaction(verifier, client.get_transaction_info(bought[2]).signedTransactionInfo)
    check(updated["appAccountToken"] == token, f"appAccountToken is {updated['appAccountToken']}, set {token}")

    requests.post(f"{control}/transactions/{bought[3]}/refund", timeout=10).raise_for_status()
    refunds = client.get_refund_history(bought[0], None)
    refunded = [common.verify_transaction(verifier, jws)["transactionId"] for jws in refunds.signedTransactions or []]
    check(refunded == [bought[3]] and refunds.hasMore is False, f"refund history lists {refunded}")

    # 5. Tokens the simulator must refuse, as Apple would, with 401.
    stranger_pem, _ = new_key()
    stranger = make_client(base, stranger_pem, uuid.uuid4().hex[:10].upper(), issuer_id, args.bundle_id)
    check(refused_with_401(lambda: stranger.get_transaction_info(bought[0])), "a token from an unknown key was accepted")

    signing_key = serialization.load_pem_private_key(private_pem, password=None)
    now = datetime.datetime.now(datetime.timezone.utc)

    def token_with(audience: str, expires: datetime.datetime) -> str:
        return jwt.encode({"iss": issuer_id, "iat": int(now.timestamp()), "exp": int(expires.timestamp()),
                           "aud": audience, "bid": args.bundle_id},
                          signing_key, algorithm="ES256", headers={"kid": key_id})

    for reason, bad_token in [
        ("the wrong audience", token_with("appstoreconnect-v2", now + datetime.timedelta(minutes=5))),
        ("an expired token", token_with("appstoreconnect-v1", now - datetime.timedelta(minutes=1))),
    ]:
        forged = make_client(base, private_pem, key_id, issuer_id, args.bundle_id)
        forged._generate_token = lambda t=bad_token: t  # the library signs its own; hand it ours instead
        check(refused_with_401(lambda: forged.get_transaction_info(bought[0])), f"{reason} was accepted")

    print(json.dumps({
        "transactionInfo": first,
        "history": {"pages": pages, "transactions": len(history), "revision": revision},
        "orderLookup": {"orderId": order_id, "status": int(order.status), "transactionIds": ordered},
        "consumption": stored.json(),
        "appAccountToken": updated["appAccountToken"],
        "refundHistory": refunded,
        "refused401": ["unknown key", "wrong audience", "expired"],
    }, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RefereeError, APIException, common.VerificationException, requests.RequestException) as error:
        print(f"referee: {common.describe_failure(error)}", file=sys.stderr)
        sys.exit(1)

#!/usr/bin/env python3
"""Sign App Store style JWS test data with a freshly generated P-256 chain.

Usage:
  sign_with_own_chain.py --out DIR [--bundle-id ID] [--environment Sandbox]
      [--app-apple-id N]

Writes to DIR:
  root.der           the generated root CA (trust anchor for verifiers)
  transaction.jws    a signed consumable transaction (Apple field names)
  notification.jws   a signed Notifications V2 ONE_TIME_CHARGE wrapping it
  tampered.jws       transaction.jws with quantity changed, original signature
  expected.json      the transaction payload, for field-by-field comparison

Then checks the result with Apple's library (transaction and notification must
verify, tampered.jws and a wrong bundle id must not) and exits 1 otherwise.
"""
from __future__ import annotations

import argparse
import base64
import datetime as dt
import json
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Optional

from referee_common import (
    RefereeError,
    describe_failure,
    make_verifier,
    parse_environment,
    verify_notification,
    verify_transaction,
)

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding
from cryptography.x509.oid import NameOID

OID_APPLE_INTERMEDIATE = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")
OID_APPLE_LEAF = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
DER_NULL = b"\x05\x00"


def _name(common_name: str) -> x509.Name:
    return x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Purser Test"),
        x509.NameAttribute(NameOID.COMMON_NAME, common_name),
    ])


def _make_cert(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer_cert: Optional[x509.Certificate],
    issuer_key: ec.EllipticCurvePrivateKey,
    is_ca: bool,
    apple_oid: Optional[x509.ObjectIdentifier],
) -> x509.Certificate:
    now = dt.datetime.now(dt.timezone.utc)
    issuer_name = issuer_cert.subject if issuer_cert else _name(subject)
    issuer_pub = issuer_cert.public_key() if issuer_cert else key.public_key()
    if is_ca:
        key_usage = x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                  data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                  crl_sign=True, encipher_only=False, decipher_only=False)
    else:
        key_usage = x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                  data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                  crl_sign=False, encipher_only=False, decipher_only=False)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True)
        .add_extension(key_usage, critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_pub), critical=False)
    )
    if apple_oid is not None:
        builder = builder.add_extension(x509.UnrecognizedExtension(apple_oid, DER_NULL), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def make_chain() -> tuple[ec.EllipticCurvePrivateKey, list[x509.Certificate]]:
    """Returns (leaf private key, [leaf, intermediate, root])."""
    root_key = ec.generate_private_key(ec.SECP256R1())
    inter_key = ec.generate_private_key(ec.SECP256R1())
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    root = _make_cert("Purser Test Root CA", root_key, None, root_key, True, None)
    inter = _make_cert("Purser Test Intermediate CA", inter_key, root, root_key, True, OID_APPLE_INTERMEDIATE)
    leaf = _make_cert("Purser Test Signing Leaf", leaf_key, inter, inter_key, False, OID_APPLE_LEAF)
    return leaf_key, [leaf, inter, root]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def compact_json(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode("utf-8")


def sign_jws(payload: dict[str, Any], key: ec.EllipticCurvePrivateKey, chain: list[x509.Certificate]) -> str:
    header = {"alg": "ES256", "x5c": [base64.b64encode(c.public_bytes(Encoding.DER)).decode("ascii") for c in chain]}
    signing_input = f"{b64url(compact_json(header))}.{b64url(compact_json(payload))}"
    der_sig = key.sign(signing_input.encode("ascii"), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der_sig)
    raw_sig = r.to_bytes(32, "big") + s.to_bytes(32, "big")  # JOSE form, not DER
    return f"{signing_input}.{b64url(raw_sig)}"


def transaction_payload(bundle_id: str, environment: str, now_ms: int) -> dict[str, Any]:
    return {
        "transactionId": "2000000123456789",
        "originalTransactionId": "2000000123456789",
        "bundleId": bundle_id,
        "productId": "com.example.gold60",
        "purchaseDate": now_ms,
        "originalPurchaseDate": now_ms,
        "quantity": 1,
        "type": "Consumable",
        "appAccountToken": str(uuid.uuid4()),
        "inAppOwnershipType": "PURCHASED",
        "signedDate": now_ms,
        "environment": environment,
        "transactionReason": "PURCHASE",
        "storefront": "USA",
        "storefrontId": "143441",
        "price": 990,
        "currency": "USD",
    }


def notification_payload(signed_tx: str, bundle_id: str, environment: str,
                         app_apple_id: Optional[int], now_ms: int) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if app_apple_id is not None:
        data["appAppleId"] = app_apple_id
    data.update({"bundleId": bundle_id, "environment": environment, "signedTransactionInfo": signed_tx})
    return {
        "notificationType": "ONE_TIME_CHARGE",
        "notificationUUID": str(uuid.uuid4()),
        "data": data,
        "version": "2.0",
        "signedDate": now_ms,
    }


def tamper(jws: str, **changes: Any) -> str:
    header, body, sig = jws.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload.update(changes)
    return f"{header}.{b64url(compact_json(payload))}.{sig}"


def self_check(out: Path, root_der: bytes, bundle_id: str, environment_name: str,
               app_apple_id: Optional[int], expected: dict[str, Any]) -> list[str]:
    """Returns a list of problems (empty when everything behaved)."""
    env = parse_environment(environment_name)
    verifier = make_verifier([root_der], bundle_id, env, app_apple_id)
    problems: list[str] = []

    def expect_ok(name: str, check) -> Optional[dict[str, Any]]:
        try:
            return check((out / name).read_text().strip())
        except Exception as e:
            problems.append(f"{name} should verify but failed: {describe_failure(e)}")
            return None

    def expect_fail(label: str, check, name: str) -> None:
        try:
            check((out / name).read_text().strip())
        except Exception:
            return
        problems.append(f"{label} verified but must not")

    tx = expect_ok("transaction.jws", lambda j: verify_transaction(verifier, j))
    if tx is not None:
        for field, value in tx.items():
            if field in expected and expected[field] != value:
                problems.append(f"transaction.jws decoded {field}={value!r}, expected {expected[field]!r}")
    note = expect_ok("notification.jws", lambda j: verify_notification(verifier, j))
    if note is not None and note["transactionId"] != expected["transactionId"]:
        problems.append(f"notification.jws nested transactionId {note['transactionId']!r} is wrong")

    expect_fail("tampered.jws", lambda j: verify_transaction(verifier, j), "tampered.jws")
    wrong = make_verifier([root_der], bundle_id + ".wrong", env, app_apple_id)
    expect_fail("transaction.jws with a wrong bundle id", lambda j: verify_transaction(wrong, j), "transaction.jws")
    expect_fail("notification.jws with a wrong bundle id", lambda j: verify_notification(wrong, j), "notification.jws")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Sign App Store style JWS test data with a fresh P-256 chain.")
    ap.add_argument("--out", required=True, type=Path, help="output directory (created if missing)")
    ap.add_argument("--bundle-id", default="com.example.purser")
    ap.add_argument("--environment", default="Sandbox", choices=["Sandbox", "Production"])
    ap.add_argument("--app-apple-id", type=int, default=None)
    args = ap.parse_args(argv)
    if args.environment == "Production" and args.app_apple_id is None:
        ap.error("--app-apple-id is required with --environment Production")

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    key, chain = make_chain()
    root_der = chain[-1].public_bytes(Encoding.DER)
    now_ms = int(time.time() * 1000)

    tx_payload = transaction_payload(args.bundle_id, args.environment, now_ms)
    tx_jws = sign_jws(tx_payload, key, chain)
    note_payload = notification_payload(tx_jws, args.bundle_id, args.environment, args.app_apple_id, now_ms)

    (out / "root.der").write_bytes(root_der)
    (out / "transaction.jws").write_text(tx_jws + "\n")
    (out / "notification.jws").write_text(sign_jws(note_payload, key, chain) + "\n")
    (out / "tampered.jws").write_text(tamper(tx_jws, quantity=99) + "\n")
    (out / "expected.json").write_text(json.dumps(tx_payload, indent=2) + "\n")

    try:
        problems = self_check(out, root_der, args.bundle_id, args.environment, args.app_apple_id, tx_payload)
    except RefereeError as e:
        problems = [str(e)]
    if problems:
        for p in problems:
            print(f"FAIL self-check: {p}", file=sys.stderr)
        return 1
    print(f"wrote root.der, transaction.jws, notification.jws, tampered.jws, expected.json to {out}; "
          "self-check with app-store-server-library passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

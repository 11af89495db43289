"""Shared helpers for the Purser "referee" scripts.

The referee uses Apple's own Python library (app-store-server-library) as an
independent judge of JWS data signed or checked by Purser. These helpers build a
SignedDataVerifier, run it over transactions / notifications and turn the
decoded objects into small JSON-friendly dicts.

If the library is not importable from the current interpreter, importing this
module re-executes the calling script under the project venv (PURSER_VENV or
<repo>/.venv, as created by scripts/python-venv.sh) when that venv exists.
"""
from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path
from typing import Any, Optional

REPO_ROOT = Path(__file__).resolve().parents[2]


def _ensure_apple_library() -> None:
    try:
        import appstoreserverlibrary  # noqa: F401
        return
    except ImportError:
        pass
    venv = Path(os.environ.get("PURSER_VENV", str(REPO_ROOT / ".venv")))
    venv_python = venv / "bin" / "python"
    if venv_python.exists() and not os.environ.get("PURSER_REFEREE_REEXEC"):
        os.environ["PURSER_REFEREE_REEXEC"] = "1"
        os.execv(str(venv_python), [str(venv_python), *sys.argv])
    sys.exit(
        "error: app-store-server-library is not importable. "
        "Run scripts/python-venv.sh and use .venv/bin/python (or set PURSER_VENV)."
    )


_ensure_apple_library()

from appstoreserverlibrary.models.Environment import Environment  # noqa: E402
from appstoreserverlibrary.signed_data_verifier import (  # noqa: E402
    SignedDataVerifier,
    VerificationException,
)

# Environments for which the library does NOT check signatures or certificates
# at all (it just base64-decodes the payload). A referee must never use them.
UNVERIFIED_ENVIRONMENTS = {Environment.XCODE, Environment.LOCAL_TESTING}


class RefereeError(Exception):
    """A check of ours (not the library's) failed."""


def parse_environment(name: str) -> Environment:
    """argparse `type=` helper: accept only environments the library really verifies."""
    try:
        env = Environment(name)
    except ValueError:
        raise ValueError(f"unknown environment {name!r}; use Sandbox or Production") from None
    if env in UNVERIFIED_ENVIRONMENTS:
        raise ValueError(
            f"environment {name!r} refused: app-store-server-library skips signature and "
            "certificate verification entirely for Xcode/LocalTesting; use Sandbox or Production"
        )
    return env


def make_verifier(
    roots: list[bytes], bundle_id: str, environment: Environment, app_apple_id: Optional[int]
) -> SignedDataVerifier:
    if environment in UNVERIFIED_ENVIRONMENTS:
        raise RefereeError(f"environment {environment.value} is never verified by the library")
    if not roots:
        raise RefereeError("at least one trusted root certificate (DER) is required")
    # Offline: no OCSP, and the chain is validated at the payload's signedDate.
    return SignedDataVerifier(
        root_certificates=roots,
        enable_online_checks=False,
        environment=environment,
        bundle_id=bundle_id,
        app_apple_id=app_apple_id,
    )


def verify_transaction(verifier: SignedDataVerifier, jws: str) -> dict[str, Any]:
    tx = verifier.verify_and_decode_signed_transaction(jws)
    if not tx.transactionId:
        raise RefereeError("decoded transaction has an empty transactionId")
    return {
        "transactionId": tx.transactionId,
        "originalTransactionId": tx.originalTransactionId,
        "productId": tx.productId,
        "bundleId": tx.bundleId,
        "environment": tx.rawEnvironment,
        "appAccountToken": tx.appAccountToken,
        "quantity": tx.quantity,
        "type": tx.rawType,
        "price": tx.price,
        "currency": tx.currency,
        "storefront": tx.storefront,
        "signedDate": tx.signedDate,
    }


def verify_app_transaction(verifier: SignedDataVerifier, jws: str) -> dict[str, Any]:
    app = verifier.verify_and_decode_app_transaction(jws)
    if not app.appTransactionId:
        raise RefereeError("decoded app transaction has no appTransactionId")
    return {
        "appTransactionId": app.appTransactionId,
        "bundleId": app.bundleId,
        "receiptType": app.rawReceiptType,
        "appAppleId": app.appAppleId,
        "receiptCreationDate": app.receiptCreationDate,
        "originalPlatform": app.rawOriginalPlatform,
    }


def verify_notification(verifier: SignedDataVerifier, jws: str) -> dict[str, Any]:
    note = verifier.verify_and_decode_notification(jws)
    if note.data is None or not note.data.signedTransactionInfo:
        raise RefereeError("notification has no data.signedTransactionInfo")
    nested = verify_transaction(verifier, note.data.signedTransactionInfo)
    return {
        "notificationType": note.rawNotificationType,
        "subtype": note.rawSubtype,
        "notificationUUID": note.notificationUUID,
        "version": note.version,
        "signedDate": note.signedDate,
        "bundleId": note.data.bundleId,
        "environment": note.data.rawEnvironment,
        "appAppleId": note.data.appAppleId,
        "transactionId": nested["transactionId"],
        "transaction": nested,
    }


def unverified_payload(jws: str) -> dict[str, Any]:
    """Decode the payload WITHOUT verifying anything (only to pick a kind or build tests)."""
    parts = jws.split(".")
    if len(parts) != 3:
        raise RefereeError(f"not a compact JWS (expected 3 dot-separated parts, got {len(parts)})")
    body = parts[1] + "=" * (-len(parts[1]) % 4)
    payload = json.loads(base64.urlsafe_b64decode(body))
    if not isinstance(payload, dict):
        raise RefereeError("JWS payload is not a JSON object")
    return payload


def verify_jws(verifier: SignedDataVerifier, jws: str, kind: str) -> dict[str, Any]:
    """kind: 'transaction', 'notification', 'app-transaction' or 'auto' (transaction or notification, decided from
    the unverified payload)."""
    if kind == "auto":
        kind = "notification" if "notificationType" in unverified_payload(jws) else "transaction"
    if kind == "transaction":
        return {"kind": kind, **verify_transaction(verifier, jws)}
    if kind == "notification":
        return {"kind": kind, **verify_notification(verifier, jws)}
    if kind == "app-transaction":
        return {"kind": kind, **verify_app_transaction(verifier, jws)}
    raise RefereeError(f"unknown kind {kind!r}")


def describe_failure(exc: BaseException) -> str:
    """Status name for library failures, plus the underlying cause chain (OpenSSL, PyJWT...)."""
    if isinstance(exc, VerificationException):
        text = exc.status.name
    else:
        text = f"{type(exc).__name__}: {exc}"
    causes = []
    cause = exc.__cause__
    while cause is not None:
        causes.append(f"{type(cause).__name__}: {cause}")
        cause = cause.__cause__
    if causes:
        text += " (caused by " + " <- ".join(causes) + ")"
    return text


def read_jws(path: Path) -> str:
    jws = path.read_text(encoding="utf-8").strip()
    if not jws:
        raise RefereeError("file is empty")
    return jws

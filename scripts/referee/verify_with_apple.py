#!/usr/bin/env python3
"""Verify App Store JWS files with Apple's app-store-server-library (the "referee").

Usage:
  verify_with_apple.py --root ROOT.der [--root ...] --bundle-id ID
      --environment Sandbox|Production [--app-apple-id N]
      [--kind auto|transaction|notification|app-transaction] FILE...

Prints one JSON line per verified file; on any failure prints
"FAIL <file>: <status/exception>" to stderr. Exit 0 only if every file verifies.

What the library (3.1.2) really checks -- read from its source, then confirmed
by experiment with the OpenSSL 4.0 bundled in the pinned wheels. A Swift
signer has to meet these rules:

* Xcode / LocalTesting: the payload is just decoded, with NO signature or
  certificate check at all, so this script refuses those environments.
* Header: "alg" must be exactly "ES256". "x5c" must hold exactly 3 entries,
  but only x5c[0] (leaf) and x5c[1] (intermediate) are read. Each must be
  standard base64 of DER, padded (URL-safe or unpadded base64 is rejected).
  x5c[2] is counted but never decoded (garbage there still passes). Trust
  comes only from the --root certificates, and the chain must build
  leaf -> intermediate -> one of those roots. Extra header fields (typ, kid)
  are fine; a "crit" listing anything but b64 is rejected (PyJWT).
* Signature: the JOSE raw r||s form (64 bytes for P-256). A DER ECDSA
  signature is rejected.
* Time the certificates are checked at: with online checks off (as here) the
  chain is validated at the payload's signedDate (ms // 1000), falling back
  to receiptCreationDate, and only when both are absent to "now". The
  current time is never used otherwise: an expired chain still passes if
  signedDate falls inside every cert's validity, and a cert whose notBefore
  is even 1 s after signedDate fails. So backdate notBefore. A signedDate in
  seconds lands in 1970 and fails. A nested signedTransactionInfo is checked
  again at its own signedDate.
* Strict X.509 (OpenSSL X509_V_FLAG_X509_STRICT):
  - Authority Key Identifier is required on the leaf and the intermediate.
    A self-signed root may lack it.
  - Subject Key Identifier is required on the CA certs (intermediate and
    root). The leaf may lack it.
  - CA certs need basicConstraints CA:TRUE and keyUsage with keyCertSign.
    Either extension missing fails. A non-critical basicConstraints was
    accepted.
  - The leaf must not carry keyCertSign. Apart from that, its keyUsage and
    basicConstraints are not checked (missing or keyAgreement-only passed).
* Apple marker OIDs: the leaf must carry 1.2.840.113635.100.6.11.1 and the
  intermediate 1.2.840.113635.100.6.2.1. Only their presence is checked.
* Payload claims: PyJWT's default claim checks still run. The payload must
  not carry "aud" (any value fails), a past "exp" or a future "nbf"/"iat".
* Field matching: "environment" must match exactly ("Sandbox", case
  sensitive). A transaction must match bundleId and environment; its
  appAppleId is not checked. A notification must match bundleId and
  environment, and appAppleId only in Production. Production needs
  --app-apple-id. Field types are loose: a string quantity, a float price
  and an unknown "type" string all decode without error.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee_common import RefereeError, describe_failure, make_verifier, parse_environment, read_jws, verify_jws


def environment_arg(name: str):
    try:
        return parse_environment(name)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Verify App Store JWS files with Apple's Python library.")
    ap.add_argument("--root", action="append", required=True, type=Path, metavar="ROOT.der",
                    help="trusted root certificate in DER (repeatable)")
    ap.add_argument("--bundle-id", required=True)
    ap.add_argument("--environment", required=True, type=environment_arg, metavar="Sandbox|Production")
    ap.add_argument("--app-apple-id", type=int, default=None)
    ap.add_argument("--kind", choices=["auto", "transaction", "notification", "app-transaction"], default="auto",
                    help="default: decide from the payload (notificationType present => notification)")
    ap.add_argument("files", nargs="+", type=Path, metavar="FILE")
    args = ap.parse_args(argv)

    try:
        roots = [p.read_bytes() for p in args.root]
        verifier = make_verifier(roots, args.bundle_id, args.environment, args.app_apple_id)
    except (OSError, ValueError, RefereeError) as e:
        ap.error(str(e))

    ok = True
    for path in args.files:
        try:
            result = verify_jws(verifier, read_jws(path), args.kind)
        except Exception as e:  # report every failure, keep going with the other files
            print(f"FAIL {path}: {describe_failure(e)}", file=sys.stderr)
            ok = False
            continue
        print(json.dumps({"file": str(path), **result}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

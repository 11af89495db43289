#!/usr/bin/env python3
"""Print the transaction id Apple's ReceiptUtility reads from a base64 app receipt (given as a file, or - for stdin).

Apple's library does no validation here; it walks the PKCS#7 structure to the first in-app entry's transaction id.
Exits 1 if it finds none or cannot read the receipt.
"""
from __future__ import annotations

import sys

import referee_common  # noqa: F401  (makes Apple's library importable, re-running under the venv if needed)

from appstoreserverlibrary.receipt_utility import ReceiptUtility  # noqa: E402


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: receipt_transaction_id.py FILE|-", file=sys.stderr)
        return 2
    text = sys.stdin.read() if sys.argv[1] == "-" else open(sys.argv[1]).read()
    try:
        transaction_id = ReceiptUtility().extract_transaction_id_from_app_receipt(text.strip())
    except ValueError as error:
        print(f"FAIL: Apple's ReceiptUtility cannot read the receipt: {error}", file=sys.stderr)
        return 1
    if not transaction_id:
        print("FAIL: Apple's ReceiptUtility found no transaction id", file=sys.stderr)
        return 1
    print(transaction_id)
    return 0


if __name__ == "__main__":
    sys.exit(main())

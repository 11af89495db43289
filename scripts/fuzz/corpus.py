"""Writes the fuzz targets' seed corpus from the App Store simulator's own outputs (never third-party vectors).

Usage: corpus.py SIMULATOR_BASE_URL OUT_DIR
Needs a running `purser appstore-sim`. Writes OUT_DIR/root.der (the simulator's root, which the JWS targets trust) and
one file per seed under OUT_DIR/{jws,notification,receipt,base64,bodies,money}/.
"""

import base64
import json
import os
import struct
import sys
import urllib.request
import uuid


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        raw = response.read()
    return raw


def main():
    base, out = sys.argv[1].rstrip("/"), sys.argv[2]
    seeds = {name: [] for name in ("jws", "notification", "receipt", "base64", "bodies", "money")}
    with open(os.path.join(out, "root.der"), "wb") as handle:
        handle.write(call(base, "GET", "/simulator/v1/root-certificate"))

    purchases = [
        {"productId": "com.example.purser.gold60", "appAccountToken": str(uuid.uuid4()), "environment": "Sandbox"},
        {"productId": "com.example.purser.gold120", "quantity": 3, "environment": "Production"},
        {"productId": "com.example.purser.noads", "type": "Non-Consumable", "appAccountToken": str(uuid.uuid4())},
        {"productId": "com.example.purser.gold60", "deviceId": "fuzz-device", "environment": "Sandbox"},
        {"productId": "com.example.purser.gold120", "deviceId": "fuzz-device", "environment": "Sandbox"},
        {"productId": "com.example.purser.gold60", "deviceId": "fuzz-phone", "quantity": 2},
        {"productId": "com.example.purser.noads", "type": "Non-Consumable", "deviceId": "fuzz-tablet"},
        {"productId": "com.example.purser.gold120", "deviceId": "fuzz-tablet", "environment": "Production"},
        {"productId": "com.example.purser.gold60", "deviceId": "fuzz-tablet", "appAccountToken": str(uuid.uuid4())},
    ]
    ids = []
    for purchase in purchases:
        answer = json.loads(call(base, "POST", "/simulator/v1/purchases", purchase))
        ids.append(answer["transactionId"])
        seeds["jws"].append(answer["signedTransaction"].encode())
    refund = json.loads(call(base, "POST", f"/simulator/v1/transactions/{ids[0]}/refund", {}))
    seeds["jws"].append(refund["signedTransaction"].encode())
    call(base, "POST", f"/simulator/v1/transactions/{ids[0]}/refund-reversal")
    call(base, "POST", f"/simulator/v1/transactions/{ids[1]}/consumption-request")
    for notification in json.loads(call(base, "GET", "/simulator/v1/notifications"))["notifications"]:
        seeds["notification"].append(notification["signedPayload"].encode())

    receipts = [
        json.loads(call(base, "GET", f"/simulator/v1/devices/{device}/receipt"))["receipt"]
        for device in ("fuzz-device", "fuzz-phone", "fuzz-tablet")
    ]
    receipt = receipts[0]
    for text in receipts:
        seeds["receipt"].append(base64.b64decode(text))
    seeds["base64"] += [receipt.encode(), base64.encodebytes(base64.b64decode(receipt))]
    for jws in seeds["jws"][:2] + seeds["notification"][:1]:
        seeds["base64"] += jws.split(b".")

    # The route bodies: the first byte picks the route (BodiesFuzz.swift), the rest is what a client sends.
    order = str(uuid.uuid4())
    bodies = [
        (0, {"productId": "com.example.purser.gold60", "quantity": 2}),
        (1, {"reason": "payment_not_allowed"}),
        (2, {"signedTransaction": seeds["jws"][0].decode(), "orderId": order}),
        (2, {"receipt": receipt, "transactionId": ids[3], "orderId": order}),
        (3, {"signedPayload": seeds["notification"][0].decode()}),
        (4, {"transactionId": ids[1], "userId": "alice", "reason": "ticket 4711"}),
        (5, {"id": "spend-1", "amounts": {"gold": -(2**63)}, "reason": "edge"}),
        (5, {"id": "deposit-1", "amounts": {"gold": 2**63 - 1, "gems": 1}, "reason": "edge"}),
    ]
    seeds["bodies"] = [bytes([route]) + json.dumps(body).encode() for route, body in bodies]

    # Money (MoneyFuzz.swift): little-endian 64-bit amounts at the edges, in pairs and triples.
    edges = [-(2**63), -(2**63) + 1, -1, 0, 1, 2**63 - 2, 2**63 - 1, 2**53 - 1, 2**53, -(2**53) + 1, 60, 100_000]
    def pack(*values):
        return b"".join(struct.pack("<q", value) for value in values)
    seeds["money"] = [pack(a, b) for a in edges for b in edges[:6]] + [pack(a, 10, 2**53 - 1) for a in edges]

    for name, items in seeds.items():
        directory = os.path.join(out, name)
        os.makedirs(directory, exist_ok=True)
        for index, item in enumerate(items):
            with open(os.path.join(directory, f"seed-{index:03d}"), "wb") as handle:
                handle.write(item)
        print(f"corpus.py: {len(items)} seeds for {name}")


if __name__ == "__main__":
    main()

"""Every route of openapi.yaml, driven with edge values in every number, string, array and object it takes, against a
running `purser serve`; after each request the server must still answer `GET /health`.

Edges: 0, -1, Int64's bounds, 2^63 and -2^63-1, 1e308, -0, a fraction, NaN and Infinity spelled as strings, null;
empty, blank, 10,000-character, NUL-holding, path-like and non-ASCII strings; empty and 100,000-element arrays; objects
with 60,000 keys (under the 1 MiB body limit); and the same in path and query parameters. A request fails the run when the server answers 500
(a client's mistake is never a server error), stops answering, or answers `/health` with anything but 200 afterwards.
503 is allowed (the ledger unavailable, draining), 5xx otherwise not.

The server's own CPU time is read from /proc before and after each request: the costliest requests are printed, a
measurement for the notes, not a pass/fail check (speed is a benchmark's business).

    python drive.py URL OPENAPI USER_TOKEN ADMIN_TOKEN SERVER_PID
"""

import copy
import http.client
import json
import os
import sys
import time
import urllib.parse

import yaml

URL, SPEC, USER_TOKEN, ADMIN_TOKEN, SERVER_PID = sys.argv[1:6]
HOST, PORT = urllib.parse.urlsplit(URL).hostname, urllib.parse.urlsplit(URL).port

INT64_MAX = 2**63 - 1
# Numbers as JSON text (some are not representable in Python's json module the way they must be sent).
NUMBER_EDGES = [
    "0", "-1", str(INT64_MAX), str(-(2**63)), str(2**63), str(-(2**63) - 1), "1e308", "-0", "-1.5", "0.5",
    '"NaN"', '"Infinity"', '"-Infinity"', "null", "1e400", "123456789012345678901234567890",
]
STRING_EDGES = ["", " ", "x" * 10_000, "a\u0000b", "../../etc/passwd", "%2F..%2F", "é🎮元宝", "evt_", "\ud7ff" * 3]
PATH_EDGES = ["0", "-1", str(INT64_MAX), str(2**63), "x" * 10_000, "%00", "..", "%2F", "é", " ", "evt_" + "a" * 300]
QUERY_EDGES = ["0", "-1", str(2**63), "1e308", "x" * 10_000, "", "NaN", "%00"]
BIG = 100_000
# Objects with this many keys stay under the server's 1 MiB body limit, so they are parsed, not refused for size.
KEYS = 60_000


def load_spec():
    with open(SPEC) as handle:
        return yaml.safe_load(handle)


SPEC_DOC = load_spec()


def resolve(node, depth=0):
    """`node` with every `$ref` replaced by what it names, recursively (a schema that refers to itself is cut off
    after a few levels: edge values go into the first ones)."""
    if depth > 8:
        return {}
    if isinstance(node, dict):
        if "$ref" in node:
            target = SPEC_DOC
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return resolve(target, depth + 1)
        return {key: resolve(value, depth + 1) for key, value in node.items() if key != "responses"}
    if isinstance(node, list):
        return [resolve(item, depth + 1) for item in node]
    return node


def merged(schema):
    """A schema with its `allOf` parts folded in (properties and required lists joined)."""
    schema = dict(schema)
    for part in schema.pop("allOf", []):
        part = merged(part)
        for key, value in part.items():
            if key == "properties":
                schema.setdefault("properties", {}).update(value)
            elif key == "required":
                schema["required"] = list(schema.get("required", [])) + list(value)
            else:
                schema.setdefault(key, value)
    return schema


def sample(schema, depth=0):
    """A plausible value of `schema`: what the edge variants start from."""
    schema = merged(schema)
    if "example" in schema:
        return copy.deepcopy(schema["example"])
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        value = {}
        for name, child in schema.get("properties", {}).items():
            if name in schema.get("required", []) or depth == 0:
                value[name] = sample(child, depth + 1)
        if not value and isinstance(schema.get("additionalProperties"), dict):
            value["gold"] = sample(schema["additionalProperties"], depth + 1)
        return value
    if kind == "array":
        return [sample(schema.get("items", {}), depth + 1)]
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "number":
        return 1
    if kind == "boolean":
        return True
    return "edge-" + str(depth)


def leaves(schema, path=()):
    """Every (path, schema) of a body: the leaves to replace, and the containers to blow up."""
    schema = merged(schema)
    yield path, schema
    if schema.get("type") == "object" or "properties" in schema:
        for name, child in schema.get("properties", {}).items():
            yield from leaves(child, path + (name,))
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            yield from leaves(extra, path + ("gold",))
    elif schema.get("type") == "array":
        yield from leaves(schema.get("items", {}), path + (0,))


def edges_for(schema):
    """JSON texts to put where `schema` is expected."""
    schema = merged(schema)
    kind = schema.get("type")
    texts = []
    if kind in ("integer", "number"):
        texts += NUMBER_EDGES
    elif kind == "string" or kind is None and "properties" not in schema:
        texts += [json.dumps(edge) for edge in STRING_EDGES] + ["null", "0"]
    if kind == "array":
        texts += ["[]", "[" + ",".join(["1"] * BIG) + "]", "null", "{}"]
    if kind == "object" or "properties" in schema:
        texts += ["{}", "[]", "null", "{" + ",".join(f'"k{i}":{i}' for i in range(KEYS)) + "}"]
    return texts


def with_text(base, path, text):
    """The JSON text of `base` with the value at `path` replaced by raw JSON `text`."""
    marker = "\u2063EDGE\u2063"
    if not path:
        return text
    body = copy.deepcopy(base)
    node = body
    for part in path[:-1]:
        if isinstance(part, int):
            if not isinstance(node, list) or len(node) <= part:
                return None
            node = node[part]
        else:
            node = node.setdefault(part, {}) if isinstance(node, dict) else None
            if node is None:
                return None
    last = path[-1]
    if isinstance(last, int):
        if not isinstance(node, list) or not node:
            return None
        node[0] = marker
    elif isinstance(node, dict):
        node[last] = marker
    else:
        return None
    return json.dumps(body).replace(json.dumps(marker), text)


def cpu_ticks():
    """The server's user and system CPU so far, in clock ticks."""
    with open(f"/proc/{SERVER_PID}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def send(method, path, body=None, headers=None):
    connection = http.client.HTTPConnection(HOST, PORT, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def healthy():
    try:
        status, _ = send("GET", "/health")
        return status == 200
    except OSError:
        return False


def headers_for(operation):
    security = operation.get("security", SPEC_DOC.get("security", []))
    names = {name for requirement in security for name in requirement}
    headers = {"Content-Type": "application/json"}
    if "adminToken" in names:
        headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
    elif "bearer" in names:
        headers["Authorization"] = f"Bearer {USER_TOKEN}"
    return headers


def main():
    failures, costs, sent = [], [], 0
    for template, item in SPEC_DOC["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            operation = resolve(operation)
            parameters = [resolve(p) for p in item.get("parameters", []) + operation.get("parameters", [])]
            path_names = [p["name"] for p in parameters if p["in"] == "path"]
            queries = [p for p in parameters if p["in"] == "query"]
            headers = headers_for(operation)

            def fill(values):
                path = template
                for name in path_names:
                    path = path.replace("{" + name + "}", urllib.parse.quote(values.get(name, "edge-id"), safe=""))
                return path

            cases = []
            for name in path_names:
                for edge in PATH_EDGES:
                    cases.append((fill({name: edge}), None, f"path {name}={edge[:20]}"))
            for query in queries:
                for edge in QUERY_EDGES:
                    cases.append(
                        (fill({}) + "?" + urllib.parse.urlencode({query["name"]: edge}), None,
                         f"query {query['name']}={edge[:20]}"))
            body_schema = (operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                           .get("schema"))
            if body_schema:
                base = sample(body_schema)
                for path, schema in leaves(body_schema):
                    for text in edges_for(schema):
                        body = with_text(base, path, text)
                        if body is not None:
                            cases.append((fill({}), body, f"body {'.'.join(map(str, path)) or '(root)'}={text[:20]}"))
            if not cases:
                cases.append((fill({}), None, "as is"))
            for path, body, what in cases:
                label = f"{method.upper()} {template} {what}"
                before = cpu_ticks()
                started = time.monotonic()
                try:
                    status, answer = send(method.upper(), path, body=body.encode() if body else None,
                                          headers=headers)
                except OSError as error:
                    failures.append(f"{label}: no answer ({error})")
                    status, answer = None, b""
                costs.append(((cpu_ticks() - before) * TICK_MS, time.monotonic() - started, label))
                sent += 1
                if status is not None and status >= 500 and status != 503:
                    failures.append(f"{label}: {status} {answer[:200]!r}")
                if not healthy():
                    failures.append(f"{label}: /health does not answer 200 afterwards")
                    print("\n".join(failures))
                    sys.exit(1)
    costs.sort(reverse=True)
    print(f"edge values: {sent} requests to {len(SPEC_DOC['paths'])} paths; the server answered /health after each")
    print("the costliest requests (server CPU ms, wall s):")
    for cpu, wall, label in costs[:8]:
        print(f"  {cpu:7.1f} ms  {wall:6.3f} s  {label}")
    if failures:
        print(f"{len(failures)} failures:")
        print("\n".join(failures[:60]))
        sys.exit(1)


main()

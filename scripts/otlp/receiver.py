#!/usr/bin/env python3
"""A small OTLP/HTTP receiver for Purser's tracing test, decoding with opentelemetry-proto (the referee).

POST /v1/traces (protobuf, optionally gzip): every span is appended to --spans as one JSON object per line
(trace_id, span_id, parent_span_id as lowercase hex; name, kind, attributes, resource attributes, status).
Any other POST stands for the game's backend receiving a webhook: its path and headers go to --hooks, answered 204.
Prints "listening PORT" once it accepts connections. With --discard it only counts what it receives, for
measuring a traced server (`purser bench submit --otlp-endpoint`) without this process's decoding beside it.
"""
import argparse
import gzip
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

LOCK = threading.Lock()


def value_of(any_value):
    """An OTLP AnyValue as a plain Python value."""
    kind = any_value.WhichOneof("value")
    if kind is None:
        return None
    if kind in ("array_value", "kvlist_value"):
        return MessageToDict(getattr(any_value, kind))
    return getattr(any_value, kind)


def attributes(key_values):
    return {item.key: value_of(item.value) for item in key_values}


def spans_of(request):
    for resource_spans in request.resource_spans:
        resource = attributes(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                yield {
                    "trace_id": span.trace_id.hex(),
                    "span_id": span.span_id.hex(),
                    "parent_span_id": span.parent_span_id.hex(),
                    "name": span.name,
                    "kind": span.kind,
                    "attributes": attributes(span.attributes),
                    "resource": resource,
                    "status": span.status.code,
                }


class Handler(BaseHTTPRequestHandler):
    spans_path = ""
    hooks_path = ""
    discard = False

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path == "/v1/traces":
            if self.discard:
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)  # raises on bytes that are not an OTLP export: the test then fails
            with LOCK, open(self.spans_path, "a", encoding="utf-8") as out:
                for span in spans_of(request):
                    out.write(json.dumps(span, sort_keys=True) + "\n")
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
            return
        with LOCK, open(self.hooks_path, "a", encoding="utf-8") as out:
            headers = {name.lower(): value for name, value in self.headers.items()}
            out.write(json.dumps({"path": self.path, "headers": headers}, sort_keys=True) + "\n")
        self.send_response(204)
        self.end_headers()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--spans", default="/dev/null")
    parser.add_argument("--hooks", default="/dev/null")
    parser.add_argument("--discard", action="store_true", help="answer every export without decoding it")
    options = parser.parse_args()
    Handler.spans_path = options.spans
    Handler.hooks_path = options.hooks
    Handler.discard = options.discard
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    print(f"listening {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()

"""A game backend's webhook endpoint for the referee: records every POST it receives (headers and the exact body)
as one JSON line in --out and answers 204. It verifies nothing itself: verify_webhooks.py checks the records with
the standardwebhooks package afterwards."""
import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            record = {"headers": {k.lower(): v for k, v in self.headers.items()}, "body": body.decode("utf-8")}
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_: object) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()

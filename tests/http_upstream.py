"""A real HTTP upstream on 127.0.0.1 for the HTTP tool tests and the bench.

Routes:
  /echo...            200, JSON of what arrived: method, raw path, query, headers, body
  /user               200, {"data": {"name", "email", "roles"}}
  /text               200, text/plain
  /slow?s=2           waits s seconds, then 200
  /big?n=BYTES        n bytes without Content-Length (the body ends when the connection closes)
  /big-declared       declares 5 MiB in Content-Length
  /status/NNN         status NNN with a JSON error body
  /redirect?to=URL    302 to URL
"""
from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

USER = {"data": {"name": "Ada", "email": "ada@example.com", "roles": ["admin", "dev"]}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; with Nagle on, each response would wait
    # for the client's delayed ACK (~40 ms on Linux) and the bench would measure that.
    disable_nagle_algorithm = True

    def log_message(self, *args):  # keep test output quiet
        pass

    def do_GET(self):
        self.route()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    def route(self):
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        if parts.path.startswith("/echo"):
            return self.send_json(200, {
                "method": self.command, "path": parts.path, "query": query,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": json.loads(body) if body else None})
        if parts.path == "/user":
            return self.send_json(200, USER)
        if parts.path == "/text":
            return self.send_raw(200, b"hello, plain text", "text/plain")
        if parts.path == "/slow":
            time.sleep(float(query.get("s", ["2"])[0]))
            return self.send_json(200, {"slow": True})
        if parts.path == "/big":
            return self.send_unsized(int(query.get("n", [str(2 * 1024 * 1024)])[0]))
        if parts.path == "/big-declared":
            self.send_response(200)
            self.send_header("Content-Length", str(5 * 1024 * 1024))
            self.end_headers()
            self.wfile.write(b"x" * 1024)
            self.close_connection = True
            return None
        if parts.path.startswith("/status/"):
            return self.send_json(int(parts.path.rsplit("/", 1)[1]), {"error": "nope", "detail": "no such user"})
        if parts.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", query["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return self.send_json(404, {"error": f"no route {parts.path}"})

    def send_json(self, status: int, value) -> None:
        self.send_raw(status, json.dumps(value).encode(), "application/json")

    def send_raw(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_unsized(self, n: int) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"x" * 65536
        try:
            while n > 0:
                self.wfile.write(chunk[:n])
                n -= len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading at its limit: what the test wants
        self.close_connection = True


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up (timeout and size-limit tests) is expected, not an error.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class Upstream:
    def __init__(self):
        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> "Upstream":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":  # a standalone upstream (the bench runs it in its own process)
    with Upstream() as up:
        print(up.url, flush=True)
        up.thread.join()

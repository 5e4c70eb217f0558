"""HAProxy's health checks (deploy/haproxy.cfg) and a busy worker."""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

from tests.support.workers import haproxy


class SlowHealth(BaseHTTPRequestHandler):
    """/healthz answers 200, after ``delay`` seconds once the test says the worker is busy."""
    delay = 0.0

    def do_GET(self):
        time.sleep(type(self).delay)
        self.send_response(200)
        self.send_header("Content-Length", "3")
        self.end_headers()
        self.wfile.write(b"ok\n")

    def handle(self):
        try:
            super().handle()
        except OSError:
            pass  # HAProxy may close the check connection once it has read the status

    def log_message(self, *args):
        pass


def test_a_worker_slow_to_answer_its_health_check_under_load_stays_up():
    """A worker answering /healthz in 0.4 s (16 clients kept one as busy) is still up: marked down,
    its sessions went to another worker (a take-over each) or, alone, every call got 503 (issue 21)."""
    handler = type("Busy", (SlowHealth,), {})
    stub = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    try:
        worker = SimpleNamespace(name="w1", port=stub.server_address[1])
        with haproxy([worker]) as url:  # checks every 200 ms, down after 2 failures
            handler.delay = 0.4
            time.sleep(2.0)
            assert "w1" in url.up()
    finally:
        stub.shutdown()

"""A local HTTPS endpoint that records the webhooks it receives and answers 200.

The service sends webhooks over HTTPS only, so the receiver speaks TLS with the test certificate in
tests/tls/ (for 127.0.0.1); the server under test trusts it through `CLICKWRAP_WEBHOOK_CA_FILE`.
"""

from __future__ import annotations

import queue
import ssl
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TLS_DIR = Path(__file__).parent / "tls"
CA_FILE = TLS_DIR / "ca.pem"


@dataclass
class Delivery:
    headers: dict[str, str]
    body: bytes


class WebhookReceiver:
    """Receives on `url`; each request's raw headers and body land in `deliveries`. It answers the
    requests with `statuses` in turn (a 500 makes the service retry), then with 200."""

    def __init__(self, statuses: list[int] | None = None) -> None:
        self.deliveries: queue.Queue[Delivery] = queue.Queue()
        deliveries = self.deliveries
        answers = list(statuses or [])

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                deliveries.put(Delivery(dict(self.headers.items()), body))
                self.send_response(answers.pop(0) if answers else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(TLS_DIR / "receiver.pem", TLS_DIR / "receiver-key.pem")
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.socket = tls.wrap_socket(self._http.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self._http.server_address[1]}/webhooks/clickwrap"
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._http.shutdown()
        self._http.server_close()

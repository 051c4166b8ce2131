"""A local HTTP server that answers from a script, for the tests of retries, errors and paging."""

from __future__ import annotations

import json
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

TLS_DIR = Path(__file__).parent / "tls"


@dataclass
class Answer:
    status: int
    body: bytes | dict | list = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class ScriptedServer:
    """Answers the n-th request with `answers[n]` and records every request in `received`.

    A request beyond the script is answered 599, which no test expects.
    """

    def __init__(self, answers: list[Answer], tls: bool = False):
        self.answers = list(answers)
        self.received: list[Received] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle_one(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                server.received.append(
                    Received(self.command, self.path, dict(self.headers.items()), self.rfile.read(length))
                )
                index = len(server.received) - 1
                answer = server.answers[index] if index < len(server.answers) else Answer(599)
                body = answer.body
                content_type = "application/octet-stream"
                if isinstance(body, (dict, list)):
                    body = json.dumps(body).encode()
                    content_type = "application/problem+json" if answer.status >= 400 else "application/json"
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.headers.get("Content-Type", content_type))
                self.send_header("Content-Length", str(len(body)))
                for name, value in answer.headers.items():
                    if name != "Content-Type":
                        self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_one

            def log_message(self, *args: Any) -> None:  # keep the test output clean
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        scheme = "http"
        if tls:  # with the webhook receiver's certificate for 127.0.0.1, signed by tests/tls/ca.pem
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(TLS_DIR / "receiver.pem", TLS_DIR / "receiver-key.pem")
            self._http.socket = context.wrap_socket(self._http.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self._http.server_address[1]}"
        self._thread = threading.Thread(target=self._http.serve_forever, args=(0.05,), daemon=True)

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._http.shutdown()
        self._http.server_close()

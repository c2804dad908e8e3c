"""Local HTTPS helpers for the tests: a certificate, servers on threads, ledger addresses."""
from __future__ import annotations

import atexit
import os
import shutil
import ssl
import subprocess
import tempfile
import threading
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Tuple, Type

from agent_wallet._base58 import b58encode


def random_address() -> str:
    """A ledger address nobody holds: 32 random bytes, as Solana writes public keys."""
    return b58encode(os.urandom(32))


@lru_cache(maxsize=None)
def local_certificate() -> Tuple[str, str]:
    """(certificate PEM path, key PEM path) for localhost and 127.0.0.1, made once by the openssl tool."""
    directory = Path(tempfile.mkdtemp(prefix="agent-wallet-python-tls-"))
    atexit.register(shutil.rmtree, directory, True)
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return str(cert), str(key)


class QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def read_body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def answer(self, status: int, body: bytes, headers: Tuple[Tuple[str, str], ...] = ()) -> None:
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_https(handler: Type[BaseHTTPRequestHandler]) -> ThreadingHTTPServer:
    """An HTTPS server on a free port of 127.0.0.1, serving on a daemon thread; `stop` it after."""
    cert, key = local_certificate()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop(server: ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()

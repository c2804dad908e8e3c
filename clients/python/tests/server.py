"""Starts the real server once for the whole test run, in a temporary data directory on free ports.

The jar is `$AGENT_WALLET_JAR`, else `../../bootstrap/target/agent-wallet.jar` from `clients/python`.
The server is stopped when the tests end, and, on Linux, also when the test process dies without
cleaning up (the kernel sends it SIGTERM, and its shutdown stops its embedded PostgreSQL).
"""
from __future__ import annotations

import atexit
import ctypes
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, Optional

import agent_wallet

CLIENT_DIR = Path(__file__).resolve().parent.parent
# The repository's configuration as shipped; each run overrides its folder and ports.
CONFIG = (CLIENT_DIR / "../../config/embedded.yml").resolve()
STARTUP_TIMEOUT_SECONDS = 240
PR_SET_PDEATHSIG = 1


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Server:
    def __init__(self) -> None:
        self.jar = Path(os.environ.get("AGENT_WALLET_JAR", CLIENT_DIR / "../../bootstrap/target/agent-wallet.jar")).resolve()
        if not self.jar.is_file():
            raise RuntimeError(f"no server jar at {self.jar}: build it, or set AGENT_WALLET_JAR")
        self.directory = Path(tempfile.mkdtemp(prefix="agent-wallet-python-"))
        self.data = self.directory / "data"
        self.https_port = _free_port()
        self.base_url = f"https://localhost:{self.https_port}/v1"
        self.ca_file = str(self.directory / "server.pem")
        self.log = self.directory / "server.log"
        self.process: Optional[subprocess.Popen] = None
        self.credentials: Dict[str, Any] = {}

    def start(self) -> None:
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(["java", *self._overrides(), "-jar", str(self.jar), "server", str(CONFIG)],
                                            cwd=self.directory, stdout=log, stderr=subprocess.STDOUT,
                                            preexec_fn=_die_with_parent)
        atexit.register(self.stop)
        self._await_ready()
        # The demo certificate is self-signed: trust exactly it, as a user of the demo would.
        Path(self.ca_file).write_text(ssl.get_server_certificate(("localhost", self.https_port)))
        self.credentials = json.loads((self.data / "demo-credentials.json").read_text())

    def _overrides(self) -> list:
        """Dropwizard's `dw.` overrides of the shipped configuration: this run's folder and ports."""
        https = "-Ddw.server.applicationConnectors[0]."
        return [f"-Ddw.dataDirectory={self.data}", f"{https}port={self.https_port}",
                f"{https}keyStorePath={self.data / 'tls' / 'localhost.p12'}",
                f"-Ddw.server.applicationConnectors[1].port={_free_port()}",
                f"-Ddw.server.adminConnectors[0].port={_free_port()}",
                "-Ddw.logging.level=WARN", "-Ddw.clockwork.tick=1s"]

    def _await_ready(self) -> None:
        unverified = ssl._create_unverified_context()
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"the server exited ({self.process.returncode}):\n{self._log_tail()}")
            try:
                urllib.request.urlopen(f"{self.base_url}/wallets", context=unverified, timeout=5)
            except urllib.error.HTTPError as answer:
                if answer.code == 401 and (self.data / "demo-credentials.json").is_file():
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"the server did not answer within {STARTUP_TIMEOUT_SECONDS} s:\n{self._log_tail()}")

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.is_file() else ""

    def stop(self) -> None:
        if self.process is None:
            return
        process, self.process = self.process, None
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        self._stop_postgres_left_behind()
        shutil.rmtree(self.directory, ignore_errors=True)

    def _stop_postgres_left_behind(self) -> None:
        """The embedded PostgreSQL runs detached; stop it by its pid file if the server's shutdown did not."""
        pid_file = self.data / "postgres" / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            os.kill(pid, signal.SIGTERM)
        except (OSError, ValueError, IndexError):
            return
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except OSError:
                return
            time.sleep(0.1)

    # Clients of the demo organisations.

    def org(self, index: int = 0) -> Dict[str, Any]:
        return self.credentials["organisations"][index]

    def client(self, role: str = "admin", org: int = 0, **options: Any) -> agent_wallet.AgentWallet:
        return agent_wallet.AgentWallet(self.org(org)["keys"][role], base_url=self.base_url,
                                        ca_file=self.ca_file, **options)

    def agent(self, session_token: str, **options: Any) -> agent_wallet.AgentWallet:
        return agent_wallet.AgentWallet(session_token=session_token, base_url=self.base_url,
                                        ca_file=self.ca_file, **options)



_shared: Optional[Server] = None


def shared() -> Server:
    """The one server of this test run, started on first use."""
    global _shared
    if _shared is None:
        server = Server()
        server.start()
        _shared = server
    return _shared

"""``kassen serve`` in a child process, for browser tests and the load benchmark.

    srv = ServedKassen("sqlite:///games.db", free_port(), seed=7)
    srv.start()          # waits until /api/health answers
    ...
    srv.kill9()          # or srv.stop() (Ctrl+C, then kill)
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServedKassen:
    """A server in a child process. ``seed`` sets ``KASSEN_TEST_SEED`` (the same deals and dice
    every run); ``args`` are more ``kassen serve`` options; ``quiet`` drops its output."""

    def __init__(self, db: str, port: int, *, seed: int | None = None, args: tuple[str, ...] = (),
                 quiet: bool = False) -> None:
        self.db, self.port, self.seed, self.args, self.quiet = db, port, seed, args, quiet
        self.base = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if self.seed is not None:
            env["KASSEN_TEST_SEED"] = str(self.seed)
        out = subprocess.DEVNULL if self.quiet else subprocess.PIPE
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from kassen.cli.main import main; main()", "serve", "--port", str(self.port),
             "--db", self.db, *self.args], env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                said = self.proc.stdout.read().decode() if self.proc.stdout else ""
                raise RuntimeError(f"the server exited: {said}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def rss_mb(self) -> float:
        """The server's resident memory (Linux)."""
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

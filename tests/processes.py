"""Helpers for tests that start a server process of their own: a free port, and waiting until it listens."""

from __future__ import annotations

import socket
import subprocess
import time


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, *, what: str, timeout: float = 30.0) -> None:
    """Return once something accepts connections on ``port``; fail if ``proc`` exits or ``timeout`` passes first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else b""
            assert time.monotonic() < deadline, f"{what} did not listen"
            time.sleep(0.05)

"""Requests raced on separate database connections (PostgreSQL: SQLite writes are serial)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def run_threads(n: int, target: Callable[[int], Any]) -> list[tuple[str, Any]]:
    """Call ``target(i)`` for i in 0..n-1 in ``n`` threads released together; each outcome is ``("ok", value)``
    or ``("error", exception)``, in thread order. Each thread closes its connections."""
    barrier = threading.Barrier(n)
    outcomes: list[Any] = [None] * n

    def worker(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = ("ok", target(i))
        except Exception as exc:  # collected and asserted on by the caller
            outcomes[i] = ("error", exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes

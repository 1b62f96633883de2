"""One log line when Redis goes away and one when it is back, per process, whoever noticed.

Several parts of Chronicle use Redis and go on without it (``config.cache``, ``config.throttling``, the
projector wake-ups and their slots in ``matches.services`` / ``matches.projections.tasks``). Each reports each call's
outcome here: the first failure of an outage logs a warning naming what goes on without it, the first success
after it logs that Redis is back (with how long it was gone and how many calls fell back meanwhile); the
failures and successes in between log nothing. Keyed by server (``host:port``), so the cache, the rate limits
and the Celery broker on one Redis make one outage. Reporting a success costs an attribute read.
"""

from __future__ import annotations

import logging
import threading
import time
from urllib.parse import urlsplit

logger = logging.getLogger("chronicle.outage")

FALLBACK = (
    "appends and reads go on; rate limits count per process, projector wake-ups are left to the beat catch-up "
    "(README: When something is down)"
)


class Outage:
    """Whether one server is reachable, as this process last saw it."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.down = False
        self._since = 0.0
        self._failures = 0
        self._lock = threading.Lock()

    def failed(self, exc: BaseException, what: str = "", meanwhile: str = FALLBACK) -> None:
        """A call to the server failed (``what`` says which, e.g. "rate-limit counters"; ``meanwhile`` what goes
        on without it). Logs only the first."""
        with self._lock:
            self._failures += 1
            if self.down:
                return
            self.down, self._since, self._failures = True, time.monotonic(), 1
        logger.warning(
            "Redis %s unreachable (%s%s: %s); %s. Logged once until it is back.",
            self.server, f"{what}: " if what else "", type(exc).__name__, exc, meanwhile,
        )  # fmt: skip

    def succeeded(self) -> None:
        """A call to the server worked. Logs only the first after an outage."""
        if not self.down:
            return
        with self._lock:
            if not self.down:
                return
            self.down = False
            gone, failures = time.monotonic() - self._since, self._failures
        logger.warning(
            "Redis %s reachable again after %.1f s (%d calls fell back meanwhile)", self.server, gone, failures
        )


_outages: dict[str, Outage] = {}  # by server
_by_url: dict[str, Outage] = {}
_registry_lock = threading.Lock()


def server_of(url: str) -> str:
    """``host:port`` of a Redis URL (the database number and credentials left out)."""
    parts = urlsplit(url)
    if parts.scheme in ("redis", "rediss"):
        return f"{parts.hostname or 'localhost'}:{parts.port or 6379}"
    return parts.scheme or url


def redis_outage(url: str) -> Outage:
    """The :class:`Outage` of the Redis server at ``url``, one per server in this process."""
    outage = _by_url.get(url)
    if outage is None:
        server = server_of(url)
        with _registry_lock:
            outage = _by_url[url] = _outages.setdefault(server, Outage(server))
    return outage


def reset() -> None:
    """Forget every outage seen so far: each server counts as reachable again, nothing logged (tests)."""
    with _registry_lock:
        for outage in _outages.values():
            outage.down, outage._failures = False, 0

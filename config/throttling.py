"""API rate limits in one Redis round trip: a sliding-window counter per client, with DRF's throttles behind it.

DRF's ``SimpleRateThrottle`` keeps each client's request timestamps in the cache: a read and a write per
request, each unpickling and pickling the whole history (up to a minute of requests), plus a fresh Redis
client object per cache call. Here a request costs one round trip on a client kept per process: one Lua
script (``EVALSHA``) increments this window's counter, sets its expiry and reads the previous window's
counter; the estimate ``previous × (1 − elapsed/duration) + current`` (the sliding-window approximation) is
compared with the limit. A refused request gives its count back, so refusals do not use up the budget.

Where the cache is not Redis (the embedded default) or Redis cannot be reached, the DRF throttle behind it
decides, through the cache (which degrades to per-process counters on an outage; see ``config.cache``).
After a failure the fast path rests for ``RETRY_SECONDS`` so an outage costs no extra connection attempts.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import Any

from django.conf import settings

logger = logging.getLogger("chronicle.throttling")

RETRY_SECONDS = 5.0
_lock = threading.Lock()
_clients: dict[str, Any] = {}
_down_until = 0.0


def redis_client() -> Any | None:
    """A Redis client for the default cache's server, kept per process; None if the cache is not Redis."""
    config = settings.CACHES.get("default", {})
    if "redis" not in config.get("BACKEND", "").lower() or time.monotonic() < _down_until:
        return None
    location = config["LOCATION"]
    client = _clients.get(location)
    if client is None:
        import redis

        options = config.get("OPTIONS", {})
        client = redis.Redis.from_url(
            location,
            socket_timeout=options.get("socket_timeout", 0.5),
            socket_connect_timeout=options.get("socket_connect_timeout", 0.5),
        )
        with _lock:
            _clients[location] = client
    return client


# INCR this window's counter, (re)set its expiry, read the previous window's: one command, one round trip.
_COUNT = """
local current = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return {current, redis.call('GET', KEYS[2])}
"""
_scripts: dict[int, Any] = {}


def _count_script(client: Any) -> Any:
    """The counting script registered on ``client`` (sent by its SHA; loaded again if the server lost it)."""
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts[id(client)] = client.register_script(_COUNT)
    return script


def window_hit(key: str, limit: int, duration: float, now: float | None = None) -> tuple[bool, float] | None:
    """Count one request for ``key``; ``(allowed, seconds to wait if refused)``, or None without Redis."""
    global _down_until
    client = redis_client()
    if client is None:
        return None
    now = time.time() if now is None else now
    window = int(now // duration)
    elapsed = now - window * duration
    current_key, previous_key = f"rl:{key}:{window}", f"rl:{key}:{window - 1}"
    try:
        current, previous = _count_script(client)(keys=[current_key, previous_key], args=[int(duration * 2) + 1])
    except Exception as exc:  # unreachable or failing Redis: the cache-backed throttle decides meanwhile
        _down_until = time.monotonic() + RETRY_SECONDS
        logger.warning("rate-limit counters unreachable (%s: %s); falling back", type(exc).__name__, exc)
        return None
    previous = int(previous or 0)
    weight = 1 - elapsed / duration
    if previous * weight + current <= limit:
        return True, 0.0
    with contextlib.suppress(Exception):  # best effort: the window expires anyway
        client.decr(current_key)  # a refusal does not use up the budget
    if current > limit or previous == 0:
        return False, duration - elapsed
    # wait until the previous window's share has decayed enough for one more request
    return False, max(0.0, duration * (1 - (limit - current + 1) / previous) - elapsed) or 1.0


class WindowThrottleMixin:
    """Put in front of a DRF ``SimpleRateThrottle``: decide on the Redis window counter when there is one."""

    _window_wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:  # type: ignore[attr-defined]
            return True
        key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if key is None:
            return True
        hit = window_hit(key, self.num_requests, float(self.duration))  # type: ignore[attr-defined]
        if hit is None:
            return super().allow_request(request, view)  # type: ignore[misc]
        allowed, self._window_wait = hit
        return allowed

    def wait(self) -> float | None:
        if self._window_wait is not None:
            return self._window_wait
        return super().wait()  # type: ignore[misc]

"""API rate limits in one Redis round trip: a sliding-window counter per client, with DRF's throttles behind it.

DRF's ``SimpleRateThrottle`` keeps each client's request timestamps in the cache: a read and a write per
request, each unpickling and pickling the whole history (up to a minute of requests), plus a fresh Redis
client object per cache call, for each of the API's throttles (an anonymous request meets two: DRF applies
the per-user limit to it too, by address). Here a request costs one round trip on a client kept per process,
whatever the number of limits: one Lua script (``EVALSHA``) increments each limit's counter for this window,
sets its expiry and reads the previous window's counter; per limit, the estimate ``previous × (1 − elapsed/duration) + current`` (the sliding-window approximation) is
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


# For each (current, previous) pair of keys: INCR this window's counter, (re)set its expiry, read the previous
# window's counter. Every limit of a request in one command, one round trip.
_COUNT = """
local out = {}
for i = 1, #KEYS, 2 do
  out[#out + 1] = redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], ARGV[(i + 1) / 2])
  out[#out + 1] = redis.call('GET', KEYS[i + 1])
end
return out
"""
_scripts: dict[tuple[int, str], Any] = {}


def redis_script(client: Any, source: str) -> Any:
    """The Lua ``source`` registered on ``client``, kept per process (sent by its SHA; loaded again if the
    server lost it)."""
    script = _scripts.get((id(client), source))
    if script is None:
        script = _scripts[(id(client), source)] = client.register_script(source)
    return script


def window_hit(key: str, limit: int, duration: float, now: float | None = None) -> tuple[bool, float] | None:
    """Count one request for ``key``; ``(allowed, seconds to wait if refused)``, or None without Redis."""
    hits = window_hits([(key, limit, duration)], now=now)
    return None if hits is None else hits[0]


def window_hits(
    limits: list[tuple[str, int, float]], now: float | None = None
) -> list[tuple[bool, float]] | None:  # fmt: skip
    """Count one request against each ``(key, limit, duration)`` in one round trip; per limit ``(allowed,
    seconds to wait if refused)``, or None without Redis. A limit that refuses gives its count back."""
    global _down_until
    client = redis_client()
    if client is None:
        return None
    now = time.time() if now is None else now
    keys, expiries, windows = [], [], []
    for key, _, duration in limits:
        window = int(now // duration)
        keys += [f"rl:{key}:{window}", f"rl:{key}:{window - 1}"]
        expiries.append(int(duration * 2) + 1)
        windows.append(now - window * duration)
    try:
        counts = redis_script(client, _COUNT)(keys=keys, args=expiries)
    except Exception as exc:  # unreachable or failing Redis: the cache-backed throttle decides meanwhile
        _down_until = time.monotonic() + RETRY_SECONDS
        logger.warning("rate-limit counters unreachable (%s: %s); falling back", type(exc).__name__, exc)
        return None
    results = []
    for i, (_, limit, duration) in enumerate(limits):
        current, previous, elapsed = int(counts[2 * i]), int(counts[2 * i + 1] or 0), windows[i]
        if previous * (1 - elapsed / duration) + current <= limit:
            results.append((True, 0.0))
            continue
        with contextlib.suppress(Exception):  # best effort: the window expires anyway
            client.decr(keys[2 * i])  # a refusal does not use up the budget
        if current > limit or previous == 0:
            results.append((False, duration - elapsed))
        else:  # wait until the previous window's share has decayed enough for one more request
            results.append((False, max(0.0, duration * (1 - (limit - current + 1) / previous) - elapsed) or 1.0))
    return results


class WindowThrottle:
    """DRF throttle checking several DRF ``SimpleRateThrottle`` limits (``limits``) on the Redis window counters
    in one round trip; without Redis each of those DRF throttles decides through the cache, as DRF would.

    A request is refused when any limit refuses it; it is told to wait for the longest of those refusals.
    """

    limits: tuple[type[Any], ...] = ()
    _wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        keyed = []
        for throttle in (cls() for cls in self.limits):
            key = throttle.get_cache_key(request, view) if throttle.rate is not None else None
            if key is not None:
                keyed.append((throttle, key))
        if not keyed:
            return True
        hits: list[tuple[bool, float | None]] | None
        hits = window_hits([(key, t.num_requests, float(t.duration)) for t, key in keyed])  # type: ignore[assignment]
        if hits is None:
            hits = [(True, None) if t.allow_request(request, view) else (False, t.wait()) for t, _ in keyed]
        refusals = [wait for allowed, wait in hits if not allowed]
        self._wait = max((w for w in refusals if w is not None), default=None)
        return not refusals

    def wait(self) -> float | None:
        return self._wait

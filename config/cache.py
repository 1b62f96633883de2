"""A Redis cache that degrades instead of failing: while Redis is unreachable, a per-process memory cache serves.

The cache holds only what may be lost (API throttling counters): with Redis down, throttling falls back to
per-process counters rather than failing every request. Redis is tried again after ``RETRY_SECONDS`` (so an
outage costs one failed connection per process every few seconds, not one per call); the outage is logged
once, and its end once (``config.outage``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from config.outage import redis_outage

_UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class FailSafeRedisCache(RedisCache):
    """Django's Redis cache, falling back to a local memory cache while Redis cannot be reached."""

    RETRY_SECONDS = 5.0

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._fallback = LocMemCache(f"chronicle-fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._down_until = 0.0
        self._lock = threading.Lock()
        self._outage = redis_outage(server if isinstance(server, str) else server[0])

    @property
    def redis_down(self) -> bool:
        """True while calls go to the local fallback (after a failure, for ``RETRY_SECONDS``)."""
        return time.monotonic() < self._down_until

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self.RETRY_SECONDS
        self._outage.failed(exc, "cache")


def _failsafe(name: str) -> Callable[..., Any]:
    redis_method = getattr(RedisCache, name)

    def method(self: FailSafeRedisCache, *args: Any, **kwargs: Any) -> Any:
        if not self.redis_down:
            try:
                result = redis_method(self, *args, **kwargs)
            except _UNREACHABLE as exc:
                self._failed(exc)
            else:
                self._outage.succeeded()
                return result
        return getattr(self._fallback, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``{name}`` on Redis, or on the local fallback while Redis is unreachable."
    return method


for _name in (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
):
    setattr(FailSafeRedisCache, _name, _failsafe(_name))

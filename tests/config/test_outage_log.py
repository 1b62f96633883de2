"""A Redis outage is logged once per process, and its end once (issue 21 item 7: the fallback logged once per
5 s per process, plus a warning for every projector wake-up not sent: 36 + 227 lines in 30 s)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from kombu.exceptions import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from config import outage

pytestmark = pytest.mark.one_db

DOWN = "redis://127.0.0.1:6399/0"  # the cache and the broker on one server: one outage


class FlakyClient:
    """Stands in for the Redis cache's client: raises while ``down``."""

    def __init__(self) -> None:
        self.down, self.data = True, {}

    def get(self, key: str, default: Any = None) -> Any:
        if self.down:
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")
        return self.data.get(key, default)


@pytest.fixture
def lines(caplog) -> Any:
    """Every warning logged so far, whichever logger (no server counts as down at the start)."""
    outage.reset()
    caplog.set_level(logging.WARNING)
    yield lambda: [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    outage.reset()


@pytest.fixture
def flaky_cache(settings, monkeypatch) -> Any:
    from django.core.cache import caches

    from config.cache import FailSafeRedisCache

    settings.CACHES = {"default": {"BACKEND": "config.cache.FailSafeRedisCache", "LOCATION": DOWN}}
    cache = caches["default"]
    assert isinstance(cache, FailSafeRedisCache)
    monkeypatch.setattr(FailSafeRedisCache, "RETRY_SECONDS", 0.0)  # every call tries Redis again
    client = FlakyClient()
    cache.__dict__["_cache"] = client
    return cache, client


@pytest.fixture
def flaky_broker(settings, monkeypatch) -> Any:
    """``project_all.apply_async`` fails while ``state["down"]``; every call to ``wake_projector`` sends one."""
    from matches.projections import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6399/1"
    settings.CHRONICLE_WAKE_WINDOW = 0.0  # no quiet window between wake-ups
    monkeypatch.setattr(tasks, "wake_slot_claim", lambda window: 0.0)
    monkeypatch.setattr(tasks, "_covered_until", 0.0)
    state = {"down": True, "sent": 0}

    def apply_async(**kwargs: Any) -> None:
        if state["down"]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")
        state["sent"] += 1

    monkeypatch.setattr(tasks.project_all, "apply_async", apply_async)
    return tasks.wake_projector, state


def test_the_cache_logs_an_outage_once_and_its_end_once(lines, flaky_cache) -> None:
    cache, client = flaky_cache
    for _ in range(20):
        assert cache.get("k") is None  # served by the per-process fallback
    assert len(lines()) == 1 and "Redis 127.0.0.1:6399 unreachable" in lines()[0] and "cache" in lines()[0]
    client.down = False
    for _ in range(5):
        cache.get("k")
    assert len(lines()) == 2 and "127.0.0.1:6399 reachable again" in lines()[1] and "20 calls fell back" in lines()[1]
    client.down = True
    cache.get("k")
    assert len(lines()) == 3  # a new outage is a new line


def test_projector_wake_ups_not_sent_log_once(lines, flaky_broker) -> None:
    wake, state = flaky_broker
    for _ in range(30):
        wake()
    assert len(lines()) == 1 and "projector wake-up not sent" in lines()[0]
    state["down"] = False
    wake()
    wake()
    assert state["sent"] == 2 and len(lines()) == 2 and "reachable again" in lines()[1]


def test_the_cache_and_the_broker_on_one_redis_are_one_outage(lines, flaky_cache, flaky_broker) -> None:
    cache, client = flaky_cache
    wake, state = flaky_broker
    for _ in range(10):
        cache.get("k")
        wake()
    assert len(lines()) == 1
    client.down = state["down"] = False
    cache.get("k")
    wake()
    assert len(lines()) == 2

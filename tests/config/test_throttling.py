"""API rate limits: the one-round-trip Redis window counter, its Retry-After, and the fallback without Redis."""

from __future__ import annotations

import pytest

from config import throttling

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def redis_cache(redis_cache):
    """The shared real-Redis fixture (tests/conftest.py), with this module's window keys cleared."""
    redis_cache.delete(*redis_cache.keys("rl:test:*") or ["rl:none"])
    return redis_cache


@pytest.fixture
def script_calls(monkeypatch):
    """Count the round trips to the counters (calls of the Lua script)."""
    calls: list[int] = []
    real = throttling.redis_script

    def counting(c, source):
        script = real(c, source)

        def call(keys, args):
            calls.append(len(keys))
            return script(keys=keys, args=args)

        return call

    monkeypatch.setattr(throttling, "redis_script", counting)
    monkeypatch.setattr(throttling, "_leases", type(throttling._leases)())
    return calls


def test_window_counts_to_the_limit_then_refuses_with_the_time_left(redis_cache):
    now = 1_000_000 * 60 + 15.0  # 15 s into a minute window
    hits = [throttling.window_hit("test:a", 3, 60.0, now=now) for _ in range(4)]
    assert [allowed for allowed, _ in hits] == [True, True, True, False]
    assert hits[-1][1] == pytest.approx(45.0)  # the rest of the window
    # a refusal gives its count back: the counter stays at the limit
    assert int(redis_cache.get(f"rl:test:a:{int(now // 60)}")) == 3


def test_previous_window_weighs_in_proportion_to_its_overlap(redis_cache):
    minute = 1_000_000
    for _ in range(4):
        throttling.window_hit("test:b", 4, 60.0, now=minute * 60 + 50.0)
    # 30 s into the next minute, half of the previous 4 still count: 2 + 2 new ones reach the limit of 4
    later = (minute + 1) * 60 + 30.0
    assert [throttling.window_hit("test:b", 4, 60.0, now=later)[0] for _ in range(3)] == [True, True, False]


def test_api_answers_429_with_retry_after_from_the_window(redis_cache, client, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "2/min"}}
    codes = [client.get("/api/games/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    refused = client.get("/api/games/")
    assert refused.json()["code"] == "throttled"
    assert 0 < int(refused["Retry-After"]) <= 60


def test_without_redis_the_cache_backed_throttle_decides(client, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "2/min"}}
    assert throttling.window_hit("test:c", 2, 60.0) is None
    assert [client.get("/api/games/").status_code for _ in range(3)] == [200, 200, 429]


def test_unreachable_redis_falls_back_and_rests(settings, caplog):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6399/0"}
    }
    throttling._down_until = 0.0
    from config import outage

    outage.reset()
    assert throttling.window_hit("test:d", 2, 60.0) is None
    assert "Redis 127.0.0.1:6399 unreachable (rate-limit counters" in caplog.text
    assert throttling.redis_client() is None  # resting: no connection attempt per request
    throttling._down_until = 0.0


def test_every_limit_of_a_request_is_counted_in_one_round_trip(redis_cache, client, settings, script_calls):
    """An anonymous request meets both limits (DRF counts it per user too, by address): one script call."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "5/min", "user": "2/min"}}
    redis_cache.delete(*redis_cache.keys("rl:throttle_*") or ["rl:none"])
    codes = [client.get("/api/games/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]  # the tighter (per-user) limit decides
    assert script_calls == [4, 4, 4]  # two limits, two windows each, one command per request
    keys = redis_cache.keys("rl:throttle_*")
    counts = sorted(int(redis_cache.get(k)) for k in keys)
    assert counts == [2, 3]  # the refused request counted against the limit that let it through, not the other


def test_without_redis_every_limit_still_applies(client, settings):
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()  # the in-memory cache outlives a test: start from no history
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "5/min", "user": "2/min"}}
    assert [client.get("/api/games/").status_code for _ in range(3)] == [200, 200, 429]


def test_a_large_limit_is_leased_a_few_requests_at_a_time(redis_cache, script_calls):
    now = 1_000_000 * 60 + 5.0
    assert throttling.lease_size(1000) == 20 and throttling.lease_size(99) == 1
    assert all(throttling.window_hit("test:e", 1000, 60.0, now=now)[0] for _ in range(25))
    assert len(script_calls) == 2  # one round trip per 20 requests
    assert int(redis_cache.get(f"rl:test:e:{int(now // 60)}")) == 40  # what the process holds counts
    throttling.window_hit("test:e", 1000, 60.0, now=now + 60)  # the next window: the lease ended with its own
    assert len(script_calls) == 3


def test_leases_never_let_more_than_the_limit_through(redis_cache, script_calls, monkeypatch):
    """Three processes (each its own leases) share a limit of 100 per minute, leased 2 at a time."""
    now = 1_000_000 * 60 + 5.0
    processes = [type(throttling._leases)() for _ in range(3)]
    allowed = 0
    for i in range(150):
        monkeypatch.setattr(throttling, "_leases", processes[i % 3])
        allowed += throttling.window_hit("test:f", 100, 60.0, now=now)[0]
    assert int(redis_cache.get(f"rl:test:f:{int(now // 60)}")) == 100
    assert 100 - 3 <= allowed <= 100  # at most one leased request per process left unspent


def test_a_lease_takes_what_room_is_left_and_gives_the_rest_back(redis_cache, script_calls):
    now = 1_000_000 * 60 + 5.0
    key = f"rl:test:g:{int(now // 60)}"
    redis_cache.set(key, 99)
    assert throttling.window_hit("test:g", 100, 60.0, now=now) == (True, 0.0)  # asked for 2, granted 1
    assert int(redis_cache.get(key)) == 100
    allowed, wait = throttling.window_hit("test:g", 100, 60.0, now=now)
    assert not allowed and wait == pytest.approx(55.0)
    assert int(redis_cache.get(key)) == 100  # the refusal is not counted

"""Redis or PostgreSQL unreachable: reads and appends go on without Redis; what cannot go on is a JSON 503."""

from __future__ import annotations

import logging

import pytest
from django.db import connection
from django.test import Client

from matches.models import Event as EventRow

pytestmark = pytest.mark.both_dbs

DEAD_REDIS = "redis://127.0.0.1:6399/0"  # nothing listens here on the test machine


@pytest.fixture
def redis_down(settings):
    """The cache (throttling) points at a Redis that refuses connections."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSafeRedisCache",
            "LOCATION": DEAD_REDIS,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    from django.core.cache import caches

    from config.cache import FailSafeRedisCache

    cache = caches["default"]
    assert isinstance(cache, FailSafeRedisCache)
    return cache


@pytest.mark.django_db
def test_reads_and_appends_work_with_redis_down_and_the_failure_is_logged(redis_down, api, stone_match, caplog):
    from config import outage

    outage.reset()
    caplog.set_level(logging.WARNING, logger="chronicle.outage")
    for path in ("/api/games/", "/api/schema/", f"/api/matches/{stone_match.pk}/state/", "/api/matches/"):
        r = api.get(path)
        assert r.status_code == 200, (path, r.content[:200])
    r = api.post(
        f"/api/matches/{stone_match.pk}/events/",
        {"type": "stones_taken", "seat": 0, "data": {"count": 1}},
        format="json",
    )
    assert r.status_code == 201 and EventRow.objects.count() == 1
    assert redis_down.redis_down
    warnings = [rec for rec in caplog.records if "Redis 127.0.0.1:6399 unreachable" in rec.getMessage()]
    assert len(warnings) == 1  # once per outage window, not once per request


@pytest.mark.django_db
def test_throttling_falls_back_to_a_per_process_limit_with_redis_down(redis_down, settings, client):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "3/min"}}
    codes = [client.get("/api/games/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.get("/api/games/").json()["code"] == "throttled"


@pytest.mark.django_db
def test_redis_is_tried_again_after_the_retry_window(redis_down, monkeypatch):
    redis_down.set("k", 1)
    assert redis_down.redis_down and redis_down.get("k") == 1  # served by the fallback
    monkeypatch.setattr(type(redis_down), "RETRY_SECONDS", 0.0)
    redis_down._down_until = 0.0
    redis_down.set("k", 2)  # tries Redis again, fails again, falls back again
    assert redis_down.get("k") == 2


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/nothing-here/", "/api/matches/1/nope/", "/api/v2/matches/"])
def test_unknown_api_paths_are_json_404(client, path):
    r = client.get(path)
    assert r.status_code == 404 and r["Content-Type"] == "application/json"
    assert r.json()["code"] == "not_found" and r.json()["detail"]


@pytest.mark.django_db
def test_unknown_pages_are_still_html_404(client):
    r = client.get("/nothing-here/")
    assert r.status_code == 404 and r["Content-Type"].startswith("text/html")


@pytest.fixture
def database_down():
    """Every new PostgreSQL connection is refused (a restart or an outage), then the database comes back."""
    if connection.vendor != "postgresql":
        pytest.skip("a server outage is PostgreSQL's own (SQLite is a file in the process)")
    saved = connection.settings_dict["PORT"]

    def restore() -> None:
        connection.close()
        connection.settings_dict["PORT"] = saved

    connection.close()
    connection.settings_dict["PORT"] = 6398  # nothing listens here on the test machine
    yield restore
    restore()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("method", ["get", "post"])
def test_database_outage_is_a_json_503_with_retry_after_on_the_api(database_down, method, caplog):
    caplog.set_level(logging.WARNING, logger="chronicle.errors")
    client = Client(raise_request_exception=False)
    call = getattr(client, method)
    r = call("/api/matches/", **({"data": "{}", "content_type": "application/json"} if method == "post" else {}))
    if method == "post":  # anonymous: refused before any query
        assert r.status_code in (401, 403)
        r = client.get("/api/matches/1/events/")
    assert r.status_code == 503, r.content[:300]
    assert r["Content-Type"] == "application/json" and r["Retry-After"].isdigit()
    assert r.json()["code"] == "service_unavailable" and r.json()["detail"]
    assert any("service unavailable" in rec.getMessage() for rec in caplog.records)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_database_outage_is_a_503_page_on_the_site(database_down):
    r = Client(raise_request_exception=False).get("/matches/")
    assert r.status_code == 503 and r["Retry-After"].isdigit()
    assert r["Content-Type"].startswith("text/html") and b"unavailable" in r.content


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_service_recovers_when_the_database_is_back(database_down):
    client = Client(raise_request_exception=False)
    assert client.get("/api/matches/").status_code == 503
    database_down()
    assert client.get("/api/matches/").status_code == 200

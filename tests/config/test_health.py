"""``GET /healthz``: PostgreSQL checked, Redis and the projector's lag reported, JSON always."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def test_healthy_service_answers_ok_with_every_check(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] == connection.vendor
    assert body["projector"]["pending_events"] == 0
    assert response["Cache-Control"].startswith("max-age=0")


def test_unreachable_redis_is_reported_as_degraded_not_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:6399/0"  # nothing listens there
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["redis"]["ok"] is False
    assert "ConnectionError" in body["redis"]["error"]


def test_projector_lag_counts_events_not_yet_projected(client, settings, owner):
    settings.REDIS_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CHRONICLE_HEALTH_MAX_LAG = -1  # any pending event is "too old"
    from matches.projections import tasks

    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 9})
    original = tasks.wake_projector
    tasks.wake_projector = lambda: None  # no worker here: the events stay unprojected
    try:
        for seat in (0, 1):
            match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": 1})
    finally:
        tasks.wake_projector = original
    body = client.get("/healthz").json()
    assert body["projector"]["pending_events"] == 2
    assert body["status"] == "degraded"

    from matches.projections.tasks import project_all

    project_all()
    body = client.get("/healthz").json()
    assert body["projector"]["pending_events"] == 0


def test_database_down_answers_503_json(client, monkeypatch):
    from config import health

    def broken() -> None:
        raise RuntimeError("connection refused")

    monkeypatch.setattr(health, "_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "down"
    database = response.json()["database"]
    assert (database["ok"], database["error"]) == (False, "RuntimeError: connection refused")

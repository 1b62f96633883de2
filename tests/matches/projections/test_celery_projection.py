"""A real Celery worker on the real Redis broker keeps the projection; appends survive a broker outage."""

from __future__ import annotations

import os
import time

import pytest
from django.db import connection

from matches.models import MatchSummary
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True), pytest.mark.postgres]

DEAD_BROKER = "redis://127.0.0.1:6399/0"  # nothing listens here on the test machine


def _use_broker(app, url: str) -> None:
    """Point the app at ``url`` and drop its pooled connections, as a restarted process would."""
    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def redis_app(settings):
    url = os.environ.get("REDIS_URL")
    if not url or connection.vendor != "postgresql":
        pytest.skip("needs REDIS_URL and PostgreSQL (the CI run sets both)")
    from config.celery import app

    saved = (app.conf.broker_url, app.conf.task_always_eager)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CHRONICLE_WAKE_WINDOW = 0.01
    app.conf.task_always_eager = False
    _use_broker(app, url)
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(app.conf.task_default_queue)
    yield app
    app.conf.task_always_eager = saved[1]
    _use_broker(app, saved[0])


def _wait_for(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _events_count(match) -> int:
    return MatchSummary.objects.get(match=match).events_count


def test_worker_on_redis_catches_the_projection_up(redis_app, owner):
    from celery.contrib.testing.worker import start_worker

    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 9})
    with start_worker(redis_app, pool="solo", perform_ping_check=False, shutdown_timeout=10, loglevel="WARNING"):
        for seat in (0, 1, 0):
            match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": 1})
        assert _wait_for(lambda: _events_count(match) == 3), "the worker never projected the events"


def test_appends_succeed_while_redis_is_unreachable_and_projection_catches_up_after(redis_app, owner):
    from celery.contrib.testing.worker import start_worker

    from matches.projections.tasks import projections_catch_up

    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 9})
    _use_broker(redis_app, DEAD_BROKER)
    started = time.monotonic()
    for seat in (0, 1):
        match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": 2})
        time.sleep(0.02)  # past the wake-up window, so each append tries the broker
    assert time.monotonic() - started < 10, "appends were held up by the dead broker"
    assert match.stream.events.count() == 2
    assert _events_count(match) == 0
    _use_broker(redis_app, os.environ["REDIS_URL"])
    with start_worker(redis_app, pool="solo", perform_ping_check=False, shutdown_timeout=10, loglevel="WARNING"):
        projections_catch_up.delay()  # what beat sends every 15 s
        assert _wait_for(lambda: _events_count(match) == 2), "the catch-up did not project the missed events"

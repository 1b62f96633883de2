"""A real Celery worker (``celery -A config worker``) under load survives Redis being killed, and the read models
converge once Redis is back, without anyone touching the worker (issue 21, item 1).

The worker runs against this test's PostgreSQL database and a private redis-server of the test's own; the test
process appends (each append sends a projector wake-up with a countdown, which the worker holds reserved and
unacknowledged until it is due: the state in which kombu 5.7.0 made it exit, config/kombu_fix.py).
"""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

from benchmarks.http_stack import service_env, summaries_behind
from matches.projections.tasks import project_all
from matches.services import match_create, match_event_record
from tests.config.private_services import PrivateRedis, start_celery_worker, wait_until

pytestmark = [pytest.mark.one_db, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def private_broker(tmp_path, settings):
    """A private Redis as this process's Celery broker (not eager), restored afterwards."""
    if connection.vendor != "postgresql":
        pytest.skip("a worker process shares the test's database: PostgreSQL only (the SQLite run skips it)")
    from config.celery import app

    server = PrivateRedis(tmp_path)
    server.start()
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CHRONICLE_WAKE_WINDOW = 0.05
    app.conf.task_always_eager = False
    app.conf.broker_url = server.url
    app._pool = None
    app.amqp._producer_pool = None
    yield server
    app.conf.broker_url, app.conf.task_always_eager = saved
    app._pool = None
    app.amqp._producer_pool = None
    server.stop()


def _database_url() -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}:{s['PASSWORD'] or ''}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def test_the_worker_survives_redis_dying_under_load_and_catches_up(private_broker, owner, tmp_path):
    matches = [
        match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 1000})
        for _ in range(3)
    ]
    ids = [m.pk for m in matches]
    env = service_env(_database_url(), private_broker.url, CHRONICLE_WAKE_WINDOW="0.05")
    worker = start_celery_worker(env, tmp_path)
    try:
        turns = dict.fromkeys(ids, 0)
        stop = threading.Event()

        def load() -> None:  # appends all along, Redis up or down (they never wait for it)
            try:
                while not stop.is_set():
                    for match in matches:
                        match_event_record(match=match, user=owner, type="stones_taken", seat=turns[match.pk] % 2,
                                           data={"count": 1})  # fmt: skip
                        turns[match.pk] += 1
                    stop.wait(0.02)
            finally:
                connection.close()

        for _ in range(3):
            for match in matches:
                match_event_record(match=match, user=owner, type="stones_taken", seat=turns[match.pk] % 2,
                                   data={"count": 1})  # fmt: skip
                turns[match.pk] += 1
        assert wait_until(lambda: summaries_behind(ids) == 0, 60), f"the worker never projected:\n{worker.log_tail()}"

        loader = threading.Thread(target=load)
        loader.start()
        for _ in range(5):  # slow tasks in flight: reserved until due, unacknowledged meanwhile
            project_all.apply_async(countdown=30)
        wait_until(lambda: False, 0.5)
        private_broker.kill()
        wait_until(lambda: not worker.alive(), 3)  # the worker notices at once; kombu 5.7.0 alone exits here
        assert worker.alive(), f"the worker exited when Redis died:\n{worker.log_tail()}"
        private_broker.start()
        wait_until(lambda: False, 1.0)  # appends go on meanwhile, wake-ups reach Redis again
        stop.set()
        loader.join(10)
        assert wait_until(lambda: summaries_behind(ids) == 0, 45), (
            f"no catch-up after Redis came back:\n{worker.log_tail()}"
        )
        assert worker.alive()
        log = worker.log_path.read_text(errors="replace")
        assert "Unrecoverable error" not in log and "AttributeError" not in log, log[-3000:]
        assert os.path.exists(f"/proc/{worker.proc.pid}")  # the same process: nobody restarted it
    finally:
        worker.stop()

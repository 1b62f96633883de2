"""An import job whose process is killed (SIGKILL, no clean-up of any kind) in the middle of a batch leaves
whole plays only, and the redelivered task finishes the file. PostgreSQL's own: a process of its own with a
connection of its own, killed while its batch's transaction is open."""

from __future__ import annotations

import io
import multiprocessing
import os
import signal
import time

import pytest
from django.db import connection, connections

from matches.interop import jobs
from matches.interop.models import ImportJob
from matches.models import Event as EventRow
from matches.models import Match, MatchSummary, Seat
from tests.matches.interop.test_interop_jobs import many

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _import_then_hang(job_id: int, ready: str) -> None:
    """The worker: imports batches of 4; the second batch is written inside its transaction, then the process
    waits there to be killed (the file ``ready`` says it is there)."""
    connections.close_all()
    real = jobs.plays_write
    calls = {"n": 0}

    def slow(prepared, cache):
        calls["n"] += 1
        written = real(prepared, cache)
        if calls["n"] == 2:
            with open(ready, "w") as fp:
                fp.write("in the second batch")
            time.sleep(120)
        return written

    jobs.plays_write = slow
    jobs.import_job_run(job_id, batch=4)
    os._exit(0)


def test_a_job_killed_midway_leaves_whole_plays_and_resumes(owner, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("a second process on the same database: PostgreSQL")
    job = jobs.import_job_create(owner=owner, fp=io.BytesIO(many(10).bytes()), source="bgstats")
    ready = str(tmp_path / "ready")
    connections.close_all()  # the child opens its own
    child = multiprocessing.get_context("fork").Process(target=_import_then_hang, args=(job.pk, ready))
    child.start()
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(ready) and time.monotonic() < deadline and child.is_alive():
            time.sleep(0.05)
        assert os.path.exists(ready), "the worker never reached its second batch"
        in_flight = Match.objects.count()
        os.kill(child.pid, signal.SIGKILL)  # no rollback, no clean-up: the connection just drops
    finally:
        child.join(10)
    assert in_flight == 4  # the second batch was written but not committed: nobody else sees it
    job.refresh_from_db()
    assert (job.status, job.done, job.imported) == (ImportJob.RUNNING, 4, 4)
    for m in Match.objects.all():  # whole plays: each with its seats, its result entry and its summary
        assert Seat.objects.filter(match=m).count() == 2
        assert EventRow.objects.filter(stream_id=m.stream_id).count() == 1
        assert MatchSummary.objects.filter(match=m).exists()
    assert EventRow.objects.count() == 4
    job = jobs.import_job_run(job.pk, batch=4)  # the redelivered task (acks_late) resumes after the last batch
    assert (job.status, job.done, job.imported, job.already) == (ImportJob.DONE, 10, 10, 0)
    assert Match.objects.count() == 10 and EventRow.objects.count() == 10

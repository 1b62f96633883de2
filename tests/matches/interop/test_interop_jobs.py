"""Import jobs: files past the body limit, queued on a worker with progress, resumed after an interruption
with whole plays only, and a report that stays viewable."""

from __future__ import annotations

import io

import pytest

from matches.interop import jobs
from matches.interop.models import ImportJob
from matches.models import Event as EventRow
from matches.models import Match
from tests.matches.interop.builders import BgStatsFile

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def many(n: int, *, padding: int = 0) -> BgStatsFile:
    f = BgStatsFile()
    g = f.game("Azul", bggId=230802, notes="x" * padding)  # unknown, large: the file is big, the plays few
    a, b = f.player("Ana"), f.player("Bo")
    for i in range(n):
        f.play(g, [{"playerRefId": a, "score": f"{i}+1", "winner": i % 2 == 0}, {"playerRefId": b, "score": i}],
               date=f"2021-{1 + i % 12:02d}-{1 + i % 28:02d} 20:00:00")  # fmt: skip
    return f


def test_a_raw_body_far_past_the_body_limit_imports(api, settings):
    settings.CHRONICLE_IMPORT_INLINE_BYTES = 10 * 1024 * 1024  # run in the request, whatever the backend
    data = many(5, padding=3 * 1024 * 1024).bytes()
    assert len(data) > 10 * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    r = api.post("/api/import/bgstats/", data, content_type="application/json")
    assert r.status_code == 201 and r.json()["imported"] == 5


def test_a_file_over_the_import_limit_is_400(api, settings):
    settings.CHRONICLE_IMPORT_MAX_BYTES = 1024
    r = api.post("/api/import/bgstats/", many(20).bytes(), content_type="application/json")
    assert r.status_code == 400 and "MB" in r.json()["detail"] and Match.objects.count() == 0


def test_a_big_file_is_queued_and_its_progress_read(api, owner, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CHRONICLE_IMPORT_INLINE_BYTES = 0
    sent = []
    monkeypatch.setattr("matches.interop.tasks.import_run.delay", lambda job_id: sent.append(job_id))
    r = api.post("/api/import/bgstats/", many(12).bytes(), content_type="application/json")
    assert r.status_code == 202 and r.json()["status"] == "queued" and r.json()["total"] == 12
    job_id = r.json()["job"]
    assert sent == [job_id] and Match.objects.count() == 0
    progress = api.get(r.json()["url"]).json()
    assert (progress["done"], progress["total"], progress["percent"]) == (0, 12, 0)
    jobs.import_job_run(job_id, batch=5)  # what the worker runs
    done = api.get(f"/api/import/jobs/{job_id}/").json()
    assert (done["status"], done["done"], done["imported"], done["percent"]) == ("done", 12, 12, 100)


def test_an_interrupted_job_leaves_whole_plays_and_resumes(owner, monkeypatch):
    job = jobs.import_job_create(owner=owner, fp=io.BytesIO(many(10).bytes()), source="bgstats")
    real = jobs.plays_write
    calls = {"n": 0}

    def dying(prepared, cache):  # the worker dies while writing the second batch
        calls["n"] += 1
        if calls["n"] == 2:
            real(prepared[:2], cache)  # half of it is in the batch's transaction when it dies
            raise RuntimeError("worker killed")
        return real(prepared, cache)

    monkeypatch.setattr(jobs, "plays_write", dying)
    with pytest.raises(RuntimeError):
        jobs.import_job_run(job.pk, batch=4)
    job.refresh_from_db()
    assert (job.status, job.done, job.imported) == ("running", 4, 4)
    assert Match.objects.count() == 4  # the batch in flight left nothing
    for m in Match.objects.all():  # each play whole: its seats and its result
        assert m.seats.count() == 2 and EventRow.objects.filter(stream_id=m.stream_id).count() == 1
    monkeypatch.setattr(jobs, "plays_write", real)
    job = jobs.import_job_run(job.pk, batch=4)  # the redelivered task
    assert (job.status, job.done, job.imported, job.already) == ("done", 10, 10, 0)
    assert Match.objects.count() == 10


def test_a_second_run_of_a_finished_job_does_nothing(owner):
    job = jobs.import_bytes(owner=owner, data=many(3).bytes(), source="bgstats")
    assert jobs.import_job_run(job.pk).imported == 3 and Match.objects.count() == 3


def test_the_report_stays_viewable_and_is_private(api, client_for, stranger):
    f = many(2)
    f.play(1, [{"playerRefId": 999}])
    job_id = api.post("/api/import/bgstats/", f.bytes(), content_type="application/json").json()["job"]
    body = api.get(f"/api/import/jobs/{job_id}/").json()
    assert body["skipped"] == 1 and "playerRefId 999" in body["skipped_plays"][0]["reason"]
    assert client_for(stranger).get(f"/api/import/jobs/{job_id}/").status_code == 404
    assert ImportJob.objects.get(pk=job_id).path and not __import__("os").path.exists(
        ImportJob.objects.get(pk=job_id).path
    )


def test_a_bgg_file_sent_to_the_bg_stats_endpoint_is_400(api):
    r = api.post("/api/import/bgstats/", b"<plays username='x'></plays>", content_type="application/xml")
    assert r.status_code == 400 and "BoardGameGeek" in r.json()["detail"]

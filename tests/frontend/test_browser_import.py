"""An import job seen in headless Chromium on a 390×844 phone: the progress bar moves while a worker imports
(done of total), and the page turns into the report when the job ends."""

from __future__ import annotations

import io
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.interop import jobs
from matches.interop.models import ImportJob
from tests.matches.interop.builders import BgStatsFile

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_progress_bar_follows_the_job_then_shows_the_report(live_server: Any, signed_in_phone: Any, keeper: Any):
    f = BgStatsFile()
    g = f.game("Azul")
    a, b = f.player("Ana"), f.player("Bo")
    for i in range(6):
        f.play(g, [{"playerRefId": a, "score": f"{i}+2", "winner": True}, {"playerRefId": b, "score": 1}])
    job = jobs.import_job_create(owner=keeper, fp=io.BytesIO(f.bytes()), file_name="mine.json", source="bgstats")
    page = signed_in_phone
    page.goto(f"{live_server.url}/stats/import-export/jobs/{job.pk}/")
    bar = page.locator("#import-progress")
    assert bar.get_attribute("max") == "6" and bar.get_attribute("value") == "0"
    assert "0 of 6 plays" in page.locator("#import-status").inner_text()
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.RUNNING, done=3)  # a worker halfway
    expect(bar).to_have_attribute("value", "3")
    expect(page.locator("#import-status")).to_contain_text("3 of 6 plays")
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.QUEUED, done=0)
    jobs.import_job_run(job.pk)  # the worker finishes it; the page reloads into the report
    expect(page.locator("#import-status")).to_contain_text("Done: 6 of 6 plays")
    expect(page.locator("#import-report")).to_contain_text("Imported: 6")

"""The import pages: upload a file (phone-friendly form), the job's progress and report, "This is me", and
imported plays on the match list and page with their date, place, length, scores and winner."""

from __future__ import annotations

import io

import pytest

from matches.interop.models import ImportJob
from matches.models import Match, Player
from tests.matches.interop.builders import project, quirky_bgg, quirky_bgstats

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def upload(client, data: bytes, name: str):
    f = io.BytesIO(data)
    f.name = name
    return client.post("/stats/import-export/", {"file": f})


@pytest.fixture
def imported(client, owner):
    client.force_login(owner)
    r = upload(client, quirky_bgstats().bytes(), "bgstats.json")
    assert r.status_code == 302
    return ImportJob.objects.get()


def test_upload_runs_the_job_and_shows_its_report(client, imported):
    page = client.get(f"/stats/import-export/jobs/{imported.pk}/").content.decode()
    assert 'id="import-progress"' in page and 'max="8"' in page and 'value="8"' in page
    assert "Imported: <strong>8</strong>" in page and "Skipped: 0" in page  # a score never drops a play
    assert "Ana&#x27;s score &#x27;lots&#x27; cannot be read" in page  # it is a warning, naming play and player
    assert "locationRefId 9999" in page
    listing = client.get("/stats/import-export/").content.decode()
    assert f"/stats/import-export/jobs/{imported.pk}/" in listing


def test_this_is_me_in_one_tap(client, owner, imported):
    page = client.get(f"/stats/import-export/jobs/{imported.pk}/").content.decode()
    assert "This is me" in page and "<strong>Ana</strong>" in page
    r = client.post(f"/stats/import-export/jobs/{imported.pk}/me/")
    assert r.status_code == 302 and Player.objects.get(owner=owner, name="Ana").user_id == owner.pk
    assert "You are <a" in client.get(f"/stats/import-export/jobs/{imported.pk}/").content.decode()


def test_someone_elses_job_is_404(client, imported, stranger):
    client.force_login(stranger)
    assert client.get(f"/stats/import-export/jobs/{imported.pk}/").status_code == 404
    assert client.post(f"/stats/import-export/jobs/{imported.pk}/me/").status_code == 404


def test_a_file_that_is_no_play_log_says_so(client, owner):
    client.force_login(owner)
    r = upload(client, b"hello", "notes.txt")
    assert r.status_code == 302 and ImportJob.objects.count() == 0 and Match.objects.count() == 0
    assert "Nothing was imported" in client.get("/stats/import-export/").content.decode()


def test_match_page_and_history_read_like_the_table(client, imported):
    azul = Match.objects.get(source_uuid="play-000001")
    page = client.get(f"/matches/{azul.pk}/").content.decode()
    assert "Played 12 Mar 2021 19:30 at the Kitchen, 70 min · imported from BG Stats" in page
    assert "164 (87+77)" in page and "Expansions: Azul: Crystal Mosaic" in page and "rematch soon" in page
    history = client.get(f"/matches/{azul.pk}/history/").content.decode()
    assert "Played 12 Mar 2021 19:30 at the Kitchen, 70 min · imported from BG Stats" in history


def test_match_list_sorts_by_play_date_and_shows_the_play(client, imported):
    project()  # the winners come from the match summary
    page = client.get("/matches/").content.decode()
    order = [page.index(f"Played {d}") for d in ("4 Apr 2021", "3 Apr 2021", "14 Mar 2021", "12 Mar 2021")]
    assert order == sorted(order)  # newest play first, whatever order they were imported in
    assert "ignored for stats" in page and "winner" in page


def test_a_bgg_log_from_the_page(client, owner):
    client.force_login(owner)
    assert upload(client, quirky_bgg(), "plays.xml").status_code == 302
    job = ImportJob.objects.get()
    assert job.source == "bgg" and job.imported == 8 and job.owner_ref["name"] == "Ana"

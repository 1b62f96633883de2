"""Nothing stored takes a page down: a planted stream that cannot be replayed (an entry written past the store's
checks, and a head whose ruleset version differs, so every read replays it) answers a 409 naming the entry on
every API read of that match, a page in players' words with its log, lists and the home page without it,
check_rulesets reports it and exits non-zero, rebuild_projections skips it with a warning (docs/ARCHITECTURE.md ›
Errors, *A stream that cannot be replayed*)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from matches.models import Event as EventRow
from matches.models import Match, MatchSummary, Stream
from matches.projections.projectors import project
from matches.services import match_create, match_event_record
from matches.store.events import head_cache

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def plant(match: Match, type_: str, seat: int, data: dict) -> int:
    """Write an entry the reducer cannot apply straight into the table (past every check of the store) and mark
    the head as made by another ruleset version, so that every read replays the stream. Returns its version."""
    stream = Stream.objects.get(pk=match.stream_id)
    version = stream.version + 1
    EventRow.objects.create(
        stream_id=stream.pk, version=version, type=type_, seat=seat, data=data, recorded_at=timezone.now()
    )
    Stream.objects.filter(pk=stream.pk).update(version=version, ruleset_version=0)
    head_cache.clear()
    return version


@pytest.fixture
def broken(owner, stone_match) -> Match:
    """A Last Stone match (Ana, Bo): Ana took 3 stones, then a planted entry 2 no reducer can apply."""
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    assert plant(stone_match, "stones_taken", 1, {"stones": 1}) == 2
    return stone_match


@pytest.fixture
def sound(owner) -> Match:
    """Another match of the same owner, that replays."""
    match = match_create(
        is_public=True, owner=owner, game="last-stone", seats=[{"name": "Cy"}, {"name": "Di"}], options={"stones": 5}
    )
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 2})
    return match


def assert_unreplayable(response) -> None:
    assert response.status_code == 409, (response.status_code, response.content[:300])
    body = response.json()
    assert body["code"] == "stream_unreplayable" and body["version"] == 2 and body["type"] == "stones_taken"
    assert "its entry 2 (Took stones) can no longer be replayed" in body["detail"]
    assert "Traceback" not in body["detail"] and "KeyError" not in body["detail"]


def test_every_api_read_of_the_match_answers_409_naming_the_entry(broken, sound, api):
    m = broken.pk
    for path in ("state/", "state/?at=2", "state/?at=1", "rules/", "legal-moves/"):
        assert_unreplayable(api.get(f"/api/matches/{m}/{path}"))
    # what needs no state still answers: the log (what the page shows too) and the match as listed
    log = api.get(f"/api/matches/{m}/events/")
    assert log.status_code == 200 and [e["version"] for e in log.json()["results"]] == [1, 2]
    assert log.json()["results"][0]["text"] == "Ana took 3 stones"
    assert api.get(f"/api/matches/{m}/").status_code == 200
    # a write is refused the same way, and writes nothing
    count = EventRow.objects.count()
    r = api.post(f"/api/matches/{m}/events/", {"type": "stones_taken", "seat": 1, "data": {"count": 1}}, format="json")
    assert_unreplayable(r)
    assert EventRow.objects.count() == count
    # the list and the other match carry on
    listed = api.get("/api/matches/")
    assert listed.status_code == 200
    assert {row["id"] for row in listed.json()["results"]} >= {broken.pk, sound.pk}
    assert api.get(f"/api/matches/{sound.pk}/state/").status_code == 200


def test_the_match_pages_say_so_with_the_log(broken, sound, owner, client):
    client.force_login(owner)
    for path in ("", "history/", "rules/"):
        page = client.get(f"/matches/{broken.pk}/{path}")
        assert page.status_code == 200, path
        text = page.content.decode()
        assert "This match cannot be shown just now" in text
        assert "Move 2" in text and "Ana took 3 stones" in text  # the log: what can still be shown
        assert "KeyError" not in text and "Traceback" not in text
    sent = client.post(f"/matches/{broken.pk}/record/", {"type": "stones_taken", "seat": "1", "count": "1"})
    assert sent.status_code == 409 and "This match cannot be shown just now" in sent.content.decode()
    for path in ("/", "/matches/", f"/matches/{sound.pk}/"):
        page = client.get(path)
        assert page.status_code == 200, path
    assert f"/matches/{sound.pk}/" in client.get("/").content.decode()


def test_a_stranger_gets_no_log_of_a_private_match(owner, stranger, client):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={})
    plant(match, "stones_taken", 0, {})
    client.force_login(stranger)
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 404 and "cannot be shown" not in page.content.decode()


def test_the_home_page_goes_on_without_a_broken_match_of_a_game_that_hides_information(owner, sound, client):
    """Salt & Bones hides cards: reading its entries for the activity list folds its state, which fails."""
    match = match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}], options={})
    plant(match, "cards_drawn", 0, {})
    client.force_login(owner)
    home = client.get("/")
    assert home.status_code == 200
    assert f"/matches/{sound.pk}/" in home.content.decode()
    assert client.get(f"/matches/{match.pk}/").status_code == 200


def check_rulesets() -> tuple[str, CommandError]:
    out = io.StringIO()
    with pytest.raises(CommandError) as info:
        call_command("check_rulesets", stdout=out)
    return out.getvalue(), info.value


def test_check_rulesets_reports_it_by_match_and_entry_and_exits_non_zero(broken, sound):
    out, error = check_rulesets()
    assert error.returncode == 1 and "1 stream(s) do not replay as stored" in str(error)
    assert f"Last Stone (demo) #{broken.pk} (Ana, Bo): no longer valid: Entry 2 (stones_taken)" in out
    assert f"#{sound.pk}" not in out  # the other streams were checked and hold


@pytest.mark.django_db(transaction=True)  # the global-log reader sees committed entries only (PostgreSQL)
def test_rebuild_projections_skips_it_with_a_warning_and_goes_on(broken, sound):
    project()
    err = io.StringIO()
    call_command("rebuild_projections", "--no-progress", stdout=io.StringIO(), stderr=err)
    assert f"warning: match #{broken.pk} skipped: entry 2 (stones_taken) cannot be replayed" in err.getvalue()
    assert MatchSummary.objects.get(match=sound).version == 1
    assert Match.objects.get(pk=broken.pk).status == Match.STATUS_IN_PROGRESS


def test_check_rulesets_names_an_entry_the_reducer_no_longer_applies(owner, stone_match, monkeypatch):
    """The rules changed under a stored entry without a version branch: validate still passes, apply fails."""
    from rulesets import get_ruleset

    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    ruleset = get_ruleset("last-stone")
    original = type(ruleset).apply

    def stricter(self, state, event):
        if event.data.get("count") == 3:
            raise ValueError("three is not a number of stones any more")
        return original(self, state, event)

    monkeypatch.setattr(type(ruleset), "apply", stricter)
    out, error = check_rulesets()
    assert error.returncode == 1
    assert f"#{stone_match.pk} (Ana, Bo): cannot be replayed: Entry 1 (stones_taken) cannot be applied" in out

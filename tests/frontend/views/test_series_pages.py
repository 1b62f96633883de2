"""Series pages: create, standings with the points chart, add and remove a match, refusals, undo, history, CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from campaigns.models import Series
from campaigns.series.services import series_create, series_match_add
from matches.models import Event
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def finished(owner: Any, names: list[str], points: list[int], *, public: bool = True) -> Any:
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": n} for n in names], is_public=public)
    for seat, p in enumerate(points):
        match_event_record(match=match, user=owner, type="points_scored", seat=seat, data={"points": p})
    match_event_record(match=match, user=owner, type="game_ended", data={})
    return match


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def test_create_a_series_from_the_list_page(signed_in):
    page = signed_in.get("/series/")
    assert page.status_code == 200 and 'name="place_points"' in page.content.decode()
    r = signed_in.post("/series/", {"name": "Club ladder", "game": "scoresheet", "place_points": "5, 3, 1",
                                    "is_public": "on"})  # fmt: skip
    series = Series.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/series/{series.pk}/"
    assert series.stream.options["place_points"] == [5, 3, 1] and series.is_public


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"name": "X", "game": "scoresheet", "place_points": "three"}, "whole numbers"),
        ({"name": "X", "game": "scoresheet", "place_points": "3, -2"}, "at least 0"),
        ({"name": "X", "game": "nope"}, "Unknown game"),
        ({"name": " ", "game": "scoresheet"}, "needs a name"),
    ],
)
def test_creation_refusals_redraw_the_form_and_create_nothing(signed_in, post, message):
    r = signed_in.post("/series/", post)
    assert r.status_code == 400 and message in r.content.decode()
    assert not Series.objects.exists()


def test_anonymous_visitors_read_the_list_but_are_sent_to_sign_in_to_create(client):
    assert "Sign in" in client.get("/series/").content.decode()
    r = client.post("/series/", {"name": "X", "game": "scoresheet"})
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_the_page_shows_standings_chart_matches_and_adds_a_finished_match(signed_in, owner):
    series = series_create(owner=owner, name="Ladder", game="scoresheet", is_public=True)
    m1 = finished(owner, ["Ana", "Bo"], [9, 4])
    m2 = finished(owner, ["Ana", "Bo"], [2, 8])
    series_match_add(series=series, user=owner, match_id=m1.pk)
    page = signed_in.get(f"/series/{series.pk}/").content.decode()
    assert '<th scope="row">Ana</th>' in page and "<svg" in page and "Points over time" in page
    assert f'href="/matches/{m1.pk}/"' in page
    assert f'<option value="{m2.pk}">' in page and f'<option value="{m1.pk}">' not in page  # only matches not in it
    r = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_added", "match": m2.pk, "expected_version": 1,
                                                       "idempotency_key": "add-1"})  # fmt: skip
    assert r.status_code == 302 and r["Location"].endswith("#standings")
    again = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_added", "match": m2.pk,
                                                           "idempotency_key": "add-1"})  # fmt: skip
    assert again.status_code == 302  # a double tap records once
    assert series.stream.events.count() == 2
    page = signed_in.get(f"/series/{series.pk}/").content.decode()
    assert "place 1 (3 pts, score 8)" in page  # Bo won the second match


def test_a_refused_entry_redraws_the_page_with_the_rule_and_writes_nothing(signed_in, owner, make_user):
    series = series_create(owner=owner, name="Ladder", game="scoresheet", is_public=True)
    m1 = finished(owner, ["Ana", "Bo"], [9, 4])
    series_match_add(series=series, user=owner, match_id=m1.pk)
    r = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_added", "match": m1.pk})
    body = r.content.decode()
    assert r.status_code == 400 and "already in this series" in body and "Chronicle › Series" in body
    stone = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    r = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_added", "match": stone.pk})
    assert r.status_code == 400 and "this series is for Score sheet (any game)" in r.content.decode()
    hidden = finished(make_user("other"), ["Cy", "Di"], [1, 2], public=False)
    r = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_added", "match": hidden.pk})
    assert r.status_code == 400 and "no match" in r.content.decode()
    r = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_added"})
    assert r.status_code == 400 and "Pick a match" in r.content.decode()
    stale = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_removed", "match": m1.pk,
                                                           "expected_version": 0})  # fmt: skip
    assert stale.status_code == 409 and "Someone else recorded first" in stale.content.decode()
    assert series.stream.events.count() == 1


def test_strangers_cannot_record_and_private_series_are_not_found(client, owner, stranger):
    series = series_create(owner=owner, name="Ladder", game="scoresheet", is_public=True)
    secret = series_create(owner=owner, name="Secret", game="scoresheet", is_public=False)
    m1 = finished(owner, ["Ana", "Bo"], [9, 4])
    client.force_login(stranger)
    r = client.post(f"/series/{series.pk}/record/", {"type": "match_added", "match": m1.pk})
    assert r.status_code == 403 and not Event.objects.filter(stream=series.stream).exists()
    assert "Add a finished match" not in client.get(f"/series/{series.pk}/").content.decode()
    assert client.get(f"/series/{secret.pk}/").status_code == 404
    assert "Secret" not in client.get("/series/").content.decode()


def test_remove_undo_history_and_replay(signed_in, owner):
    series = series_create(owner=owner, name="Ladder", game="scoresheet", is_public=True)
    m1 = finished(owner, ["Ana", "Bo"], [9, 4])
    series_match_add(series=series, user=owner, match_id=m1.pk)
    r = signed_in.post(f"/series/{series.pk}/record/", {"type": "match_removed", "match": m1.pk})
    assert r.status_code == 302
    assert "No finished match in the series yet" in signed_in.get(f"/series/{series.pk}/").content.decode()
    undo = signed_in.post(f"/series/{series.pk}/undo/", {"version": 2, "reason": "oops", "confirm": "on"})
    assert undo.status_code == 302
    assert '<th scope="row">Ana</th>' in signed_in.get(f"/series/{series.pk}/").content.decode()
    before = Event.objects.count()
    unconfirmed = signed_in.post(f"/series/{series.pk}/undo/", {"version": 3, "reason": "x"})
    assert unconfirmed.status_code == 200 and "Undo this entry?" in unconfirmed.content.decode()  # asked first
    assert Event.objects.count() == before  # nothing written without the confirmation
    history = signed_in.get(f"/series/{series.pk}/history/").content.decode()
    assert f"Match {m1.pk} added to the series." in history and "<del>" in history
    replay = signed_in.get(f"/series/{series.pk}/?at=1").content.decode()
    assert "as it stood at entry 1 of 3" in replay and "Add a finished match" not in replay


def test_the_standings_csv_ranks_players_and_follows_at(client, owner):
    series = series_create(
        owner=owner, name="Ladder", game="scoresheet", options={"place_points": [4, 1]}, is_public=True
    )
    m1, m2 = finished(owner, ["=Ana", "Bo"], [9, 4]), finished(owner, ["=Ana", "Bo"], [3, 3])
    series_match_add(series=series, user=owner, match_id=m1.pk)
    series_match_add(series=series, user=owner, match_id=m2.pk)
    r = client.get(f"/series/{series.pk}/standings.csv")
    assert r["Content-Type"].startswith("text/csv") and f"series-{series.pk}-v2.csv" in r["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows == [
        ["rank", "player", "played", "wins", "points", "total_score", "best_score"],
        ["1", "'=Ana", "2", "2", "8", "12", "9"],  # a shared win (a 3-3 tie) is a win for each
        ["2", "Bo", "2", "1", "5", "7", "4"],
    ]
    early = list(csv.reader(io.StringIO(client.get(f"/series/{series.pk}/standings.csv?at=1").content.decode())))
    assert early[1] == ["1", "'=Ana", "1", "1", "4", "9", "9"]

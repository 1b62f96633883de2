"""Series over the REST API: creation, every refusal of an entry, the shared envelope, and the standings."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.models import Series
from matches.models import Event
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def sheet(owner: Any, names: list[str], points: list[int] | None, *, public: bool = True, **result: Any) -> Any:
    """A finished score-sheet match: ``points`` per seat (None: no scores), or an explicit ``result``."""
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": n} for n in names], is_public=public)
    if result:
        match_event_record(match=match, user=owner, type="result_recorded", data=result)
    else:
        for seat, p in enumerate(points or []):
            match_event_record(match=match, user=owner, type="points_scored", seat=seat, data={"points": p})
        match_event_record(match=match, user=owner, type="game_ended", data={})
    return match


def create(api: Any, **body: Any) -> Any:
    body = {"name": "Thursday league", "game": "scoresheet", "is_public": True, **body}  # private is the default
    return api.post("/api/series/", body, format="json")


def add(api: Any, series_id: int, match_id: Any, **extra: Any) -> Any:
    body = {"type": "match_added", "data": {"match": match_id}, **extra}
    return api.post(f"/api/series/{series_id}/events/", body, format="json")


def standings(client: Any, series_id: int, at: int | None = None) -> dict[str, Any]:
    suffix = "" if at is None else f"?at={at}"
    r = client.get(f"/api/series/{series_id}/standings/{suffix}")
    assert r.status_code == 200, r.content
    return r.json()


# -- creation ----------------------------------------------------------------------------------------------


def test_create_a_series_with_default_and_custom_place_points(api):
    r = create(api)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["game"] == "scoresheet" and body["place_points"] == [3, 2, 1] and body["version"] == 0
    custom = create(api, name="Cup", options={"place_points": [10, 6, 4, 2]}).json()
    assert custom["place_points"] == [10, 6, 4, 2]
    assert api.get(f"/api/series/{custom['id']}/").json()["name"] == "Cup"
    assert {s["name"] for s in api.get("/api/series/").json()["results"]} == {"Thursday league", "Cup"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "no-such-game"}, "game"),
        ({"game": "saltmarsh"}, "game"),  # a campaign game is not played as matches
        ({"name": "   "}, "name"),
        ({"options": {"place_points": [3, -1]}}, "options.place_points[1]"),
        ({"options": {"place_points": []}}, "options.place_points"),
        ({"options": {"rounds": 3}}, "options"),
        ({"options": {"game": "last-stone"}}, "options.game"),
    ],
)
def test_creation_refusals_name_the_field_and_write_nothing(api, body, field):
    r = create(api, **body)
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid"
    assert any(k.startswith(field) for k in r.json()["errors"]), r.json()
    assert not Series.objects.exists()


def test_only_signed_in_users_create(client_for):
    assert create(client_for(None)).status_code in (401, 403)


# -- entries: refusals ---------------------------------------------------------------------------------------


def _refused(r: Any, violation: str) -> None:
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["code"] == "rule_violation" and body["violation"] == violation, body
    assert body["rule"] == "Chronicle › Series" and body["detail"]


def test_a_match_of_another_game_is_refused(api, owner):
    sid = create(api).json()["id"]
    other = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    _refused(add(api, sid, other.pk), "other_game")
    assert not Event.objects.filter(stream__series__pk=sid).exists()


def test_a_match_already_in_the_series_is_refused(api, owner):
    sid = create(api).json()["id"]
    m = sheet(owner, ["Ana", "Bo"], [3, 1])
    assert add(api, sid, m.pk).status_code == 201
    _refused(add(api, sid, m.pk), "already_in_series")
    assert Event.objects.filter(stream__series__pk=sid).count() == 1


def test_a_match_the_user_cannot_see_is_refused_like_one_that_does_not_exist(api, make_user):
    sid = create(api).json()["id"]
    other_owner = make_user("someone")
    private = sheet(other_owner, ["Ana", "Bo"], [3, 1], public=False)
    _refused(add(api, sid, private.pk), "match_not_visible")
    _refused(add(api, sid, 999_999), "match_not_visible")
    assert not Event.objects.filter(stream__series__pk=sid).exists()


def test_removing_a_match_not_in_the_series_is_refused(api, owner):
    sid = create(api).json()["id"]
    m = sheet(owner, ["Ana", "Bo"], [3, 1])
    r = api.post(f"/api/series/{sid}/events/", {"type": "match_removed", "data": {"match": m.pk}}, format="json")
    _refused(r, "not_in_series")


def test_malformed_entries_are_invalid_and_strangers_may_not_record(api, client_for, stranger, owner):
    sid = create(api).json()["id"]
    assert add(api, sid, "seven").json()["code"] == "invalid"
    bad = api.post(f"/api/series/{sid}/events/", {"type": "match_won", "data": {}}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    m = sheet(owner, ["Ana", "Bo"], [3, 1])
    assert add(client_for(stranger), sid, m.pk).status_code == 403
    assert add(client_for(None), sid, m.pk).status_code in (401, 403)
    assert not Event.objects.filter(stream__series__pk=sid).exists()


def test_a_private_series_is_not_found_for_others(api, client_for, stranger):
    sid = create(api, is_public=False).json()["id"]
    for url in (f"/api/series/{sid}/", f"/api/series/{sid}/standings/", f"/api/series/{sid}/events/"):
        assert client_for(stranger).get(url).status_code == 404
        assert client_for(None).get(url).status_code == 404
        assert api.get(url).status_code == 200


# -- entries: the shared envelope ---------------------------------------------------------------------------


def test_versions_idempotency_conflicts_and_the_log(api, owner):
    sid = create(api).json()["id"]
    m1, m2 = sheet(owner, ["Ana", "Bo"], [3, 1]), sheet(owner, ["Ana", "Bo"], [1, 3])
    first = add(api, sid, m1.pk, idempotency_key="k-1")
    assert first.status_code == 201 and first.json()["version"] == 1
    assert first.json()["state"]["matches"] == [m1.pk]
    again = add(api, sid, m1.pk, idempotency_key="k-1")
    assert again.status_code == 201 and again.json()["version"] == 1 and again["Idempotent-Replayed"] == "true"
    stale = add(api, sid, m2.pk, expected_version=0)
    assert stale.status_code == 409 and stale.json()["current_version"] == 1
    assert stale.json()["detail"] == "The series has moved on to version 1 (you expected 0); reload and try again."
    assert add(api, sid, m2.pk, expected_version=1).json()["version"] == 2
    log = api.get(f"/api/series/{sid}/events/").json()["results"]
    assert [(e["version"], e["type"], e["data"]["match"]) for e in log] == [
        (1, "match_added", m1.pk),
        (2, "match_added", m2.pk),
    ]
    assert log[0]["data"]["game"] == "scoresheet"  # the server writes the match's game into the entry
    assert log[0]["text"] == f"Match {m1.pk} added to the series."


def test_a_correction_voids_an_addition_and_the_standings_follow(api, owner):
    sid = create(api).json()["id"]
    m1, m2 = sheet(owner, ["Ana", "Bo"], [3, 1]), sheet(owner, ["Ana", "Bo"], [1, 3])
    add(api, sid, m1.pk)
    add(api, sid, m2.pk)
    void = {"type": "event_voided", "data": {"version": 2, "reason": "wrong evening"}}
    assert api.post(f"/api/series/{sid}/events/", void, format="json").status_code == 201
    table = standings(api, sid)
    assert [m["id"] for m in table["matches"]] == [m1.pk]
    assert table["standings"][0] == {
        "player": "Ana", "played": 1, "wins": 1, "points": 3, "total_score": 3, "best_score": 3
    }  # fmt: skip
    removed = api.post(f"/api/series/{sid}/events/", {"type": "match_removed", "data": {"match": m1.pk}}, format="json")
    assert removed.status_code == 201
    assert standings(api, sid)["standings"] == []


# -- standings ---------------------------------------------------------------------------------------------------


def test_standings_over_finished_matches_with_every_rule(api, owner):
    sid = create(api, options={"place_points": [5, 3, 1]}).json()["id"]
    m1 = sheet(owner, ["Ana", "Bo", "Cy"], [10, 7, 7])  # Ana 1st (5); Bo, Cy tie for 2nd (3 each)
    m2 = sheet(owner, ["ana", "Bo", "Cy", "Di"], None, winners=[1, 3], scores={"0": 4, "1": 2, "2": 9, "3": 2})
    # m2: Bo and Di share the win (place 1, 5 each) whatever their scores; Cy 9 → place 3 (1); ana 4 → place 4 (0)
    m3 = sheet(owner, ["Ana", "Bo"], None, draw=True)  # a draw without scores: both share place 1 (5 each), no win
    unfinished = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for m in (m1, m2, m3, unfinished):
        assert add(api, sid, m.pk).status_code == 201
    table = standings(api, sid)
    assert table["standings"] == [
        {"player": "Bo", "played": 3, "wins": 1, "points": 13, "total_score": 9, "best_score": 7},
        {"player": "Ana", "played": 3, "wins": 1, "points": 10, "total_score": 14, "best_score": 10},
        {"player": "Di", "played": 1, "wins": 1, "points": 5, "total_score": 2, "best_score": 2},
        {"player": "Cy", "played": 2, "wins": 0, "points": 4, "total_score": 16, "best_score": 9},
    ]
    assert [(m["id"], m["finished"]) for m in table["matches"]] == [
        (m1.pk, True), (m2.pk, True), (m3.pk, True), (unfinished.pk, False)
    ]  # fmt: skip
    places = {r["player"]: (r["place"], r["points"]) for r in table["matches"][1]["results"]}
    assert places == {"Ana": (4, 0), "Bo": (1, 5), "Cy": (3, 1), "Di": (1, 5)}  # "ana" is Ana: same owner, same name
    # ?at=N: the series as it stood after its first entry
    early = standings(api, sid, at=1)
    assert early["version"] == 1 and early["latest_version"] == 4
    assert [r["player"] for r in early["standings"]] == ["Ana", "Bo", "Cy"]
    assert [r["points"] for r in early["standings"]] == [5, 3, 3]
    assert api.get(f"/api/series/{sid}/standings/?at=9").status_code == 404
    assert api.get(f"/api/series/{sid}/standings/?at=-1").status_code == 400


def test_the_same_name_under_another_owner_is_another_player(api, owner, make_user, client_for):
    sid = create(api).json()["id"]
    other = make_user("host2")
    mine = sheet(owner, ["Ana", "Bo"], [5, 1])
    theirs = sheet(other, ["Ana", "Bo"], [5, 1])
    add(api, sid, mine.pk)
    add(api, sid, theirs.pk)
    rows = standings(api, sid)["standings"]
    assert [r["player"] for r in rows] == ["Ana", "Ana", "Bo", "Bo"]
    assert all(r["played"] == 1 for r in rows)


def test_a_match_that_became_private_leaves_the_standings_of_those_who_cannot_see_it(api, owner, client_for):
    sid = create(api).json()["id"]
    m1, m2 = sheet(owner, ["Ana", "Bo"], [5, 1]), sheet(owner, ["Ana", "Cy"], [1, 5])
    add(api, sid, m1.pk)
    add(api, sid, m2.pk)
    type(m2).objects.filter(pk=m2.pk).update(is_public=False)
    spectator = standings(client_for(None), sid)
    assert spectator["hidden_matches"] == 1 and [m["id"] for m in spectator["matches"]] == [m1.pk]
    assert "Cy" not in {r["player"] for r in spectator["standings"]}
    assert standings(api, sid)["hidden_matches"] == 0

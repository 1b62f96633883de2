"""``result_recorded``: any match game can end with the result the table played, and a score sheet can
carry a game Chronicle has no rules for."""

from __future__ import annotations

import pytest

from campaigns.saltmarsh.services import campaign_create
from matches.models import Event as EventRow
from matches.models import Match, MatchSummary
from matches.projections.projectors import MATCH_SUMMARY, project
from matches.services import match_create

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def post(api, match, body):
    return api.post(f"/api/matches/{match.pk}/events/", body, format="json")


def result(**data):
    return {"type": "result_recorded", "data": data}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"winners": [2]}, "data.winners"),
        ({"winners": [0, 0]}, "data.winners"),
        ({"winners": [0], "draw": True}, "data.draw"),
        ({"winners": [0], "scores": {"5": 1}}, "data.scores"),
        ({"winners": [0], "scores": {"0": "ten"}}, "data.scores"),
        ({"winners": [0], "scores": [1, 2]}, "data.scores"),
        ({"winners": "Ana"}, "data.winners"),
        ({"winners": [0], "colour": "red"}, "data.colour"),
    ],
)
def test_a_malformed_result_is_400_and_writes_nothing(api, stone_match, data, field):
    r = post(api, stone_match, result(**data))
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert field in r.json()["errors"]
    assert EventRow.objects.count() == 0


@pytest.mark.django_db(transaction=True)  # the projector reads committed transactions only
def test_a_recorded_result_ends_the_match_everywhere(api, stone_match):
    assert post(api, stone_match, {"type": "stones_taken", "seat": 0, "data": {"count": 3}}).status_code == 201
    r = post(api, stone_match, result(winners=[1], scores={"0": 4, "1": 9}, note="we ran out of time"))
    assert r.status_code == 201
    assert r.json()["outcome"] == {
        "winners": [1],
        "draw": False,
        "reason": "we ran out of time",
        "scores": {"0": 4, "1": 9},
        "provisional": False,
    }
    stone_match.refresh_from_db()
    assert stone_match.status == Match.STATUS_FINISHED
    project(MATCH_SUMMARY)
    summary = MatchSummary.objects.get(match=stone_match)
    assert summary.status == "finished" and summary.winners == [1] and summary.scores == {"0": 4, "1": 9}
    state = api.get(f"/api/matches/{stone_match.pk}/state/").json()
    assert state["outcome"]["winners"] == [1]
    assert api.get(f"/api/matches/{stone_match.pk}/legal-moves/").json() == []
    log = api.get(f"/api/matches/{stone_match.pk}/events/").json()["results"]
    assert log[-1]["text"] == "Result recorded: Bo won (Ana 4, Bo 9); we ran out of time"
    refused = post(api, stone_match, {"type": "stones_taken", "seat": 1, "data": {"count": 1}})
    assert refused.status_code == 400 and refused.json()["code"] == "rule_violation"
    assert EventRow.objects.count() == 2


def test_voiding_the_result_reopens_the_match(api, stone_match):
    post(api, stone_match, result(draw=True))
    r = post(api, stone_match, {"type": "event_voided", "data": {"version": 1, "reason": "wrong match"}})
    assert r.status_code == 201 and r.json()["outcome"] is None
    stone_match.refresh_from_db()
    assert stone_match.status == Match.STATUS_IN_PROGRESS
    assert post(api, stone_match, {"type": "stones_taken", "seat": 0, "data": {"count": 1}}).status_code == 201


def test_a_score_sheet_match_from_points_to_the_winner(api):
    r = api.post(
        "/api/matches/",
        {"game": "scoresheet", "seats": [{"name": "Ana"}, {"name": "Bo"}], "options": {"title": "Azul"}},
        format="json",
    )
    assert r.status_code == 201
    match = Match.objects.get(pk=r.json()["id"])
    for seat, points in ((0, 30), (1, 41), (0, 8)):
        assert post(api, match, {"type": "points_scored", "seat": seat, "data": {"points": points}}).status_code == 201
    end = post(api, match, {"type": "game_ended", "data": {}})
    assert end.json()["outcome"]["winners"] == [1] and end.json()["outcome"]["scores"] == {"0": 38, "1": 41}


def test_a_score_sheet_keeps_the_games_name(api):
    r = api.post(
        "/api/matches/",
        {"game": "scoresheet", "seats": [{"name": "Ana"}], "options": {"title": "Cascadia", "bgg_id": 314343}},
        format="json",
    )
    assert r.status_code == 201
    state = api.get(f"/api/matches/{r.json()['id']}/state/").json()["state"]
    assert state["title"] == "Cascadia"


def test_campaign_streams_do_not_take_results(owner, client_for):
    campaign = campaign_create(owner=owner, name="Saltmarsh")
    r = client_for(owner).post(f"/api/campaigns/{campaign.pk}/events/", result(winners=[]), format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"


def test_twelve_players_on_one_sheet(owner):
    seats = [{"name": f"P{i}"} for i in range(12)]
    match = match_create(owner=owner, game="scoresheet", seats=seats, options={"title": "Wavelength"})
    assert match.stream.seat_count == 12

"""A complete Get Salty game recorded through the REST API, every move from legal-moves, to a win; then replayed."""

from __future__ import annotations

import pytest

from rulesets.get_salty import RULESET, hints
from rulesets.replay import replay

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_a_whole_game_to_a_win_over_the_api(api):
    r = api.post("/api/matches/", {"game": "get-salty", "seats": [{"name": "Ana"}, {"name": "Bo"}]}, format="json")
    mid = r.json()["id"]
    # before the attribute is chosen nothing else may happen, and the rule says why
    bad = api.post(
        f"/api/matches/{mid}/events/", {"type": "salt_container_flipped", "seat": 0, "data": {}}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["rule"].startswith("Get Salty")
    outcome = None
    for _ in range(120):
        state = api.get(f"/api/matches/{mid}/state/").json()
        if state["outcome"]:
            outcome = state["outcome"]
            break
        moves = api.get(f"/api/matches/{mid}/legal-moves/").json()
        seat = moves[0]["seat"]
        wins = hints(state["state"], seat)["winning_moves"]
        move = wins[0].to_dict() if wins else moves[(len(moves) * 3) // 7]
        posted = api.post(f"/api/matches/{mid}/events/", {**move, "expected_version": state["version"]}, format="json")
        assert posted.status_code == 201, posted.content
    assert outcome is not None and len(outcome["winners"]) == 1 and outcome["reason"]
    # no move after the game is over
    late = api.post(f"/api/matches/{mid}/events/", {**move, "seat": 1 - outcome["winners"][0]}, format="json")
    assert late.status_code == 400 and late.json()["violation"] == "game_over"
    # every position replays from the log
    log = api.get(f"/api/matches/{mid}/events/").json()["results"]
    from rulesets import Event

    events = [Event(e["type"], e["seat"], e["data"]) for e in log]
    for n in range(0, len(events) + 1, 5):
        assert api.get(f"/api/matches/{mid}/state/?at={n}").json()["state"] == replay(RULESET, {}, 2, events[:n]).state


def test_the_victory_attribute_is_refused_naming_the_rule(api):
    """Issue 22 item 10: "either shape or color" is a rulebook line, so the API names it (not a bare schema error)."""
    r = api.post("/api/matches/", {"game": "get-salty", "seats": [{"name": "Ana"}, {"name": "Bo"}]}, format="json")
    mid = r.json()["id"]
    body = {"type": "victory_attribute_chosen", "seat": 0, "data": {"attribute": "size"}}
    bad = api.post(f"/api/matches/{mid}/events/", body, format="json").json()
    assert bad["code"] == "invalid" and bad["rule"] == "Get Salty › Setup" and "data.attribute" in bad["errors"]
    assert bad["detail"] == "The victory attribute is “either shape or color”; got 'size'."

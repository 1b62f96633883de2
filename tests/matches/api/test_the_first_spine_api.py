"""The First Spine over the REST API: a whole game to a win (the rulebook's example on the way), refusals that
name the rule and write nothing, and what anonymous readers and the other seat see of a secret origin."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.models import Event as EventRow
from rulesets import Event
from rulesets.names import name_all
from rulesets.replay import replay
from rulesets.schema import check_payload
from rulesets.the_first_spine import RULESET

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

GAME = [
    ("destiny_chosen", 0, {"destiny": "conjurer"}),
    ("origin_chosen", 0, {"origin": "blacksmith"}),
    ("destiny_chosen", 1, {"destiny": "hunter"}),
    ("origin_chosen", 1, {"origin": "healer"}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("card_placed", 0, {"card": "Paladin", "at": [2, 2]}),
    ("turn_ended", 0, {}),
    ("hand_refilled", 1, {"discarded": 1}),
    ("card_placed", 1, {"card": "Barbed Wire", "at": [1, 2]}),
    ("turn_ended", 1, {}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("turn_ended", 0, {}),  # 11: the rulebook's example: the Barbed Wire is destroyed, the Paladin keeps 2
    ("hand_refilled", 1, {"discarded": 0}),
    ("card_placed", 1, {"card": "Squire", "at": [0, 1]}),
    ("card_placed", 1, {"card": "Squire", "at": [1, 1]}),
    ("turn_ended", 1, {}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("card_placed", 0, {"card": "Deadly Hammer", "at": [1, 2]}),  # a blacksmith card: Ana's origin is revealed
    ("confrontation_target_chosen", 0, {"from": [1, 2], "target": [0, 2]}),  # 18: the wizard, not the Squire
    ("turn_ended", 0, {}),  # 5 − 0 to Bo's wizard: 6 → 1
    ("hand_refilled", 1, {"discarded": 0}),
    ("turn_ended", 1, {}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("confrontation_target_chosen", 0, {"from": [1, 2], "target": [0, 2]}),
    ("turn_ended", 0, {}),
]


def post(api: Any, mid: int, type_: str, seat: int | None, data: dict[str, Any], **extra: Any) -> Any:
    return api.post(f"/api/matches/{mid}/events/", {"type": type_, "seat": seat, "data": data, **extra}, format="json")


@pytest.fixture
def mid(api: Any) -> int:
    body = {
        "game": "the-first-spine",
        "seats": [{"name": "Ana"}, {"name": "Bo"}],
        "options": {"board": [4, 5], "wizard_hp": 6},
        "is_public": True,  # read by anonymous spectators below (the API's default is private)
    }
    r = api.post("/api/matches/", body, format="json")
    assert r.status_code == 201, r.content
    return r.json()["id"]


def test_a_whole_game_to_a_win_over_the_api(api, mid):
    for i, (type_, seat, data) in enumerate(GAME):
        if i == 18:
            bad = post(api, mid, "turn_ended", 0, {})  # the Hammer touches the wizard and a Squire: choose first
            assert bad.status_code == 400 and bad.json()["violation"] == "choose_target"
            assert "Deadly Hammer on column 3, row 2 faces several opponent cards" in bad.json()["detail"]
        r = post(api, mid, type_, seat, data, expected_version=i)
        assert r.status_code == 201, (i, r.content)
        if i == 11:
            players = r.json()["state"]["players"]
            assert players[1]["discard"] == ["Barbed Wire"]
            paladin = next(c for c in r.json()["state"]["cards"] if c["name"] == "Paladin")
            assert paladin["hp"] == 2
    body = api.get(f"/api/matches/{mid}/state/").json()
    assert body["outcome"] == {
        "winners": [0],
        "draw": False,
        "reason": "the last wizard standing (6 life left)",
        "scores": None,
        "provisional": False,
    }
    assert body["turn"]["line"] == "Ana wins with the last wizard standing (6 life left)."  # the end names the winner
    log_lines = [e["text"] for e in body["state"]["log"] if e["kind"] == "confrontation"]
    assert "Paladin deals 3 to Barbed Wire (attack 3 − defense 0), takes 2 (attack 4 − defense 2)." in log_lines
    late = post(api, mid, "hand_refilled", 1, {"discarded": 0})
    assert late.status_code == 400 and late.json()["violation"] == "game_over"
    assert late.json()["detail"] == "The game is over: Ana wins with the last wizard standing (6 life left)."
    assert api.get(f"/api/matches/{mid}/").json()["status"] == "finished"
    # the owner holds no seat: the log and the state keep both origins secret (Ana's card revealed hers)
    log = [(e["type"], e["seat"], e["data"]) for e in api.get(f"/api/matches/{mid}/events/").json()["results"]]
    assert log == [(t, s, {"origin": None} if t == "origin_chosen" else d) for t, s, d in GAME]
    options = check_payload(RULESET.options_schema, {"board": [4, 5], "wizard_hp": 6})
    replayed = replay(RULESET, options, 2, [Event(*e) for e in GAME], check=True).state
    assert [p["origin"] for p in body["state"]["players"]] == ["blacksmith", None]
    assert name_all(RULESET.view(replayed, None), ["Ana", "Bo"]) == body["state"]  # the API names the players


@pytest.mark.parametrize(
    ("type_", "seat", "data", "code", "overridable"),
    [
        ("card_placed", 0, {"card": "Paladin", "at": [2, 2]}, "draw_first", True),
        ("hand_refilled", 1, {"discarded": 0}, "not_your_turn", True),
        ("hand_refilled", 0, {"discarded": 9}, "not_enough_cards", False),  # a house rule could not record it
        ("destiny_chosen", 0, {"destiny": "hunter"}, "setup_finished", False),  # the hands are drawn once
    ],
)
def test_refusals_name_the_rule_and_write_nothing(api, mid, type_, seat, data, code, overridable):
    for t, s, d in GAME[:4]:
        assert post(api, mid, t, s, d).status_code == 201
    before = EventRow.objects.count()
    r = post(api, mid, type_, seat, data)
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "rule_violation" and body["violation"] == code
    assert body["rule"].startswith("The First Spine ›") and body["detail"]
    assert body["overridable"] is overridable  # whether a house rule could record it (issue 32)
    assert EventRow.objects.count() == before


def test_bo_is_told_ana_must_finish_and_end_her_turn(api, mid):
    for t, s, d in GAME[:6]:  # Ana has discarded, drawn and played her Paladin
        assert post(api, mid, t, s, d).status_code == 201
    line = api.get(f"/api/matches/{mid}/state/").json()["turn"]["line"]
    assert line == "Ana to play — place cards and record spell effects, then end the turn."  # Ana named once
    r = post(api, mid, "hand_refilled", 1, {"discarded": 0})
    assert r.status_code == 400
    assert r.json()["detail"] == "Ana must finish their actions and end their turn before Bo's turn begins."


def test_a_seventh_origin_card_is_refused_over_the_api_naming_the_rule(api, mid):
    for t, s, d in GAME[:5]:
        assert post(api, mid, t, s, d).status_code == 201
    for at in ([2, 2], [2, 1], [2, 3], [1, 2], [1, 1], [1, 3]):  # Ana's six blacksmith cards
        assert post(api, mid, "card_placed", 0, {"card": "Deadly Hammer", "at": at}).status_code == 201
    assert post(api, mid, "turn_ended", 0, {}).status_code == 201
    assert post(api, mid, "hand_refilled", 1, {"discarded": 0}).status_code == 201
    assert post(api, mid, "turn_ended", 1, {}).status_code == 201
    assert post(api, mid, "hand_refilled", 0, {"discarded": 0}).status_code == 201
    before = EventRow.objects.count()
    r = post(api, mid, "card_placed", 0, {"card": "Anvil Guard", "at": [2, 0]})
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["violation"] == "origin_cards_spent"
    assert body["rule"] == "The First Spine › Installation › 2 Choose an origin"
    assert body["detail"].startswith("Ana has already played the 6 cards of their origin")
    assert EventRow.objects.count() == before


def test_malformed_payloads_are_400_invalid(api, mid):
    r = post(api, mid, "card_placed", 0, {"card": "Paladin", "at": "b2"})
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = post(api, mid, "hp_changed", 0, {"at": [0, 2], "amount": 1000})
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert EventRow.objects.count() == 0


def _secret_reads(client: Any, mid: int) -> dict[str, Any]:
    """Every read a non-recorder makes of a match: state (every version), the log, legal moves, pages."""
    reads: dict[str, Any] = {}
    head = client.get(f"/api/matches/{mid}/state/").json()
    for n in range(head["version"] + 1):
        reads[f"state@{n}"] = client.get(f"/api/matches/{mid}/state/?at={n}").json()["state"]["players"]
    reads["events"] = client.get(f"/api/matches/{mid}/events/").json()["results"]
    legal = client.get(f"/api/matches/{mid}/legal-moves/")
    reads["legal"] = legal.json() if legal.status_code == 200 else legal.status_code
    match = client.get(f"/api/matches/{mid}/").json()
    match.pop("options")  # the card list: public card data that names every origin
    reads["match"] = match
    for path in ("", "history/"):
        reads[f"page:{path}"] = client.get(f"/matches/{mid}/{path}").content.decode()
    return reads


def _origin_leaks(reads: dict[str, Any], secret: str) -> list[str]:
    """Where ``secret`` (Bo's origin) shows: players' origin fields, origin_chosen entries, the pages' player
    panels. (Card data legitimately names every origin: the catalog is public.)"""
    leaks = []
    for key, value in reads.items():
        if key.startswith("state@"):
            if any(p.get("origin") == secret for p in value if p["seat"] == 1):
                leaks.append(key)
        elif key == "events":
            if any(
                e["type"] == "origin_chosen" and e["seat"] == 1 and e["data"].get("origin") == secret for e in value
            ):
                leaks.append(key)
        elif key.startswith("page:"):
            if f"origin: {secret.capitalize()}" in value or f"chose the {secret}" in value.lower():
                leaks.append(key)
        elif secret in json.dumps(value):
            leaks.append(key)
    return leaks


@pytest.fixture
def secret_match(api: Any, mid: int, make_user: Any) -> tuple[int, Any]:
    """Twelve entries in: Bo's origin (healer) is secret, Ana's (blacksmith) too; Ana's account holds seat 0."""
    from matches.models import Match

    for i, (t, s, d) in enumerate(GAME[:12]):
        assert post(api, mid, t, s, d).status_code == 201, i
    ana = make_user("ana-user")
    seat = Match.objects.get(pk=mid).seats.get(index=0)
    seat.player.user = ana
    seat.player.save()
    return mid, ana


def test_a_secret_origin_stays_out_of_state_legal_moves_and_pages(api, secret_match, client, client_for, make_user):
    """Bo's origin reaches neither a spectator, nor Ana's seat, nor the owner recording for the table (who holds
    no seat); Bo himself sees it, so the scan can find it."""
    mid, ana = secret_match
    for reader in (client, client_for(ana), api):
        reads = _secret_reads(reader, mid)
        reads.pop("events")
        assert _origin_leaks(reads, "healer") == []
    bo = make_user("bo-user")
    from matches.models import Match

    seat = Match.objects.get(pk=mid).seats.get(index=1)
    seat.player.user = bo
    seat.player.save()
    assert "state@12" in _origin_leaks(_secret_reads(client_for(bo), mid), "healer")


def test_a_secret_origin_stays_out_of_the_event_log(api, secret_match, client, client_for):
    mid, ana = secret_match
    for reader in (client, client_for(ana), api):
        assert _origin_leaks({"events": _secret_reads(reader, mid)["events"]}, "healer") == []

"""Players by name over the API: refusals, turn prompts, history sentences, combat logs and results."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from matches.models import Player
from matches.projections.projectors import project

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

SEAT_NUMBER = re.compile(r"\bseat [0-9]", re.IGNORECASE)


# Salt & Bones from the first Field card to Ana (seat 0, Momentum) hitting Bo with a Slash for 3
SLASH_HIT: list[tuple[str, int | None, dict[str, Any]]] = [
    ("field_card_flipped", None, {"tiles": [[0, 2], [5, 3]]}),
    ("cards_drawn", 0, {"attack": 4, "strategy": 3}),
    ("cards_drawn", 1, {"attack": 4, "strategy": 3}),
    ("preparation_finished", 0, {}),
    ("preparation_finished", 1, {}),
    ("attack_card_played", 0, {"card": "Slash", "attack_tile": [2, 2], "opportunity_tile": [2, 3]}),
]


def no_seat_numbers(text: str) -> None:
    assert not SEAT_NUMBER.search(text), text


def new_match(api: Any, game: str, **options: Any) -> int:
    r = api.post(
        "/api/matches/", {"game": game, "seats": [{"name": "Ana"}, {"name": "Bo"}], "options": options}, format="json"
    )
    assert r.status_code == 201, r.content
    return r.json()["id"]


def post(api: Any, mid: int, type_: str, seat: int | None, **data: Any) -> Any:
    return api.post(f"/api/matches/{mid}/events/", {"type": type_, "seat": seat, "data": data}, format="json")


@pytest.mark.parametrize(
    ("game", "first_move", "prompt"),
    [
        ("last-stone", ("stones_taken", 0, {"count": 1}), "Bo to play — take 1 to 3 of the 9 stones left"),
        (
            "get-salty",
            ("victory_attribute_chosen", 0, {"attribute": "shape"}),
            "Ana to play — move or flip an unsalted cracker",
        ),
    ],
)
def test_turn_prompt_and_refusal_name_the_player(api, game, first_move, prompt):
    mid = new_match(api, game)
    state = api.get(f"/api/matches/{mid}/state/").json()
    assert state["turn"]["line"].startswith("Ana to play — ")
    refused = post(api, mid, first_move[0], 1, **first_move[2])  # Bo moves out of turn
    assert refused.status_code == 400
    assert refused.json()["detail"] == "It is Ana's turn."
    assert post(api, mid, first_move[0], 0, **first_move[2]).status_code == 201
    state = api.get(f"/api/matches/{mid}/state/").json()
    assert state["turn"]["line"].startswith(prompt), state["turn"]
    no_seat_numbers(state["turn"]["line"])
    log = api.get(f"/api/matches/{mid}/events/").json()["results"]
    assert log[0]["text"].startswith("Ana ")


def salt_and_bones_to_a_hit(api: Any, **options: Any) -> int:
    """Field card, both draw 4 attack cards, both prepare, Ana hits Bo with a Slash."""
    mid = new_match(api, "salt-and-bones", **options)
    for type_, seat, data in SLASH_HIT:
        r = post(api, mid, type_, seat, **data)
        assert r.status_code == 201, (type_, r.content)
    return mid


def test_salt_and_bones_combat_log_prompt_and_refusals_name_the_players(api):
    mid = salt_and_bones_to_a_hit(api)
    body = api.get(f"/api/matches/{mid}/state/").json()
    assert "Bo takes 3 damage: Health 20 → 17." in body["state"]["log"]
    assert "Ana played Slash (attack on column 3, row 3; opportunity on column 4, row 3)." in body["state"]["log"]
    assert body["turn"]["line"].startswith(
        "Ana or Bo to play — the player with Momentum may chain another Attack card, or the other player starts a turn"
    )
    no_seat_numbers(json.dumps(body))
    # a refusal naming the player whose turn it is
    refused = post(api, mid, "disengaged", 0)
    assert refused.status_code == 400
    no_seat_numbers(refused.json()["detail"])
    log = api.get(f"/api/matches/{mid}/events/").json()["results"]
    assert [line["text"] for line in log][
        -1
    ] == "Ana played Slash (attack on column 3, row 3; opportunity on column 4, row 3)."


def test_a_renamed_player_is_renamed_in_old_log_lines(api):
    """Stored states keep seat tokens, so the names are always the seats' current names."""
    mid = salt_and_bones_to_a_hit(api)
    Player.objects.filter(name="Bo").update(name="Bea")
    log = api.get(f"/api/matches/{mid}/state/").json()["state"]["log"]
    assert "Bea takes 3 damage: Health 20 → 17." in log


def test_the_append_answer_and_the_result_name_the_players(api):
    mid = salt_and_bones_to_a_hit(api, starting_health=2)
    r = post(api, mid, "disengaged", 1)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["outcome"]["reason"] == "Bo is at 0 Health at the end of combat."
    assert "Ana wins. Bo is at 0 Health at the end of combat." in body["state"]["log"]
    state = api.get(f"/api/matches/{mid}/state/").json()
    assert state["turn"]["line"] == state["turn"]["prompt"]
    assert state["turn"]["line"] == "Ana wins with 2 Health left (Bo is at 0 Health at the end of combat)."


@pytest.mark.django_db(transaction=True)
def test_the_projected_summary_names_the_loser(api):
    mid = salt_and_bones_to_a_hit(api, starting_health=2)
    assert post(api, mid, "disengaged", 1).status_code == 201
    project()
    summary = api.get(f"/api/matches/{mid}/").json()["summary"]
    assert summary["reason"] == "Bo is at 0 Health at the end of combat."

"""Salt & Bones hidden information: face-down INSTINCT names in the log and in the legal moves."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.last_stone import RULESET as LAST_STONE

pytestmark = pytest.mark.pure


def test_a_face_down_placement_keeps_its_name_only_for_its_own_seat(table, rs) -> None:
    state = table().state
    placed = Event("strategy_card_placed", 0, {"slot": "instinct", "card": "Anticipation"})
    assert rs.redact_event(placed, state, 0) == placed
    hidden = Event("strategy_card_placed", 0, {"slot": "instinct", "card": None})
    assert rs.redact_event(placed, state, 1) == hidden
    assert rs.redact_event(placed, state, None) == hidden
    assert placed.data["card"] == "Anticipation"  # redaction copies, never edits


def test_face_up_placements_and_played_instincts_stay_public(table, rs) -> None:
    state = table().state
    for event in (
        Event("strategy_card_placed", 0, {"slot": "equipment", "card": "Bracer"}),
        Event("strategy_card_placed", 0, {"slot": "gambit", "card": "Test of Will"}),
        Event("strategy_card_played", 0, {"card": "Anticipation", "target": {"instance": 0}}),  # played = revealed
    ):
        assert rs.redact_event(event, state, None) == event


def test_preparation_moves_of_another_seat_do_not_name_face_down_cards(table, rs) -> None:
    t = table().field([0, 1]).draw({0: (5, 2), 1: (5, 2)})
    preparing = t.momentum  # the Momentum seat prepares first
    own = rs.visible_moves(t.state, preparing)
    other = rs.visible_moves(t.state, 1 - preparing)
    named = {m.data["card"] for m in own if m.type == "strategy_card_placed" and m.data["slot"] == "instinct"}
    assert "Anticipation" in named and None in named
    face_down = [m for m in other if m.type == "strategy_card_placed" and m.data["slot"] == "instinct"]
    assert face_down == [Event("strategy_card_placed", preparing, {"slot": "instinct", "card": None})]
    assert any(m.data.get("card") == "Bracer" for m in other if m.type == "strategy_card_placed")  # face-up named


def test_a_game_without_hidden_information_shows_every_reader_everything() -> None:
    state = LAST_STONE.initial_state({"stones": 5}, 2)
    assert not LAST_STONE.hides_information
    assert LAST_STONE.visible_moves(state, None) == LAST_STONE.legal_moves(state)
    event = Event("stones_taken", 0, {"count": 2})
    assert LAST_STONE.redact_event(event, state, 1) is event


def test_the_entries_that_touch_face_down_cards_declare_it(rs) -> None:
    secret = {name: spec.secret for name, spec in rs.event_types.items() if spec.secret}
    assert secret == {"strategy_card_placed": "face-down cards", "strategy_card_played": "face-down cards"}
    assert rs.secret_noun == "face-down cards"

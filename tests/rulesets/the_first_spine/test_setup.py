"""Installation: options and their defaults, where wizards stand, destinies and secret origins, first hands."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.registry import get_ruleset
from rulesets.schema import check_payload

pytestmark = pytest.mark.pure


def test_registered_with_the_wire_vocabulary(rs):
    assert get_ruleset("the-first-spine") is rs
    assert rs.seats == (2, 3, 4)
    assert set(rs.event_types) == {
        "destiny_chosen",
        "origin_chosen",
        "card_moved",
        "hand_refilled",
        "card_placed",
        "hp_changed",
        "confrontation_target_chosen",
        "turn_ended",
    }


def test_option_defaults(rs):
    opts = check_payload(rs.options_schema, {})
    assert opts["board"] == [7, 7]
    assert opts["wizard_hp"] == 20
    assert opts["hand_size"] == 6  # "draw 6 cards to form their starting hand"
    assert opts["deck_size"] == 30
    assert opts["first_seat"] == 0
    names = {c["name"] for c in opts["cards"]}
    assert {"Paladin", "Barbed Wire"} <= names
    assert rs.check_options(opts) == []


@pytest.mark.parametrize(
    ("seats", "cells", "facing"),
    [
        (2, [[6, 3], [0, 3]], ["N", "S"]),
        (3, [[6, 3], [3, 0], [0, 3]], ["N", "E", "S"]),
        (4, [[6, 3], [3, 0], [0, 3], [3, 6]], ["N", "E", "S", "W"]),
    ],
)
def test_wizards_stand_at_the_centre_of_each_end_clockwise(table, seats, cells, facing):
    t = table(seats)
    wizards = sorted((c for c in t.state["cards"] if c["kind"] == "wizard"), key=lambda c: c["owner"])
    assert [w["at"] for w in wizards] == cells
    assert [w["facing"] for w in wizards] == facing
    assert [p["wizard_hp"] for p in t.state["players"]] == [20] * seats


def test_rectangular_board_wizard_cells(table):
    t = table(4, board=[5, 9])
    assert [c["at"] for c in t.state["cards"]] == [[4, 4], [2, 0], [0, 4], [2, 8]]


def test_setup_in_any_order_then_hands_are_drawn(table):
    t = table(2, deck_size=10)
    assert t.state["turn"]["phase"] == "setup"
    t.do("origin_chosen", 1, origin="priest")
    t.do("destiny_chosen", 0, destiny="hunter")
    assert t.player(0)["hand"] == 0
    t.do("origin_chosen", 0, origin="healer")
    assert t.state["turn"]["phase"] == "setup"
    t.do("destiny_chosen", 1, destiny="sorcerer")
    assert t.state["turn"] == {"seat": 0, "number": 1, "phase": "start", "moved": False, "targets": []}
    assert [(p["hand"], p["deck"]) for p in t.state["players"]] == [(6, 4), (6, 4)]
    assert t.player(0)["destiny"] == "hunter" and t.player(1)["destiny"] == "sorcerer"
    t.replayed()


def test_setup_refusals(table):
    t = table(2)
    t.bad("setup_not_finished", "hand_refilled", 0, discarded=0)
    t.bad("setup_not_finished", "card_placed", 0, card="Paladin", at=[5, 3])
    t.do("destiny_chosen", 0, destiny="hunter")
    t.bad("destiny_already_chosen", "destiny_chosen", 0, destiny="conjurer")
    t.do("origin_chosen", 0, origin="healer")
    t.bad("origin_already_chosen", "origin_chosen", 0, origin="priest")
    t.bad("invalid_payload", "origin_chosen", 1, origin="pirate")
    t.bad("invalid_payload", "destiny_chosen", 1)
    t.bad("unknown_seat", "destiny_chosen", 2, destiny="hunter")
    t.do("destiny_chosen", 1, destiny="hunter").do("origin_chosen", 1, origin="healer")
    t.bad("setup_finished", "destiny_chosen", 0, destiny="conjurer")
    t.bad("setup_finished", "origin_chosen", 1, origin="priest")


def test_first_seat_option_and_an_impossible_one(table, rs):
    t = table(3, first_seat=2).setup()
    assert t.state["turn"]["seat"] == 2
    t = table(2, first_seat=3)
    assert t.state["settings"]["first_seat"] == 0
    assert rs.warnings(t.state) == ["Seat 3 does not exist in this match, so Seat 0 starts."]


def test_short_deck_draws_what_it_has(table):
    t = table(2, deck_size=6, hand_size=6).setup()
    assert [(p["hand"], p["deck"]) for p in t.state["players"]] == [(6, 0), (6, 0)]


def test_option_checks(rs, card_def):
    opts = check_payload(rs.options_schema, {"cards": [card_def("Imp"), card_def("imp"), card_def("Wizard")]})
    problems = rs.check_options(opts)
    assert "The card name 'imp' is used twice." in problems
    assert any(p.startswith("Wizard:") for p in problems)
    opts = check_payload(rs.options_schema, {"hand_size": 8, "deck_size": 6})
    assert rs.check_options(opts) == ["The deck (6 cards) cannot hold a starting hand of 8 cards."]
    opts = check_payload(rs.options_schema, {"cards": [card_def("Zap", "spell", capacities=["death"])]})
    assert rs.check_options(opts) == ["Zap: a spell never stays on the board, so it cannot have capacities."]
    with pytest.raises(Exception, match="board"):
        check_payload(rs.options_schema, {"board": [2, 7]})


def test_legal_moves_during_setup(rs, table):
    t = table(2)
    t.do("destiny_chosen", 0, destiny="hunter")
    moves = rs.legal_moves(t.state)
    assert {(m.type, m.seat) for m in moves} == {("origin_chosen", 0), ("destiny_chosen", 1), ("origin_chosen", 1)}
    assert len(moves) == 12
    for m in moves:
        rs.validate(t.state, m)
    assert rs.turn(t.state).seats == (0, 1)


def test_unknown_entries_and_shapeless_data_are_refused(rs, table):
    t = table(2)
    t.bad("unknown_event", "card_drawn", 0)
    t.bad("unknown_seat", "destiny_chosen", -1, destiny="hunter")
    t.bad("unknown_seat", "destiny_chosen", True, destiny="hunter")
    with pytest.raises(RuleViolation) as info:
        rs.validate(t.state, Event("destiny_chosen", None, {"destiny": "hunter"}))
    assert info.value.code == "unknown_seat"
    with pytest.raises(RuleViolation) as info:
        rs.validate(t.state, Event("destiny_chosen", 0, ["hunter"]))  # type: ignore[arg-type]
    assert info.value.code == "invalid_payload"
    t.bad("invalid_payload", "destiny_chosen", 0, destiny="hunter", extra=1)

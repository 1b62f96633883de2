"""Setup: the initial layout, options, and the choice of victory attribute before any move."""

from __future__ import annotations

import json

import pytest

from rulesets.get_salty.board import CRACKERS
from rulesets.schema import SchemaError, check_payload

pytestmark = pytest.mark.pure


def test_initial_layout(gs):
    state = gs.R.initial_state({}, 2)
    assert state["tokens"]["container"] == {"cell": [0, 0], "salty": True}
    assert sorted(n for n in state["tokens"] if n != "container") == sorted(CRACKERS)
    assert len(CRACKERS) == 9
    for name in CRACKERS:
        assert state["tokens"][name] == {"cell": None, "salty": False}
    assert state["reserve"] == list(CRACKERS)
    assert state["attributes"] is None
    assert state["turn"] == 0
    assert json.loads(json.dumps(state)) == state
    assert gs.R.outcome(state) is None


def test_first_seat_option_decides_who_chooses(gs):
    state = gs.R.initial_state({"first_seat": 1}, 2)
    assert state["turn"] == 1
    gs.reject(state, gs.ev("victory_attribute_chosen", 0, attribute="shape"), "not_your_turn")
    state = gs.play(state, gs.ev("victory_attribute_chosen", 1, attribute="color"))
    assert state["attributes"] == {"1": "color", "0": "shape"}


def test_starter_chooses_then_takes_the_first_turn(gs):
    state = gs.started(first=0, attribute="shape")
    assert state["attributes"] == {"0": "shape", "1": "color"}
    assert state["turn"] == 0
    assert state["turns_played"] == 0
    gs.reject(state, gs.ev("salt_container_flipped", 1), "not_your_turn")
    gs.accept(state, gs.ev("salt_container_flipped", 0))


def test_choosing_color_gives_the_opponent_shape(gs):
    state = gs.started(first=1, attribute="color")
    assert state["attributes"] == {"1": "color", "0": "shape"}
    assert state["turn"] == 1


@pytest.mark.parametrize(
    ("type_", "data"),
    [
        ("salt_container_flipped", {}),
        ("cracker_moved", {"cracker": "circle-red", "to": [1, 0]}),
        ("salt_container_moved", {"to": [1, 0]}),
        ("cracker_flipped", {"cracker": "circle-red"}),
    ],
)
def test_no_move_before_the_attribute_is_chosen(gs, type_, data):
    state = gs.R.initial_state({}, 2)
    gs.reject(state, gs.ev(type_, 0, **data), "attribute_not_chosen")
    # the phase is checked before the turn
    gs.reject(state, gs.ev(type_, 1, **data), "attribute_not_chosen")


def test_attribute_cannot_be_chosen_twice(gs):
    state = gs.started()
    gs.reject(state, gs.ev("victory_attribute_chosen", 0, attribute="color"), "attribute_already_chosen")
    gs.reject(state, gs.ev("victory_attribute_chosen", 1, attribute="color"), "attribute_already_chosen")


def test_unknown_attribute_is_a_rule_violation(gs):
    state = gs.R.initial_state({}, 2)
    gs.reject(state, gs.ev("victory_attribute_chosen", 0, attribute="size"), "unknown_attribute")
    gs.reject(state, gs.ev("victory_attribute_chosen", 0, attribute=["shape"]), "unknown_attribute")


def test_choice_phase_legal_moves(gs):
    state = gs.R.initial_state({"first_seat": 1}, 2)
    moves = gs.R.legal_moves(state)
    assert [(m.type, m.seat, m.data) for m in moves] == [
        ("victory_attribute_chosen", 1, {"attribute": "shape"}),
        ("victory_attribute_chosen", 1, {"attribute": "color"}),
    ]
    assert gs.R.turn(state).phase == "choose_attribute"


def test_options_schema_fills_defaults_and_labels(gs):
    options = check_payload(gs.R.options_schema, {"color_names": {"red": "Crimson"}})
    assert options["first_seat"] == 0
    assert options["shape_names"] is None
    state = gs.R.initial_state(options, 2)
    assert state["labels"]["color"] == {"red": "Crimson", "yellow": "yellow", "blue": "blue"}
    assert state["labels"]["shape"]["circle"] == "circle"
    with pytest.raises(SchemaError):
        check_payload(gs.R.options_schema, {"shape_names": {"hexagon": "Hex"}})


def test_check_options_rejects_ambiguous_labels(gs):
    assert gs.R.check_options({"shape_names": {"circle": "Round"}}) == []
    problems = gs.R.check_options({"shape_names": {"circle": "Square"}})
    assert problems and "shape" in problems[0]
    assert gs.R.check_options({"color_names": {"red": "blue"}})


def test_labels_do_not_change_the_rules(gs):
    plain = gs.started()
    renamed = gs.started(shape_names={"circle": "Ring"}, color_names={"red": "Rouge"})
    assert [gs.key(m) for m in gs.R.legal_moves(plain)] == [gs.key(m) for m in gs.R.legal_moves(renamed)]
    violation = gs.reject(renamed, gs.ev("cracker_flipped", 0, cracker="circle-red"), "cracker_in_reserve")
    assert "Rouge Ring" in violation.message

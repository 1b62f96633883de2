"""Turn order, the order of checks, unknown events/seats/payloads, and the reducer's purity."""

from __future__ import annotations

import copy

import pytest

from rulesets.base import Event

pytestmark = pytest.mark.pure


def test_turns_alternate(gs):
    state = gs.started()
    state = gs.play(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    assert state["turn"] == 1
    assert state["turns_played"] == 1
    state = gs.play(state, gs.ev("salt_container_flipped", 1))
    assert state["turn"] == 0
    assert state["turns_played"] == 2


def test_playing_out_of_turn_is_rejected(gs):
    state = gs.started()
    gs.reject(state, gs.ev("cracker_moved", 1, cracker="circle-red", to=[1, 0]), "not_your_turn")
    state = gs.play(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[-1, 0]), "not_your_turn")


def test_turn_is_checked_before_the_move_itself(gs):
    state = gs.started()
    # an illegal move by the wrong seat reports the turn first
    gs.reject(state, gs.ev("cracker_moved", 1, cracker="circle-red", to=[5, 5]), "not_your_turn")


def test_unknown_event_type(gs):
    state = gs.started()
    v = gs.reject(state, Event("cracker_eaten", 0, {}), "unknown_event")
    assert (v.rule, v.message) == ("Chronicle › Entries", "Get Salty has no 'cracker_eaten' entry.")


@pytest.mark.parametrize("seat", [None, 2, -1, True, "0"])
def test_unknown_seat(gs, seat):
    """Issue 22 item 10: Chronicle's own checks cite "Chronicle › Entries", in plain words (never "seat None")."""
    state = gs.started()
    v = gs.reject(state, Event("salt_container_flipped", seat, {}), "unknown_seat")
    assert v.rule == "Chronicle › Entries" and "None" not in v.message


@pytest.mark.parametrize(
    ("type_", "data"),
    [
        ("salt_container_flipped", {"to": [1, 0]}),
        ("salt_container_moved", {}),
        ("cracker_moved", {"cracker": "circle-red"}),
        ("cracker_flipped", {"cracker": "circle-red", "to": [1, 0]}),
        ("victory_attribute_chosen", {}),
    ],
)
def test_malformed_payload_is_a_rule_violation(gs, type_, data):
    state = gs.started()
    assert gs.reject(state, Event(type_, 0, data), "invalid_payload").rule == "Chronicle › Entries"


def test_apply_does_not_mutate_its_input(gs):
    state = gs.started()
    before = copy.deepcopy(state)
    after = gs.R.apply(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    assert state == before
    after2 = gs.R.apply(after, gs.ev("salt_container_moved", 1, to=[2, 0]))
    assert after["tokens"]["container"] == {"cell": [0, 0], "salty": True}
    assert after2["tokens"]["container"] == {"cell": [2, 0], "salty": False}


def test_turn_info(gs):
    state = gs.started()
    info = gs.R.turn(state)
    assert info.seats == (0,) and info.phase == "play"
    assert "unsalted" in info.prompt
    state = gs.play(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    state = gs.play(state, gs.ev("salt_container_flipped", 1))
    info = gs.R.turn(state)
    assert info.seats == (0,) and "a salty cracker" in info.prompt and "cannot be flipped" in info.prompt

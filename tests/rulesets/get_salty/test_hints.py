"""Hints: the winning moves of the seat on turn and the opponent's threats."""

from __future__ import annotations

import pytest

from rulesets.get_salty import hints

pytestmark = pytest.mark.pure

THREATS = {"circle-red": (1, 0), "circle-yellow": (2, 0), "square-red": (1, 1)}  # container on column 0, row 0


def _winning_by_apply(gs, state, seat):
    return [gs.key(m) for m in gs.R.legal_moves(state) if gs.R.apply(state, m)["winner"] == seat]


def test_winning_moves_for_the_seat_on_turn(gs):
    state = gs.position(THREATS, container=(0, 0), turn=0)
    wins = hints(state, 0)["winning_moves"]
    assert gs.key(gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 0])) in {gs.key(m) for m in wins}
    assert [gs.key(m) for m in wins] == _winning_by_apply(gs, state, 0)
    assert hints(state, 1)["winning_moves"] == []  # seat 1 is not on turn


def test_opponent_threats_assume_the_seat_on_turn_passes(gs):
    state = gs.position(THREATS, container=(0, 0), turn=0)
    threats = {gs.key(m) for m in hints(state, 0)["opponent_threats"]}
    for cell in ([1, 2], [1, -1]):  # a third red in column 1
        assert gs.key(gs.ev("cracker_moved", 1, cracker="triangle-red", to=cell)) in threats
    passed = {**state, "turn": 1}
    assert threats == set(_winning_by_apply(gs, passed, 1))


def test_threats_against_the_seat_not_on_turn_are_the_real_winning_moves(gs):
    state = gs.position(THREATS, container=(0, 0), turn=0)
    assert [gs.key(m) for m in hints(state, 1)["opponent_threats"]] == _winning_by_apply(gs, state, 0)


def test_threats_ignore_the_container_lock_of_the_current_turn(gs):
    state = gs.position(THREATS, container=(0, 0), turn=0, locked=True)
    own = {m.type for m in gs.R.legal_moves(state)}
    assert "salt_container_flipped" not in own
    unlocked = gs.position(THREATS, container=(0, 0), turn=1)
    expected = _winning_by_apply(gs, unlocked, 1)
    assert [gs.key(m) for m in hints(state, 0)["opponent_threats"]] == expected


def test_no_hints_before_the_choice_or_after_the_end(gs):
    empty = {"winning_moves": [], "opponent_threats": []}
    assert hints(gs.R.initial_state({}, 2), 0) == empty
    over = gs.play(gs.position(THREATS, container=(0, 0)), gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 0]))
    assert over["winner"] == 0
    assert hints(over, 0) == empty and hints(over, 1) == empty


def test_a_cell_is_told_by_its_neighbour_as_drawn_on_the_board(gs):
    """Rows grow downwards on the board: [0, -1] is above the container on column 0, row 0."""
    state = gs.position({"circle-red": (1, 0)}, container=(0, 0))
    assert gs.R.neighbour_words(state, (0, -1)) == "above the Salt Container"
    assert gs.R.neighbour_words(state, (0, 1)) == "below the Salt Container"
    assert gs.R.neighbour_words(state, (2, 0)) == "right of the red circle"
    assert gs.R.neighbour_words(state, (-1, 0)) == "left of the Salt Container"
    assert gs.R.neighbour_words(state, (3, 3)) == ""
    # the moving token's own cell is not a neighbour of where it goes
    assert gs.R.neighbour_words(state, (1, 1), "circle-red") == ""
    labelled = gs.position({"circle-red": (1, 0)}, options={"color_names": {"red": "Crimson"}})
    assert gs.R.neighbour_words(labelled, (1, -1)) == "above the Crimson circle"


def test_moves_are_told_in_the_present_tense(gs):
    state = gs.position({"circle-red": (1, 0)}, container=(0, 0), salty={"circle-red"}, container_salty=False)
    words = gs.R.move_words
    assert words(state, gs.ev("salt_container_flipped", 0)) == "flip the Salt Container"
    assert words(state, gs.ev("cracker_flipped", 0, cracker="circle-red")) == "flip the red circle"
    assert words(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[0, -1])) == (
        "move the red circle from column 1, row 0 to column 0, row -1, above the Salt Container, and flip it"
    )
    assert words(state, gs.ev("cracker_moved", 0, cracker="square-blue", to=[2, 0]), gerund=True) == (
        "placing the blue square from the reserve on column 2, row 0, right of the red circle, and flipping it"
    )
    assert words(state, gs.ev("salt_container_moved", 0, to=[1, 1]), gerund=True) == (
        "moving the Salt Container from column 0, row 0 to column 1, row 1, below the red circle, and flipping it"
    )

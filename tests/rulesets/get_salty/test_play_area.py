"""The contiguous play area: at most 4 tokens in either direction, one connected group after each turn."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation

pytestmark = pytest.mark.pure

ROW = {
    "square-yellow": (1, 0),
    "triangle-blue": (2, 0),
    "circle-yellow": (3, 0),
}  # with the container on column 0, row 0


def test_play_area_at_most_four_wide(gs):
    state = gs.position(ROW, container=(0, 0))
    refusal = gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[4, 0]), "play_area_too_large")
    assert "more than 4 tokens wide." in refusal.message
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[-1, 0]), "play_area_too_large")
    gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 1]))


def test_play_area_at_most_four_tall(gs):
    column = {name: (0, x) for name, (x, _) in ROW.items()}
    state = gs.position(column, container=(0, 0))
    refusal = gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[0, 4]), "play_area_too_large")
    assert "more than 4 tokens tall." in refusal.message and "wide" not in refusal.message  # y runs down the board
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[0, -1]), "play_area_too_large")
    gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[-1, 3]))


def test_size_is_measured_after_the_token_is_lifted(gs):
    state = gs.position(ROW, container=(0, 0))
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-yellow", to=[-1, 0]))
    assert after["tokens"]["circle-yellow"]["cell"] == [-1, 0]


def test_a_full_four_by_four_area_is_allowed(gs):
    placed = {
        "circle-red": (0, 1),
        "square-yellow": (0, 2),
        "triangle-blue": (0, 3),
        "circle-yellow": (1, 3),
        "square-blue": (2, 3),
        "triangle-red": (3, 3),
    }
    state = gs.position(placed, container=(0, 0))
    gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 2]))
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 4]), "play_area_too_large")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[4, 3]), "play_area_too_large")


def test_all_tokens_connected_at_the_end_of_the_turn(gs):
    state = gs.position({"circle-red": (1, 0), "square-yellow": (2, 0)}, container=(0, 0))
    # lifting circle-red cuts square-yellow off; nowhere it can go joins both sides again
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[-1, 0]), "not_contiguous")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[3, 0]), "not_contiguous")
    assert not [m for m in gs.R.legal_moves(state) if m.data.get("cracker") == "circle-red" and "to" in m.data]


def test_group_may_split_during_the_move(gs):
    placed = {"circle-red": (1, 0), "square-yellow": (2, 0), "circle-yellow": (0, 1), "triangle-blue": (2, 1)}
    state = gs.position(placed, container=(0, 0))
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 1]))
    assert after["winner"] is None and after["tokens"]["circle-red"]["cell"] == [1, 1]


@pytest.mark.parametrize("to", [[1001, 0], [0, -1001], ["a", 1], [1], [True, 0], None])
def test_cells_must_be_two_whole_numbers_on_the_table(gs, to):
    state = gs.started()
    gs.reject(state, Event("cracker_moved", 0, {"cracker": "circle-red", "to": to}), "invalid_cell")


def test_an_overridden_move_onto_an_occupied_cell_is_unplayable(gs):
    """Issue 22 item 10: an override never bends the position; two tokens cannot share a cell."""
    from rulesets.replay import Position, step

    state = gs.play(gs.started(), gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    with pytest.raises(RuleViolation) as info:
        step(gs.R, Position(state, 3, True), gs.ev("cracker_moved", 1, cracker="circle-blue", to=[1, 0]))
    assert info.value.code == "unplayable" and "already holds a token" in info.value.message


def test_an_unplayable_move_names_the_cell_in_players_words(gs):
    """Issue 46 item 6: the cell as the rest of the game names it ("column 1, row 0"), not a raw "[1, 0]"."""
    from rulesets.replay import Position, step

    state = gs.play(gs.started(), gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    with pytest.raises(RuleViolation) as info:
        step(gs.R, Position(state, 3, True), gs.ev("cracker_moved", 1, cracker="circle-blue", to=[1, 0]))
    assert "the cell at column 1, row 0 already holds a token" in info.value.message
    assert "[1, 0]" not in info.value.message
    # the Salt Container moved under a house rule onto a cracker is refused the same way
    with pytest.raises(RuleViolation) as info:
        step(
            gs.R,
            Position(gs.play(state, gs.ev("salt_container_flipped", 1)), 5, True),
            gs.ev("salt_container_moved", 0, to=[1, 0]),
        )
    assert info.value.code == "unplayable" and "the cell at column 1, row 0 already holds a token" in info.value.message

"""Actions A and B: flipping and moving the Salt Container, and the previous-turn restriction."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def _opened(gs):
    """Seat 0 placed circle-red at column 1, row 0 (now salty); seat 1 to move, container salty on column 0, row 0."""
    return gs.play(gs.started(), gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))


def test_flip_container(gs):
    state = _opened(gs)
    after = gs.accept(state, gs.ev("salt_container_flipped", 1))
    assert after["tokens"]["container"] == {"cell": [0, 0], "salty": False}
    assert after["container_turn"] == 2 and after["container_locked"] is True


def test_no_flip_or_move_right_after_a_flip(gs):
    state = gs.play(_opened(gs), gs.ev("salt_container_flipped", 1))
    gs.reject(state, gs.ev("salt_container_flipped", 0), "container_locked")
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[1, 1]), "container_locked")
    # the cracker moves are still there: circle-red is salty, the container is now empty
    gs.accept(state, gs.ev("cracker_flipped", 0, cracker="circle-red"))


def test_no_flip_right_after_a_move_and_flip(gs):
    state = gs.play(_opened(gs), gs.ev("salt_container_moved", 1, to=[2, 0]))
    assert state["tokens"]["container"] == {"cell": [2, 0], "salty": False}
    gs.reject(state, gs.ev("salt_container_flipped", 0), "container_locked")
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[0, 0]), "container_locked")


def test_restriction_only_covers_the_previous_turn(gs):
    state = gs.play(
        _opened(gs),
        gs.ev("salt_container_flipped", 1),  # turn 2: container now empty
        gs.ev("cracker_flipped", 0, cracker="circle-red"),  # turn 3: circle-red back to unsalted
    )
    # seat 1 flipped on turn 2 (its own previous turn) but turn 3 did not touch the container
    after = gs.accept(state, gs.ev("salt_container_flipped", 1))
    assert after["tokens"]["container"]["salty"] is True


def test_move_container_next_to_a_cracker(gs):
    placed = {"circle-red": (1, 0), "circle-yellow": (2, 0)}
    state = gs.position(placed, container=(0, 0), salty={"circle-red"})
    after = gs.accept(state, gs.ev("salt_container_moved", 0, to=[1, 1]))
    assert after["tokens"]["container"] == {"cell": [1, 1], "salty": False}
    assert after["container_locked"] is True and after["turn"] == 1
    gs.accept(state, gs.ev("salt_container_moved", 0, to=[3, 0]))


def test_container_must_land_next_to_a_cracker(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    # [-1, 0] only touched the container's own old cell
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[-1, 0]), "not_adjacent")
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[5, 5]), "not_adjacent")


def test_container_needs_a_cracker_in_play(gs):
    gs.reject(gs.started(), gs.ev("salt_container_moved", 0, to=[1, 0]), "no_cracker_in_play")


def test_container_not_on_top_of_a_token_nor_on_its_own_cell(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[1, 0]), "cell_occupied")
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[0, 0]), "same_cell")


def test_container_move_keeps_the_play_area_within_four(gs):
    row = {"circle-red": (0, 1), "square-yellow": (1, 1), "triangle-blue": (2, 1), "circle-yellow": (3, 1)}
    state = gs.position(row, container=(0, 0))
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[4, 1]), "play_area_too_large")
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[-1, 1]), "play_area_too_large")
    gs.accept(state, gs.ev("salt_container_moved", 0, to=[3, 2]))


def test_container_move_must_leave_one_group(gs):
    bridge = {"circle-red": (-1, 0), "circle-yellow": (1, 0)}
    state = gs.position(bridge, container=(0, 0))
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[-1, 1]), "not_contiguous")
    # the group may split while the container is in the hand if it is whole again afterwards
    ring = {**bridge, "circle-blue": (-1, 1), "square-red": (1, 1)}
    state = gs.position(ring, container=(0, 0))
    gs.accept(state, gs.ev("salt_container_moved", 0, to=[0, 1]))
    gs.reject(state, gs.ev("salt_container_moved", 0, to=[-2, 0]), "not_contiguous")

"""Actions C and D: which crackers may be flipped or moved, and where a cracker may be placed."""

from __future__ import annotations

import pytest

from rulesets.base import Event

pytestmark = pytest.mark.pure


def test_filled_container_places_an_unsalted_reserve_cracker(gs):
    state = gs.started()
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="square-blue", to=[0, 1]))
    assert after["tokens"]["square-blue"] == {"cell": [0, 1], "salty": True}
    assert "square-blue" not in after["reserve"]


def test_filled_container_moves_and_flips_only_unsalted_crackers(gs):
    placed = {"circle-red": (1, 0), "circle-yellow": (0, 1)}
    state = gs.position(placed, container=(0, 0), container_salty=True, salty={"circle-yellow"})
    gs.reject(state, gs.ev("cracker_flipped", 0, cracker="circle-yellow"), "wrong_salt_condition")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-yellow", to=[1, 1]), "wrong_salt_condition")
    after = gs.accept(state, gs.ev("cracker_flipped", 0, cracker="circle-red"))
    assert after["tokens"]["circle-red"] == {"cell": [1, 0], "salty": True}
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[-1, 0]))
    assert after["tokens"]["circle-red"] == {"cell": [-1, 0], "salty": True}


def test_empty_container_moves_and_flips_only_salty_crackers(gs):
    placed = {"circle-red": (1, 0), "circle-yellow": (2, 0)}
    state = gs.position(placed, container=(0, 0), container_salty=False, salty={"circle-yellow"})
    gs.reject(state, gs.ev("cracker_flipped", 0, cracker="circle-red"), "wrong_salt_condition")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 1]), "wrong_salt_condition")
    # reserve crackers are unsalted, so an empty container cannot bring them in
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[0, 1]), "wrong_salt_condition")
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-yellow", to=[1, 1]))
    assert after["tokens"]["circle-yellow"] == {"cell": [1, 1], "salty": False}


def test_only_crackers_in_play_can_be_flipped_in_place(gs):
    gs.reject(gs.started(), gs.ev("cracker_flipped", 0, cracker="circle-red"), "cracker_in_reserve")


def test_unknown_crackers(gs):
    state = gs.started()
    gs.reject(state, gs.ev("cracker_flipped", 0, cracker="circle-green"), "unknown_cracker")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="container", to=[1, 0]), "unknown_cracker")
    gs.reject(state, Event("cracker_moved", 0, {"cracker": 7, "to": [1, 0]}), "unknown_cracker")


def test_cracker_placed_next_to_the_container_or_another_cracker(gs):
    state = gs.position({"circle-red": (1, 0)}, container=(0, 0))
    gs.accept(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[-1, 0]))  # container only
    gs.accept(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[2, 0]))  # cracker only
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[3, 0]), "not_adjacent")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[1, 2]), "not_adjacent")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[2, 1]), "not_adjacent")  # diagonal only


def test_moved_cracker_does_not_count_as_its_own_neighbour(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    # [3, 0] touches only circle-yellow's own old cell
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-yellow", to=[3, 0]), "not_adjacent")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-yellow", to=[2, 1]), "not_adjacent")
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-yellow", to=[1, 1]))
    assert after["tokens"]["circle-yellow"] == {"cell": [1, 1], "salty": True}


def test_cracker_not_on_top_of_a_token_nor_on_its_own_cell(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[0, 0]), "cell_occupied")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[2, 0]), "cell_occupied")
    gs.reject(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]), "same_cell")

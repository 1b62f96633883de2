"""Victory: lines of three or more sharing an attribute, combination counts, ties, the wild container."""

from __future__ import annotations

import pytest

from rulesets.get_salty import RULESET

pytestmark = pytest.mark.pure


def _won(state, seat, score, other=0):
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.winners == (seat,) and not outcome.draw
    assert outcome.scores == {seat: score, 1 - seat: other}
    return outcome


def test_three_shapes_in_a_row(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    assert state["winner"] is None
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 0]))
    assert after["winner"] == 0
    outcome = _won(after, 0, 1)
    assert outcome.reason == "three circle crackers in a row"
    assert after["combinations"] == [
        {"attribute": "shape", "value": "circle", "kind": "row", "cells": [[1, 0], [2, 0], [3, 0]], "seat": 0}
    ]
    assert gs.R.turn(after).phase == "over"
    # issue 22 item 10: the end-of-game line names the winner and what won
    assert gs.R.turn(after).prompt == "Seat 0 wins with three circle crackers in a row."


def test_not_a_line_when_placed_elsewhere(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[1, 1]))
    assert after["winner"] is None and gs.R.outcome(after) is None and after["turn"] == 1


def test_three_colors_in_a_column(gs):
    state = gs.position({"circle-red": (0, 1), "square-red": (0, 2)}, container=(0, 0), turn=1)
    after = gs.accept(state, gs.ev("cracker_moved", 1, cracker="triangle-red", to=[0, 3]))
    assert _won(after, 1, 1).reason == "three red crackers in a column"


@pytest.mark.parametrize("sign", [1, -1])
def test_three_in_a_diagonal_both_ways(gs, sign):
    layout = {
        "circle-red": (1, 0),
        "triangle-red": (1, 1),
        "square-yellow": (2, 1),
        "triangle-yellow": (2, 2),
        "circle-blue": (3, 2),
    }
    state = gs.position({n: (x, sign * y) for n, (x, y) in layout.items()}, container=(0, 0))
    assert state["winner"] is None
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="triangle-blue", to=[3, 3 * sign]))
    assert _won(after, 0, 1).reason == "three triangle crackers in a diagonal"


def test_a_line_made_for_the_opponent_wins_for_the_opponent(gs):
    state = gs.position({"circle-red": (1, 0), "square-red": (2, 0)}, container=(0, 0))
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="triangle-red", to=[3, 0]))
    assert _won(after, 1, 1).reason == "three red crackers in a row"


def test_gaps_and_the_container_break_lines_while_crackers_remain_in_reserve(gs):
    placed = {
        "circle-red": (0, 1),
        "circle-yellow": (1, 1),
        "square-yellow": (1, 0),
        "triangle-blue": (2, 0),
        "square-red": (3, 0),
    }
    state = gs.position(placed, container=(0, 0))
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 1]))
    # circles on [0,1] [1,1] _ [3,1]: not consecutive
    assert after["winner"] is None and after["combinations"] == []
    blocked = gs.position({"circle-red": (0, 0), "circle-yellow": (1, 0)}, container=(2, 0))
    after = gs.accept(blocked, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 0]))
    # circle, circle, container, circle: the container is no circle while the reserve holds crackers
    assert after["winner"] is None and not after["container_wild"]


def test_container_becomes_every_attribute_once_the_reserve_is_empty(gs):
    placed = {
        "triangle-blue": (0, 0),
        "circle-yellow": (3, 0),
        "circle-blue": (0, 1),
        "square-yellow": (1, 1),
        "triangle-red": (2, 1),
        "square-blue": (3, 1),
        "square-red": (3, 2),
        "triangle-yellow": (3, 3),
    }
    state = gs.position(placed, container=(1, 0))
    # the diagonal container [1,0], triangle-red [2,1], square-red [3,2] is no line yet
    assert state["winner"] is None and state["reserve"] == ["circle-red"]
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[0, 2]))
    assert after["container_wild"] is True and after["reserve"] == []
    outcome = _won(after, 1, 1)
    assert outcome.reason == "three red crackers in a diagonal (counting the Salt Container)"
    assert after["combinations"][0]["cells"] == [[1, 0], [2, 1], [3, 2]]


def test_a_line_of_four_is_one_combination(gs):
    placed = {
        "circle-red": (3, 0),
        "circle-blue": (1, 0),
        "triangle-yellow": (2, 0),
        "square-blue": (1, 1),
        "square-yellow": (3, 1),
        "triangle-blue": (2, 2),
        "circle-yellow": (3, 2),
        "triangle-red": (2, 3),
        "square-red": (3, 3),
    }
    salty = {"circle-yellow", "square-yellow", "circle-red", "triangle-blue"}
    state = gs.position(placed, container=(0, 1), salty=salty)
    assert state["container_wild"] and state["winner"] is None
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[2, 1]))
    outcome = _won(after, 0, 1)
    assert outcome.reason == "four square crackers in a row (counting the Salt Container)"


def test_more_winning_combinations_wins(gs):
    placed = {
        "square-yellow": (2, 0),
        "square-red": (3, 0),
        "triangle-red": (0, 1),
        "triangle-blue": (1, 1),
        "square-blue": (2, 1),
        "triangle-yellow": (0, 2),
        "circle-blue": (2, 2),
        "circle-yellow": (3, 2),
    }
    state = gs.position(placed, container=(1, 2))
    after = gs.accept(state, gs.ev("cracker_moved", 0, cracker="circle-red", to=[2, 3]))
    outcome = _won(after, 0, 2, other=1)
    assert outcome.reason.endswith("(2 winning combinations against 1)")
    assert "circle crackers in a row" in outcome.reason and "square crackers in a diagonal" in outcome.reason


def _tied(gs):
    placed = {
        "triangle-red": (2, 0),
        "circle-red": (3, 0),
        "triangle-yellow": (3, 1),
        "square-yellow": (0, 2),
        "circle-yellow": (2, 2),
        "circle-blue": (3, 2),
        "triangle-blue": (0, 3),
        "square-blue": (3, 3),
    }
    state = gs.position(placed, container=(1, 2))
    return gs.accept(state, gs.ev("cracker_moved", 0, cracker="square-red", to=[0, 1]))


def test_a_tie_plays_on(gs):
    tied = _tied(gs)
    assert tied["scores"] == {"0": 1, "1": 1}
    assert tied["winner"] is None and gs.R.outcome(tied) is None and tied["turn"] == 1
    assert any("tie" in w for w in gs.R.warnings(tied))
    assert gs.R.legal_moves(tied)


def test_a_tie_is_broken_by_a_later_turn(gs):
    tied = _tied(gs)
    # square-blue [3,3] -> [2,1] adds blue on the diagonal [0,3] [1,2] [2,1]; the tied lines stay
    after = gs.accept(tied, gs.ev("cracker_moved", 1, cracker="square-blue", to=[2, 1]))
    assert _won(after, 1, 2, other=1).reason == (
        "three yellow crackers in a row (counting the Salt Container) and "
        "three blue crackers in a diagonal (counting the Salt Container) (2 winning combinations against 1)"
    )


def test_no_move_after_the_game_is_over(gs):
    state = gs.position({"circle-red": (1, 0), "circle-yellow": (2, 0)}, container=(0, 0))
    over = gs.play(state, gs.ev("cracker_moved", 0, cracker="circle-blue", to=[3, 0]))
    assert gs.R.legal_moves(over) == []
    gs.reject(over, gs.ev("salt_container_flipped", 1), "game_over")
    gs.reject(over, gs.ev("salt_container_flipped", 0), "game_over")
    refused = gs.reject(over, gs.ev("no_such_event", 5), "game_over")
    # issue 46: the end is final; no house rule records a move after it (a correction of an earlier entry does)
    assert not refused.overridable and refused.rule == "Get Salty › Victory"
    assert refused.message == "The game is over: Seat 0 has won. No more moves."

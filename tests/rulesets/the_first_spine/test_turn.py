"""A turn: the mandatory discard/draw first (its costs and the draw shortfall), whose turn, clockwise order."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_discard_draw_is_mandatory_first(table):
    t = table(2).setup()
    t.bad("draw_first", "card_placed", card="Paladin", at=[5, 3])
    t.bad("draw_first", "turn_ended")
    t.bad("draw_first", "confrontation_target_chosen", **{"from": [5, 3], "target": [4, 3]})
    t.refill()
    t.bad("already_refilled", "hand_refilled", discarded=0)
    assert t.state["turn"]["phase"] == "actions"


def test_first_discard_free_each_further_costs_one_life(table):
    t = table(2, deck_size=30).setup()
    t.refill(discarded=1)
    assert t.player(0)["wizard_hp"] == 20
    assert (t.player(0)["hand"], t.player(0)["deck"], t.player(0)["hand_discards"]) == (6, 23, 1)
    t.end()
    t.refill(discarded=4)  # seat 1: 3 extra discards
    assert t.player(1)["wizard_hp"] == 17
    assert (t.player(1)["hand"], t.player(1)["deck"]) == (6, 20)
    assert t.state["log"][-1]["text"] == "Seat 1 discarded 4 (−3 life), drew 4."
    t.replayed()


def test_cannot_discard_more_than_the_hand(table):
    t = table(2).setup()
    t.bad("not_enough_cards", "hand_refilled", discarded=7)
    t.bad("invalid_payload", "hand_refilled", discarded=-1)


def test_draw_shortfall_costs_one_life_per_missing_card(table):
    t = table(2, deck_size=8, board=[4, 5]).setup()  # 2 cards left in each deck after the starting hand
    t.refill().place("Paladin", [2, 2]).place("Squire", [3, 1]).place("Shield Maiden", [3, 3]).end()
    assert t.player(0)["hand"] == 3
    t.pass_turns(1)  # seat 1
    t.refill()  # seat 0 needs 3, the deck holds 2
    assert (t.player(0)["hand"], t.player(0)["deck"], t.player(0)["wizard_hp"]) == (5, 0, 19)
    assert t.state["log"][-1]["shortfall"] == 1
    t.end().pass_turns(1)
    t.refill(discarded=2)  # seat 0: one paid discard, then 3 cards to draw from an empty deck
    assert (t.player(0)["hand"], t.player(0)["wizard_hp"]) == (3, 15)
    t.replayed()


def test_whose_turn(table):
    t = table(2).setup()
    t.bad("not_your_turn", "hand_refilled", 1, discarded=0)
    v = t.bad("not_your_turn", "hand_refilled", 1, discarded=0)
    assert v.message == "It is Seat 0's turn: they must discard and draw first, then act and end their turn."
    t.refill().place("Squire", [5, 3])
    v = t.bad("not_your_turn", "turn_ended", 1)
    assert v.message == "Seat 0 must finish their actions and end their turn."  # what the table must do next
    t.end()
    assert t.state["turn"]["seat"] == 1 and t.state["turn"]["number"] == 2


def test_clockwise_order_with_four_players(table):
    t = table(4).setup()
    seen = []
    for _ in range(5):
        seen.append(t.state["turn"]["seat"])
        t.refill().end()
    assert seen == [0, 1, 2, 3, 0]


def test_turn_prompts(rs, table):
    t = table(2, board=[4, 5]).setup()
    assert rs.turn(t.state).prompt == (
        "discard (the first is free, then 1 life each) and draw up to 6; “before your turn” effects are recorded first."
    )
    t.refill()
    assert rs.turn(t.state).prompt == "place cards and record spell effects, then end the turn."


def test_legal_moves_at_the_start_and_none_during_actions(rs, table):
    t = table(2).setup()
    moves = rs.legal_moves(t.state)
    assert [m.data["discarded"] for m in moves] == list(range(7))
    assert all(m.type == "hand_refilled" and m.seat == 0 for m in moves)
    t.refill()
    assert rs.legal_moves(t.state) is None

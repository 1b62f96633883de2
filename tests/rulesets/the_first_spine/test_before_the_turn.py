"""“Before your turn” effects resolve before the discard/draw (issue 22, item 3): a card text's life change
(``hp_changed``) is accepted before ``hand_refilled``, as Run is."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_a_before_your_turn_effect_is_recorded_before_the_draw(rs, table):
    t = table(2, board=[4, 5]).setup()
    t.put("Squire", [2, 2], 0)
    assert t.state["turn"]["phase"] == "start"
    t.do("hp_changed", at=[2, 2], amount=2, note="before your turn: +2")
    assert t.hp([2, 2]) == 5 and t.state["turn"]["phase"] == "start"  # the draw is still to come
    t.refill()
    assert t.state["turn"]["phase"] == "actions"


def test_before_the_draw_only_run_effects_and_the_draw(table):
    t = table(2, board=[4, 5]).setup()
    t.put("Squire", [2, 2], 0)
    t.bad("draw_first", "card_placed", card="Squire", at=[2, 1])
    t.bad("draw_first", "turn_ended")
    t.bad("not_your_turn", "hp_changed", 1, at=[2, 2], amount=-1)
    v = t.bad("no_card_there", "hp_changed", at=[1, 1], amount=-1)
    assert v.rule == "The First Spine › Game play › Before the turn"
    t.bad("zero_amount", "hp_changed", at=[2, 2], amount=0)


def test_a_before_your_turn_effect_played_from_the_log(table):
    t = table(2, board=[4, 5], wizard_hp=3).setup()
    t.refill().end()
    t.do("hp_changed", 1, at=[3, 2], amount=-3, note="before your turn: the curse strikes")
    assert t.player(0)["out"]  # seat 0's wizard fell before seat 1 drew
    t.replayed()


def test_legal_moves_at_the_start_still_list_the_draw(rs, table):
    t = table(2, board=[4, 5]).setup()
    moves = rs.legal_moves(t.state)
    assert {m.type for m in moves} == {"hand_refilled"}  # hp_changed takes any amount: accepted, not listed

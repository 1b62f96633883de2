"""hp_changed: spells and card texts change the life of a card or a wizard."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_heal_and_hurt_a_card(table):
    t = table(2, board=[4, 5]).setup()
    t.refill().place("Squire", [2, 2])
    t.do("hp_changed", at=[2, 2], amount=3, note="Healing Light")
    assert t.hp([2, 2]) == 6  # no cap: the rulebook sets none
    t.do("hp_changed", at=[2, 2], amount=-5)
    assert t.hp([2, 2]) == 1
    t.do("hp_changed", at=[2, 2], amount=-1)
    assert t.card([2, 2]) is None and t.player(0)["discard"] == ["Squire"]
    t.replayed()


def test_refusals(table):
    t = table(2, board=[4, 5]).setup()
    t.refill()
    t.bad("no_card_there", "hp_changed", at=[2, 2], amount=-1)
    t.bad("zero_amount", "hp_changed", at=[0, 2], amount=0)
    t.bad("invalid_payload", "hp_changed", at=[0, 2], amount=-100)
    t.bad("invalid_payload", "hp_changed", at=[0, 2], amount="3")
    t.bad("not_your_turn", "hp_changed", 1, at=[0, 2], amount=-1)


def test_a_spell_can_finish_a_wizard(rs, table):
    t = table(2, board=[4, 5], wizard_hp=2).setup()
    t.refill().place("Fireball", [0, 2]).do("hp_changed", at=[0, 2], amount=-3, note="Fireball")
    assert t.player(1)["out"] and rs.outcome(t.state).winners == (0,)
    t.replayed()


def test_a_player_who_falls_on_their_own_turn_passes_it(rs, table):
    t = table(3, wizard_hp=2).setup()
    t.refill(discarded=3)  # two paid discards: seat 0's wizard falls
    assert t.player(0)["out"]
    assert t.state["turn"]["seat"] == 1 and t.state["turn"]["phase"] == "start"
    t.pass_turns(2)
    assert t.state["turn"]["seat"] == 1  # seat 0 is skipped
    assert rs.outcome(t.state) is None
    t.bad("seat_out", "hand_refilled", 0, discarded=0)
    t.replayed()

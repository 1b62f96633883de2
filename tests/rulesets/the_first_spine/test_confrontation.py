"""Confrontations, resolved by turn_ended: who confronts whom, the arithmetic, choices, sides, wizards."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def example(table):
    """The rulebook's example: seat 0's Paladin and seat 1's Barbed Wire face each other."""
    t = table(2, board=[4, 5]).setup()
    t.refill().place("Paladin", [2, 2]).end()
    t.refill().place("Barbed Wire", [1, 2]).end()  # an artifact does not start a confrontation
    assert t.hp([2, 2]) == 4 and t.hp([1, 2]) == 3
    return t.refill()


def test_the_rulebooks_example(rs, table):
    t = example(table)
    prompt = rs.turn(t.state).prompt
    assert "Paladin deals 3 to Barbed Wire (attack 3 − defense 0), takes 2 (attack 4 − defense 2)" in prompt
    t.end()
    assert t.card([1, 2]) is None  # "The Barbed wire is therefore destroyed ..."
    assert t.player(1)["discard"] == ["Barbed Wire"]  # "... and goes to the owner's discard pile."
    assert t.hp([2, 2]) == 2  # "The Paladin stays in play with 2 hit points."
    texts = [e["text"] for e in t.state["log"][-2:]]
    assert texts == [
        "Paladin deals 3 to Barbed Wire (attack 3 − defense 0), takes 2 (attack 4 − defense 2).",
        "Barbed Wire is destroyed and goes to Seat 1's discard.",
    ]
    t.replayed()


def test_losses_never_go_below_zero(table, card_def):
    cards = [card_def("Tank", hp=5, attack=0, defense=9), card_def("Imp", hp=2, attack=1, defense=0)]
    t = table(2, board=[4, 5], cards=cards).setup()
    t.refill().place("Imp", [2, 2]).end()
    t.refill().place("Tank", [1, 2]).end()
    t.refill().end()
    assert (t.hp([2, 2]), t.hp([1, 2])) == (2, 5)  # Imp: 1 − 9 → 0 lost; Tank: 0 − 0 → 0 lost


def test_sides_are_as_the_owner_sees_them(table, card_def):
    # four players: seat 1 sits on the left facing east, seat 3 on the right facing west
    cards = [
        card_def("Compass", hp=9, attack=(1, 2, 3, 4), defense=(0, 0, 0, 0)),
        card_def("Post", kind="artifact", hp=20, attack=0, defense=0),
    ]
    t = table(4, cards=cards).setup()
    t.put("Post", [2, 1], 0).put("Compass", [3, 1], 1).put("Post", [2, 5], 0).put("Compass", [3, 5], 3)
    t.pass_turns(1).refill().end()  # seat 1: the Post to its north is on its Compass's LEFT (attack 4)
    assert t.hp([2, 1]) == 16
    t.pass_turns(1).refill().end()  # seat 3: north is on its Compass's RIGHT (attack 2)
    assert t.hp([2, 5]) == 18
    assert t.card([3, 1])["facing"] == "E" and t.card([3, 5])["facing"] == "W"


def test_a_choice_is_needed_when_several_opponent_cards_touch(rs, table, card_def):
    cards = [
        card_def("Compass", hp=9, attack=(1, 2, 3, 4), defense=(0, 0, 0, 0)),
        card_def("Post", kind="artifact", hp=20, attack=0, defense=0),
    ]
    t = table(2, board=[4, 5], cards=cards).setup()
    t.refill().place("Post", [2, 2]).place("Post", [2, 3]).place("Post", [1, 3]).end()
    t.refill().place("Compass", [1, 2])
    v = t.bad("choose_target", "turn_ended")
    assert "(column 4, row 2; or column 3, row 3)" in v.message
    assert "Choose which card Compass on column 3, row 2 confronts." in rs.turn(t.state).prompt
    t.bad("not_an_opponent_next_to_it", "confrontation_target_chosen", **{"from": [1, 2], "target": [0, 2]})
    t.bad("not_an_opponent_next_to_it", "confrontation_target_chosen", **{"from": [1, 2], "target": [3, 2]})
    t.bad("not_your_card", "confrontation_target_chosen", **{"from": [2, 2], "target": [1, 2]})
    t.bad("not_your_card", "confrontation_target_chosen", **{"from": [0, 2], "target": [1, 2]})  # the wizard
    t.do("confrontation_target_chosen", **{"from": [1, 2], "target": [1, 3]})
    t.end()
    # seat 1 faces down: east is its LEFT side (attack 4); the Post at [1, 3] loses 4
    assert t.hp([1, 3]) == 16 and t.hp([2, 2]) == 20
    # the next time it is seat 1's turn it chooses again; this time the south one (its FRONT, attack 1)
    t.refill().end().refill()
    t.do("confrontation_target_chosen", **{"from": [1, 2], "target": [1, 3]})
    t.do("confrontation_target_chosen", **{"from": [1, 2], "target": [2, 2]})  # changing one's mind
    t.end()
    assert t.hp([1, 3]) == 16 and t.hp([2, 2]) == 19
    t.replayed()


def test_nothing_to_choose_with_a_single_opponent(table):
    t = example(table)
    t.bad("nothing_to_choose", "confrontation_target_chosen", **{"from": [2, 2], "target": [1, 2]})


def test_choice_before_setup_or_by_the_other_seat_is_refused(table):
    t = example(table)
    t.bad("not_your_turn", "confrontation_target_chosen", 1, **{"from": [1, 2], "target": [2, 2]})


def test_a_creature_confronts_a_wizard_which_strikes_back_with_nothing(table):
    t = table(2, board=[4, 5]).setup()
    t.refill().place("Paladin", [2, 2]).place("Paladin", [1, 2]).end()  # [1, 2] touches seat 1's wizard
    assert t.player(1)["wizard_hp"] == 17
    assert t.hp([1, 2]) == 4
    assert t.state["log"][-1]["text"] == (
        "Paladin on column 3, row 2 deals 3 to Seat 1's wizard (attack 3 − defense 0), takes 0 (attack 0 − defense 2)."
    )


def test_wizards_never_start_a_confrontation(table):
    t = table(2, board=[4, 5]).setup()
    t.refill().end()
    t.refill().place("Squire", [1, 2]).place("Squire", [2, 2]).end()  # [2, 2] touches seat 0's wizard
    assert t.player(0)["wizard_hp"] == 18  # seat 1's Squire confronted it: 2 − 0
    t.refill().end()  # seat 0's turn: its wizard confronts nothing
    assert t.hp([2, 2]) == 3


def test_wizard_at_zero_is_out_and_the_last_one_standing_wins(rs, table):
    t = table(2, board=[4, 5], wizard_hp=3).setup()
    assert rs.outcome(t.state) is None
    t.refill().place("Paladin", [2, 2]).place("Paladin", [1, 2]).end()
    assert t.player(1)["out"] and t.player(1)["wizard_hp"] == 0
    out = rs.outcome(t.state)
    assert out.winners == (0,) and not out.draw
    assert out.reason == "the last wizard standing (3 life left)"
    assert rs.turn(t.state).prompt == "Seat 0 wins with the last wizard standing (3 life left)."
    assert t.card([0, 2]) is None  # the fallen wizard leaves the board
    t.bad("game_over", "hand_refilled", 1, discarded=0)
    assert rs.legal_moves(t.state) == []
    assert rs.turn(t.state).phase == "over"
    t.replayed()


def test_simultaneous_resolution(table, card_def):
    # two attackers on one defender: both hit it and both take its strike-back, from the same board
    cards = [card_def("Imp", hp=3, attack=2, defense=0), card_def("Ogre", hp=5, attack=3, defense=0)]
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Ogre", [1, 2], 1).put("Imp", [1, 1], 0).put("Imp", [1, 3], 0)
    t.refill().end()
    assert t.hp([1, 2]) == 1
    assert t.card([1, 1]) is None and t.card([1, 3]) is None
    assert t.player(0)["discard"] == ["Imp", "Imp"]
    lines = [e["text"] for e in t.state["log"] if e["kind"] == "confrontation"]
    assert lines == [  # the two Imps are told apart by their cells (issue 32)
        "Imp on column 2, row 2 deals 2 to Ogre (attack 2 − defense 0), takes 3 (attack 3 − defense 0).",
        "Imp on column 4, row 2 deals 2 to Ogre (attack 2 − defense 0), takes 3 (attack 3 − defense 0).",
    ]
    assert [e["text"] for e in t.state["log"] if e["kind"] == "destroyed"] == [
        "Imp on column 2, row 2 is destroyed and goes to Seat 0's discard.",
        "Imp on column 4, row 2 is destroyed and goes to Seat 0's discard.",
    ]

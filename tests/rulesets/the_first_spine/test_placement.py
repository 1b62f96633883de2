"""Actions: placing a card from hand (the cell rules the issue reads into the blank Actions section), spells,
revealing the origin."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_place_next_to_own_wizard_then_next_to_own_card(table):
    t = table(2, board=[4, 5]).setup()
    t.refill().place("Squire", [2, 2])
    sq = t.card([2, 2])
    assert (sq["name"], sq["owner"], sq["controller"], sq["hp"], sq["kind"]) == ("Squire", 0, 0, 3, "creature")
    assert sq["attack"] == {"front": 2, "right": 1, "back": 0, "left": 1}
    t.place("Squire", [2, 1])  # next to the first Squire, not to the wizard
    assert t.player(0)["hand"] == 4
    t.replayed()


def test_placement_refusals(table):
    t = table(2, board=[4, 5]).setup()
    t.refill()
    t.bad("not_next_to_yours", "card_placed", card="Squire", at=[1, 1])
    t.bad("cell_occupied", "card_placed", card="Squire", at=[3, 2])  # own wizard
    t.bad("off_board", "card_placed", card="Squire", at=[4, 2])
    t.bad("off_board", "card_placed", card="Squire", at=[-1, 0])
    t.bad("unknown_card", "card_placed", card="Dragon", at=[2, 2])
    t.bad("invalid_payload", "card_placed", card="Squire", at=[2])
    t.place("Squire", [2, 2])
    t.bad("cell_occupied", "card_placed", card="Paladin", at=[2, 2])
    t.end()
    t.refill()
    # seat 1 may not build from seat 0's pieces, nor stand on a wizard
    t.bad("not_next_to_yours", "card_placed", card="Squire", at=[2, 1])
    t.bad("cell_occupied", "card_placed", card="Squire", at=[0, 2])


def test_names_match_without_case(table):
    t = table(2, board=[4, 5]).setup().refill().place("  paladin ", [2, 2])
    assert t.card([2, 2])["name"] == "Paladin"


def test_hand_must_hold_a_card(table):
    t = table(2, board=[7, 7], hand_size=2, deck_size=8).setup()
    t.refill().place("Squire", [5, 3]).place("Squire", [4, 3])
    t.bad("empty_hand", "card_placed", card="Squire", at=[3, 3])


def test_origin_cards_only_from_ones_own_origin(table):
    t = table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    t.refill()
    v = t.bad("wrong_origin", "card_placed", card="Martyr", at=[2, 2])
    assert "Martyr is a Priest card;" in v.message
    v = t.bad("wrong_origin", "card_placed", card="Rampart", at=[2, 2])
    assert "Rampart is an Architect card;" in v.message  # the rulebook's word, with its article
    assert not t.player(0)["origin_revealed"]
    t.place("Shield Maiden", [2, 2])
    assert t.player(0)["origin_revealed"]


def test_a_spell_is_cast_on_any_cell_and_goes_to_the_discard(table):
    t = table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    t.refill().place("Healing Light", [0, 2])  # target: the opposing wizard's cell, far from own pieces
    assert t.player(0)["discard"] == ["Healing Light"]
    assert t.player(0)["hand"] == 5
    assert t.card([0, 2])["kind"] == "wizard"
    assert t.player(0)["origin_revealed"]
    t.bad("off_board", "card_placed", card="Fireball", at=[9, 9])


def test_no_limit_on_placements_per_turn_beyond_the_hand(table):
    t = table(2).setup().refill()
    for at in ([5, 3], [4, 3], [3, 3], [2, 3], [5, 2], [5, 4]):
        t.place("Squire", at)
    assert t.player(0)["hand"] == 0

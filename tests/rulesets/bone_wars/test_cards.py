"""Bone Wars › Playing a card, The three kinds of cards, Prize bonus."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_a_card_goes_into_the_leftmost_empty_slot_and_pays_slot_plus_card_cost(table):
    t = table(1, starting_money=10)
    t.card(0, "team", "Cope's Team", cost=2)  # slot 1 costs $0
    p = t.player(0)
    assert p["slots"][0]["card"] == {"kind": "team", "name": "Cope's Team", "cost": 2, "minor_find": None}
    assert p["money"] == 8 and t.state["card_played"] is True
    t.end(0)
    t.card(0, "paleontologist", "Hatcher")  # slot 2 costs $1, a paleontologist none
    assert t.player(0)["money"] == 7 and t.player(0)["slots"][1]["card"]["name"] == "Hatcher"
    t.end(0)
    t.card(0, "team", "Big Team", cost=3)  # slot 3: $1 + $3
    assert t.player(0)["money"] == 3
    assert [sl["card"] is not None for sl in t.player(0)["slots"]] == [True, True, True, False, False]


def test_one_card_a_turn(table):
    t = table(2)
    t.card(0)
    v = t.bad("card_already_played", "card_played", 0, card={"kind": "team", "name": "Second"})
    assert v.rule == "Bone Wars › Playing a card"


def test_no_card_when_every_slot_is_full(table):
    t = table(1, starting_money=50)
    for _ in range(5):
        t.turn(0)
    v = t.bad("no_empty_slot", "card_played", 0, card={"kind": "team", "name": "Sixth"})
    assert v.rule == "Bone Wars › Playing a card" and "must pass" in v.message
    assert t.player(0)["money"] == 50 - (0 + 1 + 1 + 2 + 3)
    t.pas(0)  # the way out


def test_an_upgraded_slot_takes_a_sixth_card(table):
    t = table(1, starting_money=50)
    t.turn(0, ("slot_upgraded", {"cost": 2, "icon": "plant"}))
    for _ in range(4):
        t.turn(0)
    t.card(0, "team", "Sixth")
    assert t.player(0)["slots"][5]["card"]["name"] == "Sixth"
    assert t.player(0)["money"] == 50 - (0 + 1 + 1 + 2 + 3 + 2)


def test_money_may_not_go_below_zero(table):
    t = table(2, starting_money=1)
    v = t.bad("not_enough_money", "card_played", 0, card={"kind": "team", "name": "Pricey", "cost": 2})
    assert v.message == "Slot 1 costs $0 plus $2 for the card: $2, but Seat 0 has $1."
    assert v.rule == "Bone Wars › Playing a card"
    t.card(0, "team", "Cheap", cost=1)  # exactly affordable: $1 → $0
    assert t.player(0)["money"] == 0
    t.end(0).turn(1)
    t.bad("not_enough_money", "card_played", 0, card={"kind": "team", "name": "Free"})  # slot 2 costs $1


def test_species_and_paleontologist_cards_have_no_cost_of_their_own(table):
    t = table(2)
    for kind in ("species", "paleontologist"):
        v = t.bad(
            "card_has_no_cost", "card_played", 0, card={"kind": kind, "name": "X", "cost": 1, "minor_find": "bug"}
        )
        assert v.rule == "Bone Wars › Playing a card"
    t.card(0, "paleontologist", "Marsh's man", cost=0)


def test_a_species_card_names_its_minor_find(table):
    t = table(2)
    v = t.bad("minor_find_required", "card_played", 0, card={"kind": "species", "name": "Triceratops"})
    assert v.rule == "Bone Wars › The three kinds of cards"
    v = t.bad("minor_find_not_species", "card_played", 0, card={"kind": "team", "name": "T", "minor_find": "bug"})
    assert v.rule == "Bone Wars › The three kinds of cards"


def test_prize_bonus_when_the_minor_find_matches_the_slot_icon(table):
    t = table(2)
    t.species(0, "Stegosaurus", "bug")  # slot 1: bug
    assert t.player(0)["slots"][0]["prize"] is True
    t.end(0)
    t.species(1, "Camarasaurus", "fossil")  # slot 1 is a bug slot: no prize
    assert t.player(1)["slots"][0]["prize"] is False
    t.end(1)
    t.species(0, "Brontotherium", "footprint")  # slot 2: footprint
    assert t.player(0)["slots"][1]["prize"] is True


def test_a_team_card_never_takes_a_prize(table):
    t = table(1)
    t.card(0, "team", "Bug hunters")
    assert t.player(0)["slots"][0]["prize"] is False

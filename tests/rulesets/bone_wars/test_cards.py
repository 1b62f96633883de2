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
    t.turn(0, ("slot_upgraded", {"cost": 3, "icon": "plant"}))  # right of the $3 slot: at least $3
    for _ in range(4):
        t.turn(0)
    t.card(0, "team", "Sixth")
    assert t.player(0)["slots"][5]["card"]["name"] == "Sixth"
    assert t.player(0)["money"] == 50 - (0 + 1 + 1 + 2 + 3 + 3)


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


def test_an_upgrade_cheaper_than_the_slot_to_its_left_is_refused(rs, table):
    """Item 7: "the slot's cost ($0 to $3, rising to the right)" holds for upgraded slots too."""
    t = table(1, starting_money=50, slots=[{"cost": c, "icon": "bug"} for c in (0, 0, 1, 1, 2)])
    t.card(0)
    v = t.bad("upgrade_cheaper", "slot_upgraded", 0, cost=1, icon="plant")
    assert v.rule == "Bone Wars › Playing a card" and "at least $2, not $1" in v.message
    assert {m.data["cost"] for m in rs.legal_moves(t.state) if m.type == "slot_upgraded"} == {2, 3}
    t.do("slot_upgraded", 0, cost=2, icon="plant")  # as much as its left neighbour: rising or level
    t.bad("upgrade_cheaper", "slot_upgraded", 0, cost=1, icon="plant")  # the upgrade is now the rightmost


def test_a_team_card_already_in_a_slot_is_upgraded_paying_its_own_cost(rs, table):
    """Item 5 (FAQ): "You may upgrade a card already in an action slot, but the slot remains spent for this
    round": the new card takes the slot, its own cost is paid, the slot's cost is not paid again."""
    t = table(1, starting_money=7)
    t.turn(0)  # slot 1 ($0): a basic team
    t.card(0, "team", "Survey Team")  # slot 2 ($1)
    assert t.player(0)["money"] == 6
    t.do("card_upgraded", 0, slot=1, card={"kind": "team", "name": "Advanced Team", "cost": 2})
    slots = t.player(0)["slots"]
    assert slots[0]["card"] == {"kind": "team", "name": "Advanced Team", "cost": 2, "minor_find": None,
                                "upgraded_from": "Field Team"}  # fmt: skip
    assert t.player(0)["money"] == 4 and slots[2]["card"] is None  # the next card still goes into slot 3
    names = ["Ana", "Bo"]
    before = t.state
    ev = t.event("card_upgraded", 0, slot=2, card={"kind": "team", "name": "Expedition", "cost": 0})
    assert rs.describe(ev, names, before=before) == "Ana upgraded Survey Team to Expedition in slot 2 (cost 0)"
    t.end(0)
    assert t.replayed().state == t.state


def test_an_upgrade_needs_a_team_card_in_the_slot_the_money_and_the_card_first(table):
    t = table(1, starting_money=2)
    t.do("card_played", 0, card={"kind": "species", "name": "Raptor", "minor_find": "bug"})
    t.bad("slot_empty", "card_upgraded", 0, slot=2, card={"kind": "team", "name": "Advanced"})
    t.bad("no_such_slot", "card_upgraded", 0, slot=9, card={"kind": "team", "name": "Advanced"})
    v = t.bad("upgrade_not_team", "card_upgraded", 0, slot=1, card={"kind": "team", "name": "Advanced"})
    assert v.rule == "Bone Wars › The three kinds of cards"
    t.end(0).card(0)  # slot 2: a team card; $1 paid, $1 left
    t.bad("upgrade_not_team", "card_upgraded", 0, slot=2, card={"kind": "paleontologist", "name": "Marsh"})
    v = t.bad("not_enough_money", "card_upgraded", 0, slot=2, card={"kind": "team", "name": "Big", "cost": 2})
    assert v.message == "The new card costs $2 (the slot stays paid), but Seat 0 has $1."
    t.end(0)
    t.bad("card_not_played", "card_upgraded", 0, slot=2, card={"kind": "team", "name": "Advanced"})

"""The effects of an action: only by the seat on turn, only after its card (Bone Wars › Playing a card)."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import Position, replay, step

pytestmark = pytest.mark.pure

EFFECTS = [
    ("money_changed", {"amount": 2}),
    ("loyalty_gained", {"amount": 1}),
    ("paper_published", {"side": "marsh"}),
    ("patron_flipped", {}),
    ("species_archived", {"name": "Diplodocus"}),
    ("slot_upgraded", {"cost": 3, "icon": "plant"}),
    ("rp_gained", {"amount": 2, "reason": "award"}),
]


@pytest.mark.parametrize("type_, data", EFFECTS)
def test_an_effect_needs_the_card_first(table, type_, data):
    t = table(2)
    v = t.bad("card_not_played", type_, 0, **data)
    assert v.rule == "Bone Wars › Playing a card" and v.message.startswith("Seat 0 must play a card before")
    t.card(0).do(type_, 0, **data)


@pytest.mark.parametrize("type_, data", EFFECTS)
def test_an_effect_is_only_for_the_seat_on_turn(table, type_, data):
    t = table(2)
    t.card(0)
    t.bad("not_your_turn", type_, 1, **data)


def test_money_changes_but_never_below_zero(table):
    t = table(2, starting_money=3)
    t.card(0)
    t.do("money_changed", 0, amount=4)
    assert t.player(0)["money"] == 7
    t.do("money_changed", 0, amount=-7)
    assert t.player(0)["money"] == 0
    v = t.bad("money_below_zero", "money_changed", 0, amount=-1)
    assert v.message == "Seat 0 has $0; paying $1 would leave less than $0."
    t.bad("zero_amount", "money_changed", 0, amount=0)


def test_loyalty_goes_onto_the_current_patrons_track(table):
    t = table(2)
    t.card(0)
    t.do("loyalty_gained", 0, amount=3)
    assert t.player(0)["loyalty"] == {"marsh": 3, "cope": 0}
    t.do("patron_flipped", 0)
    assert t.player(0)["patron"] == "cope"
    t.do("loyalty_gained", 0, amount=2)
    assert t.player(0)["loyalty"] == {"marsh": 3, "cope": 2}
    t.do("patron_flipped", 0)
    assert t.player(0)["patron"] == "marsh"


def test_papers_fill_the_shelves_of_one_side(table):
    t = table(2, shelves=2)
    t.card(0)
    t.do("paper_published", 0, side="cope").do("paper_published", 0, side="cope")
    assert t.state["credibility"] == {"marsh": 0, "cope": 2}
    v = t.bad("shelf_full", "paper_published", 0, side="cope")
    assert v.message == "Cope's side of the bookshelf is full (2 papers)." and v.rule == "Bone Wars › Loyalty"
    t.do("paper_published", 0, side="marsh")
    assert t.state["credibility"] == {"marsh": 1, "cope": 2}


def test_debunking_needs_a_paper_on_that_side(table):
    t = table(2)
    t.card(0)
    v = t.bad("shelf_empty", "paper_debunked", 0, side="marsh")
    assert v.rule == "Bone Wars › Loyalty"
    t.do("paper_published", 0, side="marsh").do("paper_debunked", 0, side="marsh")
    assert t.state["credibility"] == {"marsh": 0, "cope": 0}


def test_the_bookshelf_belongs_to_everybody(table):
    t = table(2)
    t.turn(0, ("paper_published", {"side": "cope"}))
    t.turn(1, ("paper_debunked", {"side": "cope"}), ("paper_published", {"side": "marsh"}))
    assert t.state["credibility"] == {"marsh": 1, "cope": 0}


def test_species_go_into_the_archive(table):
    t = table(1)
    t.turn(0, ("species_archived", {"name": "Hadrosaurus"}), ("species_archived", {"name": "Elasmosaurus"}))
    assert t.player(0)["archive"] == ["Hadrosaurus", "Elasmosaurus"]


def test_rp_from_awards_and_never_below_zero(table):
    t = table(1)
    t.card(0)
    t.do("rp_gained", 0, amount=3, reason="first reptile")
    assert t.player(0)["rp"] == 3
    t.do("rp_gained", 0, amount=-3, reason="correction")
    v = t.bad("rp_below_zero", "rp_gained", 0, amount=-1, reason="penalty")
    assert v.message == "Seat 0 has 0 RP; losing 1 would go below 0."
    t.bad("zero_amount", "rp_gained", 0, amount=0, reason="nothing")


def test_rp_below_zero_is_chronicles_own_check_and_an_override_keeps_the_tables_number(rs, table):
    """Item 6: the rulebook says nothing about RP below 0, so the refusal cites "Chronicle › Entries"; under a
    house-rule override the loss is recorded as the table said it (+2 then −5 gives −3), never clamped."""
    t = table(1)
    t.card(0)
    t.do("rp_gained", 0, amount=2, reason="bonus")
    v = t.bad("rp_below_zero", "rp_gained", 0, amount=-5, reason="penalty")
    assert v.rule == "Chronicle › Entries"
    events = [*t.events, Event("rule_overridden", None, {"reason": "house rule: RP may go negative"})]
    events.append(t.event("rp_gained", 0, amount=-5, reason="penalty"))
    pos = replay(rs, t.options, 1, events, check=True)
    assert pos.state["players"][0]["rp"] == -3


def test_an_overridden_payment_keeps_the_debt_and_an_impossible_paper_is_unplayable(rs, table):
    t = table(1, starting_money=1, shelves=1)
    t.card(0)

    def overridden(type_, **data):  # the entry right after a ``rule_overridden``
        return step(rs, Position(t.state, len(t.events) + 1, True), t.event(type_, 0, **data)).state

    assert overridden("money_changed", amount=-3)["players"][0]["money"] == -2  # what the table said, not $0
    with pytest.raises(RuleViolation) as info:
        overridden("paper_debunked", side="cope")
    assert info.value.code == "unplayable" and "holds no paper" in info.value.message
    t.do("paper_published", 0, side="cope")
    with pytest.raises(RuleViolation) as info:
        overridden("paper_published", side="cope")
    assert info.value.code == "unplayable" and "no empty shelf" in info.value.message


def test_a_zero_change_is_chronicles_own_check(table):
    t = table(1)
    t.card(0)
    assert t.bad("zero_amount", "money_changed", 0, amount=0).rule == "Chronicle › Entries"
    assert t.bad("zero_amount", "rp_gained", 0, amount=0, reason="x").rule == "Chronicle › Entries"

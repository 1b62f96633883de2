"""After an overridden debt (issue 32, items 3 and 4): gains and $0 prices are accepted, only a payment needs
the money; an overridden card onto a full board is unplayable, never a made-up sixth slot."""

from __future__ import annotations

import pytest

from rulesets.base import RuleViolation
from rulesets.names import name_seats

pytestmark = pytest.mark.pure

NAMES = ["Ana", "Bo"]


def _in_debt(table, debt: int = 3, **options):
    """One seat with ``starting_money 0`` plays its $0 card, then an override records a payment of ``debt``."""
    t = table(1, starting_money=0, **options)
    t.card(0).override("money_changed", 0, amount=-debt)
    assert t.player(0)["money"] == -debt
    return t


def test_a_gain_is_accepted_after_an_overridden_debt(table):
    """The repro: $0, card, override, −$3, then +$1 was refused ("paying $-1 would leave less than $0")."""
    t = _in_debt(table)
    t.do("money_changed", 0, amount=1)
    assert t.player(0)["money"] == -2
    t.do("money_changed", 0, amount=2)
    assert t.player(0)["money"] == 0
    assert t.replayed().state == t.state


def test_a_payment_in_debt_still_needs_the_money_and_says_so_in_players_words(table):
    t = _in_debt(table)
    v = t.bad("money_below_zero", "money_changed", 0, amount=-1)
    assert v.rule == "Chronicle › Entries"
    assert name_seats(v.message, NAMES) == (
        "Ana owes $3 (a debt recorded under an override): paying $1 needs the money; a gain can be recorded."
    )
    assert "$-" not in v.message
    t.do("money_changed", 0, amount=5)  # $2: now a payment of $2 is fine, $3 is not
    v = t.bad("money_below_zero", "money_changed", 0, amount=-3)
    assert v.message == "Seat 0 has $2; paying $3 would leave less than $0."
    t.do("money_changed", 0, amount=-2)
    assert t.player(0)["money"] == 0


def test_a_zero_price_card_into_the_zero_slot_is_accepted_in_debt(table):
    """At −$2 a $0 card into the $0 slot pays nothing: accepted."""
    t = _in_debt(table, debt=2)
    t.end(0).pas(0)  # round 2: slot 1 ($0) is empty again
    assert t.state["round"] == 2 and t.player(0)["money"] == -2
    t.card(0, "team", "Free Team", cost=0)
    assert t.player(0)["money"] == -2 and t.player(0)["slots"][0]["card"]["name"] == "Free Team"
    assert t.replayed().state == t.state


def test_a_positive_price_in_debt_is_refused_without_a_minus_dollar(table):
    t = _in_debt(table, debt=2)
    t.end(0).pas(0)
    v = t.bad("not_enough_money", "card_played", 0, card={"kind": "team", "name": "Pricey", "cost": 1})
    assert v.message == "Slot 1 costs $0 plus $1 for the card: $1, but Seat 0 owes $2."
    t.card(0).end(0)  # slot 2 costs $1: the prompt says why the seat can only pass, in players' words
    assert t.bad("not_enough_money", "card_played", 0, card={"kind": "team", "name": "T"}).message.endswith(
        "but Seat 0 owes $2."
    )


def test_the_turn_prompt_in_debt(rs, table):
    t = _in_debt(table, debt=2)
    t.end(0)
    assert rs.turn(t.state).prompt == "pass: slot 2 costs $1 and nothing is left (a debt of $2) (round 1 of 4)"
    t.pas(0)
    assert (
        rs.turn(t.state).prompt == "play a card into slot 1 ($0; a team card adds its own cost) or pass (round 2 of 4)"
    )


def test_a_zero_cost_card_upgrade_is_accepted_in_debt(table):
    """At −$1 a $0 card upgrade pays nothing: accepted; a $1 upgrade is still refused."""
    t = _in_debt(table, debt=1)
    v = t.bad("not_enough_money", "card_upgraded", 0, slot=1, card={"kind": "team", "name": "Big", "cost": 1})
    assert v.message == "The new card costs $1 (the slot stays paid), but Seat 0 owes $1."
    t.do("card_upgraded", 0, slot=1, card={"kind": "team", "name": "Advanced Team", "cost": 0})
    assert t.player(0)["money"] == -1 and t.player(0)["slots"][0]["card"]["name"] == "Advanced Team"
    assert t.replayed().state == t.state


def test_rp_gains_are_accepted_below_zero_rp_and_losses_are_not(table):
    """At −3 RP, +1 RP was refused ("losing -1 would go below 0")."""
    t = table(1)
    t.card(0).override("rp_gained", 0, amount=-3, reason="house penalty")
    assert t.player(0)["rp"] == -3
    v = t.bad("rp_below_zero", "rp_gained", 0, amount=-1, reason="penalty")
    assert v.message == "Seat 0 has −3 RP (below 0 after an override); a loss of 1 cannot be recorded, a gain can."
    assert "-" not in v.message.replace("−", "")
    t.do("rp_gained", 0, amount=1, reason="first find")
    assert t.player(0)["rp"] == -2
    assert t.replayed().state == t.state


def test_an_award_after_the_last_pass_is_accepted_below_zero_rp(rs, table):
    t = table(1)
    t.card(0).override("rp_gained", 0, amount=-3, reason="house penalty")
    t.end(0)
    for _ in range(4):
        t.pass_round()
    assert t.state["finished"] and t.player(0)["rp"] == -3
    assert rs.turn(t.state).prompt.endswith("For now Seat 0 leads with −3 RP (most RP).")
    t.do("rp_gained", 0, amount=2, reason="discoverer award")
    assert t.player(0)["rp"] == -1
    t.do("game_concluded")
    assert rs.turn(t.state).prompt == "Seat 0 wins with −1 RP (most RP)."
    assert t.replayed().state == t.state


def test_an_overridden_card_onto_a_full_board_is_unplayable(rs, table):
    """Item 4: "Five slots means at most five actions a round — more with upgraded action slot tiles". An
    override cannot make up a sixth slot (like a paper onto a full shelf); nothing changes."""
    t = table(1, starting_money=50)
    for _ in range(5):
        t.turn(0)
    before = t.state
    with pytest.raises(RuleViolation) as info:
        t.override("card_played", 0, card={"kind": "team", "name": "Sixth"})
    v = info.value
    assert v.code == "unplayable" and v.rule == "Chronicle › Corrections"
    assert name_seats(v.message, NAMES) == (
        "Even with the rule overridden this move cannot be placed in the game state (every action slot of Ana "
        "already holds a card this round)."
    )
    assert t.state is before and len(t.player(0)["slots"]) == 5 and t.player(0)["money"] == 43
    # an upgraded slot is the way to a sixth card, as the rulebook says
    t.pas(0)
    t.turn(0, ("slot_upgraded", {"cost": 3, "icon": "plant"}))
    for _ in range(4):
        t.turn(0)
    t.card(0, "team", "Sixth")
    assert t.player(0)["slots"][5]["card"]["name"] == "Sixth"


def test_an_overridden_card_upgrade_past_the_board_names_the_slots_not_a_python_error(table):
    """An unplayable message showed "(list index out of range)"."""
    t = table(1)
    t.card(0)
    with pytest.raises(RuleViolation) as info:
        t.override("card_upgraded", 0, slot=9, card={"kind": "team", "name": "Advanced Team"})
    v = info.value
    assert v.code == "unplayable" and "index" not in v.message
    assert v.message.endswith("(Seat 0 has 5 action slots, not 9).")

"""Bone Wars › Overview: turns in player order, passing, the end of a round."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation

pytestmark = pytest.mark.pure


def test_turn_passes_to_the_next_seat_by_index_and_wraps(table):
    t = table(3, first_seat=1)
    assert t.state["turn"] == 1
    t.turn(1)
    assert t.state["turn"] == 2 and t.state["card_played"] is False
    t.turn(2)
    assert t.state["turn"] == 0
    t.turn(0)
    assert t.state["turn"] == 1


def test_only_the_seat_on_turn_may_play(table):
    t = table(2)
    v = t.bad("not_your_turn", "card_played", 1, card={"kind": "team", "name": "T"})
    assert v.message == "It is Seat 0's turn." and v.rule == "Bone Wars › Overview"
    t.bad("not_your_turn", "passed", 1, patron="cope")
    t.card(0)
    t.bad("not_your_turn", "turn_ended", 1)
    t.bad("not_your_turn", "paper_published", 1, side="marsh")


def test_passing_puts_the_seat_out_and_sets_its_patron(table):
    t = table(3)
    t.pas(0, "cope")
    p = t.player(0)
    assert p["passed"] is True and p["patron"] == "cope"
    assert t.state["turn"] == 1


def test_a_seat_that_passed_is_out_for_the_round(table):
    t = table(3)
    t.pas(0)
    t.turn(1)
    t.turn(2)
    assert t.state["turn"] == 1  # seat 0 is skipped
    v = t.bad("already_passed", "card_played", 0, card={"kind": "team", "name": "T"})
    assert "Seat 0 has passed" in v.message
    t.bad("already_passed", "passed", 0, patron="marsh")
    t.bad("already_passed", "money_changed", 0, amount=1)


def test_the_last_seat_in_keeps_playing_alone(table):
    t = table(2)
    t.pas(0)
    t.turn(1)
    assert t.state["turn"] == 1
    t.turn(1)
    assert t.state["turn"] == 1 and t.state["round"] == 1


def test_pass_is_instead_of_a_card_not_after_it(table):
    t = table(2)
    t.card(0)
    v = t.bad("card_already_played", "passed", 0, patron="marsh")
    assert v.rule == "Bone Wars › Overview"


def test_the_turn_ends_only_after_a_card(table):
    t = table(2)
    v = t.bad("card_not_played", "turn_ended", 0)
    assert v.rule == "Bone Wars › Playing a card"
    t.card(0).end(0)


def test_when_everybody_has_passed_the_round_ends_and_slots_empty(table):
    t = table(2, first_seat=1)
    t.species(1, "Allosaurus", "bug")  # slot 1 is a bug slot: prize
    t.end(1)
    t.card(0).end(0)
    t.pas(1, "marsh")
    t.turn(0)
    assert t.state["round"] == 1 and t.state["turn"] == 0
    t.pas(0, "cope")
    s = t.state
    assert s["round"] == 2 and s["turn"] == 1  # the first seat starts every round
    assert all(sl["card"] is None and not sl["prize"] for p in s["players"] for sl in p["slots"])
    assert [p["passed"] for p in s["players"]] == [False, False]
    assert [p["patron"] for p in s["players"]] == ["cope", "marsh"]
    assert s["scorings"] == []  # round 1 is not scored


def test_upgraded_slots_stay_after_the_round(table):
    t = table(1)
    t.turn(0, ("slot_upgraded", {"cost": 3, "icon": "fossil"}))
    t.pass_round()
    slots = t.player(0)["slots"]
    assert len(slots) == 6 and slots[5] == {"cost": 3, "icon": "fossil", "card": None, "prize": False}


@pytest.mark.parametrize(
    "event, code, rule, message",
    [
        (Event("bone_dug", 0, {}), "unknown_event", "Chronicle › Entries", "Bone Wars has no 'bone_dug' entry."),
        (
            Event("turn_ended", 5, {}),
            "unknown_seat",
            "Chronicle › Entries",
            "This match has seats 0 to 1; 5 is not one of them.",
        ),
        (
            Event("turn_ended", None, {}),
            "unknown_seat",
            "Chronicle › Entries",
            "This entry is a player's: say which seat made it.",
        ),
        (
            Event("passed", 0, {"patron": "leidy"}),
            "invalid_payload",
            "Bone Wars › Loyalty",
            "The patrons are Othniel Marsh and Edward Cope: marsh or cope; got 'leidy'.",
        ),
        (
            Event("card_played", 0, {"card": {"kind": "team"}}),
            "invalid_payload",
            "Chronicle › Entries",
            "This entry does not fit: Card › Card name: this field is required.",
        ),
    ],
)
def test_unknown_entries_seats_and_payloads_are_refused(rs, table, event, code, rule, message):
    """Item 9: Chronicle's own checks cite "Chronicle › Entries", a rulebook limit its section, in plain words."""
    with pytest.raises(RuleViolation) as info:
        rs.validate(table(2).state, event)
    assert (info.value.code, info.value.rule, info.value.message) == (code, rule, message)


def test_the_checks_come_in_the_order_every_game_keeps(rs, table):
    """Issue 40: entry and seat → game over → passed → whose turn → the data → the move (rulesets.base)."""
    t = table(2)
    cases = [
        (Event("table_paused", 5, {}), "unknown_seat"),  # a table's entry naming a seat names one of the match
        (Event("passed", 1, {"patron": "leidy"}), "not_your_turn"),  # the turn before the data
        (Event("money_changed", 0, {"amount": "lots"}), "invalid_payload"),  # the data before the move
    ]
    for event, code in cases:
        with pytest.raises(RuleViolation) as info:
            rs.validate(t.state, event)
        assert info.value.code == code, (event, info.value.code)
    t.pas(0)
    with pytest.raises(RuleViolation) as info:
        rs.validate(t.state, Event("passed", 0, {"patron": "leidy"}))
    assert info.value.code == "already_passed"


@pytest.mark.parametrize(
    "type_, data, rule, message",
    [
        (
            "card_played",
            {"card": {"kind": "team", "name": "Dear", "cost": 4}},
            "Bone Wars › Playing a card",
            "A card's own cost is $0 to $3 (“plus the card’s own cost ($0 to $3 …)”); got 4.",
        ),
        (
            "slot_upgraded",
            {"cost": -1, "icon": "bug"},
            "Bone Wars › Playing a card",
            "An action slot costs $0 to $3 (“the slot’s cost ($0 to $3, rising to the right)”); got -1.",
        ),
        (
            "loyalty_gained",
            {"amount": 0},
            "Bone Wars › Loyalty",
            "Loyalty is gained, never lost: 1 or more (up to 99 in one entry) onto your patron's track "
            "(“Loyalty you gain goes on the track of your current patron”); got 0.",
        ),
        (
            "paper_published",
            {"side": "leidy"},
            "Bone Wars › Loyalty",
            "The bookshelf has two sides, Marsh’s and Cope’s: marsh or cope; got 'leidy'.",
        ),
    ],
)
def test_a_limit_the_rulebook_sets_is_refused_naming_the_rule(rs, table, type_, data, rule, message):
    """Item 9: a schema bound that is a rulebook line is refused citing that line, in plain words."""
    t = table(2)
    t.card(0)
    with pytest.raises(RuleViolation) as info:
        rs.validate(t.state, Event(type_, 0, data))
    assert (info.value.code, info.value.rule, info.value.message) == ("invalid_payload", rule, message)

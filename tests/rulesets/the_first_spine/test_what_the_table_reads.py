"""What the table reads (issue 22, items 8–10): turn lines that say what to do next and name nobody twice, an
end-of-game line naming the winner, Chronicle's own refusals cited as such, overrides that never bend a count."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.names import name_seats, turn_line
from rulesets.replay import Position, step
from rulesets.the_first_spine import RULESET
from tests.rulesets.scenario import assert_names_each_once, turn_line_of

pytestmark = pytest.mark.pure

NAMES = ["Ana", "Bo", "Cy"]


def line(state) -> str:
    return turn_line_of(RULESET, state, NAMES)


def named_once(text: str) -> None:
    assert_names_each_once(text, NAMES)


def test_turn_lines_name_each_player_once(table):
    t = table(3, board=[5, 5])
    assert line(t.state) == "Ana or Bo or Cy to play — choose a destiny and a secret origin."
    t.do("destiny_chosen", 0, destiny="hunter")
    assert line(t.state) == (
        "Ana or Bo or Cy to play — choose a destiny and a secret origin, each what they still lack "
        "(2 destiny, 3 origin)."
    )
    for seat in (1, 2):
        t.do("destiny_chosen", seat, destiny="hunter")
    assert line(t.state) == "Ana or Bo or Cy to play — choose a secret origin."
    for seat in range(3):
        t.do("origin_chosen", seat, origin="healer")
    named_once(line(t.state))
    assert line(t.state).startswith("Ana to play — discard (the first is free")
    t.refill().place("Squire", [3, 2])
    named_once(line(t.state))
    assert line(t.state) == "Ana to play — place cards and record spell effects, then end the turn."


def test_a_seat_acting_out_of_turn_is_told_what_the_table_must_do_next(table):
    t = table(2, board=[4, 5]).setup()
    v = t.bad("not_your_turn", "hand_refilled", 1, discarded=0)
    assert (
        name_seats(v.message, NAMES)
        == "It is Ana's turn: they must discard and draw first, then act and end their turn."
    )
    t.refill().place("Squire", [2, 2])
    v = t.bad("already_refilled", "hand_refilled", 1, discarded=0)  # Bo starts his turn once Ana has played
    assert name_seats(v.message, NAMES) == "Ana must finish their actions and end their turn before Bo's turn begins."
    v = t.bad("not_your_turn", "turn_ended", 1)
    assert name_seats(v.message, NAMES) == "Ana must finish their actions and end their turn."


def test_the_end_of_game_line_names_the_winner(rs, table):
    t = table(2, board=[4, 5], wizard_hp=3).setup()
    t.refill().place("Paladin", [2, 2]).place("Paladin", [1, 2]).end()
    info = rs.turn(t.state)
    assert info.seats == () and info.phase == "over"
    assert turn_line(info.seats, info.prompt, NAMES) == "Ana wins with the last wizard standing (3 life left)."
    v = t.bad("game_over", "hand_refilled", 1, discarded=0)
    assert name_seats(v.message, NAMES) == "The game is over: Ana wins with the last wizard standing (3 life left)."
    assert rs.outcome(t.state).reason == "the last wizard standing (3 life left)"  # pages put "Won by Ana" first


@pytest.mark.parametrize(
    ("code", "type_", "seat", "data", "words"),
    [
        ("unknown_event", "card_drawn", 0, {}, "The First Spine has no 'card_drawn' entry"),
        (
            "unknown_seat",
            "hand_refilled",
            None,
            {"discarded": 0},
            "Say which seat this entry is for: its seats are 0 or 1.",
        ),
        ("unknown_seat", "hand_refilled", 5, {"discarded": 0}, "This match has no seat 5: its seats are 0 or 1."),
        (
            "invalid_payload",
            "hp_changed",
            0,
            {"at": [1, 2], "amount": 500},
            "Amount (+ heals, - hurts): must be at most 99.",
        ),
        ("zero_amount", "hp_changed", 0, {"at": [3, 2], "amount": 0}, "A change of 0 hit points changes nothing"),
        ("unknown_card", "card_placed", 0, {"card": "Dragon", "at": [2, 2]}, "no card called 'Dragon'"),
    ],
)
def test_refusals_that_are_not_rulebook_rules_cite_chronicle(table, code, type_, seat, data, words):
    t = table(2, board=[4, 5]).setup()
    t.refill()
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(t.state, Event(type_, seat, data))
    assert info.value.code == code and info.value.rule == "Chronicle › Entries"
    assert words in info.value.message, info.value.message


@pytest.mark.parametrize(
    ("type_", "data", "words"),
    [
        ("hand_refilled", {"discarded": 9}, "holds 6 card(s) and cannot discard 9"),
        ("card_placed", {"card": "Squire", "at": [3, 2]}, "column 3, row 4 is not an empty cell"),
        ("card_placed", {"card": "Squire", "at": [9, 9]}, "column 10, row 10 is not an empty cell"),
        ("card_moved", {"from": [2, 2], "to": [3, 2]}, "no card can move from column 3, row 3 to column 3, row 4"),
        ("hp_changed", {"at": [1, 1], "amount": -1, "note": ""}, "there is no card or wizard on column 2, row 2"),
    ],
)
def test_an_override_never_bends_a_count_or_stacks_pieces(table, type_, data, words):
    t = table(2, board=[4, 5]).setup()
    t.put("Squire", [2, 2], 0)
    if type_ != "card_moved":
        t.refill()
    with pytest.raises(RuleViolation) as info:
        step(RULESET, Position(t.state, 10, override_pending=True), Event(type_, 0, data))
    assert info.value.code == "unplayable" and words in info.value.message, info.value.message


def test_an_override_records_what_the_table_said(table):
    """A house rule lets a card go on a cell the rules refuse (not next to one's own cards): it is placed."""
    t = table(2, board=[4, 5]).setup()
    t.refill()
    pos = step(
        RULESET, Position(t.state, 10, override_pending=True), Event("card_placed", 0, {"card": "Squire", "at": [0, 0]})
    )
    squire = next(c for c in pos.state["cards"] if c["at"] == [0, 0])
    assert squire["hp"] == 3 and pos.state["players"][0]["hand"] == 5

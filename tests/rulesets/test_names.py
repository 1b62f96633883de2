"""Players by name: rulesets write "Seat N", one function puts the players' names in."""

from __future__ import annotations

import pytest

from rulesets import get_ruleset
from rulesets.base import Event, RuleViolation
from rulesets.base import name_seats as name_seats_from_base
from rulesets.names import name_all, name_seats, seat_ref, turn_line
from rulesets.replay import describe_entry

pytestmark = pytest.mark.pure


def test_seat_n_reads_as_the_players_name():
    text = f"It is {seat_ref(1)}'s turn; {seat_ref(0)} waits, and seat 1 knows it."
    assert text == "It is Seat 1's turn; Seat 0 waits, and seat 1 knows it."
    assert name_seats(text, ["Ana", "Bo"]) == "It is Bo's turn; Ana waits, and Bo knows it."


def test_numbers_that_are_not_existing_seats_stay():
    assert name_seats("There is no seat 5; the seats are 0 and 1.", ["Ana", "Bo"]) == (
        "There is no seat 5; the seats are 0 and 1."
    )
    assert name_seats("Seat 0 and Seat 12", []) == "Seat 0 and Seat 12"  # no names known: as written
    assert name_seats("Seatbelt 1, unseat 1", ["Ana", "Bo"]) == "Seatbelt 1, unseat 1"


def test_one_function_whichever_module_it_is_imported_from():
    assert name_seats_from_base is name_seats


def test_turn_line_is_the_house_style():
    assert turn_line([1], "move or flip an unsalted cracker", ["Ana", "Bo"]) == (
        "Bo to play — move or flip an unsalted cracker"
    )
    assert turn_line([0, 1], "Seat 0 may chain, or Seat 1 starts a turn", ["Ana", "Bo"]) == (
        "Ana or Bo to play — Ana may chain, or Bo starts a turn"
    )
    assert turn_line([0], "", ["Ana"]) == "Ana to play"
    assert turn_line([], "Seat 1 has won.", ["Ana", "Bo"]) == "Bo has won."


def test_name_all_names_every_string_and_leaves_the_input_alone():
    state = {"log": ["Seat 0 takes 4 damage."], "hp": [20, 16], "nested": {"k": ("Seat 1",)}}
    out = name_all(state, ["Ana", "Bo"])
    assert out == {"log": ["Ana takes 4 damage."], "hp": [20, 16], "nested": {"k": ("Bo",)}}
    assert state["log"] == ["Seat 0 takes 4 damage."]
    untouched = {"hp": [20, 16], "words": ["nobody named"]}
    assert name_all(untouched, ["Ana"]) is untouched  # nothing to name: no copy


def test_describe_entry_names_the_players():
    stones = get_ruleset("last-stone")
    assert describe_entry(stones, Event("stones_taken", 1, {"count": 2}), ["Ana", "Bo"]) == "Bo took 2 stones"


def test_last_stone_prompt_and_refusal_name_seats():
    stones = get_ruleset("last-stone")
    state = stones.initial_state({"stones": 10}, 2)
    turn = stones.turn(state)
    assert turn_line(turn.seats, turn.prompt, ["Ana", "Bo"]) == "Ana to play — take 1 to 3 of the 10 stones left"
    with pytest.raises(RuleViolation) as refusal:
        stones.validate(state, Event("stones_taken", 1, {"count": 1}))
    assert name_seats(refusal.value.message, ["Ana", "Bo"]) == "It is Ana's turn."

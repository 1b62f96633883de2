"""Seat tokens: rulesets name seats by token, one function renders them with the match's names."""

from __future__ import annotations

import pytest

from rulesets import get_ruleset
from rulesets.base import Event, RuleViolation, TurnInfo
from rulesets.names import render, render_all, seat_ref, to_play
from rulesets.replay import describe_entry


def test_a_token_renders_as_the_seat_name():
    text = f"It is {seat_ref(1)}'s turn; {seat_ref(0)} waits."
    assert text == "It is {seat:1}'s turn; {seat:0} waits."
    assert render(text, ["Ana", "Bo"]) == "It is Bo's turn; Ana waits."


def test_a_seat_without_a_known_name_reads_seat_n():
    assert render(seat_ref(2), ["Ana", "Bo"]) == "Seat 2"
    assert render(seat_ref(0), []) == "Seat 0"


def test_text_without_tokens_is_returned_as_is():
    text = "Nothing to name here {seat} {seat:x}"
    assert render(text, ["Ana"]) is text


def test_to_play_is_the_house_style():
    assert render(to_play([1], "move or flip an unsalted cracker"), ["Ana", "Bo"]) == (
        "Bo to play — move or flip an unsalted cracker"
    )
    assert render(to_play([0, 1], "disengage"), ["Ana", "Bo"]) == "Ana or Bo to play — disengage"
    assert render(to_play([0]), ["Ana"]) == "Ana to play"
    assert to_play([], "the table decides") == "the table decides"


def test_render_all_renders_every_string_and_leaves_the_input_alone():
    state = {"log": [f"{seat_ref(0)} takes 4 damage."], "hp": [20, 16], "nested": {"k": (seat_ref(1),)}}
    out = render_all(state, ["Ana", "Bo"])
    assert out == {"log": ["Ana takes 4 damage."], "hp": [20, 16], "nested": {"k": ("Bo",)}}
    assert state["log"] == ["{seat:0} takes 4 damage."]
    untouched = {"hp": [20, 16], "words": ["no tokens"]}
    assert render_all(untouched, ["Ana"]) is untouched  # nothing to name: no copy


def test_describe_entry_renders_describe():
    stones = get_ruleset("last-stone")
    assert describe_entry(stones, Event("stones_taken", 1, {"count": 2}), ["Ana", "Bo"]) == "Bo took 2 stone(s)"


def test_every_shipped_ruleset_prompt_and_refusal_name_seats_by_token():
    """The rulesets of this repository name seats by token in their turn prompts and turn refusals."""
    stones = get_ruleset("last-stone")
    state = stones.initial_state({"stones": 10}, 2)
    turn = stones.turn(state)
    assert isinstance(turn, TurnInfo)
    assert render(turn.prompt, ["Ana", "Bo"]).startswith("Ana to play — ")
    with pytest.raises(RuleViolation) as refusal:
        stones.validate(state, Event("stones_taken", 1, {"count": 1}))
    assert render(refusal.value.message, ["Ana", "Bo"]) == "It is Ana's turn."

"""Scenario helpers shared by the ruleset tests: play legal entries, or name the rule that refuses one."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from rulesets import Event, Ruleset, RuleViolation

State = dict[str, Any]


def play_with(ruleset: Ruleset) -> Callable[..., State]:
    """``play(state, *events)``: validate and apply each event in turn (a refusal fails the test)."""

    def play(state: State, *events: Event) -> State:
        for e in events:
            ruleset.validate(state, e)
            state = ruleset.apply(state, e)
        return state

    return play


def rejected_with(ruleset: Ruleset) -> Callable[[State, Event], str]:
    """``rejected(state, event)``: the RuleViolation code ``event`` is refused with (fails if accepted)."""

    def rejected(state: State, event: Event) -> str:
        with pytest.raises(RuleViolation) as info:
            ruleset.validate(state, event)
        assert info.value.rule and info.value.message
        return info.value.code

    return rejected


def try_step(ruleset: Ruleset, state: State, event: Event) -> State | None:
    """For random walks: None if the rules refuse ``event`` (the refusal must be explained); else the new
    state, checking that ``apply`` left its input alone and that the result is plain JSON."""
    try:
        ruleset.validate(state, event)
    except RuleViolation as exc:
        assert exc.code and exc.message and exc.rule
        return None
    before = copy.deepcopy(state)
    new = ruleset.apply(state, event)
    assert state == before, "apply never changes its input"
    assert json.loads(json.dumps(new)) == new
    return new


def helper_fixtures(**helpers: Any) -> dict[str, Any]:
    """Fixtures handing out plain helper functions: ``globals().update(helper_fixtures(play=play))`` in a
    conftest makes ``play`` requestable by tests."""

    def make(value: Any) -> Any:
        return lambda: value

    return {f"_{name}_fixture": pytest.fixture(name=name)(make(value)) for name, value in helpers.items()}


def turn_line_of(ruleset: Ruleset, state: State, names: list[str]) -> str:
    """The turn line a table with players ``names`` reads for ``state`` (banner and prompt, as the pages show it)."""
    from rulesets.names import turn_line

    info = ruleset.turn(state)
    return turn_line(info.seats, info.prompt, names)


def assert_names_each_once(text: str, names: list[str]) -> None:
    """Fail if ``text`` names any of the players more than once (TurnInfo's rule)."""
    import re

    for name in names:
        assert len(re.findall(rf"\b{name}\b", text)) <= 1, text

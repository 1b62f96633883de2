"""Scenario helpers shared by the ruleset tests: play legal entries, or name the rule that refuses one."""

from __future__ import annotations

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

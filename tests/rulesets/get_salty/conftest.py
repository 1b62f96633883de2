"""Shared helpers for the Get Salty tests (exposed as the ``gs`` fixture)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from rulesets.base import Event, RuleViolation, State
from rulesets.get_salty import RULESET, position


def ev(type_: str, seat: int | None, **data: Any) -> Event:
    return Event(type_, seat, data)


def play(state: State, *events: Event) -> State:
    """Validate then apply each event in turn; fails the test on the first rejection."""
    for event in events:
        RULESET.validate(state, event)
        state = RULESET.apply(state, event)
    return state


def reject(state: State, event: Event, code: str) -> RuleViolation:
    """Assert ``event`` is rejected with ``code`` and that legal_moves does not list it."""
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(state, event)
    assert info.value.code == code, info.value.to_dict()
    assert info.value.message and info.value.rule.startswith(("Get Salty ›", "Chronicle ›"))
    assert key(event) not in {key(e) for e in RULESET.legal_moves(state)}
    return info.value


def accept(state: State, event: Event) -> State:
    """Assert ``event`` is legal (and listed by legal_moves); return the state after it."""
    RULESET.validate(state, event)
    assert key(event) in {key(e) for e in RULESET.legal_moves(state)}
    return RULESET.apply(state, event)


def key(event: Event) -> tuple[str, Any, str]:
    return (event.type, event.seat, json.dumps(event.data, sort_keys=True))


def started(first: int = 0, attribute: str = "shape", **options: Any) -> State:
    """The state right after the starting seat chose its victory attribute."""
    state = RULESET.initial_state({"first_seat": first, **options}, 2)
    return play(state, ev("victory_attribute_chosen", first, attribute=attribute))


def cell_of(state: State, name: str) -> list[int] | None:
    return state["tokens"][name]["cell"]


@pytest.fixture
def gs() -> SimpleNamespace:
    return SimpleNamespace(
        R=RULESET,
        ev=ev,
        play=play,
        reject=reject,
        accept=accept,
        key=key,
        started=started,
        position=position,
        cell_of=cell_of,
    )

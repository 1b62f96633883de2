"""Folding an event sequence into a state, with the two table-level corrections every game shares.

``event_voided {version, reason}`` hides an earlier event from the reducer (the log keeps both), and
``rule_overridden {reason}`` lets the next game event through without the rules check. Both are handled
here, once, for every ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rulesets.base import Event, EventType, Ruleset, RuleViolation, State
from rulesets.schema import Field

EVENT_VOIDED = "event_voided"
RULE_OVERRIDDEN = "rule_overridden"

META_EVENT_TYPES: dict[str, EventType] = {
    EVENT_VOIDED: EventType(
        name=EVENT_VOIDED,
        label="Entry voided",
        seat_required=False,
        fields=(
            Field("version", "int", minimum=1, label="Version to void"),
            Field("reason", "str", max_length=500, label="Reason"),
        ),
        description="Corrects a mistake: the entry at `version` no longer counts; the log keeps both.",
    ),
    RULE_OVERRIDDEN: EventType(
        name=RULE_OVERRIDDEN,
        label="Rule overridden",
        seat_required=False,
        fields=(Field("reason", "str", max_length=500, label="Reason (house rule)"),),
        description="The table deliberately lets the next move through without the rules check.",
    ),
}

CORRECTIONS_RULE = "Chronicle › Corrections"


@dataclass(frozen=True)
class Position:
    """A stream's folded state at ``version``; ``override_pending`` when the last entry was an override."""

    state: State
    version: int = 0
    override_pending: bool = False


class ReplayError(Exception):
    """A stored entry could not be applied on replay (the rules changed under it)."""

    def __init__(self, version: int, violation: RuleViolation | None, detail: str) -> None:
        super().__init__(detail)
        self.version = version
        self.violation = violation
        self.detail = detail


def event_types_with_meta(ruleset: Ruleset) -> dict[str, EventType]:
    """The ruleset's own event types plus the correction events."""
    return {**ruleset.event_types, **META_EVENT_TYPES}


def step(ruleset: Ruleset, pos: Position, event: Event, *, check: bool = True) -> Position:
    """The position after recording one entry that is not a void.

    With ``check`` the rules are enforced unless an override is pending. An overridden event that the
    reducer still cannot apply raises :class:`RuleViolation` (``unplayable``).
    """
    new_version = pos.version + 1
    if event.type == RULE_OVERRIDDEN:
        if check and pos.override_pending:
            raise RuleViolation(
                "override_pending",
                "An override is already waiting for the next move; record that move first.",
                CORRECTIONS_RULE,
            )
        return Position(pos.state, new_version, True)
    if event.type == EVENT_VOIDED:
        raise ValueError("voids are folded by fold(), not step()")
    event = replace(event, version=new_version)
    if check and not pos.override_pending:
        ruleset.validate(pos.state, event)
    try:
        new_state = ruleset.apply(pos.state, event)
    except RuleViolation:
        raise
    except Exception as exc:  # an overridden move the reducer cannot make sense of
        if not pos.override_pending:
            raise
        raise RuleViolation(
            "unplayable",
            f"Even with the rule overridden this move cannot be placed in the game state ({exc}).",
            CORRECTIONS_RULE,
        ) from exc
    return Position(new_state, new_version, False)


def voided_versions(events: Iterable[tuple[int, Event]]) -> set[int]:
    """Versions hidden by the ``event_voided`` entries among ``events``."""
    return {int(e.data["version"]) for _, e in events if e.type == EVENT_VOIDED}


def fold(
    ruleset: Ruleset,
    start: Position,
    tail: Iterable[tuple[int, Event]],
    voided: set[int],
    *,
    check: bool = False,
) -> Position:
    """Fold ``tail`` (``(version, event)`` pairs following ``start.version``) onto ``start``.

    Entries whose version is in ``voided`` and the void entries themselves only advance the version.
    ``check`` re-validates each entry (used when a void is recorded, and by the ruleset-version check);
    a failure raises :class:`ReplayError` naming the version.
    """
    pos = start
    for version, event in tail:
        if version in voided or event.type == EVENT_VOIDED:
            pos = Position(pos.state, version, pos.override_pending)
            continue
        try:
            pos = step(ruleset, Position(pos.state, version - 1, pos.override_pending), event, check=check)
        except RuleViolation as exc:
            raise ReplayError(version, exc, f"Entry {version} ({event.type}) is no longer legal: {exc.message}")
        except Exception as exc:
            raise ReplayError(version, None, f"Entry {version} ({event.type}) cannot be applied: {exc}") from exc
    return pos


def states_before(ruleset: Ruleset, start: Position, tail: Iterable[tuple[int, Event]]) -> dict[int, State]:
    """The state each entry of ``tail`` was recorded on, by version (for rulesets whose history sentences
    depend on the position: ``Ruleset.describe_uses_state``). A voided entry gets the state it was played
    on, as if it counted; entries that no longer fold keep the last good state (history never fails)."""
    numbered = list(tail)
    voided = voided_versions(numbered)
    out: dict[int, State] = {}
    pos = start
    for version, event in numbered:
        out[version] = pos.state
        if version in voided or event.type == EVENT_VOIDED:
            continue
        try:
            pos = step(ruleset, Position(pos.state, version - 1, pos.override_pending), event, check=False)
        except Exception:  # a history page must never break on an entry that no longer folds
            continue
    return out


def replay(
    ruleset: Ruleset, options: dict[str, Any], seat_count: int, events: list[Event], *, check: bool = False
) -> Position:
    """The position after all of ``events`` (version i+1 for index i), from the initial state."""
    numbered = list(enumerate(events, start=1))
    start = Position(ruleset.initial_state(options, seat_count), 0, False)
    return fold(ruleset, start, numbered, voided_versions(numbered), check=check)

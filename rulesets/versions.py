"""Rule versions: a stored match keeps the rules it was recorded under (docs/ARCHITECTURE.md › Rule versions).

A ruleset's ``version`` is its *current* rules. A stream is judged under the rules version it was recorded
with (``Stream.rules_version``) until its owner moves it to the current rules with a ``rules_upgraded``
entry. The version reaches the reducer through the state itself: the initial state of a stream recorded under
older rules carries ``RULES_KEY`` (the state of a stream under the current rules has no such key, so nothing
changes for them), and a ruleset branches only where a rule of that version differs::

    if recorded_before(state, 2):   # version 1 of this rule, kept for matches recorded under it
        ...

Everything here is pure: no Django, no I/O.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Ruleset, State

RULES_KEY = "rules_version"  # reserved state key: the older rules version a stream is judged under
RULES_UPGRADED = "rules_upgraded"  # the owner's entry: {"from": n, "to": m}; the whole match replays under m


def rules_of(ruleset: Ruleset, state: State) -> int:
    """The rules version ``state`` is judged under: the stamped older one, else the ruleset's current one."""
    stamped = state.get(RULES_KEY) if isinstance(state, dict) else None
    return stamped if isinstance(stamped, int) and not isinstance(stamped, bool) else ruleset.version


def recorded_before(state: State, version: int) -> bool:
    """True when ``state`` is judged under rules older than ``version`` (a stream recorded before that rule
    changed). A state without the stamp is under the current rules: False."""
    stamped = state.get(RULES_KEY) if isinstance(state, dict) else None
    return isinstance(stamped, int) and not isinstance(stamped, bool) and stamped < version


def stamp(ruleset: Ruleset, state: State, rules_version: int | None) -> State:
    """``state`` (an initial state) judged under ``rules_version``: stamped when older than the current rules,
    returned as is otherwise (None, or the current version or above, mean the current rules)."""
    if rules_version is None or rules_version >= ruleset.version:
        return state
    return {**state, RULES_KEY: max(1, int(rules_version))}


def initial_state(
    ruleset: Ruleset, options: dict[str, Any], seat_count: int, rules_version: int | None = None
) -> State:
    """The ruleset's initial state for a stream judged under ``rules_version`` (None: the current rules)."""
    return stamp(ruleset, ruleset.initial_state(options, seat_count), rules_version)


def upgrade_words(ruleset: Ruleset, data: dict[str, Any]) -> str:
    """The history sentence of a ``rules_upgraded`` entry."""
    return (
        f"Replayed under the current rules of {ruleset.name} (version {data.get('from')} → {data.get('to')}), "
        "at the owner's request."
    )

"""A series' state: its game, the points per place, and the matches in it (in the order they joined)."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, State
from rulesets.series.fields import MATCH_ADDED, MATCH_REMOVED
from rulesets.series.standings import DEFAULT_PLACE_POINTS


def new_state(options: dict[str, Any]) -> State:
    """A series with no match yet."""
    return {
        "game": options["game"],
        "place_points": list(options.get("place_points") or DEFAULT_PLACE_POINTS),
        "matches": [],
    }


def clone(state: State) -> State:
    """A copy whose list of matches may be edited."""
    return {**state, "matches": list(state["matches"])}


def add(new: State, event: Event) -> None:
    """The match joins (at the end; once)."""
    match = event.data["match"]
    new["matches"] = [m for m in new["matches"] if m != match] + [match]


def remove(new: State, event: Event) -> None:
    """The match leaves."""
    match = event.data["match"]
    new["matches"] = [m for m in new["matches"] if m != match]


EFFECTS = {MATCH_ADDED: add, MATCH_REMOVED: remove}

"""The score sheet's state: totals per seat, the entries that made them, and whether the game ended."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, State
from rulesets.scoresheet.fields import GAME_ENDED, POINTS_SCORED


def new_state(options: dict[str, Any], seat_count: int) -> State:
    """An empty sheet for ``seat_count`` seats."""
    return {
        "title": options.get("title", ""),
        "highest_wins": options.get("highest_wins", True),
        "cooperative": options.get("cooperative", False),
        "totals": [0] * seat_count,
        "entries": [],
        "ended": False,
        "won": None,
    }


def clone(state: State) -> State:
    """A copy whose totals and entries list may be edited (the entries themselves are never changed)."""
    return {**state, "totals": list(state["totals"]), "entries": list(state["entries"])}


def score(new: State, event: Event) -> None:
    """The points go to the seat's total and onto the sheet."""
    new["totals"][event.seat] += event.data["points"]
    new["entries"].append({"seat": event.seat, "points": event.data["points"], "round": event.data.get("round")})


def end(new: State, event: Event) -> None:
    """The game ends (won or lost, for a cooperative game)."""
    new["ended"] = True
    new["won"] = event.data.get("won")


EFFECTS = {POINTS_SCORED: score, GAME_ENDED: end}

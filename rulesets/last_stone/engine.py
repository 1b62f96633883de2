"""Last Stone's reducer: the state, one effect per entry type, and what follows a take."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, State
from rulesets.last_stone.fields import STONES_TAKEN


def new_state(options: dict[str, Any], first_seat: int) -> State:
    """The pile before the first take, ``first_seat`` on turn."""
    return {"pile": options.get("stones", 10), "turn": first_seat, "winner": None}


def take(new: State, event: Event) -> None:
    """The stones leave the pile; whoever took the last one wins, else the other seat is on turn."""
    seat = event.seat if event.seat is not None else new["turn"]
    new["pile"] -= event.data["count"]
    new["winner"] = seat if new["pile"] == 0 else None
    new["turn"] = 1 - seat


EFFECTS = {STONES_TAKEN: take}

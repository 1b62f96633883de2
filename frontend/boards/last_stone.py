"""Last Stone board: the pile as stones, whose turn it is by name, and who took the last stone."""

from __future__ import annotations

from typing import Any

from frontend.boards.shared import TableFacts


def board(ms: Any, facts: TableFacts) -> dict[str, Any]:
    """The pile and the seats by name (the generic view would say "turn 0", "winner 0")."""
    state = ms.state
    names = list(facts.seat_names)
    winner = state.get("winner")
    return {
        "template": "frontend/boards/last-stone.html",
        "pile": state["pile"],
        "stones": range(min(state["pile"], 60)),
        "to_play": None if winner is not None else names[state["turn"]],
        "winner": None if winner is None else names[winner],
    }

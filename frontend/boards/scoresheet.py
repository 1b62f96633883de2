"""Score sheet board: the game's name, then one row per player with their points per round and their total."""

from __future__ import annotations

from typing import Any

from frontend.boards.shared import TableFacts


def board(ms: Any, facts: TableFacts) -> dict[str, Any]:
    """The sheet as a table: a column per round (entries without a round go under "Other"), then the total
    (a logged result's scores when the game was logged after the fact); the winners marked once it ended."""
    state = ms.state
    names = list(facts.seat_names)
    rounds = sorted({e["round"] for e in state["entries"] if e.get("round") is not None})
    loose = any(e.get("round") is None for e in state["entries"])
    winners = set(ms.outcome["winners"]) if ms.outcome else set()
    # a game logged after the fact (``result_recorded``) holds its scores in the outcome, not in the entries
    logged_result = ms.outcome is not None and not state["ended"]
    logged = {int(k): v for k, v in ((ms.outcome or {}).get("scores") or {}).items()} if logged_result else {}
    rows = []
    for seat, total in enumerate(state["totals"]):
        mine = [e for e in state["entries"] if e["seat"] == seat]
        cells = [_sum(e["points"] for e in mine if e.get("round") == r) for r in rounds]
        if loose:
            cells.append(_sum(e["points"] for e in mine if e.get("round") is None))
        name = names[seat] if seat < len(names) else f"Seat {seat}"
        total = logged.get(seat, "") if logged_result else total  # a result logged without scores shows none
        rows.append({"seat": seat, "name": name, "cells": cells, "total": total, "winner": seat in winners})
    heads = [f"Round {r}" for r in rounds] + (["Other"] if loose else [])
    rule = (
        "Cooperative: the players win or lose together"
        if state["cooperative"]
        else ("Highest score wins" if state["highest_wins"] else "Lowest score wins")
    )
    return {
        "template": "frontend/boards/scoresheet.html",
        "title": state.get("title") or "",
        "rule": rule,
        "heads": heads,
        "rows": rows,
        "ended": bool(ms.outcome),
    }


def _sum(points: Any) -> int | str:
    values = list(points)
    return sum(values) if values else ""

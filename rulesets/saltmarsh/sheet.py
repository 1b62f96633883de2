"""Reading a Saltmarsh campaign state: the Campaign Tracker sheet and the gold ledger."""

from __future__ import annotations

import copy
from typing import Any

from rulesets.saltmarsh.cards import is_item

State = dict[str, Any]


def norm(name: str) -> str:
    """The comparison key of a hero or card name: case and extra spaces do not matter."""
    return " ".join(name.split()).casefold()


def _hero_row(hero: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": hero["name"],
        "class": hero["class"],
        "level": hero["level"],
        "gold": hero["gold"],
        "items": [
            {"name": i["name"], "buy": i.get("buy"), "sell": i.get("sell"), "item": is_item(i)} for i in hero["items"]
        ],
        "powers": list(hero["powers"]),
        "advancement_tokens": list(hero.get("advancement_tokens", [])),
    }


def sheet(state: State) -> dict[str, Any]:
    """The Campaign Tracker: active heroes (join order), retired heroes, and every adventure with its result.

    Shape: ``{"heroes": [{"name", "class", "level", "gold", "items": [{"name", "buy", "sell", "item"}],
    "powers", "advancement_tokens"}], "retired_heroes": [same], "adventures": [{"adventure", "heroes",
    "result", "match"}]}`` where ``result`` is ``"in progress"``, ``"completed"`` or ``"failed"`` and
    ``match`` the adventure match's id (None when played on paper). Pure; the state is not changed.
    """
    return {
        "heroes": [_hero_row(h) for h in state["heroes"] if not h["retired"]],
        "retired_heroes": [_hero_row(h) for h in state["heroes"] if h["retired"]],
        "adventures": [
            {"adventure": a["adventure"], "heroes": list(a["heroes"]), "result": a["result"], "match": a.get("match")}
            for a in state["adventures"]
        ],
    }


def gold_ledger(state: State, hero: str | None = None) -> list[dict[str, Any]]:
    """Every gold change, oldest first, each row ``{"hero", "version", "delta", "cause", "note", "balance"}``.

    ``version`` is the ordinal of the entry that caused the change among the entries the reducer applied
    (``state["events_applied"]`` at that moment, counting from 1); voided entries and ``rule_overridden``
    markers are not counted, so the Django layer maps ordinals to stream versions. With ``hero``, only
    that hero's rows (the active hero of that name, else the latest retired one); an unknown name raises
    ``KeyError``.
    """
    heroes = state["heroes"]
    if hero is not None:
        key = norm(hero)
        matches = [h for h in heroes if norm(h["name"]) == key]
        if not matches:
            raise KeyError(hero)
        active = [h for h in matches if not h["retired"]]
        heroes = [(active or matches)[-1]]
    rows = [{"hero": h["name"], **copy.deepcopy(row)} for h in heroes for row in h["ledger"]]
    rows.sort(key=lambda r: r["version"] if r["version"] is not None else 0)  # stable: hero order within one entry
    return rows

"""Board partials: each game may draw its own state; otherwise a readable generic view is used.

A board function takes ``(match, ruleset, ms, legal, request, can_record)`` (and ``problem``, the refused
entry being shown again, if it names that parameter) and returns a dict with the ``template`` to include and
any context it needs. Register it in ``BOARDS`` by game slug, and its stylesheet in ``STYLESHEETS``: the page
links it in ``<head>``, so the board never draws before its styles.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from rulesets.names import plural

BoardFunction = Callable[..., dict[str, Any]]

# slug → "module:function"; imported lazily so a page only loads the board it draws
BOARDS: dict[str, str] = {
    "get-salty": "frontend.board_get_salty:board",
    "salt-and-bones": "frontend.board_salt_and_bones:board",
    "saltmarsh-adventure": "frontend.board_saltmarsh_adventure:board",
    "bone-wars": "frontend.board_bone_wars:board",
    "the-first-spine": "frontend.board_the_first_spine:board",
    "scoresheet": "frontend.board_scoresheet:board",
    "last-stone": "frontend.board_last_stone:board",
}

# slug → the board's stylesheet (a static path)
STYLESHEETS: dict[str, str] = {
    "get-salty": "frontend/get-salty.css",
    "salt-and-bones": "frontend/salt-and-bones.css",
    "saltmarsh-adventure": "frontend/saltmarsh.css",
    "bone-wars": "frontend/bone-wars.css",
    "the-first-spine": "frontend/the-first-spine.css",
}


def _flatten(value: Any, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """Key/value rows for the generic state view (nested dicts become dotted keys)."""
    rows: list[tuple[str, str]] = []
    if isinstance(value, dict) and depth < 2:
        for k, v in value.items():
            rows.extend(_flatten(v, f"{prefix}{k}.", depth + 1))
        return rows
    label = prefix.rstrip(".").replace("_", " ")
    if isinstance(value, list):
        text = (
            ", ".join(str(v) for v in value)
            if all(not isinstance(v, (dict, list)) for v in value)
            else plural(len(value), "item")
        )
    else:
        text = "—" if value is None else str(value)
    rows.append((label, text))
    return rows


def generic_board(**kwargs: Any) -> dict[str, Any]:
    """Any game: the state as labelled rows."""
    return {"template": "frontend/boards/generic.html", "rows": _flatten(kwargs["ms"].state)}


def board_for(**kwargs: Any) -> dict[str, Any]:
    """The board partial for the match's game (the generic one if the game has none or it fails to import)."""
    target = BOARDS.get(kwargs["match"].game)
    if target:
        module_name, func = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            return generic_board(**kwargs)
        draw = getattr(module, func)
        accepted = inspect.signature(draw).parameters
        return draw(**{k: v for k, v in kwargs.items() if k in accepted})
    return generic_board(**kwargs)

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
from rulesets.replay import RESULT_KEY

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

# games whose own board draws a recorded result (the score sheet shows the scores in its table)
OWN_RESULT_BOARD = frozenset({"scoresheet"})

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


def result_board(**kwargs: Any) -> dict[str, Any]:
    """A game logged after it was played (``result_recorded``): the result and the scores as the table told
    them, with no move entry; the game's own board below, read-only, only when moves were recorded before."""
    from frontend.selectors import moves_recorded
    from matches.selectors import match_seat_names

    match, ms = kwargs["match"], kwargs["ms"]
    result = ms.state[RESULT_KEY]
    names = match_seat_names(match)
    scores = {int(k): v for k, v in (result.get("scores") or {}).items()}
    winners = set(result.get("winners") or [])
    rows = [{"name": name, "score": scores.get(seat, ""), "winner": seat in winners} for seat, name in enumerate(names)]
    played = None
    if moves_recorded(stream_id=match.stream_id, upto=ms.version):
        played = _game_board(**{**kwargs, "legal": None, "can_record": False})
    return {
        "template": "frontend/boards/result.html",
        "rows": rows,
        "scored": bool(scores),
        "draw": bool(result.get("draw")),
        "note": result.get("note", ""),
        "played": played,
    }


def board_for(**kwargs: Any) -> dict[str, Any]:
    """The board partial for the match's game (the generic one if the game has none or it fails to import);
    a result the table recorded instead of the moves is drawn as :func:`result_board`."""
    ms = kwargs["ms"]
    if ms.state.get(RESULT_KEY) is not None and kwargs["match"].game not in OWN_RESULT_BOARD:
        return result_board(**kwargs)
    return _game_board(**kwargs)


def _game_board(**kwargs: Any) -> dict[str, Any]:
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

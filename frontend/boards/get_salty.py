"""Get Salty board: the play area as an SVG grid with a clickable overlay, the reserve, and the moves.

Everything works without JavaScript. ``?pick=<token>`` selects a token that has a legal move; its legal
destinations are then drawn highlighted and become submit buttons of one POST form (each button posts the
complete legal event as ``move``). ``?hint=1`` shows the table hint (to the player to move only, see :func:`hint_reader`). Column and row numbers
are drawn along the board's edges, so the cells the history names ("to [0, -1]") can be found on it. Only events from ``legal`` (the
ruleset's ``legal_moves``) are ever offered.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from frontend.boards.shared import TableFacts, board_href, board_links, move_json
from rulesets.base import Event
from rulesets.cells import xy_words
from rulesets.get_salty import hints as salty_hints
from rulesets.get_salty.board import COLORS, CONTAINER, CRACKER_ATTRS, CRACKERS, MAX_SPAN, SHAPES
from rulesets.get_salty.fields import (
    ATTRIBUTE_CHOSEN,
    CONTAINER_FLIPPED,
    CONTAINER_MOVED,
    CRACKER_FLIPPED,
    CRACKER_MOVED,
)
from rulesets.replay import describe_entry

TEMPLATE = "frontend/boards/get-salty.html"
CELL = 100  # SVG units per cell

# fills chosen to stay apart in lightness as well as hue (the shape and the label carry the rest)
FILLS = {"red": "#d1352b", "yellow": "#f5c518", "blue": "#1d4f9c"}
STROKES = {"red": "#6e140f", "yellow": "#6b5200", "blue": "#0b2350"}

# where the bite is taken out of each shape (centre of the big bite circle), inside a 100 × 100 cell
BITES = {"circle": (80, 22), "square": (86, 16), "triangle": (76, 44)}
# salt grains: small white specks placed inside all three shapes
GRAINS = ((40, 58), (52, 50), (61, 63), (45, 72), (57, 76), (35, 78), (66, 79), (50, 63))

_NUMBER_WORDS = {3: "three", 4: "four", 5: "five"}
_KIND_WORDS = {"row": "in a row", "column": "in a column", "diagonal": "on a diagonal"}


def _cell(value: Any) -> tuple[int, int] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return int(value[0]), int(value[1])
    return None


def _token_of(event: Event) -> str | None:
    """The token an event acts on ('container' or a cracker name); None for the attribute choice."""
    if event.type in (CONTAINER_FLIPPED, CONTAINER_MOVED):
        return CONTAINER
    if event.type in (CRACKER_FLIPPED, CRACKER_MOVED):
        name = event.data.get("cracker")
        return name if name in CRACKER_ATTRS else None
    return None


def token_label(state: dict[str, Any], name: str) -> str:
    """'red circle' (with the match's display labels) or 'Salt Container'."""
    if name == CONTAINER:
        return "Salt Container"
    shape, color = CRACKER_ATTRS[name]
    labels = state.get("labels") or {}
    return f"{labels.get('color', {}).get(color, color)} {labels.get('shape', {}).get(shape, shape)}"


def _condition(state: dict[str, Any], name: str) -> str:
    salty = state["tokens"][name]["salty"]
    if name == CONTAINER:
        return "filled (salty)" if salty else "empty (unsalted)"
    return "salty" if salty else "unsalted"


def symbol_id(name: str, salty: bool) -> str:
    return f"gs-{name}-{'salty' if salty else 'plain'}"


def _bite(shape: str) -> list[tuple[int, int, int]]:
    """The circles cut out of a salty cracker: one big bite with two smaller scallops beside it."""
    bx, by = BITES[shape]
    return [(bx, by, 20), (bx - 17, by + 11, 10), (bx + 11, by - 17, 10)]


def _symbols() -> list[dict[str, Any]]:
    """The 18 cracker faces (9 crackers, both sides) drawn once as SVG symbols."""
    out = []
    for shape in SHAPES:
        for color in COLORS:
            for salty in (False, True):
                out.append(
                    {
                        "id": symbol_id(f"{shape}-{color}", salty),
                        "shape": shape,
                        "fill": FILLS[color],
                        "stroke": STROKES[color],
                        "salty": salty,
                    }
                )
    return out


def _combo_words(state: dict[str, Any], combo: dict[str, Any], seat_names: list[str]) -> str:
    labels = state.get("labels") or {}
    value = labels.get(combo["attribute"], {}).get(combo["value"], combo["value"])
    n = len(combo["cells"])
    seat = combo.get("seat")
    who = seat_names[seat] if isinstance(seat, int) and seat < len(seat_names) else f"seat {seat}"
    return (
        f"{_NUMBER_WORDS.get(n, str(n))} {value} crackers {_KIND_WORDS.get(combo['kind'], combo['kind'])} (for {who})"
    )


def _more(moves: list[Event], what: str) -> str:
    """The words " (2 more winning moves)" for the moves after the first one shown."""
    extra = len(moves) - 1
    return f" ({extra} more {what}{'s' if extra > 1 else ''})" if extra > 0 else ""


def hint_text(ruleset: Any, state: dict[str, Any], seat_names: list[str]) -> str | None:
    """The hint for the seat on turn, in the present tense, spoken to that player ("you"), or None when there
    is nothing to hint (choice phase, game over). Moves are told by cell and by a neighbouring token
    ("move the red circle from [1, 0] to [0, -1], above the Salt Container, and flip it")."""
    if state.get("attributes") is None or state.get("winner") is not None:
        return None
    seat = state["turn"]
    found = salty_hints(state, seat)
    wins, threats = found["winning_moves"], found["opponent_threats"]
    opponent = seat_names[1 - seat] if 1 - seat < len(seat_names) else "your opponent"
    if wins:
        return f"You can win now: {ruleset.move_words(state, wins[0])}.{_more(wins, 'winning move')}"
    if threats:
        threat = threats[0]
        return (
            f"Watch out: {opponent} can win on the next turn by {ruleset.move_words(state, threat, gerund=True)}."
            f"{_more(threats, 'such move')}"
        )
    return f"No move wins now, and {opponent} has no winning move on the next turn as the board stands."


def hint_reader(facts: TableFacts, turn: int) -> str | None:
    """Who may read the hint for ``turn`` on this page: "you" when the reader holds that seat, the player's
    name when a recorder holding no seat has the phone (the page cannot tell who is looking: the hint is
    labelled for the player to move), None for anyone else (spectators, the other player, recording or not):
    a hint is table help for the player to move only (who reads: ``facts``, ``matches.store.visibility.reader_at``)."""
    seat = facts.reader_seat()
    if seat is not None:
        return "you" if seat == turn else None
    if facts.reader_records:
        names = list(facts.seat_names)
        return names[turn] if turn < len(names) else None
    return None


def board(*, ruleset: Any, ms: Any, legal: list[Event] | None, can_record: bool, facts: TableFacts) -> dict[str, Any]:
    """The context for ``frontend/boards/get-salty.html``."""
    state = ms.state
    tokens = state["tokens"]
    seat_names = list(facts.seat_names)
    live_position = ms.version == ms.latest_version
    interactive = bool(can_record and legal is not None and live_position and state.get("winner") is None)
    moves: list[Event] = list(legal or []) if interactive else []

    by_token = _by_token(moves)
    pick = facts.query.get("pick") or None
    if pick not in by_token:
        pick = None
    # the hint is asked for, and this reader may read it (links keep it only then: the other player's links
    # carry no hint=1)
    can_hint = live_position and state.get("attributes") is not None and state.get("winner") is None
    reader = hint_reader(facts, state["turn"]) if can_hint else None
    hint_on = facts.query.get("hint") == "1" and live_position and reader is not None

    # links are absolute: the page is also rendered in answer to a refused POST to the record URL
    page_url = facts.page_url

    href = board_links(page_url, {"hint": "1"} if hint_on else None)

    targets, flip_event = _picked_moves(by_token.get(pick or "", []))
    container_flip = next((e for e in moves if e.type == CONTAINER_FLIPPED), None)
    in_play = {n: _cell(t["cell"]) for n, t in tokens.items() if t["cell"] is not None}
    lo_x, hi_x, lo_y, hi_y = _box(in_play, moves)
    cols, rows = hi_x - lo_x + 1, hi_y - lo_y + 1
    place = partial(_place, origin=(lo_x, lo_y))
    occupied = {c: n for n, c in in_play.items() if c is not None}
    grid = [
        {**place((x, y)), "empty": (x, y) not in occupied} for y in range(lo_y, hi_y + 1) for x in range(lo_x, hi_x + 1)
    ]
    play = [
        {**_token_entry(state, name, by_token, pick, href), **place(cell)}
        for name, cell in in_play.items()
        if cell is not None
    ]
    play.sort(key=lambda t: (t["row"], t["col"]))  # reading order, so Tab walks the board row by row

    pick_label = token_label(state, pick) if pick else ""
    verb = "Place {} at" if pick and tokens[pick]["cell"] is None else "Move {} to"
    target_list = [
        {
            **place(cell),
            "move": move_json(targets[cell]),
            "aria": f"{verb.format(pick_label)} {xy_words(cell)} (then flip it)",
            "text": describe_entry(ruleset, targets[cell], seat_names),
        }
        for cell in sorted(targets, key=lambda c: (c[1], c[0]))
    ]
    reserve_names = state.get("reserve") or [n for n in CRACKERS if tokens[n]["cell"] is None]
    reserve = [_token_entry(state, n, by_token, pick, href) for n in reserve_names]
    choices = [
        {**_entry_button(ruleset, e, seat_names), "label": str(e.data.get("attribute", "")).capitalize()}
        for e in moves
        if e.type == ATTRIBUTE_CHOSEN
    ]
    return {
        "template": TEMPLATE,
        "interactive": interactive,
        "cols": cols,
        "rows": rows,
        "width": cols * CELL,
        "height": rows * CELL,
        "grid": grid,
        "tokens": play,
        "reserve": reserve,
        "symbols": _symbols(),
        "bites": [{"shape": shape, "circles": _bite(shape)} for shape in SHAPES],
        "grains": GRAINS,
        "pick": pick,
        "pick_label": pick_label,
        "pick_condition": _condition(state, pick) if pick else "",
        "targets": target_list,
        "flip": None if flip_event is None else _entry_button(ruleset, flip_event, seat_names),
        "container_flip": None if container_flip is None else _entry_button(ruleset, container_flip, seat_names),
        "unpick_href": href(),
        "choices": choices,
        "chooser": seat_names[state["turn"]] if choices and state["turn"] < len(seat_names) else "",
        "lines": _lines(state, place, seat_names),
        "over": state.get("winner") is not None,
        "attributes": _attribute_rows(state, seat_names),
        "container": _container(state),
        "hint_on": hint_on,
        "hint_text": hint_text(ruleset, state, seat_names) if hint_on else None,
        "hint_for": "" if reader == "you" else reader,
        "can_hint": reader is not None,
        "xs": list(range(lo_x, hi_x + 1)),
        "ys": list(range(lo_y, hi_y + 1)),
        "hint_href": board_href(page_url, {"pick": pick}, {"hint": "1"}),
        "hide_hint_href": board_href(page_url, {"pick": pick}),
    }


def _by_token(moves: list[Event]) -> dict[str, list[Event]]:
    """The legal events grouped by the token they act on."""
    by_token: dict[str, list[Event]] = {}
    for event in moves:
        token = _token_of(event)
        if token is not None:
            by_token.setdefault(token, []).append(event)
    return by_token


def _entry_button(ruleset: Any, event: Event, seat_names: list[str]) -> dict[str, Any]:
    """A legal move as a button: the move it posts and the entry it records, in words."""
    return {"move": move_json(event), "text": describe_entry(ruleset, event, seat_names)}


def _picked_moves(events: list[Event]) -> tuple[dict[tuple[int, int], Event], Event | None]:
    """The picked token's legal moves: ``(cell → the move there, its flip)``."""
    targets: dict[tuple[int, int], Event] = {}
    flip_event: Event | None = None
    for event in events:
        if event.type in (CONTAINER_MOVED, CRACKER_MOVED):
            cell = _cell(event.data.get("to"))
            if cell is not None:
                targets[cell] = event
        elif event.type == CRACKER_FLIPPED:
            flip_event = event
    return targets, flip_event


def _box(in_play: dict[str, tuple[int, int] | None], moves: list[Event]) -> tuple[int, int, int, int]:
    """The grid ``(lo_x, hi_x, lo_y, hi_y)``: the bounding box of the tokens in play, padded by one cell where the
    4 × 4 limit allows, widened to every legal destination (a full row of 4 may "roll" one cell further)."""
    cells = [c for c in in_play.values() if c is not None] or [(0, 0)]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    pad_x = 1 if max(xs) - min(xs) + 1 < MAX_SPAN else 0
    pad_y = 1 if max(ys) - min(ys) + 1 < MAX_SPAN else 0
    lo_x, hi_x, lo_y, hi_y = min(xs) - pad_x, max(xs) + pad_x, min(ys) - pad_y, max(ys) + pad_y
    for event in moves:
        cell = _cell(event.data.get("to")) if event.type in (CONTAINER_MOVED, CRACKER_MOVED) else None
        if cell is not None:
            lo_x, hi_x = min(lo_x, cell[0]), max(hi_x, cell[0])
            lo_y, hi_y = min(lo_y, cell[1]), max(hi_y, cell[1])
    return lo_x, hi_x, lo_y, hi_y


def _place(cell: tuple[int, int], origin: tuple[int, int]) -> dict[str, Any]:
    """Where ``cell`` is drawn on a grid whose top-left cell is ``origin``."""
    col, row = cell[0] - origin[0], cell[1] - origin[1]
    return {
        "cell": f"{cell[0]},{cell[1]}",
        "col": col + 1,  # CSS grid lines are 1-based
        "row": row + 1,
        "x": col * CELL,
        "y": row * CELL,
        "cx": col * CELL + CELL // 2,
        "cy": row * CELL + CELL // 2,
    }


def _token_entry(
    state: dict[str, Any], name: str, by_token: dict[str, list[Event]], pick: str | None, href: Callable[..., str]
) -> dict[str, Any]:
    """One token as drawn, with its pick link when it has a legal move."""
    tok = state["tokens"][name]
    label = token_label(state, name)
    condition = _condition(state, name)
    where = f" at {xy_words(tok['cell'])}" if tok["cell"] is not None else " in the reserve"
    entry: dict[str, Any] = {
        "name": name,
        "label": label,
        "condition": condition,
        "salty": tok["salty"],
        "symbol": "gs-container-" + ("filled" if tok["salty"] else "empty")
        if name == CONTAINER
        else symbol_id(name, tok["salty"]),
        "aria": f"{label}, {condition}{where}",
        "pickable": name in by_token,
        "picked": name == pick,
    }
    if entry["pickable"]:
        entry["href"] = href() if entry["picked"] else href(pick=name)
        verb = "Put back" if entry["picked"] else "Pick"
        entry["link_label"] = f"{verb} {label} ({condition}){where}"
    return entry


def _lines(
    state: dict[str, Any], place: Callable[[tuple[int, int]], dict[str, Any]], seat_names: list[str]
) -> list[dict[str, Any]]:
    """Winning (or tied) combinations as lines through the cell centres."""
    over = state.get("winner") is not None
    lines = []
    for combo in state.get("combinations") or []:
        pts = [place((c[0], c[1])) for c in combo["cells"]]
        if not pts:
            continue
        winner = over and combo.get("seat") == state.get("winner")
        lines.append(
            {
                "x1": pts[0]["cx"],
                "y1": pts[0]["cy"],
                "x2": pts[-1]["cx"],
                "y2": pts[-1]["cy"],
                "cells": pts,
                "cell_list": " ".join(p["cell"] for p in pts),
                "kind": "win" if winner else ("lose" if over else "tie"),
                "words": _combo_words(state, combo, seat_names),
            }
        )
    return lines


def _attribute_rows(state: dict[str, Any], seat_names: list[str]) -> list[dict[str, Any]]:
    """Each player's chosen attribute (none before the choice)."""
    attributes = state.get("attributes")
    if not attributes:
        return []
    return [
        {"seat": seat, "name": name, "attribute": attributes.get(str(seat), "")}
        for seat, name in enumerate(seat_names[:2])
    ]


def _container(state: dict[str, Any]) -> dict[str, Any]:
    container = state["tokens"][CONTAINER]
    return {
        "salty": container["salty"],
        "condition": _condition(state, CONTAINER),
        "moves_what": "unsalted" if container["salty"] else "salty",
        "locked": bool(state.get("container_locked")),
        "wild": bool(state.get("container_wild")),
    }

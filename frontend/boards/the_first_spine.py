"""The First Spine board: the square board as SVG (cards with their four sides' attack/defense, life, the
controller's colour, the front turned away from the controller), the players, the confrontation preview, the
log, and move entry that works without JavaScript.

Recorders on the live position get one POST form: ``?card=<name>`` picks a card to play (a link), the cells
it may go to become submit buttons posting the complete ``card_placed`` event as ``move``; the start of a
turn offers the discard/draw and Run moves as buttons; the actions phase offers the confrontation choices and
"End the turn" with the preview of what it resolves. Spectators and seats see the state through the
ruleset's ``view`` (``ms.state``), so a hidden origin is never drawn.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from frontend.boards.shared import TableFacts, board_links, move_json
from rulesets.base import Event, name_seats
from rulesets.the_first_spine import board as B
from rulesets.the_first_spine import engine as E
from rulesets.the_first_spine import rules as R
from rulesets.the_first_spine.cards import CAPACITY_WORDS, SIDES

TEMPLATE = "frontend/boards/the-first-spine.html"
CELL = 100  # SVG units per cell
LOG_LINES = 12
COLOURS = ("#1d5fa8", "#b3261e", "#2e7d32", "#8a5a00")  # by seat: blue, red, green, amber
# where a side's "attack/defense" label sits in a 100-unit cell, by board direction
SIDE_LABEL = {"N": (50, 23), "E": (84, 54), "S": (50, 91), "W": (16, 54)}


def preview_words(state: dict[str, Any], pair: dict[str, Any], seat_names: list[str]) -> str:
    """``Paladin deals 3 to Barbed Wire, takes 2`` for one planned confrontation."""
    by_id = {c["id"]: c for c in state["cards"]}
    a, b = by_id[pair["attacker"]], by_id[pair["defender"]]
    text = f"{E.named(state, a)} deals {pair['dealt']} to {E.named(state, b)}, takes {pair['taken']}"
    return name_seats(text + (" (Threat)" if pair["threat"] else ""), seat_names)


def _card_view(state: dict[str, Any], piece: dict[str, Any], seat_names: list[str]) -> dict[str, Any]:
    r, c = piece["at"]
    facing = piece["facing"]
    sides = []
    for side in SIDES:
        d = B.side_direction(facing, side)
        x, y = SIDE_LABEL[d]
        sides.append({"side": side, "x": x, "y": y, "attack": piece["attack"][side], "defense": piece["defense"][side]})
    marks = [CAPACITY_WORDS[cap] for cap in piece["capacities"]]
    marks += [f"{CAPACITY_WORDS[cap]} ({side})" for side, cap in piece["side_capacities"].items()]
    controller, owner = piece["controller"], piece["owner"]
    who = seat_names[controller] if controller < len(seat_names) else f"Seat {controller}"
    wizard = piece["kind"] == "wizard"
    name = f"{who}'s wizard" if wizard else piece["name"]
    stats = ", ".join(f"{s['side']} {s['attack']}/{s['defense']}" for s in sides)
    aria = f"{name} on {E.cell_word((r, c))}, {piece['hp']} life" + (
        "" if wizard else f", {who}'s; attack/defense {stats}"
    )
    if owner != controller:
        aria += f" (taken from {seat_names[owner] if owner < len(seat_names) else owner} by Treason)"
    if marks:
        aria += "; " + ", ".join(marks)
    return {
        "x": c * CELL,
        "y": r * CELL,
        "cx": c * CELL + CELL // 2,
        "cy": r * CELL + CELL // 2,
        "cell": f"{r},{c}",
        "name": name,
        "short": (piece["name"][:11] + "…") if len(piece["name"]) > 12 else piece["name"],
        "hp": piece["hp"],
        "wizard": wizard,
        "colour": COLOURS[controller % len(COLOURS)],
        "owner_colour": COLOURS[owner % len(COLOURS)],
        "captured": owner != controller,
        "rotation": B.ROTATION[facing],
        "sides": [] if wizard else sides,
        "marks": ", ".join(marks),
        "aura": piece.get("aura", 0),
        "aria": aria,
    }


def board(
    *,
    ruleset: Any,
    ms: Any,
    legal: list[Event] | None,
    can_record: bool,
    facts: TableFacts,
    problem: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The context for ``frontend/boards/the-first-spine.html``. ``problem``: a refused entry; a life change refused
    from the board reopens its form on the same piece with what was typed, explained just below it
    (``problem_at == "life"``), so the refusal is where the thumb tapped."""
    problem = problem or {}
    state = ms.state
    seat_names = list(facts.seat_names)
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    turn = state["turn"]
    seat = turn["seat"]
    over = state["result"] is not None
    live = ms.version == ms.latest_version
    interactive = bool(can_record and live and not over)
    page_url = facts.page_url

    href = board_links(page_url)

    pieces = [_card_view(state, p, seat_names) for p in sorted(state["cards"], key=lambda p: (p["at"][0], p["at"][1]))]

    hand_cards, targets, picked = (
        _hand(state, seat, facts, href)
        if interactive and turn["phase"] == "actions" and facts.records_secrets_of(seat)  # else: "Only Bo can …"
        else ([], [], None)
    )

    # a spell or a card text changing a piece's life: tap the piece (a link), then type the amount; also at the
    # start of the turn, for effects that happen "before your turn" (they resolve before the discard/draw)
    piece_links: list[dict[str, Any]] = []
    life: dict[str, Any] | None = None
    if interactive and turn["phase"] in ("start", "actions") and picked is None:
        piece_links, life = _piece_links(state, seat_names, facts, problem, href)

    # the start of the turn and the setup: the listed moves as buttons
    buttons: list[dict[str, Any]] = []
    if interactive and legal:
        for event in legal:
            buttons.append({"move": move_json(event), "label": _button_label(state, event, seat_names)})

    pairs, missing = E.plan(state) if turn["phase"] == "actions" and not over else ([], [])
    choices = _choices(state, seat, seat_names, missing) if interactive else []
    end_move = (
        move_json(Event("turn_ended", seat, {})) if interactive and turn["phase"] == "actions" and not missing else None
    )

    players = [_player(p, seat_names, seat, over, turn["phase"]) for p in state["players"]]

    log = [
        {"text": name_seats(e["text"], seat_names), "kind": e["kind"], "turn": e["turn"]}
        for e in state["log"][-LOG_LINES:]
    ][::-1]
    place_cells = None
    if interactive and turn["phase"] == "actions" and hand_cards and state["players"][seat]["hand"] > 0:
        place_cells = json.dumps(R.placeable_cells(state, seat), separators=(",", ":"))
    return {
        "template": TEMPLATE,
        "place_cells": place_cells,  # for the script: where a creature or artifact may go now
        "seat": seat,
        "width": cols * CELL,
        "height": rows * CELL,
        "rows": rows,
        "cols": cols,
        "centre_col": _centre_col(state, facts, seat),
        "refused": _refused_cell(problem, rows, cols),  # marked, and the frame opens on it
        "row_numbers": range(1, rows + 1),  # the edges' labels: rulesets.cells counts a board's cells from 1
        "col_numbers": range(1, cols + 1),
        "grid": [{"x": c * CELL, "y": r * CELL, "cell": f"{r},{c}"} for r in range(rows) for c in range(cols)],
        "pieces": pieces,
        "blocked": [
            {"x": b["at"][1] * CELL, "y": b["at"][0] * CELL, "until": name_seats(f"Seat {b['until_seat']}", seat_names)}
            for b in state["blocked"]
        ],
        "players": players,
        "interactive": interactive,
        "phase": turn["phase"],
        "who": seat_names[seat] if seat < len(seat_names) else f"Seat {seat}",
        "hand_cards": hand_cards,
        "elsewhere": interactive and not facts.records_secrets_of(seat),  # the seat's account places its cards
        "hand_count": state["players"][seat]["hand"],
        "picked": picked["name"] if picked else "",
        "unpick_href": href(),
        "targets": targets,
        "piece_links": piece_links,
        "life": life,
        "problem_at": "life" if life is not None and "amount" in life else None,
        "buttons": buttons,
        "choices": choices,
        "preview": [preview_words(state, p, seat_names) for p in pairs],
        "waiting": [name_seats(f"{m['name']} on {E.cell_word(m['from'])}", seat_names) for m in missing],
        "end_move": end_move,
        "log": log,
        "over": over,
    }


def _centre_col(state: dict[str, Any], facts: TableFacts, seat: int) -> int:
    """The column a phone's narrow frame opens on: the reader's wizard, else the wizard of the seat to play."""
    held = facts.reader_seat()
    focus = held if held is not None else seat
    wizards = {p["controller"]: p["at"][1] for p in state["cards"] if p["kind"] == "wizard"}
    return wizards.get(focus, wizards.get(seat, state["board"]["cols"] // 2))


def _hand(
    state: dict[str, Any], seat: int, facts: TableFacts, href: Callable[..., str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any] | None]:
    """Playing a card: pick a name from the list (``?card=``), then a cell: ``(hand cards, target cells, the
    picked card)``."""
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    hand_cards: list[dict[str, Any]] = []
    targets: list[dict[str, Any]] = []
    picked = None
    player = state["players"][seat]
    wanted = facts.query.get("card") or ""
    for card in R.deck_cards(state, seat):
        is_picked = card["name"] == wanted and player["hand"] > 0
        hand_cards.append(
            {
                "name": card["name"],
                "kind": card["kind"],
                "href": href() if is_picked else href(card=card["name"]),
                "picked": is_picked,
                "origin": card["origin"],
            }
        )
        if is_picked:
            picked = card
    if picked is not None:
        cells = (
            [[r, c] for r in range(rows) for c in range(cols)]
            if picked["kind"] == "spell"
            else R.placeable_cells(state, seat)
        )
        for r, c in cells:
            event = Event("card_placed", seat, {"card": picked["name"], "at": [r, c]})
            targets.append(
                {
                    "row": r + 1,
                    "col": c + 1,
                    "x": c * CELL,
                    "y": r * CELL,
                    "move": move_json(event),
                    "aria": f"{'Cast' if picked['kind'] == 'spell' else 'Place'} {picked['name']} on {E.cell_word((r, c))}",
                }
            )
    return hand_cards, targets, picked


def _piece_links(
    state: dict[str, Any], seat_names: list[str], facts: TableFacts, problem: dict[str, Any], href: Callable[..., str]
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The pieces as links that open the life form on one (``?at=r,c``), and that form, refilled when a life
    change on that piece was refused: ``(links, life)``."""
    piece_links: list[dict[str, Any]] = []
    life: dict[str, Any] | None = None
    refused_life = _refused_life(problem)
    wanted_at = facts.query.get("at") or (refused_life or {}).get("data.at") or ""
    for p in state["cards"]:
        r, c = p["at"]
        key = f"{r},{c}"
        label = name_seats(E.label(state, p), seat_names)
        piece_links.append(
            {
                "row": r + 1,
                "col": c + 1,
                "href": href() if key == wanted_at else href(at=key),
                "aria": f"Change the life of {label} on {E.cell_word((r, c))}",
            }
        )
        if key == wanted_at:
            life = {"cell": key, "at": E.cell_word((r, c)), "name": label, "hp": p["hp"]}
            if refused_life is not None and refused_life.get("data.at") == key:
                life["amount"] = refused_life.get("data.amount", "")
                life["note"] = refused_life.get("data.note", "")
    return piece_links, life


def _choices(
    state: dict[str, Any], seat: int, seat_names: list[str], missing: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The confrontations waiting for a target, one button per target the rules allow."""
    choices = []
    occ = E.occupancy(state)
    for m in missing:
        for option in m["options"]:
            other = occ[(option[0], option[1])]
            event = Event("confrontation_target_chosen", seat, {"from": m["from"], "target": option})
            choices.append(
                {
                    "move": move_json(event),
                    "label": name_seats(
                        f"{m['name']} on {E.cell_word(m['from'])} confronts {E.label(state, other)} on {E.cell_word(option)}",
                        seat_names,
                    ),
                }
            )
    return choices


def _player(p: dict[str, Any], seat_names: list[str], seat: int, over: bool, phase: str) -> dict[str, Any]:
    """One player's line beside the board (``seat``: the seat to play)."""
    s = p["seat"]
    origin = p["origin"]
    if origin is None:
        origin_text = "chosen, secret" if p["origin_chosen"] else "not chosen yet"
    else:
        origin_text = origin.capitalize() + ("" if p["origin_revealed"] else " (secret to the others)")
    return {
        "seat": s,
        "name": seat_names[s] if s < len(seat_names) else f"Seat {s}",
        "colour": COLOURS[s % len(COLOURS)],
        "end": p["end"],
        "wizard_hp": p["wizard_hp"],
        "out": p["out"],
        "hand": p["hand"],
        "deck": p["deck"],
        "discard": p["discard"],
        "hand_discards": p["hand_discards"],
        "destiny": (p["destiny"] or "not chosen yet").capitalize(),
        "origin": origin_text,
        "on_turn": s == seat and not over and phase != "setup",
    }


def _button_label(state: dict[str, Any], event: Event, seat_names: list[str]) -> str:
    who = seat_names[event.seat] if event.seat is not None and event.seat < len(seat_names) else "Table"
    d = event.data
    if event.type == "hand_refilled":
        n = d["discarded"]
        if n == 0:
            return "Keep the hand, draw"
        cost = n - 1
        return f"Discard {n}, draw" + (f" (−{cost} life)" if cost else " (free)")
    if event.type == "card_moved":
        piece = E.occupancy(state)[(d["from"][0], d["from"][1])]
        return f"Run: {piece['name']} {E.cell_word(d['from'])} → {E.cell_word(d['to'])}"
    if event.type == "destiny_chosen":
        return f"{who}: {d['destiny'].capitalize()}"
    if event.type == "origin_chosen":
        return f"{who}: {d['origin'].capitalize()} (secret)"
    return event.type


def _refused_cell(problem: dict[str, Any], rows: int, cols: int) -> dict[str, Any] | None:
    """The board cell a refused entry named (``data.at`` of a placed card, a moved one's ``to``, a life change's
    piece), drawn on the board and panned into view with the refusal: ``{x, y, row, col, words}``; None when
    nothing was refused or the entry names no cell on this board."""
    if not problem.get("detail"):
        return None
    data = problem.get("data")
    cell = (data.get("to") or data.get("at")) if isinstance(data, dict) else None
    if not (isinstance(cell, list) and len(cell) == 2 and all(type(v) is int for v in cell)):
        return None
    r, c = cell
    if not (0 <= r < rows and 0 <= c < cols):
        return None
    return {"x": c * CELL, "y": r * CELL, "row": r, "col": c, "words": E.cell_word(cell)}


def _refused_life(problem: dict[str, Any]) -> dict[str, Any] | None:
    """What was typed in the board's life form (``data.at``, ``data.amount``, ``data.note``) when ``problem`` is its
    refusal (an ``hp_changed`` posted with ``origin=board`` that was not recorded), else None."""
    if problem.get("origin") != "board" or problem.get("type") != "hp_changed" or not problem.get("detail"):
        return None
    values = problem.get("values") or {}
    return {k: values.get(k, "") for k in ("data.at", "data.amount", "data.note")}

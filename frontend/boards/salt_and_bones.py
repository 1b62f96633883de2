"""Salt & Bones board: the Field Board as SVG with a clickable overlay, both Player Boards, the combat log.

Everything works without JavaScript; every click is a link (GET) or a submit button posting one complete
event taken from ``legal`` (the ruleset's ``legal_moves``):

* Combat: ``?seat=<s>&card=<name>`` picks an Attack card that appears in a legal ``attack_card_played``;
  the tiles that can take its Attack half are then highlighted links (``&a=r,c``); once the Attack tile is
  picked, the tiles that can take its Opportunity half become submit buttons recording the whole event.
* Field Phase (``legal`` is None): ``?flip=r,c;r,c`` toggles the tiles the flipped Field card destroys; one
  button records ``field_card_flipped`` with exactly those tiles (seat: the Momentum seat).
* The other listed moves (draw, discard, place, finish preparing, disengage, INSTINCT cards) are one-click
  buttons grouped by type while a group has at most ``GROUP_LIMIT`` moves; bigger groups are left to the
  page's "Legal moves" list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from frontend.boards.shared import TableFacts, board_links, move_json
from rulesets.base import Event
from rulesets.cells import row_col_words
from rulesets.replay import describe_entry

TEMPLATE = "frontend/boards/salt-and-bones.html"
TILE = 100  # SVG units per tile
MARGIN = 34  # SVG units for the row / column numbers
PAD = 5  # gap between a card and its tiles' edges
GROUP_LIMIT = 12  # at most this many one-click buttons per move type
LOG_TAIL = 10  # log lines shown outside combat

PHASES = {
    "field": "Field Phase",
    "draw": "Draw Phase",
    "preparation": "Preparation Phase",
    "combat": "Combat Phase",
    "over": "Game over",
}
SLOT_ORDER = (("instinct", "INSTINCT", 3), ("equipment", "EQUIPMENT", 2), ("gambit", "GAMBIT", 1))
OTHER_TYPES = (
    "hand_card_discarded",
    "cards_drawn",
    "strategy_card_placed",
    "preparation_finished",
    "strategy_card_played",
    "disengaged",
)


def _cell(raw: Any) -> tuple[int, int] | None:
    """``"r,c"`` → ``(r, c)``; None when it does not read as two whole numbers."""
    if not isinstance(raw, str):
        return None
    parts = raw.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def _cells(raw: Any) -> list[tuple[int, int]]:
    """``"r,c;r,c"`` → the distinct readable cells, in order."""
    out: list[tuple[int, int]] = []
    for part in (raw or "").split(";") if isinstance(raw, str) else []:
        cell = _cell(part)
        if cell is not None and cell not in out:
            out.append(cell)
    return out


def _int(raw: Any) -> int | None:
    try:
        return int(raw) if raw not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _key(cell: Any) -> tuple[int, int]:
    return int(cell[0]), int(cell[1])


def _tile(cell: Any) -> str:
    return row_col_words(cell)


def _name(seat_names: list[str], seat: Any) -> str:
    return seat_names[seat] if isinstance(seat, int) and 0 <= seat < len(seat_names) else f"Seat {seat}"


def _combat_log(state: dict[str, Any]) -> tuple[str, list[str]]:
    """The log lines of the current combat (from its first line), or the latest lines outside combat."""
    log = list(state.get("log") or [])
    if state.get("phase") == "combat":
        start = f"Round {state['round']} combat begins"
        for i in range(len(log) - 1, -1, -1):
            if log[i].startswith(start):
                return "Combat log", log[i:]
        return "Combat log", log[-LOG_TAIL:]
    return "Latest log lines", log[-LOG_TAIL:]


def _move_label(event: Event, ruleset: Any, state: dict[str, Any], seat_names: list[str]) -> str:
    """A short button label for a listed move (the ruleset's sentence is the button's title)."""
    who = _name(seat_names, event.seat)
    d = event.data
    if event.type == "cards_drawn":
        return f"{who}: {d['attack']} attack + {d['strategy']} strategy"
    if event.type == "hand_card_discarded":
        return f"{who}: discard {'an attack' if d['kind'] == 'attack' else 'a strategy'} card"
    if event.type == "strategy_card_placed":
        slot = str(d["slot"]).upper()
        if d["card"] is None:
            return f"{who}: unnamed card face-down → {slot}"
        return f"{who}: {d['card']} → {slot}" + (" (face-down)" if d["slot"] == "instinct" else "")
    if event.type == "preparation_finished":
        return f"{who}: finished preparing"
    if event.type == "disengaged":
        return f"{who}: disengage"
    if event.type == "strategy_card_played":
        target = d.get("target")
        if isinstance(target, dict) and "card" in target:
            return f"{who}: {d['card']} vs {_target_words(state, target)}"
        return f"{who}: {d['card']}"
    if event.type == "additional_turn_passed":
        return f"{who}: pass the additional turn"
    return describe_entry(ruleset, event, seat_names)


def _target_words(state: dict[str, Any], target: dict[str, Any]) -> str:
    """What an INSTINCT's ``{"card": n[, "instance": i]}`` target names, in words."""
    uid = target["card"]
    card = next((c for c in state["field"]["cards"] if c["uid"] == uid), None)
    if card is not None and "instance" in target:
        i = target["instance"]
        inst = card["instances"][i] if 0 <= i < len(card["instances"]) else None
        return f"{inst['label']} ({inst['amount']}) of card {uid}" if inst else f"instance {i} of card {uid}"
    if card is not None:
        return f"the Chain card {card['name']} (card {uid})"
    window = (state.get("combat") or {}).get("window") or {}
    for r in [*window.get("reactions", []), *window.get("triggered", [])]:
        if r["uid"] == uid:
            return f"the INSTINCT {r['card']} (card {uid})"
    return f"card {uid}"


def _seat_panel(
    state: dict[str, Any], seat: int, seat_names: list[str], turn_seats: list[int], over: bool
) -> dict[str, Any]:
    """Health, Momentum, hand counts, Parry / forced flags and the three slot rows of one Player Board."""
    start = max(1, int(state["settings"]["starting_health"]))
    health = int(state["health"][seat])
    catalog = state["catalog"]["strategy"]
    rows = []
    for slot, kind, capacity in SLOT_ORDER:
        cards = list(state["boards"][seat][slot])
        boxes = []
        for card in cards[:capacity]:
            name = card.get("name")
            d = catalog.get(name) if name else None
            if name is None:
                boxes.append({"state": "hidden", "text": "Face-down", "title": f"A face-down {kind} card"})
            elif card.get("hidden"):
                boxes.append(
                    {"state": "secret", "text": name, "title": f"{name} (face-down): {d['text'] if d else ''}"}
                )
            else:
                boxes.append({"state": "revealed", "text": name, "title": f"{name}: {d['text'] if d else ''}"})
        boxes += [{"state": "empty", "text": "empty", "title": f"An empty {kind} slot"}] * (capacity - len(boxes))
        rows.append({"kind": kind, "slot": slot, "boxes": boxes, "count": len(cards), "capacity": capacity})
    combat = state.get("combat") or {}
    flags = []
    if combat:
        if combat.get("parry", [None, None])[seat] == "active":
            flags.append("Parry active")
        elif combat.get("parry", [None, None])[seat] == "pending":
            flags.append("Parry next turn")
        if combat.get("forced", [False, False])[seat]:
            flags.append("must disengage")
        if combat.get("pending_disengage") == seat:
            flags.append("disengaging (Test of Courage)")
    return {
        "seat": seat,
        "name": _name(seat_names, seat),
        "health": health,
        "start": start,
        "bar": max(0, min(200, round(200 * health / start))),
        "momentum": state["momentum"] == seat,
        "on_turn": seat in turn_seats and not over,
        "hand": state["hands"][seat],
        "hand_total": state["hands"][seat]["attack"] + state["hands"][seat]["strategy"],
        "rows": rows,
        "flags": flags,
        "winner": bool(state.get("result")) and seat in state["result"]["winners"],
    }


def board(*, ruleset: Any, ms: Any, legal: list[Event] | None, can_record: bool, facts: TableFacts) -> dict[str, Any]:
    """The context for ``frontend/boards/salt-and-bones.html``."""
    state = ms.state  # as the reader may see it (matches.store.visibility): a face-down name only its own seat's
    seat_names = list(facts.seat_names)
    field = state["field"]
    rows, cols = int(field["rows"]), int(field["cols"])
    over = state.get("result") is not None
    live = ms.version == ms.latest_version
    interactive = bool(can_record and live and not over)
    moves: list[Event] = list(legal or []) if interactive else []
    field_pick = interactive and state["phase"] == "field" and legal is None
    page_url = facts.page_url

    href = board_links(page_url)

    # -- the attack card → attack tile → opportunity tile flow -----------------------------------------
    by_card: dict[tuple[int, str], list[Event]] = {}
    for event in moves:
        if event.type == "attack_card_played" and isinstance(event.data.get("card"), str):
            by_card.setdefault((event.seat, event.data["card"]), []).append(event)
    pick = _attack_pick(by_card, facts, ms.turn_seats)
    picked, a_cell, targets = pick.picked, pick.a_cell, pick.targets
    card_defs = state["catalog"]["attack"]
    picked_def = card_defs.get(picked[1]) if picked else None

    # -- the Field Phase tile picker --------------------------------------------------------------------
    grid = field["grid"]
    flip = [c for c in _cells(facts.query.get("flip")) if field_pick and _in(c, rows, cols) and _open(grid, c)]
    flip_move = None
    if field_pick and flip:
        event = Event("field_card_flipped", state["momentum"], {"tiles": [list(c) for c in flip]})
        flip_move = {"move": move_json(event), "text": describe_entry(ruleset, event, seat_names)}

    tiles, hits = _tiles(grid, rows, cols, pick, flip if field_pick else None, href, ruleset, seat_names)

    cards = [_attack_card(card, seat_names) for card in field["cards"]]

    # -- the card choices and the other listed moves ----------------------------------------------------
    card_choices = _card_choices(by_card, card_defs, seat_names, picked, href)
    groups = _groups(moves, ruleset, state, seat_names)

    log_title, log_lines = _combat_log(state)
    combat = state.get("combat") or {}
    width, height = MARGIN + cols * TILE, MARGIN + rows * TILE
    return {
        "template": TEMPLATE,
        "interactive": interactive,
        "field_pick": field_pick,
        "has_form": interactive and bool(moves or field_pick),
        "round": state["round"],
        "phase": state["phase"],
        "phase_label": PHASES.get(state["phase"], state["phase"]),
        "turn_number": combat.get("turn_number"),
        "last_round": state.get("last_round"),
        "decks": state["decks"],
        "discards": state["discards"],
        "momentum_name": _name(seat_names, state["momentum"]),
        "seats": [_seat_panel(state, s, seat_names, ms.turn_seats, over) for s in (0, 1)],
        "width": width,
        "height": height,
        "margin": MARGIN,
        "tile": TILE,
        "rows": rows,
        "cols": cols,
        "row_labels": [{"n": r + 1, "y": MARGIN + r * TILE + TILE // 2} for r in range(rows)],  # rulesets.cells
        "col_labels": [{"n": c + 1, "x": MARGIN + c * TILE + TILE // 2} for c in range(cols)],
        # the overlay covers the tiles only: percentages of the SVG box (the margin holds the numbers)
        "overlay_left": round(100 * MARGIN / width, 4),
        "overlay_top": round(100 * MARGIN / height, 4),
        "tiles": tiles,
        "hits": hits,
        "cards": cards,
        "live_cards": [c for c in cards if not c["negated"]],
        "card_choices": card_choices,
        "picked": {"seat": picked[0], "who": _name(seat_names, picked[0]), "name": picked[1], **(picked_def or {})}
        if picked
        else None,
        "a_tile": _tile(a_cell) if a_cell else "",
        "targets": [
            {
                "move": move_json(e),
                "label": f"Opportunity on {_tile(cell)}",
                "title": describe_entry(ruleset, e, seat_names),
            }
            for cell, e in sorted(targets.items())
        ],
        "unpick_href": href(),
        "groups": groups,
        "flip": [_tile(c) for c in flip],
        "flip_move": flip_move,
        "flip_clear_href": href(),
        "log_title": log_title,
        "log": log_lines,
        "result": state.get("result"),
    }


@dataclass(frozen=True)
class _Pick:
    """Where the attack flow stands: the ``picked`` (seat, card), the tiles its attack half may go on, the
    attack tile picked (``a_cell``), and the opportunity tiles it leaves, each with its move (``targets``)."""

    picked: tuple[int, str] | None
    attack_tiles: list[tuple[int, int]]
    a_cell: tuple[int, int] | None
    targets: dict[tuple[int, int], Event]


def _attack_pick(by_card: dict[tuple[int, str], list[Event]], facts: TableFacts, turn_seats: list[int]) -> _Pick:
    """The attack card → attack tile → opportunity tile flow, from the page's query (``card``, ``seat``, ``a``)."""
    want_card = facts.query.get("card") or None
    want_seat = _int(facts.query.get("seat"))
    turn_order = {s: i for i, s in enumerate(turn_seats)}
    candidates = sorted(
        (k for k in by_card if k[1] == want_card and (want_seat is None or k[0] == want_seat)),
        key=lambda k: turn_order.get(k[0], 99),
    )
    picked = candidates[0] if candidates else None
    picked_moves = by_card.get(picked, []) if picked else []
    attack_tiles: list[tuple[int, int]] = []
    for event in picked_moves:
        cell = _key(event.data["attack_tile"])
        if cell not in attack_tiles:
            attack_tiles.append(cell)
    a_cell = _cell(facts.query.get("a"))
    if a_cell not in attack_tiles:
        a_cell = None
    targets: dict[tuple[int, int], Event] = {}
    if a_cell is not None:
        for event in picked_moves:
            if _key(event.data["attack_tile"]) == a_cell:
                targets[_key(event.data["opportunity_tile"])] = event
    return _Pick(picked, attack_tiles, a_cell, targets)


def _flip_param(cells: list[tuple[int, int]]) -> str:
    return ";".join(f"{r},{c}" for r, c in cells)


def _tiles(
    grid: list[list[dict[str, Any]]],
    rows: int,
    cols: int,
    pick: _Pick,
    flip: list[tuple[int, int]] | None,
    href: Callable[..., str],
    ruleset: Any,
    seat_names: list[str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The tiles drawn, and the overlay hit for each clickable one: the attack flow's tiles, and in the Field
    Phase the open tiles to mark (``flip``: those marked; None: no tile picker)."""
    picked = pick.picked
    picked_label = f"{picked[1]}" if picked else ""
    tiles = []
    hits = []
    for r in range(rows):
        for c in range(cols):
            info = grid[r][c]
            x, y = MARGIN + c * TILE, MARGIN + r * TILE
            words = {"grey": "grey (never playable)", "destroyed": "destroyed", "open": "open"}[info["tile"]]
            if info["centre"]:
                words += ", centre"
            tile = {"r": r, "c": c, "x": x, "y": y, "cx": x + TILE // 2, "cy": y + TILE // 2, "where": _tile((r, c))}
            tile.update(kind=info["tile"], centre=info["centre"], words=words, mark="")
            cell = (r, c)
            hit: dict[str, Any] | None = None
            if picked and cell in pick.attack_tiles:
                if cell == pick.a_cell:
                    tile["mark"] = "attack-picked"
                    hit = {"kind": "link", "href": href(seat=picked[0], card=picked[1]),
                           "label": f"Attack half on {_tile(cell)} (picked; tap to change)"}  # fmt: skip
                else:
                    tile["mark"] = "attack"
                    hit = {"kind": "link", "href": href(seat=picked[0], card=picked[1], a=f"{r},{c}"),
                           "label": f"{picked_label}: Attack half on {_tile(cell)}"}  # fmt: skip
            if cell in pick.targets:
                tile["mark"] = "opportunity"
                event = pick.targets[cell]
                hit = {"kind": "button", "move": move_json(event), "title": describe_entry(ruleset, event, seat_names),
                       "label": f"Play {picked_label}: attack on {_tile(pick.a_cell)}; opportunity on {_tile(cell)}"}  # fmt: skip
            if flip is not None and info["tile"] == "open":
                chosen = cell in flip
                tile["mark"] = "flip-picked" if chosen else "flip"
                others = [x for x in flip if x != cell] if chosen else [*flip, cell]
                verb = "Unmark" if chosen else "Mark"
                hit = {"kind": "link", "href": href(flip=_flip_param(others)),
                       "label": f"{verb} {_tile(cell)} as destroyed by the Field card"}  # fmt: skip
            tiles.append(tile)
            if hit is not None:
                hits.append({**hit, "col": c + 1, "row": r + 1, "cell": f"{r},{c}"})
    return tiles, hits


def _attack_card(card: dict[str, Any], seat_names: list[str]) -> dict[str, Any]:
    """An Attack card of this combat, with where its two halves are drawn unless negated."""
    number = card["uid"]  # the number INSTINCT targets name (Anticipation, Condescend)
    a, o = card["attack_tile"], card["opportunity_tile"]
    negated_parts = [i for i in card["instances"] if i["negated"]]
    detail = [
        f"{i['label']} {i['amount']}" + (f" negated by {i['negated_by']}" if i["negated"] else "")
        for i in card["instances"]
    ]
    entry = {
        "number": number,
        "seat": card["seat"],
        "who": _name(seat_names, card["seat"]),
        "name": card["name"],
        "short": card["name"] if len(card["name"]) <= 14 else card["name"][:13] + "…",
        "attack": card["attack"],
        "opportunity": card["opportunity"],
        "damage": card["damage"],
        "negated": card["negated"],
        "some_negated": bool(negated_parts),
        "as_chain": card["as_chain"],
        "bonus": "" if card.get("bonus") in (None, "none") else str(card["bonus"]).replace("_", " "),
        "a_tile": _tile(a),
        "o_tile": _tile(o),
        "detail": "; ".join(detail) if len(detail) > 1 or negated_parts else "",
    }
    if not card["negated"]:
        ax, ay = MARGIN + a[1] * TILE, MARGIN + a[0] * TILE
        ox, oy = MARGIN + o[1] * TILE, MARGIN + o[0] * TILE
        x0, y0 = min(ax, ox), min(ay, oy)
        entry.update(
            x=x0 + PAD,
            y=y0 + PAD,
            w=abs(ax - ox) + TILE - 2 * PAD,
            h=abs(ay - oy) + TILE - 2 * PAD,
            ax=ax,
            ay=ay,
            acx=ax + TILE // 2,
            acy=ay + TILE // 2,
            ox=ox,
            oy=oy,
            ocx=ox + TILE // 2,
            ocy=oy + TILE // 2,
            # the divider between the halves
            lx1=max(ax, ox) if ay == oy else x0 + PAD,
            ly1=max(ay, oy) if ax == ox else y0 + PAD,
            lx2=max(ax, ox) if ay == oy else x0 + TILE - PAD,
            ly2=max(ay, oy) if ax == ox else y0 + TILE - PAD,
            aria=(
                f"Card {number}, {entry['who']}: {card['name']}, attack {card['attack']} on {_tile(a)}; "
                f"opportunity {card['opportunity']} on {_tile(o)}; dealt {card['damage']}"
                + (" (negated damage)" if negated_parts else "")
            ),
        )
    return entry


def _card_choices(
    by_card: dict[tuple[int, str], list[Event]],
    card_defs: dict[str, Any],
    seat_names: list[str],
    picked: tuple[int, str] | None,
    href: Callable[..., str],
) -> list[dict[str, Any]]:
    """The attack cards each seat may play, grouped by seat, each a link that picks it (or puts it back)."""
    card_choices: list[dict[str, Any]] = []
    for (seat, name), evs in by_card.items():
        d = card_defs.get(name) or {}
        group = next((g for g in card_choices if g["seat"] == seat), None)
        if group is None:
            group = {"seat": seat, "who": _name(seat_names, seat), "cards": []}
            card_choices.append(group)
        group["cards"].append(
            {
                "name": name,
                "attack": d.get("attack"),
                "opportunity": d.get("opportunity"),
                "bonus": "" if d.get("bonus") in (None, "none") else str(d["bonus"]).replace("_", " "),
                "href": href() if picked == (seat, name) else href(seat=seat, card=name),
                "picked": picked == (seat, name),
                "count": len(evs),
                "title": d.get("text", ""),
            }
        )
    return card_choices


def _groups(moves: list[Event], ruleset: Any, state: dict[str, Any], seat_names: list[str]) -> list[dict[str, Any]]:
    """The other listed moves, grouped by type (buttons only for a group of at most ``GROUP_LIMIT``)."""
    groups = []
    for kind in OTHER_TYPES:
        evs = [e for e in moves if e.type == kind]
        if not evs:
            continue
        spec = ruleset.event_types.get(kind)
        groups.append(
            {
                "type": kind,
                "label": spec.label if spec else kind,
                "count": len(evs),
                "buttons": [
                    {
                        "move": move_json(e),
                        "label": _move_label(e, ruleset, state, seat_names),
                        "title": describe_entry(ruleset, e, seat_names),
                    }
                    for e in evs
                ]
                if len(evs) <= GROUP_LIMIT
                else [],
            }
        )
    return groups


def _in(cell: tuple[int, int], rows: int, cols: int) -> bool:
    return 0 <= cell[0] < rows and 0 <= cell[1] < cols


def _open(grid: list[list[dict[str, Any]]], cell: tuple[int, int]) -> bool:
    return grid[cell[0]][cell[1]]["tile"] == "open"

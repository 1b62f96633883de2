"""Salt & Bones state: building it, the board geometry, the damage resolution and every state transition."""

from __future__ import annotations

import copy
from typing import Any

from rulesets.base import State
from rulesets.cells import cells_words, row_col_words
from rulesets.names import seat_ref
from rulesets.salt_and_bones.catalog import default_catalog

LOG_CAP = 200  # the game log keeps at most this many lines (oldest dropped first)
SEATS = (0, 1)


def other(seat: int) -> int:
    """The opponent of ``seat``."""
    return 1 - seat


# ---------------------------------------------------------------------------------------------- setup
def full_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``options`` with every missing key filled with its default."""
    cat = default_catalog()
    base = {
        "momentum_seat": 0,
        "starting_health": 20,
        "hand_size": 7,
        "attack_deck": cat["decks"]["attack"],
        "strategy_deck": cat["decks"]["strategy"],
        "field_deck": cat["decks"]["field"],
        "board": cat["board"],
        "attack_cards": cat["attack_cards"],
        "strategy_cards": cat["strategy_cards"],
    }
    for key, value in (options or {}).items():
        if value is not None:
            base[key] = copy.deepcopy(value)
    board = dict(base["board"])
    board.setdefault("grey", [])
    base["board"] = board
    base["attack_cards"] = [
        {"bonus": "none", "bonus_damage": 0, "bonus_instances": 0, "text": "", **c} for c in base["attack_cards"]
    ]
    base["strategy_cards"] = [
        {"amount": 0, "destroyed_at_round_end": False, "text": "", **c} for c in base["strategy_cards"]
    ]
    return base


def new_state(options: dict[str, Any] | None) -> State:
    """The state before the first event (round 1, Field Phase unless the Field Deck is empty)."""
    opts = full_options(options)
    board = opts["board"]
    momentum = int(opts["momentum_seat"])
    health = int(opts["starting_health"])
    state: State = {
        "round": 1,
        "phase": "field",
        "momentum": momentum,
        "last_round": False,
        "health": [health, health],
        "hands": [{"attack": 0, "strategy": 0}, {"attack": 0, "strategy": 0}],
        "decks": {"attack": opts["attack_deck"], "strategy": opts["strategy_deck"], "field": opts["field_deck"]},
        "discards": {"attack": 0, "strategy": 0, "field": 0},
        "boards": [_empty_board(), _empty_board()],
        "field": {
            "rows": board["rows"],
            "cols": board["cols"],
            "grey": [list(c) for c in board["grey"]],
            "centre": [list(c) for c in board["centre"]],
            "destroyed": [],
            "cards": [],
            "grid": [],
        },
        "draw": {"discarded": [False, False], "drawn": [False, False]},
        "preparation": {"finished": [False, False]},
        "combat": None,
        "settings": {"hand_size": opts["hand_size"], "starting_health": health},
        "catalog": {
            "attack": {c["name"]: c for c in opts["attack_cards"]},
            "strategy": {c["name"]: c for c in opts["strategy_cards"]},
        },
        "seen": {"attack": {}, "strategy": {}},
        "next_uid": 1,
        "log": [f"Round 1 begins. {seat_ref(momentum)} has Momentum."],
        "result": None,
    }
    if state["decks"]["field"] <= 0:
        state["phase"] = "draw"
    refresh_grid(state)
    return state


def _empty_board() -> dict[str, list[Any]]:
    return {"instinct": [], "equipment": [], "gambit": []}


# ---------------------------------------------------------------------------------------------- geometry
def cell_key(cell: list[int]) -> tuple[int, int]:
    """A ``[row, col]`` cell as a hashable tuple."""
    return (int(cell[0]), int(cell[1]))


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The four orthogonal neighbours (up, down, left, right), on the board or not."""
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]


def on_board(state: State, cell: tuple[int, int]) -> bool:
    """Whether ``cell`` lies inside the Field Board."""
    f = state["field"]
    return 0 <= cell[0] < f["rows"] and 0 <= cell[1] < f["cols"]


def live_cards(state: State) -> list[dict[str, Any]]:
    """Attack cards on the Field Board that still occupy tiles (a negated Chain card does not)."""
    return [c for c in state["field"]["cards"] if not c["negated"]]


def occupancy(state: State) -> dict[tuple[int, int], tuple[dict[str, Any], str]]:
    """Occupied tile → (card, "attack" | "opportunity")."""
    occ: dict[tuple[int, int], tuple[dict[str, Any], str]] = {}
    for card in live_cards(state):
        occ[cell_key(card["attack_tile"])] = (card, "attack")
        occ[cell_key(card["opportunity_tile"])] = (card, "opportunity")
    return occ


def tile_state(state: State, cell: tuple[int, int]) -> str:
    """``off`` | ``grey`` | ``destroyed`` | ``open`` (ignores occupancy)."""
    if not on_board(state, cell):
        return "off"
    f = state["field"]
    if list(cell) in f["grey"]:
        return "grey"
    if list(cell) in f["destroyed"]:
        return "destroyed"
    return "open"


def refresh_grid(state: State) -> None:
    """Rebuild ``field.grid``: rows of ``{"tile", "card", "half", "seat"}`` for drawing the board."""
    f = state["field"]
    occ = occupancy(state)
    grid = []
    for r in range(f["rows"]):
        row = []
        for c in range(f["cols"]):
            held = occ.get((r, c))
            row.append(
                {
                    "tile": tile_state(state, (r, c)),
                    "centre": [r, c] in f["centre"],
                    "card": held[0]["uid"] if held else None,
                    "half": held[1] if held else None,
                    "seat": held[0]["seat"] if held else None,
                }
            )
        grid.append(row)
    f["grid"] = grid


# ---------------------------------------------------------------------------------------------- cards
def strategy_def(state: State, name: str | None) -> dict[str, Any] | None:
    """The catalog entry of a Strategy card, or None (unknown or face-down)."""
    return state["catalog"]["strategy"].get(name) if name is not None else None


def copies_left(state: State, kind: str, name: str) -> int:
    """Copies of a catalog card not yet seen this game (public plays plus named cards on Player Boards)."""
    card = state["catalog"][kind].get(name)
    if card is None:
        return 0
    used = state["seen"][kind].get(name, 0)
    if kind == "strategy":
        used += sum(1 for b in state["boards"] for c in b["instinct"] if c["name"] == name)
    return card["copies"] - used


def _see(seen: dict[str, dict[str, int]], kind: str, name: str) -> None:
    seen[kind][name] = seen[kind].get(name, 0) + 1


def gambits(state: State) -> dict[str, Any]:
    """The GAMBIT effects in force (both Player Boards): ``will``, ``pain``, ``courage`` flags, ``skill`` sum."""
    out = {"will": False, "pain": False, "courage": False, "skill": 0, "names": []}
    for board in state["boards"]:
        for card in board["gambit"]:
            d = strategy_def(state, card["name"])
            if d is None:
                continue
            out["names"].append(card["name"])
            effect = d["effect"]
            if effect == "negate_chains_and_instincts":
                out["will"] = True
            elif effect == "no_negation":
                out["pain"] = True
            elif effect == "extra_turn_on_disengage":
                out["courage"] = True
            elif effect == "increase_instances":
                out["skill"] += d["amount"]
    return out


def _automatic_cards(state: State, board: dict[str, list[Any]], effect: str) -> list[tuple[str, dict[str, Any]]]:
    """(slot, card) of named cards on ``board`` that trigger by themselves with ``effect``; EQUIPMENT first."""
    found = []
    for slot in ("equipment", "instinct"):
        for card in board[slot]:
            d = strategy_def(state, card["name"])
            if d and d["activation"] == "automatic" and d["effect"] == effect:
                found.append((slot, card))
    return found


def resolve_card(state: State, spec: Any) -> dict[str, Any] | None:
    """The attack card an ``attack_card_played`` payload names (catalog name or inline object), or None."""
    if isinstance(spec, str):
        d = state["catalog"]["attack"].get(spec)
        return dict(d) if d else None
    if isinstance(spec, dict):
        return {"bonus_damage": 0, "bonus_instances": 0, "copies": 0, "text": "", **spec}
    return None


# ---------------------------------------------------------------------------------------------- log
def log(state: State, line: str) -> None:
    """Append a line to the game log (outside a reaction window, which rewrites its own lines)."""
    state["log"].append(line)


def _cap_log(state: State) -> None:
    if len(state["log"]) > LOG_CAP:
        del state["log"][: len(state["log"]) - LOG_CAP]


def _tile(cell: list[int]) -> str:
    return row_col_words(cell)


# ---------------------------------------------------------------------------------------------- phases
def flip_field_card(state: State, tiles: list[list[int]]) -> None:
    """Field Phase: destroy ``tiles`` for good, then the Draw Phase begins."""
    f = state["field"]
    for cell in tiles:
        if list(cell) not in f["destroyed"]:
            f["destroyed"].append([int(cell[0]), int(cell[1])])
    state["decks"]["field"] -= 1
    state["discards"]["field"] += 1
    state["phase"] = "draw"
    log(state, f"Field card flipped: the tiles at {cells_words(tiles)} destroyed.")
    refresh_grid(state)
    _cap_log(state)


def discard_from_hand(state: State, seat: int, kind: str) -> None:
    """Draw Phase: ``seat``'s single discard of one ``kind`` card."""
    state["hands"][seat][kind] -= 1
    state["discards"][kind] += 1
    state["draw"]["discarded"][seat] = True


def next_drawer(state: State) -> int | None:
    """Who draws next (Momentum first), or None when both have drawn."""
    drawn = state["draw"]["drawn"]
    m = state["momentum"]
    if not drawn[m]:
        return m
    if not drawn[other(m)]:
        return other(m)
    return None


def hand_total(state: State, seat: int) -> int:
    """Cards in ``seat``'s hand, both kinds."""
    h = state["hands"][seat]
    return h["attack"] + h["strategy"]


def draw_shares(state: State) -> list[int]:
    """How many cards each seat draws this Draw Phase, given what the decks still hold.

    "Starting with the player with Momentum, take turns drawing a card until both players are holding 7
    cards": one card at a time, alternately, Momentum first; a seat whose hand is full stops and the other
    goes on. With enough cards each seat simply fills its hand; when the decks run short the cards are
    shared out in that order. A seat that has already drawn gets 0.
    """
    drawn = state["draw"]["drawn"]
    size = state["settings"]["hand_size"]
    need = [0 if drawn[s] else max(0, size - hand_total(state, s)) for s in SEATS]
    left = state["decks"]["attack"] + state["decks"]["strategy"]
    got = [0, 0]
    order = (state["momentum"], other(state["momentum"]))
    while left > 0 and any(got[s] < need[s] for s in SEATS):
        for s in order:
            if got[s] < need[s] and left > 0:
                got[s] += 1
                left -= 1
    return got


def draw_cards(state: State, seat: int, attack: int, strategy: int) -> None:
    """Draw Phase: ``seat`` draws; after both, flag Exhaustion if a deck ran out and start Preparation."""
    state["hands"][seat]["attack"] += attack
    state["hands"][seat]["strategy"] += strategy
    state["decks"]["attack"] -= attack
    state["decks"]["strategy"] -= strategy
    state["draw"]["drawn"][seat] = True
    if next_drawer(state) is None:
        if state["decks"]["attack"] <= 0 or state["decks"]["strategy"] <= 0:
            state["last_round"] = True
            log(state, "A deck has run out: this is the last round of the game (Exhaustion).")
        state["phase"] = "preparation"
        state["preparation"] = {"finished": [False, False]}
        _cap_log(state)


def preparing_seat(state: State) -> int | None:
    """Who places Strategy cards now (Momentum first), or None when both are done."""
    fin = state["preparation"]["finished"]
    m = state["momentum"]
    if not fin[m]:
        return m
    if not fin[other(m)]:
        return other(m)
    return None


def place_strategy_card(state: State, seat: int, slot: str, name: str | None) -> None:
    """Preparation Phase: a Strategy card from hand into ``slot`` (INSTINCTs face-down)."""
    uid = state["next_uid"]
    state["next_uid"] += 1
    state["boards"][seat][slot].append({"uid": uid, "name": name, "hidden": slot == "instinct"})
    state["hands"][seat]["strategy"] -= 1
    if slot != "instinct" and name is not None:
        _see(state["seen"], "strategy", name)  # face-up: public from now on


def finish_preparation(state: State, seat: int) -> None:
    """Preparation Phase: ``seat`` is done; when both are, combat starts."""
    state["preparation"]["finished"][seat] = True
    if preparing_seat(state) is None:
        start_combat(state)


# ---------------------------------------------------------------------------------------------- combat
def start_combat(state: State) -> None:
    """Combat Phase: the Momentum seat's turn, an empty reaction window."""
    state["phase"] = "combat"
    m = state["momentum"]
    state["combat"] = {
        "turn": m,
        "turn_cards": [],
        "turn_number": 1,
        "last_turn": None,
        "parry": [None, None],
        "forced": [None, None],
        "armed": [[], []],
        "pending_disengage": None,
        "window": None,
    }
    g = gambits(state)
    in_play = ", ".join(g["names"]) if g["names"] else "none"
    log(
        state,
        f"Round {state['round']} combat begins; {seat_ref(m)} (Momentum) plays first. GAMBITs in play: {in_play}.",
    )
    open_window(state)


def open_window(state: State) -> None:
    """Close the current reaction window (its results stay) and open an empty one.

    An Overwhelm played in the closing window while its player had no attack of its own open is *armed*:
    it carries over to that player's next Attack card (``combat.armed``).
    """
    _cap_log(state)
    c = state["combat"]
    old = c["window"]
    if old is not None:
        for r in old["reactions"]:
            if r.get("arming") and r["effective"]:
                c["armed"][r["seat"]].append(r["card"])
    c["window"] = {
        "strike": None,
        "reactions": [],
        "triggered": [],
        "snapshot": {
            "health": list(state["health"]),
            "boards": copy.deepcopy(state["boards"]),
            "seen": copy.deepcopy(state["seen"]),
            "discarded": state["discards"]["strategy"],
            "log_start": len(state["log"]),
        },
    }


def may_chain(state: State, seat: int, last_card: dict[str, Any]) -> bool:
    """Whether ``seat`` could still follow ``last_card`` with a Chain card this turn."""
    return seat == state["momentum"] and last_card["bonus"] != "stops_chain" and state["hands"][seat]["attack"] > 0


def field_card(state: State, uid: int) -> dict[str, Any]:
    """The Attack card ``uid`` on the Field Board (KeyError if absent)."""
    for card in state["field"]["cards"]:
        if card["uid"] == uid:
            return card
    raise KeyError(uid)


def turn_open_for_chain(state: State) -> bool:
    """The turn seat has played a card this turn and may still chain (so its opponent may start a turn)."""
    c = state["combat"]
    if not c["turn_cards"]:
        return False
    return may_chain(state, c["turn"], field_card(state, c["turn_cards"][-1]))


def pass_turn(state: State, to: int) -> None:
    """End the current turn and start ``to``'s (Parry becomes active / expires here)."""
    c = state["combat"]
    prev = c["turn"]
    if c["parry"][prev] == "active":
        c["parry"][prev] = None
    c["last_turn"] = {"seat": prev, "cards": list(c["turn_cards"])}
    c["turn"] = to
    c["turn_cards"] = []
    c["turn_number"] += 1
    if c["parry"][to] == "pending":
        c["parry"][to] = "active"


def play_attack_card(state: State, seat: int, spec: Any, attack_tile: list[int], opp_tile: list[int]) -> None:
    """Combat: place a validated Attack card, resolve its damage, pass the turn unless ``seat`` may chain."""
    c = state["combat"]
    if seat != c["turn"]:
        pass_turn(state, seat)
    card_def = resolve_card(state, spec)
    assert card_def is not None
    state["hands"][seat]["attack"] -= 1
    if isinstance(spec, str):
        _see(state["seen"], "attack", spec)
    open_window(state)
    uid = state["next_uid"]
    state["next_uid"] += 1
    as_chain = bool(c["turn_cards"])
    base = _base_instances(state, seat, card_def, cell_key(attack_tile))
    card = {
        "uid": uid,
        "seat": seat,
        "name": card_def["name"],
        "attack": card_def["attack"],
        "opportunity": card_def["opportunity"],
        "bonus": card_def["bonus"],
        "attack_tile": [int(attack_tile[0]), int(attack_tile[1])],
        "opportunity_tile": [int(opp_tile[0]), int(opp_tile[1])],
        "as_chain": as_chain,
        "negated": False,
        "instances": [],
        "damage": 0,
    }
    state["field"]["cards"].append(card)
    notes = []
    if card_def["bonus"] == "parry":
        c["parry"][seat] = "pending"
        notes.append("Parry is active on this seat's next turn")
    elif card_def["bonus"] == "forced_disengage":
        c["forced"][other(seat)] = card_def["name"]
        notes.append(f"{seat_ref(other(seat))} must disengage at the start of their next turn")
    c["window"]["strike"] = {
        "card": uid,
        "attacker": seat,
        "defender": other(seat),
        "as_chain": as_chain,
        "base": base,
        "notes": notes,
        "armed": c["armed"][seat],
    }
    c["armed"][seat] = []
    c["turn_cards"].append(uid)
    resolve_window(state)
    if not may_chain(state, seat, card):
        pass_turn(state, other(seat))


def _base_instances(state: State, seat: int, card_def: dict[str, Any], attack_tile: tuple[int, int]) -> list[Any]:
    """The damage instances an attack card creates by itself (before EQUIPMENT, GAMBITs and negation)."""
    occ = occupancy(state)
    parts = [str(card_def["attack"])]
    amount = card_def["attack"]
    for n in neighbours(attack_tile):
        held = occ.get(n)
        if held and held[1] == "opportunity":
            other_card = held[0]
            amount += other_card["opportunity"]
            if other_card["opportunity"]:
                parts.append(f"{other_card['opportunity']} ({other_card['name']}'s opportunity)")
    if card_def["bonus"] == "riposte" and state["combat"]["parry"][seat] == "active":
        amount += card_def["bonus_damage"]
        parts.append(f"{card_def['bonus_damage']} (Riposte)")
    instances = [{"id": "card", "label": card_def["name"], "amount": amount, "parts": parts}]
    if card_def["bonus"] == "extra_instances":
        for k in range(card_def["bonus_instances"]):
            instances.append(
                {
                    "id": f"bonus{k + 1}",
                    "label": f"{card_def['name']} bonus instance {k + 1}",
                    "amount": card_def["bonus_damage"],
                    "parts": [str(card_def["bonus_damage"])],
                }
            )
    return instances


def find_instinct_slot(state: State, seat: int, name: str) -> dict[str, Any] | None:
    """The INSTINCT slot card a ``strategy_card_played`` naming ``name`` comes from: named first, else hidden."""
    slots = state["boards"][seat]["instinct"]
    for card in slots:
        if card["name"] == name:
            return card
    for card in slots:
        if card["name"] is None:
            return card
    return None


def latest_reaction_of(state: State, seat: int) -> int | None:
    """Index of ``seat``'s most recent INSTINCT played in the open window, or None."""
    reactions = state["combat"]["window"]["reactions"]
    for i in range(len(reactions) - 1, -1, -1):
        if reactions[i]["seat"] == seat:
            return i
    return None


def play_instinct(state: State, seat: int, name: str, target: Any) -> None:
    """Combat: ``seat`` plays (and so reveals) an INSTINCT; the reaction window is resolved again."""
    c = state["combat"]
    w = c["window"]
    slot_card = find_instinct_slot(state, seat, name)
    assert slot_card is not None
    d = strategy_def(state, name)
    assert d is not None
    reaction: dict[str, Any] = {
        "seat": seat,
        "card": name,
        "uid": slot_card["uid"],
        "effect": d["effect"],
        "target": copy.deepcopy(target),
        "negates": None,
        "instance": None,
        "arming": False,
        "revealed": slot_card["name"] is None,
        "effective": True,
        "result": "",
    }
    if d["effect"] == "negate_card":
        reaction["negates"] = card_negation_target(state, seat, target)
    elif d["effect"] == "negate_chosen_instance":
        i = target["instance"] if isinstance(target, dict) else 0
        reaction["instance"] = current_instances(state)[int(i)]["id"]
    elif d["effect"] == "unnegatable":
        strike = w["strike"]
        own = strike is not None and strike["attacker"] == seat and not field_card(state, strike["card"])["negated"]
        reaction["arming"] = not own  # played before the Attack card it boosts
    w["reactions"].append(reaction)
    resolve_window(state)


def card_negation_target(state: State, seat: int, target: Any) -> dict[str, Any] | None:
    """What a Condescend of ``seat`` aimed at ``target`` negates in the open window, or None.

    ``{"card": uid}`` names the opponent's Chain card (the open strike), an INSTINCT it played in the window,
    or an automatic INSTINCT of its that triggered in the window. Entries recorded before version 2 name
    ``"chain"`` or ``"instinct"`` (the latest one); they are read the same way.
    """
    w = state["combat"]["window"]
    strike = w["strike"]
    opponent = other(seat)
    if target == "chain":
        return {"kind": "chain", "uid": strike["card"]} if strike else None
    if target == "instinct":
        idx = latest_reaction_of(state, opponent)
        return None if idx is None else {"kind": "reaction", "index": idx, "uid": w["reactions"][idx]["uid"]}
    if not isinstance(target, dict) or not isinstance(target.get("card"), int):
        return None
    uid = target["card"]
    if strike is not None and strike["card"] == uid and strike["attacker"] == opponent:
        return {"kind": "chain", "uid": uid}
    for i, r in enumerate(w["reactions"]):
        if r["uid"] == uid and r["seat"] == opponent:
            return {"kind": "reaction", "index": i, "uid": uid}
    for t in w.get("triggered", []):
        if t["uid"] == uid and t["seat"] == opponent:
            return {"kind": "auto", "uid": uid}
    return None


def current_instances(state: State) -> list[dict[str, Any]]:
    """The damage instances of the open strike as last resolved (empty without one)."""
    w = state["combat"]["window"]
    if w is None or w["strike"] is None:
        return []
    return field_card(state, w["strike"]["card"])["instances"]


def effective_reactions(reactions: list[dict[str, Any]], will: bool) -> list[bool]:
    """Which reactions take effect: Test of Will negates all; a Condescend negates its target if effective."""
    eff = [not will] * len(reactions)
    for j in range(len(reactions) - 1, -1, -1):
        r = reactions[j]
        if eff[j] and r["effect"] == "negate_card" and _negates(r, "reaction"):
            eff[r["negates"]["index"]] = False
    return eff


def _negates(reaction: dict[str, Any], kind: str) -> bool:
    """Whether a Condescend ``reaction`` is aimed at a target of ``kind`` (chain, reaction, auto)."""
    target = reaction.get("negates")
    return isinstance(target, dict) and target.get("kind") == kind


def resolve_window(state: State) -> None:
    """Recompute everything the open window decides from its snapshot: damage, triggers, negation, log."""
    c = state["combat"]
    w = c["window"]
    snap = w["snapshot"]
    boards = copy.deepcopy(snap["boards"])
    health = list(snap["health"])
    seen = copy.deepcopy(snap["seen"])
    lines: list[str] = []
    g = gambits(state)
    reactions = w["reactions"]
    eff = effective_reactions(reactions, g["will"])
    for r, ok in zip(reactions, eff, strict=True):
        r["effective"] = ok
        boards[r["seat"]]["instinct"] = [x for x in boards[r["seat"]]["instinct"] if x["uid"] != r["uid"]]
        _see(seen, "strategy", r["card"])
    results = ["" for _ in reactions]
    for j, r in enumerate(reactions):
        if eff[j] and r["effect"] == "negate_card" and _negates(r, "reaction"):
            target = reactions[r["negates"]["index"]]
            results[j] = f"{seat_ref(target['seat'])}'s {target['card']} is negated and discarded"
    strike = w["strike"]
    w["triggered"] = []
    if strike is not None:
        lines.extend(_resolve_strike(state, strike, boards, health, seen, reactions, eff, g, results))
    else:
        for j, r in enumerate(reactions):
            r["result"] = _reaction_result(r, eff[j], g, results[j])
            lines.append(_reaction_line(r))
    gone = _card_count(snap["boards"]) - _card_count(boards)  # played or triggered: discarded
    state["discards"]["strategy"] = snap["discarded"] + gone
    state["boards"] = boards
    state["health"] = health
    state["seen"] = seen
    state["log"] = state["log"][: snap["log_start"]] + lines
    refresh_grid(state)


def _card_count(boards: list[dict[str, list[Any]]]) -> int:
    return sum(len(cards) for board in boards for cards in board.values())


def _reaction_result(r: dict[str, Any], ok: bool, g: dict[str, Any], default: str) -> str:
    if not ok:
        return "negated by Test of Will and discarded" if g["will"] else "negated by Condescend and discarded"
    return default


def _reaction_line(r: dict[str, Any]) -> str:
    what = {
        "negate_chosen_instance": "against a damage instance",
        "unnegatable": "for their next Attack card" if r.get("arming") else "on their attack",
        "negate_card": "against a Chain card" if _negates(r, "chain") else "against an INSTINCT card",
        "extra_instance": "(triggered)",
        "negate_first_instance": "(triggered)",
    }.get(r["effect"], "")
    line = f"{seat_ref(r['seat'])} played {r['card']}" + (f" {what}" if what else "")
    return line + (f": {r['result']}." if r["result"] else ".")


def _resolve_strike(
    state: State,
    strike: dict[str, Any],
    boards: list[dict[str, Any]],
    health: list[int],
    seen: dict[str, dict[str, int]],
    reactions: list[dict[str, Any]],
    eff: list[bool],
    g: dict[str, Any],
    results: list[str],
) -> list[str]:
    """Resolve the open strike into ``boards``/``health``/``seen``; returns its log lines."""
    card = field_card(state, strike["card"])
    a, d = strike["attacker"], strike["defender"]
    chain = " as a Chain" if strike["as_chain"] else ""
    lines = [
        f"{seat_ref(a)} played {card['name']}{chain} (attack on {_tile(card['attack_tile'])}; "
        f"opportunity on {_tile(card['opportunity_tile'])})."
    ]
    chain_negated = None
    if strike["as_chain"]:
        if g["will"]:
            chain_negated = "Test of Will"
        else:
            for j, r in enumerate(reactions):
                if eff[j] and _negates(r, "chain"):
                    chain_negated = f"{seat_ref(r['seat'])}'s {r['card']}"
                    results[j] = f"{card['name']} is negated and discarded"
    tail: list[str] = []
    if chain_negated:
        card.update(negated=True, instances=[], damage=0)
        lines.append(f"{card['name']} was negated by {chain_negated}: it is discarded and deals no damage.")
    else:
        lines.extend(strike["notes"])
        instances = _strike_instances(state, strike, boards, seen, reactions, eff, g, results, lines)
        overwhelm = [
            j
            for j, r in enumerate(reactions)
            if eff[j] and r["seat"] == a and r["effect"] == "unnegatable" and not r.get("arming")
        ]
        for j in overwhelm:
            results[j] = "its damage cannot be negated"
        armed = strike.get("armed") or []
        if armed:
            lines.append(f"{armed[0]} ({seat_ref(a)}, played before this card): its damage cannot be negated.")
        overwhelmed = armed[0] if armed else (reactions[overwhelm[0]]["card"] if overwhelm else None)
        blocker = "Test of Pain" if g["pain"] else overwhelmed
        _automatic_negation(state, instances, boards, d, seen, g, blocker, reactions, eff, results)
        _chosen_negation(instances, reactions, eff, d, blocker, results)
        total = sum(i["amount"] for i in instances if not i["negated"])
        lines.extend(_instance_line(i) for i in instances)
        keys = ("id", "label", "amount", "negated", "negated_by")
        card.update(negated=False, instances=[{k: i[k] for k in keys} for i in instances], damage=total)
        before = health[d]
        health[d] = max(0, before - total)
        tail.append(f"{seat_ref(d)} takes {total} damage: Health {before} → {health[d]}.")
    for j, r in enumerate(reactions):
        r["result"] = _reaction_result(r, eff[j], g, results[j])
        lines.append(_reaction_line(r))
    return lines + tail


def _instance(ident: str, label: str, amount: int, parts: list[str] | None = None) -> dict[str, Any]:
    return {
        "id": ident,
        "label": label,
        "amount": amount,
        "parts": parts or [str(amount)],
        "notes": [],
        "negated": False,
        "negated_by": None,
    }


def _strike_instances(
    state: State,
    strike: dict[str, Any],
    boards: list[dict[str, Any]],
    seen: dict[str, dict[str, int]],
    reactions: list[dict[str, Any]],
    eff: list[bool],
    g: dict[str, Any],
    results: list[str],
    lines: list[str],
) -> list[dict[str, Any]]:
    """The strike's damage instances: the card's own, automatic extra instances, revealed ones, Test of Skill."""
    a = strike["attacker"]
    instances = [_instance(i["id"], i["label"], i["amount"], list(i["parts"])) for i in strike["base"]]
    for slot, oil in _automatic_cards(state, boards[a], "extra_instance"):
        boards[a][slot] = [x for x in boards[a][slot] if x["uid"] != oil["uid"]]
        if slot == "instinct":
            _see(seen, "strategy", oil["name"])
            negated_by = _auto_negated_by(state, oil, a, reactions, eff, g, results)
            if negated_by:
                lines.append(f"{oil['name']} ({seat_ref(a)}) triggered but was negated by {negated_by}.")
                continue
        instances.append(_instance(f"auto{oil['uid']}", oil["name"], strategy_def(state, oil["name"])["amount"]))
    for j, r in enumerate(reactions):
        if eff[j] and r["seat"] == a and r["effect"] == "extra_instance":
            amount = strategy_def(state, r["card"])["amount"]
            instances.append(_instance(f"react{j}", r["card"], amount))
            results[j] = f"an extra damage instance of {amount}"
    if g["skill"]:
        for inst in instances:
            inst["amount"] += g["skill"]
            inst["parts"].append(f"{g['skill']} (Test of Skill)")
    return instances


def _auto_negated_by(
    state: State,
    card: dict[str, Any],
    seat: int,
    reactions: list[dict[str, Any]],
    eff: list[bool],
    g: dict[str, Any],
    results: list[str],
) -> str | None:
    """An automatic INSTINCT of ``seat`` triggers: note it, and say what negates it (Test of Will, Condescend)."""
    state["combat"]["window"]["triggered"].append({"uid": card["uid"], "seat": seat, "card": card["name"]})
    if g["will"]:
        return "Test of Will"
    for j, r in enumerate(reactions):
        if eff[j] and _negates(r, "auto") and r["negates"]["uid"] == card["uid"]:
            results[j] = f"{seat_ref(seat)}'s {card['name']} is negated and discarded"
            return f"{seat_ref(r['seat'])}'s {r['card']}"
    return None


def _automatic_negation(
    state: State,
    instances: list[dict[str, Any]],
    boards: list[dict[str, Any]],
    d: int,
    seen: dict[str, dict[str, int]],
    g: dict[str, Any],
    blocker: str | None,
    reactions: list[dict[str, Any]],
    eff: list[bool],
    results: list[str],
) -> None:
    """Bracer-like cards of the defender: each instance in turn activates the next one until it is negated."""
    for inst in instances:
        for slot, bracer in _automatic_cards(state, boards[d], "negate_first_instance"):
            boards[d][slot] = [x for x in boards[d][slot] if x["uid"] != bracer["uid"]]
            if slot == "instinct":
                _see(seen, "strategy", bracer["name"])
                negated_by = _auto_negated_by(state, bracer, d, reactions, eff, g, results)
                if negated_by:
                    inst["notes"].append(f"{bracer['name']} triggered but was negated by {negated_by}")
                    continue
            if blocker:
                inst["notes"].append(f"{bracer['name']} triggered but could not negate it ({blocker})")
                continue
            inst.update(negated=True, negated_by=bracer["name"])
            inst["notes"].append(f"{bracer['name']} negated it")
            break


def _chosen_negation(
    instances: list[dict[str, Any]],
    reactions: list[dict[str, Any]],
    eff: list[bool],
    d: int,
    blocker: str | None,
    results: list[str],
) -> None:
    """The defender's played negations (Anticipation, revealed automatic ones), in the order played."""
    for j, r in enumerate(reactions):
        if not eff[j] or r["seat"] != d:
            continue
        if r["effect"] == "negate_first_instance":
            target = next((i for i in instances if not i["negated"]), None)
        elif r["effect"] == "negate_chosen_instance":
            target = next((i for i in instances if i["id"] == r["instance"]), None)
        else:
            continue
        if target is None or target["negated"]:
            results[j] = "no effect (nothing left to negate)"
        elif blocker:
            target["notes"].append(f"{r['card']} could not negate it ({blocker})")
            results[j] = f"no effect ({blocker})"
        else:
            target.update(negated=True, negated_by=r["card"])
            target["notes"].append(f"{r['card']} negated it")
            results[j] = f"negated {target['label']} ({target['amount']})"


def _instance_line(inst: dict[str, Any]) -> str:
    if len(inst["parts"]) > 1:
        line = f"{inst['label']}: {' + '.join(inst['parts'])} = {inst['amount']}"
    else:
        line = f"{inst['label']}: {inst['amount']}"
    if inst["notes"]:
        line += ", " + "; ".join(inst["notes"])
    return line + "."


def additional_turn_done(state: State) -> bool:
    """Test of Courage: the opponent of the disengaging seat has had its additional turn (or passed it)."""
    c = state["combat"]
    pending = c["pending_disengage"]
    return pending is not None and (c["turn"] == pending or bool(c["turn_cards"]))


def pass_additional_turn(state: State, seat: int) -> None:
    """Test of Courage: ``seat`` plays no Attack card in its additional turn; the disengage may now succeed."""
    log(state, f"{seat_ref(seat)} passes the additional turn.")
    pass_turn(state, other(seat))
    _cap_log(state)


def disengage(state: State, seat: int) -> None:
    """Combat: ``seat`` disengages (delayed once by Test of Courage) and combat ends."""
    c = state["combat"]
    if c["pending_disengage"] == seat:
        log(state, f"{seat_ref(seat)}'s disengage now succeeds.")
        end_combat(state, seat)
        return
    if seat != c["turn"]:
        pass_turn(state, seat)
    c["forced"][seat] = None
    if gambits(state)["courage"]:
        c["pending_disengage"] = seat
        log(
            state,
            f"{seat_ref(seat)} disengages, but Test of Courage gives {seat_ref(other(seat))} an additional turn first.",
        )
        pass_turn(state, other(seat))
        open_window(state)
        return
    log(state, f"{seat_ref(seat)} disengages.")
    end_combat(state, seat)


def end_combat(state: State, seat: int) -> None:
    """Combat ends by ``seat``'s disengage: clean-up, Momentum, then the win check (How To Win)."""
    f = state["field"]
    state["discards"]["attack"] += len(f["cards"])
    f["cards"] = []
    for board in state["boards"]:
        state["discards"]["strategy"] += len(board["gambit"])
        board["gambit"] = []
        keep = []
        for card in board["equipment"]:
            d = strategy_def(state, card["name"])
            if d and d["destroyed_at_round_end"]:
                state["discards"]["strategy"] += 1
            else:
                keep.append(card)
        board["equipment"] = keep
    state["combat"] = None
    if seat == state["momentum"]:
        state["momentum"] = other(seat)
        log(state, f"{seat_ref(seat)} had Momentum: it passes to {seat_ref(other(seat))}.")
    refresh_grid(state)
    _check_end(state)
    _cap_log(state)


def final_blow(cards: list[dict[str, Any]], winner: int, loser_health: int) -> dict[str, Any] | None:
    """The winner's Attack card among ``cards`` (a combat's, in the order played) whose damage brought the
    loser from ``loser_health`` (at the start of that combat) to 0; None if their damage never got there."""
    dealt = 0
    for card in cards:
        if card["seat"] != winner or card["damage"] <= 0:
            continue
        dealt += card["damage"]
        if dealt >= loser_health:
            return card
    return None


def _check_end(state: State) -> None:
    h = state["health"]
    if h[0] == 0 and h[1] == 0:
        if state["last_round"]:
            _finish(state, [], True, "Exhaustion: a deck ran out this round and both players are at 0 Health.")
            return
        state["health"] = [1, 1]
        log(state, "Second Wind: both players are at 0 Health; both rebalance to 1 and begin another round.")
        _next_round(state)
        return
    for seat in SEATS:
        if h[seat] == 0 and h[other(seat)] > 0:
            _finish(state, [other(seat)], False, f"{seat_ref(seat)} is at 0 Health at the end of combat.")
            return
    if state["last_round"]:
        _finish(state, [], True, "Exhaustion: a deck ran out this round and there is no winner.")
        return
    _next_round(state)


def _finish(state: State, winners: list[int], draw: bool, reason: str) -> None:
    state["phase"] = "over"
    state["result"] = {"winners": winners, "draw": draw, "reason": reason}
    log(state, ("Draw. " if draw else f"{seat_ref(winners[0])} wins. ") + reason)


def result_line(result: dict[str, Any], health: list[int]) -> str:
    """The end of the game in one sentence naming the winner: "Seat 0 wins with 5 Health left (Seat 1 is at
    0 Health at the end of combat)."; a draw says so with its reason."""
    if result["draw"] or not result["winners"]:
        return f"The game is a draw. {result['reason']}"
    winner = result["winners"][0]
    return f"{seat_ref(winner)} wins with {health[winner]} Health left ({result['reason'].rstrip('.')})."


def _next_round(state: State) -> None:
    state["round"] += 1
    state["phase"] = "field" if state["decks"]["field"] > 0 else "draw"
    state["draw"] = {"discarded": [False, False], "drawn": [False, False]}
    state["preparation"] = {"finished": [False, False]}
    log(state, f"Round {state['round']} begins. {seat_ref(state['momentum'])} has Momentum.")

"""The First Spine's state and its pure mutations: setup, the discard/draw, placement, life changes, the
confrontation plan and its resolution with every capacity, elimination and the passing of the turn.

One effect per entry type (``EFFECTS``: ``effect(new, event)``) edits the clone it is given in place
(``rulesets.base.Ruleset.apply``); an effect refuses what even a house rule cannot record with ValueError.
Texts in the state say ``Seat N``; pages show the seat's name instead.
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.base import Event, State
from rulesets.cells import row_col_words
from rulesets.names import plural
from rulesets.the_first_spine import board as B
from rulesets.the_first_spine.cards import AURA_BONUS, GROWTH_TURNS, SIDES, WIZARD, default_cards
from rulesets.the_first_spine.fields import (
    CARD_MOVED,
    CARD_PLACED,
    CONFRONTATION_TARGET_CHOSEN,
    DEFAULT_BOARD,
    DEFAULT_DECK_SIZE,
    DEFAULT_HAND_SIZE,
    DEFAULT_WIZARD_HP,
    DESTINY_CHOSEN,
    HAND_REFILLED,
    HP_CHANGED,
    ORIGIN_CHOSEN,
    SETUP_EVENTS,
    TURN_ENDED,
)
from rulesets.versions import recorded_before

LOG_CAP = 200  # the state keeps the latest confrontation/capacity lines; the event log keeps everything
ZERO = {s: 0 for s in SIDES}


def seat_word(seat: int) -> str:
    return f"Seat {seat}"


def cell_word(cell: Any) -> str:
    """A ``[row, col]`` cell as players read it: "column 3, row 2" (``rulesets.cells``)."""
    return row_col_words(cell)


# -- creation ---------------------------------------------------------------------------------------------
def _catalog_entry(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": card["name"].strip(),
        "kind": card["kind"],
        "hp": card["hp"],
        "attack": {s: card["attack"][s] for s in SIDES},
        "defense": {s: card["defense"][s] for s in SIDES},
        "capacities": list(card.get("capacities") or []),
        "side_capacities": {s: c for s, c in (card.get("side_capacities") or {}).items() if c},
        "origin": card.get("origin"),
        "text": card.get("text") or "",
    }


def new_state(options: dict[str, Any], seat_count: int) -> State:
    """Wizards at the centre of each end, decks full, hands empty (drawn when setup ends), setup phase."""
    rows, cols = options.get("board") or DEFAULT_BOARD
    first = options.get("first_seat") or 0
    settings = {
        "wizard_hp": options.get("wizard_hp") or DEFAULT_WIZARD_HP,
        "hand_size": options.get("hand_size") or DEFAULT_HAND_SIZE,
        "deck_size": options.get("deck_size") or DEFAULT_DECK_SIZE,
        "first_seat": first if first < seat_count else 0,
        "first_seat_asked": first,
    }
    catalog = {}
    for card in options.get("cards") or default_cards():
        entry = _catalog_entry(card)
        catalog[entry["name"]] = entry
    players, pieces = [], []
    for seat in range(seat_count):
        end = B.end_of(seat, seat_count)
        players.append(
            {
                "seat": seat,
                "end": end,
                "wizard_hp": settings["wizard_hp"],
                "out": False,
                "hand": 0,
                "deck": settings["deck_size"],
                "discard": [],
                "hand_discards": 0,
                "destiny": None,
                "origin_chosen": False,
                "origin": None,
                "origin_revealed": False,
                "origin_played": 0,
                "destiny_played": 0,
            }
        )
        pieces.append(
            {
                "id": seat,
                "name": WIZARD,
                "kind": "wizard",
                "at": list(B.wizard_cell(end, rows, cols)),
                "owner": seat,
                "controller": seat,
                "hp": settings["wizard_hp"],
                "capacities": [],
                "side_capacities": {},
                "growth_left": 0,
                "origin": None,
            }
        )
    state: State = {
        "board": {"rows": rows, "cols": cols},
        "settings": settings,
        "catalog": catalog,
        "players": players,
        "cards": pieces,
        "blocked": [],
        "turn": {"seat": settings["first_seat"], "number": 0, "phase": "setup", "moved": False, "targets": []},
        "log": [],
        "result": None,
        "next_id": seat_count,
    }
    return derive(state)


def derive(state: State) -> State:
    """Recompute in place what follows from the board: each card's facing, its current attack and defense
    (printed values plus Aura), and each player's wizard life. Returns ``state``."""
    by_cell = occupancy(state)
    players = state["players"]
    for card in state["cards"]:
        card["facing"] = B.FACING[players[card["controller"]]["end"]]
        base = state["catalog"].get(card["name"]) if card["kind"] != "wizard" else None
        card["aura"] = 0
        card["attack"] = dict(base["attack"]) if base else dict(ZERO)
        card["defense"] = dict(base["defense"]) if base else dict(ZERO)
    for card in state["cards"]:
        for side, cap in card["side_capacities"].items():
            if cap != "aura":
                continue
            target = by_cell.get(B.step(_cell(card["at"]), B.side_direction(card["facing"], side)))
            if target is not None and target["kind"] != "wizard" and target["controller"] == card["controller"]:
                target["aura"] += AURA_BONUS
    for card in state["cards"]:
        if card["aura"]:
            card["attack"] = {s: v + card["aura"] for s, v in card["attack"].items()}
            card["defense"] = {s: v + card["aura"] for s, v in card["defense"].items()}
    for p in players:
        wiz = wizard_of(state, p["seat"])
        p["wizard_hp"] = max(0, wiz["hp"]) if wiz is not None else 0
    return state


# -- lookups ------------------------------------------------------------------------------------------------
def _cell(value: Any) -> B.Cell:
    return (value[0], value[1])


def _reading(piece: dict[str, Any]) -> tuple[int, int]:
    """A piece's place in reading order (row, then column): how a turn end orders what happens at once,
    so the result depends on the board, never on the order the cards were placed in."""
    return (piece["at"][0], piece["at"][1])


def occupancy(state: State) -> dict[B.Cell, dict[str, Any]]:
    """Every card and wizard on the board by cell."""
    return {_cell(c["at"]): c for c in state["cards"]}


def wizard_of(state: State, seat: int) -> dict[str, Any] | None:
    return next((c for c in state["cards"] if c["kind"] == "wizard" and c["owner"] == seat), None)


def blocked_cells(state: State) -> set[B.Cell]:
    return {_cell(b["at"]) for b in state["blocked"]}


def find_card(state: State, name: Any) -> dict[str, Any] | None:
    """The catalog card called ``name`` (case and surrounding spaces ignored)."""
    if not isinstance(name, str):
        return None
    key = name.strip().casefold()
    return next((c for c in state["catalog"].values() if c["name"].casefold() == key), None)


def label(state: State, piece: dict[str, Any]) -> str:
    """How the log names a piece: the card's name, or ``Seat N's wizard``."""
    if piece["kind"] == "wizard":
        return f"{seat_word(piece['owner'])}'s wizard"
    return piece["name"]


def named(state: State, piece: dict[str, Any]) -> str:
    """:func:`label`, with the piece's cell when another piece on the board has the same name, so two
    same-name cards are told apart ("Squire on column 3, row 3 deals 1 to Squire on column 3, row 2")."""
    text = label(state, piece)
    twins = sum(1 for c in state["cards"] if c["kind"] != "wizard" and c["name"] == piece["name"])
    if piece["kind"] != "wizard" and twins > 1:
        return f"{text} on {cell_word(piece['at'])}"
    return text


def living_seats(state: State) -> list[int]:
    return [p["seat"] for p in state["players"] if not p["out"]]


def add_log(state: State, kind: str, text: str, **extra: Any) -> None:
    entry = {"turn": state["turn"]["number"], "seat": state["turn"]["seat"], "kind": kind, "text": text, **extra}
    state["log"] = [*state["log"], entry][-LOG_CAP:]


# -- setup ----------------------------------------------------------------------------------------------------
def setup_missing(state: State) -> dict[int, list[str]]:
    """Seat → what it still has to choose (``destiny``, ``origin``); empty once setup is done."""
    out: dict[int, list[str]] = {}
    for p in state["players"]:
        need = [k for k, done in (("destiny", p["destiny"] is not None), ("origin", p["origin_chosen"])) if not done]
        if need:
            out[p["seat"]] = need
    return out


def _choose(state: State, seat: int, what: str, value: str) -> None:
    p = state["players"][seat]
    if what == "destiny":
        p["destiny"] = value
    else:
        p["origin"], p["origin_chosen"] = value, True
    if not setup_missing(state):
        hand = state["settings"]["hand_size"]
        for player in state["players"]:  # "Players shuffle their cards and draw 6 cards"
            drawn = min(hand, player["deck"])
            player["hand"], player["deck"] = drawn, player["deck"] - drawn
        state["turn"] = {
            "seat": state["settings"]["first_seat"],
            "number": 1,
            "phase": "start",
            "moved": False,
            "targets": [],
        }


def choose_destiny(new: State, event: Event) -> None:
    """The seat's destiny (open); the starting hands are drawn once the last choice of the setup is made."""
    _playable(new, event)
    _choose(new, event.seat, "destiny", event.data["destiny"])


def choose_origin(new: State, event: Event) -> None:
    """The seat's secret origin; the starting hands are drawn once the last choice of the setup is made."""
    _playable(new, event)
    _choose(new, event.seat, "origin", event.data["origin"])


# -- the turn ---------------------------------------------------------------------------------------------------
def move_card(new: State, event: Event) -> None:
    """A card with Run moves to ``to`` (once per turn, before the discard/draw)."""
    _playable(new, event)
    frm, to = _cell(event.data["from"]), _cell(event.data["to"])
    occ = occupancy(new)
    if frm not in occ:
        raise ValueError(f"there is no card on {cell_word(frm)} to move")
    if not _v1_overrides(new):
        _check_free_cell(new, to, occ)
    occ[frm]["at"] = list(to)
    new["turn"]["moved"] = True


def refill(new: State, event: Event) -> None:
    """Discard (first free, then 1 life each), draw up to the hand size (1 life per missing card), Growth."""
    _playable(new, event)
    seat, discarded = event.seat, event.data["discarded"]
    p = new["players"][seat]
    if discarded > p["hand"] and not _v1_overrides(new):  # version 1: the hand went below 0, then filled up
        raise ValueError(f"{seat_word(seat)} holds {plural(p['hand'], 'card')} and cannot discard {discarded}")
    hand_size = new["settings"]["hand_size"]
    p["hand"] -= discarded
    p["hand_discards"] += discarded
    need = max(0, hand_size - p["hand"])
    drawn = min(need, p["deck"])
    p["deck"] -= drawn
    p["hand"] += drawn
    cost, short = max(0, discarded - 1), need - drawn
    words = [f"{seat_word(seat)} discarded {discarded}" + (f" (−{cost} life)" if cost else "")]
    words.append(f"drew {drawn}")
    if short:
        words.append(f"could not draw {short} (−{short} life)")
    add_log(new, "refill", ", ".join(words) + ".", discarded=discarded, drawn=drawn, shortfall=short, cost=cost + short)
    wizard = wizard_of(new, seat)
    if wizard is not None:
        wizard["hp"] -= cost + short
    for card in new["cards"]:
        if card["controller"] == seat and card["growth_left"] > 0:
            card["hp"] += 1
            card["growth_left"] -= 1
            add_log(
                new,
                "growth",
                f"Growth: {card['name']} on {cell_word(card['at'])} gains 1 life ({plural(card['growth_left'], 'turn')} left).",
            )
    new["turn"]["phase"] = "actions"
    _settle(new)


def place(new: State, event: Event) -> None:
    """A card from the seat's hand: a creature or artifact stands on ``at``, a spell goes to the discard."""
    _playable(new, event)
    seat = event.seat
    card = find_card(new, event.data["card"])
    if card is None:
        raise ValueError(f"the match's card list has no card called '{event.data['card']}'")
    p = new["players"][seat]
    if p["hand"] < 1 and not _v1_overrides(new):
        raise ValueError(f"{seat_word(seat)} holds no card to play")
    at = _cell(event.data["at"])
    if card["kind"] != "spell" and not _v1_overrides(new):
        _check_free_cell(new, at, occupancy(new))
    p["hand"] -= 1
    if card["origin"] is None:
        p["destiny_played"] = p.get("destiny_played", 0) + 1
    elif p["origin"] is not None and card["origin"] == p["origin"]:
        p["origin_revealed"] = True
        p["origin_played"] = p.get("origin_played", 0) + 1
    if card["kind"] == "spell":
        p["discard"] = [*p["discard"], card["name"]]
        return
    put_card(new, card, seat, at)


def put_card(state: State, card: dict[str, Any], seat: int, at: B.Cell) -> dict[str, Any]:
    """Stand the catalog ``card`` on ``at`` for ``seat`` (fresh: printed life, Growth counter full).

    The reducer's one way to put a card on the board; tests and demos use it to build positions."""
    piece = {
        "id": state["next_id"],
        "name": card["name"],
        "kind": card["kind"],
        "at": list(at),
        "owner": seat,
        "controller": seat,
        "hp": card["hp"],
        "capacities": list(card["capacities"]),
        "side_capacities": dict(card["side_capacities"]),
        "growth_left": GROWTH_TURNS if "growth" in card["capacities"] else 0,
        "origin": card["origin"],
    }
    state["cards"].append(piece)
    state["next_id"] += 1
    return piece


def change_hp(new: State, event: Event) -> None:
    """A spell or card text changes a piece's life; a card at 0 (or a Death card hurt) is destroyed."""
    _playable(new, event)
    piece = _piece_at(new, _cell(event.data["at"]))
    amount, note = event.data["amount"], event.data.get("note") or ""
    piece["hp"] += amount
    what = named(new, piece)
    add_log(
        new,
        "effect",
        f"{what} {'gains' if amount > 0 else 'loses'} {abs(amount)} life" + (f" ({note})." if note else "."),
    )
    if piece["kind"] != "wizard":
        dead = piece["hp"] <= 0 or (amount < 0 and "death" in piece["capacities"])
        if dead:
            if piece["hp"] > 0:
                add_log(new, "capacity", f"Death: {what} lost life, so it is destroyed.")
            _destroy(new, piece, by_seat=event.seat, by_card=True, name=what)
    _settle(new)


def choose_target(new: State, event: Event) -> None:
    """Which opponent card the creature on ``from`` confronts at the turn end (a later choice replaces it)."""
    _playable(new, event)
    frm = _cell(event.data["from"])
    if not _v1_overrides(new):
        _piece_at(new, frm)
    target = _cell(event.data["target"])
    keep = [t for t in new["turn"]["targets"] if _cell(t["from"]) != frm]
    new["turn"]["targets"] = [*keep, {"from": list(frm), "target": list(target)}]


def end_turn(new: State, event: Event) -> None:
    """The confrontations are resolved and the turn passes (:func:`resolve_turn_end`)."""
    _playable(new, event)
    resolve_turn_end(new)


# -- what even a house rule cannot record ----------------------------------------------------------------
def _playable(state: State, event: Event) -> None:
    """Raise ValueError when ``event`` cannot be put in the state even under a house rule (the replay layer
    refuses it as ``unplayable``): an override records what the table said, it never bends a count, stacks two
    pieces on a cell or plays the installation again (the starting hands are drawn once, *Installation › 3*).
    ``validate`` refuses all of these first, so a checked event never fails. The effects add their own counts."""
    setup = state["turn"]["phase"] == "setup"
    if recorded_before(state, 4):  # versions 1-3 (a match recorded under them) let an override replay the setup
        setup = event.type in SETUP_EVENTS
    if event.type in SETUP_EVENTS and not setup:
        raise ValueError(
            "the installation is over: the starting hands were drawn once, when the last destiny and origin were "
            "chosen, and the turns have begun"
        )
    if event.type not in SETUP_EVENTS and setup:
        raise ValueError("no turn has begun yet: every player chooses a destiny and an origin first")


def _v1_overrides(state: State) -> bool:
    """Version 1 (before commit d024de9, version 2) placed an overridden discard beyond the hand, a card from an empty
    hand, onto a held cell or off the board (pieces then share the cell), a move there, a target from an empty cell."""
    return recorded_before(state, 2)


def _piece_at(state: State, at: B.Cell) -> dict[str, Any]:
    """The card or wizard on ``at``; ValueError when the cell is empty."""
    piece = occupancy(state).get(at)
    if piece is None:
        raise ValueError(f"there is no card or wizard on {cell_word(at)}")
    return piece


def _check_free_cell(state: State, at: B.Cell, occ: dict[B.Cell, dict[str, Any]]) -> None:
    """Raise ValueError unless a piece can stand on ``at``: a cell of the board that no piece holds."""
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    if not (0 <= at[0] < rows and 0 <= at[1] < cols):
        raise ValueError(f"{cell_word(at)} is off the {rows} × {cols} board")
    if at in occ:
        raise ValueError(f"{cell_word(at)} already holds {label(state, occ[at])}")


# -- confrontations ------------------------------------------------------------------------------------------
def _arithmetic(a: dict[str, Any], b: dict[str, Any], threat: bool) -> dict[str, Any]:
    d = B.direction_to(_cell(a["at"]), _cell(b["at"]))
    assert d is not None
    back = B.CLOCKWISE[(B.CLOCKWISE.index(d) + 2) % 4]
    side_a, side_b = B.direction_side(a["facing"], d), B.direction_side(b["facing"], back)
    attack, defense = a["attack"][side_a], b["defense"][side_b]
    counter, guard = b["attack"][side_b], a["defense"][side_a]
    return {
        "attacker": a["id"],
        "defender": b["id"],
        "attacker_at": list(a["at"]),
        "defender_at": list(b["at"]),
        "attacker_seat": a["controller"],
        "defender_seat": b["controller"],
        "attacker_side": side_a,
        "defender_side": side_b,
        "attack": attack,
        "defense": defense,
        "counter_attack": counter,
        "counter_defense": guard,
        "dealt": max(0, attack - defense),
        "taken": max(0, counter - guard),
        "threat": threat,
    }


def plan(state: State) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The confrontations the active seat's cards would enter if the turn ended now, and the cards still
    waiting for a target choice (``{"from", "name", "options"}``).

    A creature confronts the one opponent card sharing a side with it (the chosen one when several); a
    card (creature or artifact) also confronts every opponent card on a side marked Threat. Wizards never
    start a confrontation.
    """
    seat = state["turn"]["seat"]
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    occ = occupancy(state)
    chosen = {_cell(t["from"]): _cell(t["target"]) for t in state["turn"]["targets"]}
    pairs: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    for card in sorted(state["cards"], key=_reading):
        if card["controller"] != seat or card["kind"] == "wizard":
            continue
        at = _cell(card["at"])
        threat_dirs = {B.side_direction(card["facing"], s) for s, c in card["side_capacities"].items() if c == "threat"}
        ordinary: list[dict[str, Any]] = []
        targets: list[tuple[dict[str, Any], bool]] = []
        for d, nb in B.neighbours(at, rows, cols):
            other = occ.get(nb)
            if other is None or other["controller"] == seat:
                continue
            if d in threat_dirs:
                targets.append((other, True))
            else:
                ordinary.append(other)
        if card["kind"] == "creature" and ordinary:
            if len(ordinary) == 1:
                targets.append((ordinary[0], False))
            else:
                pick = chosen.get(at)
                hit = next((o for o in ordinary if _cell(o["at"]) == pick), None)
                if hit is None:
                    missing.append(
                        {"from": list(at), "name": card["name"], "options": [list(o["at"]) for o in ordinary]}
                    )
                else:
                    targets.append((hit, False))
        targets.sort(key=lambda t: (t[0]["at"][0], t[0]["at"][1]))
        pairs.extend(_arithmetic(card, other, threat) for other, threat in targets)
    return pairs, missing


def pair_words(state: State, pair: dict[str, Any]) -> str:
    """``Paladin deals 3 to Barbed Wire (attack 3 − defense 0), takes 2 (attack 4 − defense 2)``."""
    by_id = {c["id"]: c for c in state["cards"]}
    a, b = by_id[pair["attacker"]], by_id[pair["defender"]]
    text = (
        f"{named(state, a)} deals {pair['dealt']} to {named(state, b)} "
        f"(attack {pair['attack']} − defense {pair['defense']}), takes {pair['taken']} "
        f"(attack {pair['counter_attack']} − defense {pair['counter_defense']})"
    )
    return text + (" [Threat]" if pair["threat"] else "")


def resolve_turn_end(state: State) -> None:
    """Resolve the confrontation phase, then pass the turn clockwise (unless the game is over).

    The turn end is computed from one board state. Every confrontation is computed from the board as it
    stands, then all losses apply together. Then, in the rulebook's priority order: Death (a Death card
    that lost life is destroyed and so is every creature or artifact that hurt it), Treason (a destroyed
    Treason card returns under the control of the player who controlled its destroyer when the turn
    ended), Burden earth (the cell of a destroyed card stays blocked until its controller's next turn).
    Who destroyed whom, and under whose control each destroyer stood, is fixed before any card changes
    sides, so two cards that destroy each other are both judged on the board as it was (two Treason
    cards swap sides). Simultaneous things happen in reading order of the cells, never in placement order.
    """
    pairs, _ = plan(state)
    by_id = {c["id"]: c for c in state["cards"]}
    names = {c["id"]: named(state, c) for c in state["cards"]}  # as the board stands, before anything leaves
    loss: dict[int, int] = {}
    sources: dict[int, list[tuple[int, int]]] = {}
    for pair in pairs:
        add_log(state, "confrontation", pair_words(state, pair) + ".", **{k: pair[k] for k in ("dealt", "taken")})
        for hurt, by, amount in (
            (pair["defender"], pair["attacker"], pair["dealt"]),
            (pair["attacker"], pair["defender"], pair["taken"]),
        ):
            if amount > 0:
                loss[hurt] = loss.get(hurt, 0) + amount
                sources.setdefault(hurt, []).append((by, amount))
    for pid, amount in loss.items():
        by_id[pid]["hp"] -= amount

    def reading(pid: int) -> tuple[int, int]:
        return _reading(by_id[pid])

    destroyed: dict[int, int] = {}  # card id → the id of the card that destroyed it
    for pid in sorted(loss, key=reading):
        piece = by_id[pid]
        if piece["kind"] == "wizard":
            continue
        if piece["hp"] <= 0 or "death" in piece["capacities"]:
            # the destroyer: the card that dealt it the most (on a tie, the first in reading order)
            destroyed[pid] = min(sources[pid], key=lambda s: (-s[1], reading(s[0])))[0]
            if piece["hp"] > 0:
                add_log(state, "capacity", f"Death: {names[pid]} lost life, so it is destroyed.")
    for pid in sorted(destroyed, key=reading):  # Death also destroys the creature or artifact that destroyed it
        if "death" not in by_id[pid]["capacities"]:
            continue
        for src in sorted({s for s, _ in sources[pid]}, key=reading):
            other = by_id[src]
            if other["kind"] in ("creature", "artifact") and src not in destroyed:
                destroyed[src] = pid
                add_log(state, "capacity", f"Death: {names[pid]} takes {names[src]} with it.")
    # one board state: each destroyer's controller is read now, before any Treason return changes sides
    by_seat = {pid: by_id[killer]["controller"] for pid, killer in destroyed.items()}
    for pid in sorted(destroyed) if recorded_before(state, 2) else sorted(destroyed, key=reading):
        if recorded_before(state, 2):  # version 1 (docs/rules › Rule versions): read while destroying, by id
            by_seat[pid] = by_id[destroyed[pid]]["controller"]
        _destroy(state, by_id[pid], by_seat=by_seat[pid], by_card=True, name=names[pid])
    seat = state["turn"]["seat"]
    _settle(state)
    if state["result"] is None and state["turn"]["seat"] == seat and state["turn"]["phase"] == "actions":
        pass_turn(state)


def _destroy(state: State, piece: dict[str, Any], *, by_seat: int | None, by_card: bool, name: str) -> None:
    """Treason first (back on the board for the opponent who destroyed it), else the owner's discard and
    Burden earth (the cell blocked until the card's controller's next turn). ``name``: how the log names the
    piece (:func:`named`, read before anything left the board)."""
    if "treason" in piece["capacities"] and by_seat is not None and by_seat != piece["controller"]:
        card = state["catalog"][piece["name"]]
        piece["controller"] = by_seat
        piece["hp"] = card["hp"]
        piece["capacities"] = [c for c in piece["capacities"] if c != "treason"]
        piece["growth_left"] = GROWTH_TURNS if "growth" in piece["capacities"] else 0
        add_log(
            state,
            "capacity",
            f"Treason: {piece['name']} returns to {cell_word(piece['at'])} under {seat_word(by_seat)}'s control.",
        )
        return
    state["cards"] = [c for c in state["cards"] if c["id"] != piece["id"]]
    owner = state["players"][piece["owner"]]
    owner["discard"] = [*owner["discard"], piece["name"]]
    add_log(state, "destroyed", f"{name} is destroyed and goes to {seat_word(piece['owner'])}'s discard.")
    if "burden_earth" in piece["capacities"] and by_card:
        state["blocked"] = [*state["blocked"], {"at": list(piece["at"]), "until_seat": piece["controller"]}]
        add_log(
            state,
            "capacity",
            f"Burden earth: the cell at {cell_word(piece['at'])} stays empty until {seat_word(piece['controller'])}'s next turn.",
        )


def _settle(state: State) -> None:
    """Wizards at 0 are out (their cards leave the board); the last wizard standing wins; if the player on
    turn is out, the turn passes."""
    for p in state["players"]:
        wizard = wizard_of(state, p["seat"])
        if p["out"] or wizard is None or wizard["hp"] > 0:
            continue
        p["out"] = True
        leaving = [c for c in state["cards"] if c["controller"] == p["seat"]]
        leaving = leaving if recorded_before(state, 4) else sorted(leaving, key=_reading)  # v1-3: unlogged, as held
        names = {c["id"]: named(state, c) for c in leaving}
        state["cards"] = [c for c in state["cards"] if c["controller"] != p["seat"]]
        state["blocked"] = [b for b in state["blocked"] if b["until_seat"] != p["seat"]]
        add_log(state, "out", f"{seat_word(p['seat'])}'s wizard has no life left: {seat_word(p['seat'])} is out.")
        for card in leaving:
            if card["kind"] != "wizard":
                owner = state["players"][card["owner"]]
                owner["discard"] = [*owner["discard"], card["name"]]
                gone = f"{names[card['id']]} leaves the board with {seat_word(p['seat'])}'s wizard and goes to "
                if not recorded_before(state, 4):
                    add_log(state, "out", f"{gone}{seat_word(card['owner'])}'s discard.")
    living = living_seats(state)
    if len(living) <= 1:
        wizard = wizard_of(state, living[0]) if living else None
        reason = (
            f"the last wizard standing ({wizard['hp'] if wizard else 0} life left)"
            if living
            else "no wizard is left standing"
        )
        if recorded_before(state, 2):  # version 1's words for the same result (before commit d024de9)
            reason = (
                f"{seat_word(living[0])}'s wizard is the last one standing."
                if living
                else "No wizard is left standing."
            )
        state["result"] = {"winners": living, "draw": not living, "reason": reason}
        state["turn"] = {**state["turn"], "phase": "over", "targets": []}
    elif state["turn"]["phase"] != "setup" and state["players"][state["turn"]["seat"]]["out"]:
        pass_turn(state)
    derive(state)


def result_line(result: dict[str, Any]) -> str:
    """The end of the game in one sentence naming the winner: "Seat 0 wins with the last wizard standing
    (7 life left)." (the outcome's ``reason`` is the part after "with", so pages may name the winner first)."""
    if result["draw"] or not result["winners"]:
        return f"The game is a draw: {result['reason']}."
    return f"{seat_word(result['winners'][0])} wins with {result['reason']}."


def pass_turn(state: State) -> None:
    """The next living seat clockwise starts its turn; Burden-earth cells waiting for it open again."""
    n = len(state["players"])
    seat = state["turn"]["seat"]
    for step in range(1, n + 1):
        nxt = (seat + step) % n
        if not state["players"][nxt]["out"]:
            break
    state["turn"] = {
        "seat": nxt,
        "number": state["turn"]["number"] + 1,
        "phase": "start",
        "moved": False,
        "targets": [],
    }
    state["blocked"] = [b for b in state["blocked"] if b["until_seat"] != nxt]
    derive(state)


def clone(state: State) -> State:
    """A copy of ``state`` an effect may edit (the whole state: most entries change several parts)."""
    return copy.deepcopy(state)


EFFECTS = {
    DESTINY_CHOSEN: choose_destiny,
    ORIGIN_CHOSEN: choose_origin,
    CARD_MOVED: move_card,
    HAND_REFILLED: refill,
    CARD_PLACED: place,
    HP_CHANGED: change_hp,
    CONFRONTATION_TARGET_CHOSEN: choose_target,
    TURN_ENDED: end_turn,
}

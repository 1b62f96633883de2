"""Salt & Bones reducer: the state before the first entry, one effect per entry type (``EFFECTS``) and the
transitions they make (phases, turns in combat, the end of combat and of the game)."""

from __future__ import annotations

import copy
from typing import Any

from rulesets.base import Event, State
from rulesets.cells import cells_words, row_col_words
from rulesets.names import seat_ref
from rulesets.salt_and_bones.board import (
    SEATS,
    cap_log,
    card_negation_target,
    cell_key,
    current_instances,
    field_card,
    find_instinct_slot,
    gambits,
    log,
    may_chain,
    neighbours,
    next_drawer,
    occupancy,
    on_board,
    other,
    preparing_seat,
    refresh_grid,
    resolve_card,
    see,
    strategy_def,
)
from rulesets.salt_and_bones.catalog import default_catalog
from rulesets.salt_and_bones.damage import open_window, resolve_window
from rulesets.salt_and_bones.fields import (
    ADDITIONAL_TURN_PASSED,
    ATTACK_CARD_PLAYED,
    CARDS_DRAWN,
    DISENGAGED,
    FIELD_CARD_FLIPPED,
    HAND_CARD_DISCARDED,
    PREPARATION_FINISHED,
    STRATEGY_CARD_PLACED,
    STRATEGY_CARD_PLAYED,
)
from rulesets.versions import recorded_before


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
    cap_log(state)


def discard_from_hand(state: State, seat: int, kind: str) -> None:
    """Draw Phase: ``seat``'s single discard of one ``kind`` card."""
    state["hands"][seat][kind] -= 1
    state["discards"][kind] += 1
    state["draw"]["discarded"][seat] = True


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
        cap_log(state)


def place_strategy_card(state: State, seat: int, slot: str, name: str | None) -> None:
    """Preparation Phase: a Strategy card from hand into ``slot`` (INSTINCTs face-down)."""
    uid = state["next_uid"]
    state["next_uid"] += 1
    state["boards"][seat][slot].append({"uid": uid, "name": name, "hidden": slot == "instinct"})
    state["hands"][seat]["strategy"] -= 1
    if slot != "instinct" and name is not None:
        see(state["seen"], "strategy", name)  # face-up: public from now on


def finish_preparation(state: State, seat: int) -> None:
    """Preparation Phase: ``seat`` is done; when both are, combat starts."""
    state["preparation"]["finished"][seat] = True
    if preparing_seat(state) is None:
        start_combat(state)


def _v1_forced(state: State, forcing: str | None) -> str | bool | None:
    """What ``combat.forced`` holds for a seat: the name of the Attack card forcing it to disengage, or None.
    Version 1 (before commit daad728, version 3) kept a flag, True or False; a match recorded under it keeps it."""
    return forcing is not None if recorded_before(state, 3) else forcing


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
        "forced": [_v1_forced(state, None), _v1_forced(state, None)],
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
        see(state["seen"], "attack", spec)
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
        c["forced"][other(seat)] = _v1_forced(state, card_def["name"])
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
        reaction["arming"] = not own and not recorded_before(state, 3)  # played before the Attack card it boosts
    w["reactions"].append(reaction)
    resolve_window(state)


def pass_additional_turn(state: State, seat: int) -> None:
    """Test of Courage: ``seat`` plays no Attack card in its additional turn; the disengage may now succeed."""
    log(state, f"{seat_ref(seat)} passes the additional turn.")
    pass_turn(state, other(seat))
    cap_log(state)


def disengage(state: State, seat: int) -> None:
    """Combat: ``seat`` disengages (delayed once by Test of Courage) and combat ends."""
    c = state["combat"]
    if c["pending_disengage"] == seat:
        log(state, f"{seat_ref(seat)}'s disengage now succeeds.")
        end_combat(state, seat)
        return
    if seat != c["turn"]:
        pass_turn(state, seat)
    c["forced"][seat] = _v1_forced(state, None)
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
    cap_log(state)


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


def _next_round(state: State) -> None:
    state["round"] += 1
    state["phase"] = "field" if state["decks"]["field"] > 0 else "draw"
    state["draw"] = {"discarded": [False, False], "drawn": [False, False]}
    state["preparation"] = {"finished": [False, False]}
    log(state, f"Round {state['round']} begins. {seat_ref(state['momentum'])} has Momentum.")


# ---------------------------------------------------------------------------------------------- effects
# One per entry type: ``effect(new, event)`` edits ``new`` (a copy of the state) in place. An override records
# what the table said, but never takes a hand or a deck below 0 nor stacks two Attack cards on a tile (nor puts
# one off the board): such an entry raises ValueError here (the replay refuses it as ``unplayable``); ``validate``
# refuses all of these first. Versions 1 to 3 placed them as recorded (docs/rules/salt-and-bones.md › Versions):
# a match recorded under them keeps what it recorded (``placeable``).
def placeable(new: State) -> bool:
    """Whether an overridden entry must fit the state (version 4 on); versions 1 to 3 placed any."""
    return not recorded_before(new, 4)


def field_card_flipped(new: State, event: Event) -> None:
    """Field Phase: the flipped card's tiles are destroyed."""
    flip_field_card(new, event.data["tiles"])


def hand_card_discarded(new: State, event: Event) -> None:
    """Draw Phase: the seat's single discard."""
    seat, kind = event.seat, event.data["kind"]
    if placeable(new) and new["hands"][seat][kind] <= 0:
        raise ValueError(f"{seat_ref(seat)} holds no {kind} card to discard")
    discard_from_hand(new, seat, kind)


def cards_drawn(new: State, event: Event) -> None:
    """Draw Phase: the seat refills its hand."""
    d, decks = event.data, new["decks"]
    if placeable(new) and (d["attack"] > decks["attack"] or d["strategy"] > decks["strategy"]):
        raise ValueError(f"the decks hold {decks['attack']} Attack and {decks['strategy']} Strategy card(s)")
    draw_cards(new, event.seat, d["attack"], d["strategy"])


def strategy_card_placed(new: State, event: Event) -> None:
    """Preparation Phase: a Strategy card onto the seat's Player Board."""
    seat = event.seat
    if placeable(new) and new["hands"][seat]["strategy"] <= 0:
        raise ValueError(f"{seat_ref(seat)} holds no Strategy card to place")
    place_strategy_card(new, seat, event.data["slot"], event.data["card"])


def preparation_finished(new: State, event: Event) -> None:
    """Preparation Phase: the seat is done."""
    finish_preparation(new, event.seat)


def attack_card_played(new: State, event: Event) -> None:
    """Combat Phase: an Attack card onto two free tiles of the Field Board."""
    seat, d = event.seat, event.data
    if placeable(new):
        if new["hands"][seat]["attack"] <= 0:
            raise ValueError(f"{seat_ref(seat)} holds no Attack card to play")
        occupied = occupancy(new)
        for key in ("attack_tile", "opportunity_tile"):
            cell = cell_key(d[key])
            if not on_board(new, cell) or cell in occupied:
                raise ValueError(f"the tile at {row_col_words(cell)} is not a free tile of the Field Board")
    play_attack_card(new, seat, d["card"], d["attack_tile"], d["opportunity_tile"])


def strategy_card_played(new: State, event: Event) -> None:
    """Combat Phase: an INSTINCT card from the seat's Player Board."""
    play_instinct(new, event.seat, event.data["card"], event.data.get("target"))


def disengaged(new: State, event: Event) -> None:
    """Combat Phase: the seat disengages."""
    disengage(new, event.seat)


def additional_turn_passed(new: State, event: Event) -> None:
    """Combat Phase, Test of Courage: the additional turn is passed."""
    pass_additional_turn(new, event.seat)


EFFECTS = {
    FIELD_CARD_FLIPPED: field_card_flipped,
    HAND_CARD_DISCARDED: hand_card_discarded,
    CARDS_DRAWN: cards_drawn,
    STRATEGY_CARD_PLACED: strategy_card_placed,
    PREPARATION_FINISHED: preparation_finished,
    ATTACK_CARD_PLAYED: attack_card_played,
    STRATEGY_CARD_PLAYED: strategy_card_played,
    DISENGAGED: disengaged,
    ADDITIONAL_TURN_PASSED: additional_turn_passed,
}

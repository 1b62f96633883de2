"""Salt & Bones rules: the entry, phase and turn checks the ruleset's hooks run, one check per entry type
(``RULES``; the common checks come first, in ``rulesets.base``), and the listing of legal moves."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, RuleViolation, State, unknown_event
from rulesets.cells import row_col_words
from rulesets.names import plural, seat_ref, with_article
from rulesets.salt_and_bones import board as E
from rulesets.salt_and_bones.catalog import ATTACK_BONUSES, SLOTS
from rulesets.salt_and_bones.fields import (
    ADDITIONAL_TURN_PASSED,
    ATTACK_CARD_PLAYED,
    CARDS_DRAWN,
    DISENGAGED,
    EVENT_TYPES,
    FIELD_CARD_FLIPPED,
    HAND_CARD_DISCARDED,
    PREPARATION_FINISHED,
    RULE_ACTIVATION,
    RULE_BOARD,
    RULE_CARDS,
    RULE_CHAIN,
    RULE_COMBAT,
    RULE_DAMAGE_NEGATION,
    RULE_DISENGAGE,
    RULE_DRAW,
    RULE_END,
    RULE_ENTRIES,
    RULE_FIELD,
    RULE_LOOP,
    RULE_NEGATION,
    RULE_PREP,
    RULE_STRATEGY,
    STRATEGY_CARD_PLACED,
    STRATEGY_CARD_PLAYED,
)
from rulesets.versions import recorded_before

PHASE_OF = {
    FIELD_CARD_FLIPPED: "field",
    HAND_CARD_DISCARDED: "draw",
    CARDS_DRAWN: "draw",
    STRATEGY_CARD_PLACED: "preparation",
    PREPARATION_FINISHED: "preparation",
    ATTACK_CARD_PLAYED: "combat",
    STRATEGY_CARD_PLAYED: "combat",
    DISENGAGED: "combat",
    ADDITIONAL_TURN_PASSED: "combat",
}
PHASE_NAMES = {
    "field": "Field Phase",
    "draw": "Draw Phase",
    "preparation": "Preparation Phase",
    "combat": "Combat Phase",
    "over": "end of the game",
}


def _v(code: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(code, message, rule)


# ---------------------------------------------------------------------------------------------- common checks
def check_entry(state: State, event: Event) -> EventType:
    """The entry's type is one of the game's (``unknown_event``), its seat 0 or 1 (``unknown_seat``: required
    for a player's entry, optional for the table's); returns its type."""
    spec = EVENT_TYPES.get(event.type)
    if spec is None:
        raise unknown_event("Salt & Bones", event.type, EVENT_TYPES)
    seat = event.seat
    if seat is not None and (isinstance(seat, bool) or seat not in E.SEATS):
        raise _v("unknown_seat", f"This match has no seat {seat!r}: its seats are 0 and 1.", RULE_ENTRIES)
    if seat is None and spec.seat_required:
        raise _v("unknown_seat", "Say which seat this entry is for: the seats are 0 and 1.", RULE_ENTRIES)
    return spec


def check_phase(state: State, event: Event) -> None:
    """The entry belongs to the phase the round is in (``wrong_phase``)."""
    phase = PHASE_OF[event.type]
    if state["phase"] != phase:
        raise _v(
            "wrong_phase",
            f"That happens in the {PHASE_NAMES[phase]}, but it is the {PHASE_NAMES[state['phase']]}.",
            RULE_LOOP,
        )


def check_turn(state: State, event: Event) -> None:
    """The seat may act now (Momentum first in the Draw and Preparation Phases; whose turn it is in combat).

    Disengaging and passing Test of Courage's additional turn say whose turn it is in their own checks, after
    what the disengage in progress decides; a Field card and an INSTINCT card are anyone's at any time."""
    check = TURN_CHECKS.get(event.type)
    if check is not None:
        check(state, event)


# ---------------------------------------------------------------------------------------------- field & draw
def check_field(state: State, event: Event) -> None:
    """The tiles are on the board, not grey, each listed once."""
    seen: set[tuple[int, int]] = set()
    for cell in event.data["tiles"]:
        key = E.cell_key(cell)
        status = E.tile_state(state, key)
        if status == "off":
            raise _v("off_board", f"Tile {list(key)} is not on the Field Board.", RULE_FIELD)
        if status == "grey":
            raise _v("grey_tile", f"Tile {list(key)} is grey: Field cards only destroy playable tiles.", RULE_BOARD)
        if key in seen:
            raise _v("duplicate_tile", f"Tile {list(key)} is listed twice.", RULE_FIELD)
        seen.add(key)


def check_discard(state: State, event: Event) -> None:
    """Before anyone draws, once a Draw Phase, a card the seat holds."""
    seat = event.seat
    if any(state["draw"]["drawn"]):
        raise _v("drawing_started", "Discards happen before anyone draws; drawing has already started.", RULE_DRAW)
    if state["draw"]["discarded"][seat]:
        raise _v(
            "already_discarded",
            f"{seat_ref(seat)} may discard only a single card from their hand each Draw Phase.",
            RULE_DRAW,
        )
    kind = event.data["kind"]
    if state["hands"][seat][kind] <= 0:
        raise _v("no_such_card", f"{seat_ref(seat)} holds no {kind} card to discard.", RULE_DRAW)


def draw_target(state: State, seat: int) -> int:
    """How many cards ``seat`` must draw now: up to the hand size, or its share of a short supply (version 1,
    before commit daad728: whatever the decks still hold, up to the hand size)."""
    if recorded_before(state, 3):
        left = state["decks"]["attack"] + state["decks"]["strategy"]
        return min(max(0, state["settings"]["hand_size"] - E.hand_total(state, seat)), left)
    return E.draw_shares(state)[seat]


def _draw_turn(state: State, event: Event) -> None:
    seat, nxt = event.seat, E.next_drawer(state)
    if seat != nxt:
        if state["draw"]["drawn"][seat]:
            raise _v("already_drawn", f"{seat_ref(seat)} has already drawn this Draw Phase.", RULE_DRAW)
        raise _v("not_your_turn", f"{seat_ref(nxt)} has Momentum and draws first.", RULE_DRAW)


def check_draw(state: State, event: Event) -> None:
    """Exactly the seat's share, from what the decks hold."""
    seat, data = event.seat, event.data
    a, s = data["attack"], data["strategy"]
    if a > state["decks"]["attack"]:
        raise _v(
            "deck_too_small", f"The Attack Deck has only {plural(state['decks']['attack'], 'card')} left.", RULE_DRAW
        )
    if s > state["decks"]["strategy"]:
        raise _v(
            "deck_too_small",
            f"The Strategy Deck has only {plural(state['decks']['strategy'], 'card')} left.",
            RULE_DRAW,
        )
    target = draw_target(state, seat)
    if a + s != target:
        size = state["settings"]["hand_size"]
        held = E.hand_total(state, seat)
        if held + target >= size:
            why = f"to fill {seat_ref(seat)}'s hand to {size}"
        else:
            left = state["decks"]["attack"] + state["decks"]["strategy"]
            why = (
                f"as {seat_ref(seat)}'s share of the {plural(left, 'card')} left: players take turns drawing one "
                "card at a time, Momentum first"
            )
        raise _v(
            "wrong_hand_size",
            f"{seat_ref(seat)} holds {plural(held, 'card')}: draw exactly {target}, {why}.",
            RULE_DRAW,
        )


# ---------------------------------------------------------------------------------------------- preparation
def _preparation_turn(state: State, event: Event) -> None:
    prep = E.preparing_seat(state)
    if event.seat != prep:
        raise _v("not_your_turn", _preparing_first(prep), RULE_PREP)


def check_place(state: State, event: Event) -> None:
    """A Strategy card the seat holds, into a slot of its kind with room, named unless face-down."""
    seat, data = event.seat, event.data
    if state["hands"][seat]["strategy"] <= 0:
        raise _v("no_strategy_cards", f"{seat_ref(seat)} holds no Strategy card to place.", RULE_PREP)
    slot, name = data["slot"], data["card"]
    kind, capacity = SLOTS[slot]
    if len(state["boards"][seat][slot]) >= capacity:
        raise _v("slot_full", f"{seat_ref(seat)}'s {kind} slots are full ({capacity}).", RULE_PREP)
    if name is None:
        if slot != "instinct":
            raise _v("card_required", f"{kind} cards are placed face-up: name the card.", RULE_PREP)
        return
    d = E.strategy_def(state, name)
    if d is None:
        raise _v("unknown_card", f"There is no Strategy card called '{name}' in this match's catalog.", RULE_ENTRIES)
    if d["type"] != kind:
        raise _v(
            "wrong_slot",
            f"{name} is {with_article(d['type'])} card; it cannot go in {with_article(kind)} slot.",
            RULE_PREP,
        )
    if E.copies_left(state, "strategy", name, seat) <= 0:
        raise _v("no_copies_left", f"Every copy of {name} has already been seen this game.", RULE_CARDS)


def check_prep_done(state: State, event: Event) -> None:
    """Nothing more than the turn (checked first)."""


def _preparing_first(prep: int | None) -> str:
    return (
        f"{seat_ref(prep)} is placing Strategy cards now (Momentum first): they place theirs and finish "
        "preparing, then the other player prepares."
    )


# ---------------------------------------------------------------------------------------------- combat: turns
def starts_turn(state: State, seat: int) -> bool:
    """``seat`` acting now would be at the start of its turn (its own fresh turn, or taking over the turn)."""
    c = state["combat"]
    if seat == c["turn"]:
        return not c["turn_cards"]
    return E.turn_open_for_chain(state)


def _attack_turn_problem(state: State, seat: int, spec: Any = None) -> RuleViolation | None:
    c = state["combat"]
    if c["pending_disengage"] == seat:
        return _v(
            "disengage_pending",
            f"{seat_ref(seat)} is disengaging: Test of Courage gives {seat_ref(E.other(seat))} an additional turn, "
            f"then record {seat_ref(seat)}'s disengage again; no Attack card of {seat_ref(seat)}'s now.",
            RULE_END,
        )
    if seat == c["turn"] or E.turn_open_for_chain(state):
        return None
    its_turn = f"It is {seat_ref(c['turn'])}'s turn"
    last = c["last_turn"]
    if last and last["seat"] == seat and last["cards"] and c["turn"] == E.other(seat) and not c["turn_cards"]:
        # the seat's own card has just ended its turn: say whose turn it is, then why it ended
        last_card = E.field_card(state, last["cards"][-1])
        card = E.resolve_card(state, spec) if card_problem(state, spec) is None else None
        if seat != state["momentum"] and card is not None and card["bonus"] == "chain":
            why = f"{card['name']} could follow {seat_ref(seat)}'s card only as a chain, and chaining needs Momentum"
            return _v("not_your_turn", f"{its_turn}: {why}.", RULE_CHAIN)
        if seat != state["momentum"]:
            why = f"{seat_ref(seat)}'s Attack card ended their turn (only a player with Momentum may chain)"
            return _v("not_your_turn", f"{its_turn}: {why}.", RULE_CHAIN)
        if last_card["bonus"] == "stops_chain":
            why = f"{seat_ref(seat)}'s {last_card['name']} stops chain, so their turn ended with it"
            return _v("not_your_turn", f"{its_turn}: {why}.", RULE_CHAIN)
        if state["hands"][seat]["attack"] <= 0:
            return _v("not_your_turn", f"{its_turn}: {seat_ref(seat)} had no Attack card left to chain.", RULE_COMBAT)
    return _v("not_your_turn", f"{its_turn} in combat: they play an Attack card or disengage.", RULE_COMBAT)


def attack_seat_problem(state: State, seat: int, spec: Any = None) -> RuleViolation | None:
    """Problems of ``seat`` playing an attack card now (turn, forced disengage, empty hand)."""
    problem = _attack_turn_problem(state, seat, spec)
    if problem:
        return problem
    c = state["combat"]
    if starts_turn(state, seat) and c["forced"][seat]:
        forcing = c["forced"][seat] if isinstance(c["forced"][seat], str) else "An Attack card"
        return _v(
            "must_disengage",
            f"{forcing} ({seat_ref(E.other(seat))}'s Attack card) forces {seat_ref(seat)} to disengage at the "
            "start of this turn: its Bonus Effect.",
            RULE_END,
        )
    if state["hands"][seat]["attack"] <= 0:
        return _v("no_attack_cards", f"{seat_ref(seat)} has no Attack card in hand and must disengage.", RULE_END)
    return None


def card_problem(state: State, spec: Any) -> RuleViolation | None:
    """Problems with the ``card`` of an ``attack_card_played`` payload (name or inline object)."""
    if isinstance(spec, str):
        if spec not in state["catalog"]["attack"]:
            return _v("unknown_card", f"There is no Attack card called '{spec}' in this match's catalog.", RULE_ENTRIES)
        if E.copies_left(state, "attack", spec) <= 0:
            return _v("no_copies_left", f"Every copy of {spec} has already been played this game.", RULE_CARDS)
        return None
    if not isinstance(spec, dict):
        return _v("bad_card", "Name the Attack card, or give {name, attack, opportunity, bonus}.", RULE_ENTRIES)
    allowed = {"name", "attack", "opportunity", "bonus", "bonus_damage", "bonus_instances"}
    if set(spec) - allowed or not {"name", "attack", "opportunity", "bonus"} <= set(spec):
        return _v("bad_card", "An inline Attack card needs exactly name, attack, opportunity and bonus.", RULE_ENTRIES)
    name = spec["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        return _v("bad_card", "An inline Attack card needs a name of 1 to 60 characters.", RULE_ENTRIES)
    for key, top in (("attack", 99), ("opportunity", 99), ("bonus_damage", 99), ("bonus_instances", 10)):
        value = spec.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            return _v("bad_card", f"The card's {key} must be a whole number from 0 to {top}.", RULE_ENTRIES)
    if spec["bonus"] not in ATTACK_BONUSES:
        return _v("bad_card", f"Unknown Bonus Effect '{spec['bonus']}'.", RULE_ENTRIES)
    return None


def placement_problem(state: State, attack_tile: list[int], opp_tile: list[int]) -> RuleViolation | None:
    """Problems with putting an attack card's halves on these two tiles now."""
    a, o = E.cell_key(attack_tile), E.cell_key(opp_tile)
    occ = E.occupancy(state)
    for cell in (a, o):
        status = E.tile_state(state, cell)
        if status == "off":
            return _v("off_board", f"The tile at {row_col_words(cell)} is not on the Field Board.", RULE_COMBAT)
    if o not in E.neighbours(a):
        return _v("tiles_not_adjacent", "An Attack card covers two tiles side by side (not diagonal).", RULE_COMBAT)
    for cell in (a, o):
        status = E.tile_state(state, cell)
        if status == "grey":
            return _v(
                "grey_tile", f"The tile at {row_col_words(cell)} is grey and unplayable at all times.", RULE_BOARD
            )
        if status == "destroyed":
            return _v(
                "destroyed_tile", f"The tile at {row_col_words(cell)} was destroyed by the Field Deck.", RULE_FIELD
            )
        if cell in occ:
            return _v("occupied_tile", f"The tile at {row_col_words(cell)} already holds an Attack card.", RULE_COMBAT)
    if not E.live_cards(state):
        centre = {E.cell_key(c) for c in state["field"]["centre"]}
        if a not in centre and o not in centre:
            return _v("not_centre", "The first Attack card of a combat must cover at least 1 centre tile.", RULE_COMBAT)
        return None
    if not any(n in occ for cell in (a, o) for n in E.neighbours(cell)):
        return _v("not_adjacent", "Attack cards must be placed adjacent to a card already on the board.", RULE_COMBAT)
    return None


def _attack_turn(state: State, event: Event) -> None:
    problem = _attack_turn_problem(state, event.seat, event.data.get("card"))
    if problem:
        raise problem


def check_attack(state: State, event: Event) -> None:
    """The seat must not disengage and holds an Attack card; a known card; one per turn unless a Chain card;
    two free adjacent tiles next to the cards already down (a centre tile first)."""
    seat, data = event.seat, event.data
    spec = data["card"]
    problem = attack_seat_problem(state, seat, spec)
    if problem:
        raise problem
    problem = card_problem(state, spec)
    if problem:
        raise problem
    c = state["combat"]
    if seat == c["turn"] and c["turn_cards"]:
        card = E.resolve_card(state, spec)
        assert card is not None
        if card["bonus"] != "chain":
            raise _v(
                "one_card_per_turn",
                f"{seat_ref(seat)} has played an Attack card this turn; only a Chain card may follow it.",
                RULE_CHAIN,
            )
    problem = placement_problem(state, data["attack_tile"], data["opportunity_tile"])
    if problem:
        raise problem


def check_disengage(state: State, event: Event) -> None:
    """At the start of the seat's turn; under Test of Courage, again after the additional turn."""
    seat = event.seat
    c = state["combat"]
    pending = c["pending_disengage"]
    if pending is not None:
        if seat != pending:
            raise _v(
                "disengage_pending",
                f"{seat_ref(pending)} is disengaging; {seat_ref(seat)} is taking the additional turn Test of "
                "Courage gives (play an Attack card, or pass the additional turn).",
                RULE_END,
            )
        if not E.additional_turn_done(state) and not recorded_before(state, 3):  # version 1 (daad728)
            raise _v(
                "additional_turn_first",
                f"Test of Courage: {seat_ref(E.other(seat))} receives an additional turn before "
                f"{seat_ref(seat)}'s disengage succeeds. Record {seat_ref(E.other(seat))}'s Attack card, or "
                f"{seat_ref(E.other(seat))} passing the additional turn, first.",
                RULE_END,
            )
        return
    if seat == c["turn"]:
        if c["turn_cards"]:
            raise _v(
                "already_played",
                f"{seat_ref(seat)} cannot disengage after playing an Attack card this turn.",
                RULE_DISENGAGE,
            )
        return
    if not E.turn_open_for_chain(state):
        raise _v(
            "not_your_turn",
            f"It is {seat_ref(c['turn'])}'s turn; {seat_ref(seat)} disengages at the start of their own.",
            RULE_END,
        )


def check_pass(state: State, event: Event) -> None:
    """Only the additional turn Test of Courage gives, by the seat taking it, before it plays."""
    seat = event.seat
    c = state["combat"]
    pending = c["pending_disengage"]
    if pending is None:
        raise _v(
            "no_additional_turn",
            "Only the additional turn Test of Courage gives can be passed; on their own turn, players play or "
            "disengage.",
            RULE_END,
        )
    if seat == pending:
        raise _v(
            "not_your_turn",
            f"{seat_ref(seat)} is disengaging: the additional turn is {seat_ref(E.other(seat))}'s to take or pass.",
            RULE_END,
        )
    if c["turn"] != seat or c["turn_cards"]:
        raise _v(
            "already_played",
            f"{seat_ref(seat)} has played an Attack card in the additional turn; it cannot be passed any more.",
            RULE_END,
        )


# ---------------------------------------------------------------------------------------------- combat: instincts
def strategy_problem(state: State, seat: int, name: str, target: Any) -> RuleViolation | None:
    """Problems with ``seat`` playing the INSTINCT ``name`` against ``target`` now."""
    d = E.strategy_def(state, name)
    if d is None:
        return _v("unknown_card", f"There is no Strategy card called '{name}' in this match's catalog.", RULE_ENTRIES)
    if d["type"] != "INSTINCT":
        return _v(
            "not_instinct",
            f"{name} is {d['type']}: EQUIPMENT triggers by itself and a GAMBIT is in effect all combat.",
            RULE_STRATEGY,
        )
    slot_card = E.find_instinct_slot(state, seat, name)
    if slot_card is None:
        return _v(
            "card_not_on_board",
            f"{seat_ref(seat)} has no {name} (nor a face-down INSTINCT) on their Player Board.",
            RULE_PREP,
        )
    if slot_card["name"] is not None and d["activation"] == "automatic":
        return _v("automatic_card", f"{name} triggers automatically when its condition is met.", RULE_ACTIVATION)
    if slot_card["name"] is None and E.copies_left(state, "strategy", name, seat) <= 0:
        return _v("no_copies_left", f"Every copy of {name} has already been seen this game.", RULE_CARDS)
    return target_problem(state, seat, d, target)


def target_problem(state: State, seat: int, d: dict[str, Any], target: Any) -> RuleViolation | None:
    """Problems with the ``target`` of an INSTINCT with definition ``d`` (see docs for each shape)."""
    effect = d["effect"]
    if recorded_before(state, 3):  # version 1 named the target as the latest card (daad728)
        target = E.v1_target(state, seat, target)
    if effect == "negate_chosen_instance":
        return _instance_target_problem(state, seat, d, target)
    if effect == "negate_card":
        return _card_target_problem(state, seat, d, target)
    strike = state["combat"]["window"]["strike"]
    card = E.field_card(state, strike["card"]) if strike else None
    if target is not None:
        return _v("bad_target", f"{d['name']} takes no target.", RULE_STRATEGY)
    own_attack = strike is not None and card is not None and strike["attacker"] == seat and not card["negated"]
    if (effect == "extra_instance" or (effect == "unnegatable" and recorded_before(state, 3))) and not own_attack:
        return _v(
            "no_target",
            f"{d['name']} applies to the Attack card {seat_ref(seat)} just played; there is none.",
            RULE_STRATEGY,
        )
    against_you = strike is not None and card is not None and strike["defender"] == seat
    if effect == "negate_first_instance" and not (against_you and any(not i["negated"] for i in card["instances"])):
        return _v(
            "no_target",
            f"There is no damage instance against {seat_ref(seat)} to negate right now.",
            RULE_DAMAGE_NEGATION,
        )
    return None


def _is_uid(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _instance_target_problem(state: State, seat: int, d: dict[str, Any], target: Any) -> RuleViolation | None:
    """Anticipation: ``{"card": uid, "instance": i}`` names an instance of the attack card open against ``seat``."""
    if not (isinstance(target, dict) and set(target) == {"card", "instance"} and all(map(_is_uid, target.values()))):
        return _v(
            "bad_target",
            f"{d['name']} needs a target: the Attack card's number on the Field Board and which of its damage "
            f"instances to negate (0 = the card's own).",
            RULE_DAMAGE_NEGATION,
        )
    strike = state["combat"]["window"]["strike"]
    uid, i = target["card"], target["instance"]
    on_field = next((c for c in state["field"]["cards"] if c["uid"] == uid), None)
    if on_field is None:
        return _v("bad_target", f"There is no Attack card {uid} on the Field Board.", RULE_DAMAGE_NEGATION)
    if on_field["seat"] == seat:
        return _v(
            "no_target", f"Card {uid} ({on_field['name']}) is {seat_ref(seat)}'s own attack.", RULE_DAMAGE_NEGATION
        )
    if strike is None or strike["card"] != uid:
        return _v(
            "no_target",
            f"Card {uid} ({on_field['name']})'s damage is settled: only the damage of the latest Attack card "
            f"can be negated, until the next Attack card or a disengage.",
            RULE_DAMAGE_NEGATION,
        )
    if on_field["negated"]:
        return _v(
            "no_target", f"Card {uid} ({on_field['name']}) was negated: it deals no damage.", RULE_DAMAGE_NEGATION
        )
    instances = on_field["instances"]
    if not 0 <= i < len(instances):
        return _v(
            "bad_target",
            f"Card {uid} ({on_field['name']}) has {plural(len(instances), 'damage instance')}, numbered 0 to "
            f"{len(instances) - 1}; there is no instance {i}.",
            RULE_DAMAGE_NEGATION,
        )
    if instances[i]["negated"]:
        return _v("already_negated", f"{instances[i]['label']} is already negated.", RULE_DAMAGE_NEGATION)
    return None


def _card_target_problem(state: State, seat: int, d: dict[str, Any], target: Any) -> RuleViolation | None:
    """Condescend: ``{"card": uid}`` names a Chain card or an INSTINCT the opponent is playing now."""
    if not (isinstance(target, dict) and set(target) == {"card"} and _is_uid(target["card"])):
        return _v(
            "bad_target",
            f"{d['name']} needs a target: the number of the Chain card or INSTINCT card "
            f"{seat_ref(E.other(seat))} is playing.",
            RULE_NEGATION,
        )
    uid = target["card"]
    negates = E.card_negation_target(state, seat, target)
    if negates is None:
        return _v(
            "no_target",
            f"Card {uid} is not a Chain card or INSTINCT card {seat_ref(E.other(seat))} is playing now; "
            f"Condescend is played against a specific one of those.",
            RULE_NEGATION,
        )
    w = state["combat"]["window"]
    if negates["kind"] == "chain":
        card = E.field_card(state, uid)
        if not w["strike"]["as_chain"]:
            return _v(
                "no_target",
                f"{card['name']} was not played as part of a chain: a Chain card can only be negated then.",
                RULE_NEGATION,
            )
        if card["negated"]:
            return _v("already_negated", f"{card['name']} is already negated.", RULE_NEGATION)
    elif negates["kind"] == "reaction":
        if not w["reactions"][negates["index"]]["effective"]:
            return _v("already_negated", "That INSTINCT card is already negated.", RULE_NEGATION)
    elif any(
        r["effective"] and r["effect"] == "negate_card" and (r.get("negates") or {}).get("uid") == uid
        for r in w["reactions"]
    ):
        return _v("already_negated", "That INSTINCT card is already negated.", RULE_NEGATION)
    return None


def check_strategy(state: State, event: Event) -> None:
    """An INSTINCT on the seat's Player Board (named, or face-down), played by choice, at a target it takes."""
    problem = strategy_problem(state, event.seat, event.data["card"], event.data.get("target"))
    if problem:
        raise problem


RULES = {
    FIELD_CARD_FLIPPED: check_field,
    HAND_CARD_DISCARDED: check_discard,
    CARDS_DRAWN: check_draw,
    STRATEGY_CARD_PLACED: check_place,
    PREPARATION_FINISHED: check_prep_done,
    ATTACK_CARD_PLAYED: check_attack,
    STRATEGY_CARD_PLAYED: check_strategy,
    DISENGAGED: check_disengage,
    ADDITIONAL_TURN_PASSED: check_pass,
}
TURN_CHECKS = {
    CARDS_DRAWN: _draw_turn,
    STRATEGY_CARD_PLACED: _preparation_turn,
    PREPARATION_FINISHED: _preparation_turn,
    ATTACK_CARD_PLAYED: _attack_turn,
}

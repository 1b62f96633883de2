"""The First Spine's checks: ``validate`` (game over → phase → whose turn → the move) and ``legal_moves``."""

from __future__ import annotations

from typing import Any

from rulesets.base import ENTRIES_RULE, Event, RuleViolation, State, payload_refusal, unknown_event
from rulesets.names import plural, with_article
from rulesets.schema import SchemaError, check_payload
from rulesets.the_first_spine import board as B
from rulesets.the_first_spine import engine as E
from rulesets.the_first_spine.cards import CAPACITY_WORDS, DESTINIES, ORIGINS
from rulesets.the_first_spine.fields import EVENT_TYPES, ORIGIN_CARDS
from rulesets.versions import recorded_before

GAME = "The First Spine"
RULE_OBJECTIVE = f"{GAME} › The essentials › Objective of the game"
RULE_DESTINY = f"{GAME} › Installation › 1 Choose a destiny"
RULE_ORIGIN = f"{GAME} › Installation › 2 Choose an origin"
RULE_SETUP_START = f"{GAME} › Installation › 3 Start-up"
RULE_DECK = f"{GAME} › The decks › Origins"
RULE_START = f"{GAME} › Game play › Start-up"
RULE_BEFORE = f"{GAME} › Game play › Before the turn"
RULE_DRAW = f"{GAME} › Game play › Discard & Draw"
# The rulebook's Actions section is blank: what it prints no rule for cites Chronicle's reading, written in
# docs/rules/the-first-spine.md under the same heading (still a game rule: a house rule may override it).
RULE_PLACING = f"{GAME} › Chronicle's reading › Placing a card"
RULE_LIFE = f"{GAME} › Chronicle's reading › Life changes"
RULE_CONFRONT = f"{GAME} › Game play › Confrontations › Procedure"
RULE_RUN = f"{GAME} › The capacities › Run"
RULE_BURDEN = f"{GAME} › The capacities › Burden earth"
# refusals that are not rulebook rules (an entry the app cannot read: its type, seat or data)
RULE_ENTRIES = ENTRIES_RULE

SETUP_EVENTS = ("destiny_chosen", "origin_chosen")
# before the discard/draw: Run, and "before your turn" effects of card texts (recorded as hp_changed)
START_EVENTS = ("card_moved", "hp_changed", "hand_refilled")


def _cell(value: Any) -> B.Cell:
    return (value[0], value[1])


def _violation(code: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(code, message, rule)


def validate(state: State, event: Event) -> None:
    """Raise :class:`RuleViolation` unless ``event`` may be recorded now."""
    result = state["result"]
    if result is not None:
        raise _violation("game_over", f"The game is over: {E.result_line(result)}", RULE_OBJECTIVE)
    spec = EVENT_TYPES.get(event.type)
    if spec is None:
        raise unknown_event("The First Spine", event.type, EVENT_TYPES)
    seats = len(state["players"])
    seat = event.seat
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats):
        which = ", ".join(str(s) for s in range(seats - 1)) + f" or {seats - 1}"
        problem = "Say which seat this entry is for" if seat is None else f"This match has no seat {seat!r}"
        raise _violation("unknown_seat", f"{problem}: its seats are {which}.", RULE_ENTRIES)
    phase = state["turn"]["phase"]
    turn_seat = state["turn"]["seat"]
    who = E.seat_word(turn_seat)
    # -- phase
    if phase == "setup":
        if event.type not in SETUP_EVENTS:
            missing = E.setup_missing(state)
            names = ", ".join(f"{E.seat_word(s)} ({' and '.join(m)})" for s, m in missing.items())
            destiny_missing = any("destiny" in m for m in missing.values())
            raise _violation(
                "setup_not_finished",
                f"Play starts once every player has chosen a destiny and an origin; still to choose: {names}.",
                RULE_DESTINY if destiny_missing else RULE_ORIGIN,
            )
    elif event.type in SETUP_EVENTS:
        raise _violation(
            "setup_finished",
            "Destinies and origins are chosen before play, and play has begun: the starting hands were drawn once, "
            "when the last choice was recorded.",
            RULE_SETUP_START,
        )
    elif phase == "start" and event.type not in START_EVENTS:
        raise _violation(
            "draw_first",
            f"{who} must record the discard/draw phase (hand refilled) first: it opens every turn and is mandatory "
            "(before it, only a card with Run may move and “before your turn” effects may be recorded).",
            RULE_DRAW,
        )
    elif phase == "actions" and event.type in ("card_moved", "hand_refilled") and seat != turn_seat:
        # another seat starting its turn (discard/draw, Run) while the seat on turn is still acting
        raise _violation(
            "already_refilled" if event.type == "hand_refilled" else "run_before_draw",
            f"{who} must finish their actions and end their turn before {E.seat_word(seat)}'s turn begins.",
            RULE_DRAW if event.type == "hand_refilled" else RULE_RUN,
        )
    elif phase == "actions" and event.type == "hand_refilled":
        raise _violation("already_refilled", f"{who} has already discarded and drawn this turn.", RULE_DRAW)
    elif phase == "actions" and event.type == "card_moved":
        raise _violation(
            "run_before_draw",
            "A card with Run moves at the start of the turn, before the discard/draw phase.",
            RULE_RUN,
        )
    if state["players"][seat]["out"]:
        raise _violation("seat_out", f"{E.seat_word(seat)}'s wizard is out of the game.", RULE_OBJECTIVE)
    # -- whose turn
    if phase != "setup" and seat != turn_seat:
        raise _violation("not_your_turn", _what_the_turn_needs(state), RULE_START)
    # -- the move
    try:
        data = check_payload(spec.fields, event.data)
    except SchemaError as exc:
        raise payload_refusal(spec.fields, event.data, exc) from None
    _CHECKS[event.type](state, seat, data)


def _what_the_turn_needs(state: State) -> str:
    """Whose turn it is and what they must do before anyone else plays (said to a seat acting out of turn)."""
    who = E.seat_word(state["turn"]["seat"])
    if state["turn"]["phase"] == "start":
        return f"It is {who}'s turn: they must discard and draw first, then act and end their turn."
    return f"{who} must finish their actions and end their turn."


def _check_destiny(state: State, seat: int, data: dict[str, Any]) -> None:
    if state["players"][seat]["destiny"] is not None:
        raise _violation("destiny_already_chosen", f"{E.seat_word(seat)} has already chosen a destiny.", RULE_DESTINY)


def _check_origin(state: State, seat: int, data: dict[str, Any]) -> None:
    if state["players"][seat]["origin_chosen"]:
        raise _violation("origin_already_chosen", f"{E.seat_word(seat)} has already chosen an origin.", RULE_ORIGIN)


def _check_move(state: State, seat: int, data: dict[str, Any]) -> None:
    if state["turn"]["moved"]:
        raise _violation("already_moved", "Only one card with Run may move at the start of a turn.", RULE_RUN)
    frm, to = _cell(data["from"]), _cell(data["to"])
    piece = E.occupancy(state).get(frm)
    if piece is None:
        raise _violation("no_card_there", f"There is no card on {E.cell_word(frm)}.", RULE_RUN)
    if piece["controller"] != seat:
        raise _violation(
            "not_your_card", f"{E.label(state, piece)} on {E.cell_word(frm)} is not yours to move.", RULE_RUN
        )
    if "run" not in piece["capacities"]:
        raise _violation("no_run", f"{E.label(state, piece)} does not have Run, so it cannot move.", RULE_RUN)
    if to not in {_cell(c) for c in E.run_targets(state, piece)}:
        raise _violation(
            "bad_run_cell",
            f"{piece['name']} can only move to an empty, unblocked cell of the board sharing a side with "
            f"{E.cell_word(frm)}; {E.cell_word(to)} is not such a cell.",
            RULE_RUN,
        )


def _check_refill(state: State, seat: int, data: dict[str, Any]) -> None:
    hand = state["players"][seat]["hand"]
    if data["discarded"] > hand:
        raise _violation(
            "not_enough_cards",
            f"{E.seat_word(seat)} holds {plural(hand, 'card')} and cannot discard {data['discarded']}.",
            RULE_DRAW,
        )


def _check_place(state: State, seat: int, data: dict[str, Any]) -> None:
    player = state["players"][seat]
    card = E.find_card(state, data["card"])
    if card is None:
        raise _violation("unknown_card", f"This match's card list has no card called '{data['card']}'.", RULE_ENTRIES)
    if player["hand"] < 1:
        raise _violation("empty_hand", f"{E.seat_word(seat)} has no card in hand.", RULE_OBJECTIVE)
    if card["origin"] is not None and card["origin"] != player["origin"]:
        raise _violation(
            "wrong_origin",
            f"{card['name']} is {with_article(card['origin'].capitalize())} card; {E.seat_word(seat)}'s "
            f"deck holds only their own origin's cards.",
            RULE_ORIGIN,
        )
    # version 1 (a match recorded under it, docs/rules › Rule versions) had no limit on origin cards
    if card["origin"] is not None and E.origin_cards_left(state, seat) == 0 and not recorded_before(state, 2):
        raise _violation(
            "origin_cards_spent",
            f"{E.seat_word(seat)} has already played the {ORIGIN_CARDS} cards of their origin, so {card['name']} "
            f"cannot be played: the deck holds only the six origin cards drawn at installation (“The remaining "
            f"cards must be put offside.”).",
            RULE_ORIGIN,
        )
    # versions 1-3 (a match recorded under them) had no destiny share
    if card["origin"] is None and E.destiny_cards_left(state, seat) == 0 and not recorded_before(state, 4):
        deck, share = state["settings"]["deck_size"], E.destiny_cards(state)
        if share:
            why = (
                f"{E.seat_word(seat)} has already played the {plural(share, 'destiny card')} of their {deck}-card "
                f"deck (the other {ORIGIN_CARDS} are their origin's"
            )
        else:
            why = f"{E.seat_word(seat)}'s {deck}-card deck holds no destiny card (its {ORIGIN_CARDS} cards are their origin's"
        raise _violation(
            "destiny_cards_spent",
            f"{why}: “complete your deck with 6 additional cards”), so {card['name']} cannot be played.",
            RULE_DECK,
        )
    at = _cell(data["at"])
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    if card["kind"] == "spell":
        if not B.on_board(at, rows, cols):
            raise _violation(
                "off_board", f"The cell at {E.cell_word(at)} is off the {rows} × {cols} board.", RULE_OBJECTIVE
            )
        return
    problem = E.placement_problem(state, seat, at)
    if problem is not None:
        code, message = problem
        rule = {"cell_blocked": RULE_BURDEN, "off_board": RULE_OBJECTIVE}.get(code, RULE_PLACING)
        raise _violation(code, message, rule)


def _check_hp(state: State, seat: int, data: dict[str, Any]) -> None:
    at = _cell(data["at"])
    rule = RULE_BEFORE if state["turn"]["phase"] == "start" else RULE_LIFE
    if E.occupancy(state).get(at) is None:
        raise _violation("no_card_there", f"There is no card or wizard on {E.cell_word(at)}.", rule)
    if data["amount"] == 0:
        raise _violation("zero_amount", "A change of 0 hit points changes nothing; give the amount.", RULE_ENTRIES)


def _check_target(state: State, seat: int, data: dict[str, Any]) -> None:
    frm, target = _cell(data["from"]), _cell(data["target"])
    occ = E.occupancy(state)
    piece = occ.get(frm)
    if piece is None or piece["controller"] != seat or piece["kind"] == "wizard":
        raise _violation(
            "not_your_card",
            f"The cell at {E.cell_word(frm)} does not hold one of {E.seat_word(seat)}'s cards.",
            RULE_CONFRONT,
        )
    other = occ.get(target)
    if other is None or other["controller"] == seat or B.direction_to(frm, target) is None:
        raise _violation(
            "not_an_opponent_next_to_it",
            f"The cell at {E.cell_word(target)} does not hold an opponent's card sharing a side with {E.named(state, piece)}.",
            RULE_CONFRONT,
        )
    threat = {B.side_direction(piece["facing"], s) for s, c in piece["side_capacities"].items() if c == "threat"}
    if B.direction_to(frm, target) in threat:
        raise _violation(
            "threat_side",
            f"{E.named(state, piece)} confronts {E.named(state, other)} anyway ({CAPACITY_WORDS['threat']} on that side); "
            "choose among the others.",
            RULE_CONFRONT,
        )
    if piece["kind"] != "creature":
        raise _violation(
            "not_a_creature", f"{piece['name']} is not a creature: it only confronts with Threat.", RULE_CONFRONT
        )
    _, missing = E.plan({**state, "turn": {**state["turn"], "targets": []}})
    if not any(_cell(m["from"]) == frm for m in missing):
        raise _violation(
            "nothing_to_choose",
            f"{piece['name']} faces only one opponent card: there is nothing to choose.",
            RULE_CONFRONT,
        )


def _check_end(state: State, seat: int, data: dict[str, Any]) -> None:
    _, missing = E.plan(state)
    if missing:
        m = missing[0]
        options = "; or ".join(E.cell_word(o) for o in m["options"])
        raise _violation(
            "choose_target",
            f"{m['name']} on {E.cell_word(m['from'])} faces several opponent cards: choose which one it confronts "
            f"({options}) before ending the turn.",
            RULE_CONFRONT,
        )


_CHECKS = {
    "destiny_chosen": _check_destiny,
    "origin_chosen": _check_origin,
    "card_moved": _check_move,
    "hand_refilled": _check_refill,
    "card_placed": _check_place,
    "hp_changed": _check_hp,
    "confrontation_target_chosen": _check_target,
    "turn_ended": _check_end,
}


def legal_moves(state: State) -> list[Event] | None:
    """Setup and the start of a turn are listed; None during actions (life changes take any amount).

    At the start of a turn the list holds the Run moves and the discards; a "before your turn" effect
    (``hp_changed``, any amount) is accepted there too but not listed."""
    if state["result"] is not None:
        return []
    phase = state["turn"]["phase"]
    if phase == "setup":
        moves: list[Event] = []
        for seat, need in E.setup_missing(state).items():
            if "destiny" in need:
                moves.extend(Event("destiny_chosen", seat, {"destiny": d}) for d in DESTINIES)
            if "origin" in need:
                moves.extend(Event("origin_chosen", seat, {"origin": o}) for o in ORIGINS)
        return moves
    if phase != "start":
        return None
    seat = state["turn"]["seat"]
    moves = []
    if not state["turn"]["moved"]:
        for piece in sorted(state["cards"], key=lambda c: c["id"]):
            if piece["controller"] == seat and "run" in piece["capacities"]:
                moves.extend(
                    Event("card_moved", seat, {"from": list(piece["at"]), "to": to})
                    for to in E.run_targets(state, piece)
                )
    hand = state["players"][seat]["hand"]
    moves.extend(Event("hand_refilled", seat, {"discarded": n}) for n in range(min(hand, 20) + 1))
    return moves

"""The First Spine's rules: the checks the base class runs in its order (the seat, the phase, whose turn), one
check per entry type (``RULES``: ``check(state, event)``), ``legal_moves`` and the rule helpers the board reads
(where a card may stand, what a deck still holds)."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, RuleViolation, State
from rulesets.names import plural, with_article
from rulesets.the_first_spine import board as B
from rulesets.the_first_spine import engine as E
from rulesets.the_first_spine.cards import CAPACITY_WORDS, DESTINIES, ORIGINS
from rulesets.the_first_spine.fields import (
    CARD_MOVED,
    CARD_PLACED,
    CONFRONTATION_TARGET_CHOSEN,
    DESTINY_CHOSEN,
    HAND_REFILLED,
    HP_CHANGED,
    ORIGIN_CARDS,
    ORIGIN_CHOSEN,
    RULE_BEFORE,
    RULE_BURDEN,
    RULE_CONFRONT,
    RULE_DECK,
    RULE_DESTINY,
    RULE_DRAW,
    RULE_ENTRIES,
    RULE_LIFE,
    RULE_OBJECTIVE,
    RULE_ORIGIN,
    RULE_PLACING,
    RULE_RUN,
    RULE_SETUP_START,
    RULE_START,
    SETUP_EVENTS,
    START_EVENTS,
    TURN_ENDED,
)
from rulesets.versions import recorded_before


def _cell(value: Any) -> B.Cell:
    return (value[0], value[1])


# -- the common checks, in the base class's order (entry → phase → whose turn) -------------------------------


def check_seat(state: State, event: Event) -> None:
    """Every entry is a seat's: one of the match's seats (``unknown_seat``, in this game's words)."""
    seats = len(state["players"])
    seat = event.seat
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < seats):
        which = ", ".join(str(s) for s in range(seats - 1)) + f" or {seats - 1}"
        problem = "Say which seat this entry is for" if seat is None else f"This match has no seat {seat!r}"
        raise RuleViolation("unknown_seat", f"{problem}: its seats are {which}.", RULE_ENTRIES)


def check_phase(state: State, event: Event) -> None:
    """Setup entries during the installation only, the discard/draw (or Run, or a "before your turn" effect)
    first in a turn, and each once; checked before the data, so a page files such entries under "Other
    entries" whatever their data (``phase_codes``)."""
    phase, seat, turn_seat = state["turn"]["phase"], event.seat, state["turn"]["seat"]
    who = E.seat_word(turn_seat)
    if phase == "setup":
        if event.type not in SETUP_EVENTS:
            missing = E.setup_missing(state)
            names = ", ".join(f"{E.seat_word(s)} ({' and '.join(m)})" for s, m in missing.items())
            destiny_missing = any("destiny" in m for m in missing.values())
            raise RuleViolation(
                "setup_not_finished",
                f"Play starts once every player has chosen a destiny and an origin; still to choose: {names}.",
                RULE_DESTINY if destiny_missing else RULE_ORIGIN,
            )
    elif event.type in SETUP_EVENTS:
        raise RuleViolation(
            "setup_finished",
            "Destinies and origins are chosen before play, and play has begun: the starting hands were drawn once, "
            "when the last choice was recorded.",
            RULE_SETUP_START,
        )
    elif phase == "start" and event.type not in START_EVENTS:
        raise RuleViolation(
            "draw_first",
            f"{who} must record the discard/draw phase (hand refilled) first: it opens every turn and is mandatory "
            "(before it, only a card with Run may move and “before your turn” effects may be recorded).",
            RULE_DRAW,
        )
    elif phase == "actions" and event.type in (CARD_MOVED, HAND_REFILLED) and seat != turn_seat:
        # another seat starting its turn (discard/draw, Run) while the seat on turn is still acting
        raise RuleViolation(
            "already_refilled" if event.type == HAND_REFILLED else "run_before_draw",
            f"{who} must finish their actions and end their turn before {E.seat_word(seat)}'s turn begins.",
            RULE_DRAW if event.type == HAND_REFILLED else RULE_RUN,
        )
    elif phase == "actions" and event.type == HAND_REFILLED:
        raise RuleViolation("already_refilled", f"{who} has already discarded and drawn this turn.", RULE_DRAW)
    elif phase == "actions" and event.type == CARD_MOVED:
        raise RuleViolation(
            "run_before_draw",
            "A card with Run moves at the start of the turn, before the discard/draw phase.",
            RULE_RUN,
        )


def check_turn(state: State, event: Event) -> None:
    """A seat whose wizard is out plays no more (``seat_out``); after the setup only the seat on turn plays."""
    seat = event.seat
    if state["players"][seat]["out"]:
        raise RuleViolation("seat_out", f"{E.seat_word(seat)}'s wizard is out of the game.", RULE_OBJECTIVE)
    if state["turn"]["phase"] != "setup" and seat != state["turn"]["seat"]:
        raise RuleViolation("not_your_turn", _what_the_turn_needs(state), RULE_START)


def _what_the_turn_needs(state: State) -> str:
    """Whose turn it is and what they must do before anyone else plays (said to a seat acting out of turn)."""
    who = E.seat_word(state["turn"]["seat"])
    if state["turn"]["phase"] == "start":
        return f"It is {who}'s turn: they must discard and draw first, then act and end their turn."
    return f"{who} must finish their actions and end their turn."


# -- one check per entry type ----------------------------------------------------------------------------------


def check_destiny(state: State, event: Event) -> None:
    """A seat chooses its destiny once."""
    seat = event.seat
    if state["players"][seat]["destiny"] is not None:
        raise RuleViolation(
            "destiny_already_chosen", f"{E.seat_word(seat)} has already chosen a destiny.", RULE_DESTINY
        )


def check_origin(state: State, event: Event) -> None:
    """A seat chooses its origin once."""
    seat = event.seat
    if state["players"][seat]["origin_chosen"]:
        raise RuleViolation("origin_already_chosen", f"{E.seat_word(seat)} has already chosen an origin.", RULE_ORIGIN)


def check_move(state: State, event: Event) -> None:
    """One card with Run of the seat's moves to an empty, unblocked cell next to it, once a turn."""
    seat, data = event.seat, event.data
    if state["turn"]["moved"]:
        raise RuleViolation("already_moved", "Only one card with Run may move at the start of a turn.", RULE_RUN)
    frm, to = _cell(data["from"]), _cell(data["to"])
    piece = E.occupancy(state).get(frm)
    if piece is None:
        raise RuleViolation("no_card_there", f"There is no card on {E.cell_word(frm)}.", RULE_RUN)
    if piece["controller"] != seat:
        raise RuleViolation(
            "not_your_card", f"{E.label(state, piece)} on {E.cell_word(frm)} is not yours to move.", RULE_RUN
        )
    if "run" not in piece["capacities"]:
        raise RuleViolation("no_run", f"{E.label(state, piece)} does not have Run, so it cannot move.", RULE_RUN)
    if to not in {_cell(c) for c in run_targets(state, piece)}:
        raise RuleViolation(
            "bad_run_cell",
            f"{piece['name']} can only move to an empty, unblocked cell of the board sharing a side with "
            f"{E.cell_word(frm)}; {E.cell_word(to)} is not such a cell.",
            RULE_RUN,
        )


def check_refill(state: State, event: Event) -> None:
    """No more cards discarded than the hand holds."""
    seat, data = event.seat, event.data
    hand = state["players"][seat]["hand"]
    if data["discarded"] > hand:
        raise RuleViolation(
            "not_enough_cards",
            f"{E.seat_word(seat)} holds {plural(hand, 'card')} and cannot discard {data['discarded']}.",
            RULE_DRAW,
        )


def check_place(state: State, event: Event) -> None:
    """A card of the match's list from the seat's deck (its origin, the deck's shares) on a cell it may take."""
    seat, data = event.seat, event.data
    player = state["players"][seat]
    card = E.find_card(state, data["card"])
    if card is None:
        raise RuleViolation(
            "unknown_card", f"This match's card list has no card called '{data['card']}'.", RULE_ENTRIES
        )
    if player["hand"] < 1:
        raise RuleViolation("empty_hand", f"{E.seat_word(seat)} has no card in hand.", RULE_OBJECTIVE)
    if card["origin"] is not None and card["origin"] != player["origin"]:
        raise RuleViolation(
            "wrong_origin",
            f"{card['name']} is {with_article(card['origin'].capitalize())} card; {E.seat_word(seat)}'s "
            f"deck holds only their own origin's cards.",
            RULE_ORIGIN,
        )
    # version 1 (a match recorded under it, docs/rules › Rule versions) had no limit on origin cards
    if card["origin"] is not None and origin_cards_left(state, seat) == 0 and not recorded_before(state, 2):
        raise RuleViolation(
            "origin_cards_spent",
            f"{E.seat_word(seat)} has already played the {ORIGIN_CARDS} cards of their origin, so {card['name']} "
            f"cannot be played: the deck holds only the six origin cards drawn at installation (“The remaining "
            f"cards must be put offside.”).",
            RULE_ORIGIN,
        )
    # versions 1-3 (a match recorded under them) had no destiny share
    if card["origin"] is None and destiny_cards_left(state, seat) == 0 and not recorded_before(state, 4):
        deck, share = state["settings"]["deck_size"], destiny_cards(state)
        if share:
            why = (
                f"{E.seat_word(seat)} has already played the {plural(share, 'destiny card')} of their {deck}-card "
                f"deck (the other {ORIGIN_CARDS} are their origin's"
            )
        else:
            why = f"{E.seat_word(seat)}'s {deck}-card deck holds no destiny card (its {ORIGIN_CARDS} cards are their origin's"
        raise RuleViolation(
            "destiny_cards_spent",
            f"{why}: “complete your deck with 6 additional cards”), so {card['name']} cannot be played.",
            RULE_DECK,
        )
    at = _cell(data["at"])
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    if card["kind"] == "spell":
        if not B.on_board(at, rows, cols):
            raise RuleViolation(
                "off_board", f"The cell at {E.cell_word(at)} is off the {rows} × {cols} board.", RULE_OBJECTIVE
            )
        return
    problem = placement_problem(state, seat, at)
    if problem is not None:
        code, message = problem
        rule = {"cell_blocked": RULE_BURDEN, "off_board": RULE_OBJECTIVE}.get(code, RULE_PLACING)
        raise RuleViolation(code, message, rule)


def check_hp(state: State, event: Event) -> None:
    """A life change of a piece on the board, by some amount."""
    data = event.data
    at = _cell(data["at"])
    rule = RULE_BEFORE if state["turn"]["phase"] == "start" else RULE_LIFE
    if E.occupancy(state).get(at) is None:
        raise RuleViolation("no_card_there", f"There is no card or wizard on {E.cell_word(at)}.", rule)
    if data["amount"] == 0:
        raise RuleViolation("zero_amount", "A change of 0 hit points changes nothing; give the amount.", RULE_ENTRIES)


def check_target(state: State, event: Event) -> None:
    """One of the seat's creatures facing several opponent cards chooses one of them (not one on a Threat side)."""
    seat, data = event.seat, event.data
    frm, target = _cell(data["from"]), _cell(data["target"])
    occ = E.occupancy(state)
    piece = occ.get(frm)
    if piece is None or piece["controller"] != seat or piece["kind"] == "wizard":
        raise RuleViolation(
            "not_your_card",
            f"The cell at {E.cell_word(frm)} does not hold one of {E.seat_word(seat)}'s cards.",
            RULE_CONFRONT,
        )
    other = occ.get(target)
    if other is None or other["controller"] == seat or B.direction_to(frm, target) is None:
        raise RuleViolation(
            "not_an_opponent_next_to_it",
            f"The cell at {E.cell_word(target)} does not hold an opponent's card sharing a side with {E.named(state, piece)}.",
            RULE_CONFRONT,
        )
    threat = {B.side_direction(piece["facing"], s) for s, c in piece["side_capacities"].items() if c == "threat"}
    if B.direction_to(frm, target) in threat:
        raise RuleViolation(
            "threat_side",
            f"{E.named(state, piece)} confronts {E.named(state, other)} anyway ({CAPACITY_WORDS['threat']} on that side); "
            "choose among the others.",
            RULE_CONFRONT,
        )
    if piece["kind"] != "creature":
        raise RuleViolation(
            "not_a_creature", f"{piece['name']} is not a creature: it only confronts with Threat.", RULE_CONFRONT
        )
    _, missing = E.plan({**state, "turn": {**state["turn"], "targets": []}})
    if not any(_cell(m["from"]) == frm for m in missing):
        raise RuleViolation(
            "nothing_to_choose",
            f"{piece['name']} faces only one opponent card: there is nothing to choose.",
            RULE_CONFRONT,
        )


def check_end(state: State, event: Event) -> None:
    """Every creature facing several opponent cards has a target chosen."""
    _, missing = E.plan(state)
    if missing:
        m = missing[0]
        options = "; or ".join(E.cell_word(o) for o in m["options"])
        raise RuleViolation(
            "choose_target",
            f"{m['name']} on {E.cell_word(m['from'])} faces several opponent cards: choose which one it confronts "
            f"({options}) before ending the turn.",
            RULE_CONFRONT,
        )


RULES = {
    DESTINY_CHOSEN: check_destiny,
    ORIGIN_CHOSEN: check_origin,
    CARD_MOVED: check_move,
    HAND_REFILLED: check_refill,
    CARD_PLACED: check_place,
    HP_CHANGED: check_hp,
    CONFRONTATION_TARGET_CHOSEN: check_target,
    TURN_ENDED: check_end,
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
                moves.extend(Event(DESTINY_CHOSEN, seat, {"destiny": d}) for d in DESTINIES)
            if "origin" in need:
                moves.extend(Event(ORIGIN_CHOSEN, seat, {"origin": o}) for o in ORIGINS)
        return moves
    if phase != "start":
        return None
    seat = state["turn"]["seat"]
    moves = []
    if not state["turn"]["moved"]:
        for piece in sorted(state["cards"], key=lambda c: c["id"]):
            if piece["controller"] == seat and "run" in piece["capacities"]:
                moves.extend(
                    Event(CARD_MOVED, seat, {"from": list(piece["at"]), "to": to}) for to in run_targets(state, piece)
                )
    hand = state["players"][seat]["hand"]
    moves.extend(Event(HAND_REFILLED, seat, {"discarded": n}) for n in range(min(hand, 20) + 1))
    return moves


# -- rule helpers: where a card may stand, what a deck still holds ----------------------------------------------------------------------------------------------


def placement_problem(state: State, seat: int, cell: B.Cell) -> tuple[str, str] | None:
    """Why ``seat`` may not put a card (creature or artifact) on ``cell`` now, or None."""
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    where = f"The cell at {E.cell_word(cell)}"
    if not B.on_board(cell, rows, cols):
        return "off_board", f"{where} is off the {rows} × {cols} board."
    occ = E.occupancy(state)
    if cell in occ:
        piece = occ[cell]
        if piece["kind"] == "wizard":
            return "cell_occupied", f"{where} is {E.label(state, piece)}'s cell."
        return "cell_occupied", f"{where} already holds {piece['name']}."
    if cell in E.blocked_cells(state):
        until = next(b["until_seat"] for b in state["blocked"] if _cell(b["at"]) == cell)
        return (
            "cell_blocked",
            f"{where} is blocked by Burden earth until {E.seat_word(until)}'s next turn.",
        )
    if not any((n := occ.get(nb)) is not None and n["controller"] == seat for _, nb in B.neighbours(cell, rows, cols)):
        return (
            "not_next_to_yours",
            f"{where} is not next to {E.seat_word(seat)}'s wizard or one of {E.seat_word(seat)}'s cards; a card is "
            "placed on a cell sharing a side with them.",
        )
    return None


def placeable_cells(state: State, seat: int) -> list[list[int]]:
    """Every cell where ``seat`` may place a creature or artifact now (row by row)."""
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    return [[r, c] for r in range(rows) for c in range(cols) if placement_problem(state, seat, (r, c)) is None]


def run_targets(state: State, piece: dict[str, Any]) -> list[list[int]]:
    """The cells a card with Run may move to: orthogonally adjacent, on the board, empty and not blocked."""
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    occ, blocked = E.occupancy(state), E.blocked_cells(state)
    return [list(nb) for _, nb in B.neighbours(_cell(piece["at"]), rows, cols) if nb not in occ and nb not in blocked]


def origin_cards_left(state: State, seat: int) -> int:
    """How many of the 6 cards of its origin ``seat`` has not played yet ("complete your deck with 6
    additional cards")."""
    return max(0, ORIGIN_CARDS - state["players"][seat].get("origin_played", 0))


def destiny_cards(state: State) -> int:
    """How many destiny cards a deck holds: ``deck_size`` less the 6 origin cards that complete it."""
    return max(0, state["settings"]["deck_size"] - ORIGIN_CARDS)


def destiny_cards_left(state: State, seat: int) -> int:
    """How many of its deck's destiny cards ``seat`` has not played yet."""
    return max(0, destiny_cards(state) - state["players"][seat].get("destiny_played", 0))


def deck_cards(state: State, seat: int) -> list[dict[str, Any]]:
    """The catalog cards ``seat`` may still play: destiny cards (no origin) while it has played fewer than
    the deck's destiny share (``deck_size`` − 6), and those of its origin while it has played fewer than the 6
    origin cards its deck holds."""
    if not 0 <= seat < len(state["players"]):
        return []
    origin = state["players"][seat]["origin"]
    origin_spent = origin_cards_left(state, seat) == 0
    destiny_spent = destiny_cards_left(state, seat) == 0
    return [
        c
        for c in state["catalog"].values()
        if (c["origin"] is None and not destiny_spent)
        or (c["origin"] is not None and c["origin"] == origin and not origin_spent)
    ]

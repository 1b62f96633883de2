"""Bone Wars' rules: the phase and turn checks, one check per entry type (the common checks come first, in
``rulesets.base``), and the finite legal moves."""

from __future__ import annotations

from rulesets.base import Event, RuleViolation, State
from rulesets.bone_wars.engine import current_sitting, next_slot, rp_text, seat_label
from rulesets.bone_wars.fields import (
    CARD_PLAYED,
    CARD_UPGRADED,
    CRANIUM_RECORDED,
    GAME_CONCLUDED,
    ICONS,
    LOYALTY_GAINED,
    MONEY_CHANGED,
    PAPER_DEBUNKED,
    PAPER_PUBLISHED,
    PASSED,
    PATRON_FLIPPED,
    PATRON_NAMES,
    RP_GAINED,
    RULE_AWARDS,
    RULE_CARDS,
    RULE_ENTRIES,
    RULE_LOYALTY,
    RULE_OVERVIEW,
    RULE_PLAYING,
    RULE_SITTINGS,
    RULE_TIES,
    SIDES,
    SLOT_UPGRADED,
    SPECIES_ARCHIVED,
    TABLE_PAUSED,
    TURN_ENDED,
)
from rulesets.versions import recorded_before

# what may be recorded after the last pass until the table confirms the end (a circumference: at any time)
AWARDS_ENTRIES = frozenset({RP_GAINED, TABLE_PAUSED, GAME_CONCLUDED})


def _holds(seat: int, money: int) -> str:
    """What a seat holds, as a refusal says it: "Seat 0 has $3", after an overridden debt "Seat 0 owes $2"."""
    return f"{seat_label(seat)} has ${money}" if money >= 0 else f"{seat_label(seat)} owes ${-money}"


def _seat(event: Event) -> int:
    """The acting seat of a player's entry (``rulesets.base`` has checked it is one of the match)."""
    assert isinstance(event.seat, int)
    return event.seat


def _check_rp(state: State, seat: int, amount: int) -> None:
    """An RP entry changes something and a loss never takes a seat below 0 (Chronicle's own check: the
    rulebook has no line on RP below 0; an override records the loss as the table says it). A gain is always
    accepted, even by a seat an override left below 0: it takes nothing away."""
    if amount == 0:
        raise RuleViolation("zero_amount", "Gaining 0 RP changes nothing.", RULE_ENTRIES)
    rp = state["players"][seat]["rp"]
    if amount < 0 and rp + amount < 0:
        raise RuleViolation(
            "rp_below_zero",
            f"{seat_label(seat)} has {rp_text(rp)}; losing {-amount} would go below 0."
            if rp >= 0
            else f"{seat_label(seat)} has {rp_text(rp)} (below 0 after an override); a loss of {-amount} "
            "cannot be recorded, a gain can.",
            RULE_ENTRIES,
        )


def _after_card(state: State, event: Event, what: str) -> None:
    """An effect of the action comes after the seat's card."""
    if not state["card_played"]:
        raise RuleViolation(
            "card_not_played", f"{seat_label(_seat(event))} must play a card before {what}.", RULE_PLAYING
        )


# -- the phase and the turn (hooks of the ruleset) --------------------------------------------------------
def check_awards_phase(state: State, event: Event) -> None:
    """After the last pass, until the table confirms the end: only the awards (``rp_gained``, any seat), a
    pause and ``game_concluded`` (a circumference is never refused for its phase)."""
    if event.type != CRANIUM_RECORDED and event.type not in AWARDS_ENTRIES:
        raise RuleViolation(
            "game_over",
            "Round 4 is over: only the final awards (RP with a reason) may be recorded now, then confirm the end "
            "of the game.",
            RULE_AWARDS,
        )


def check_seat_turn(state: State, event: Event) -> None:
    """During the four rounds a player's entry (not a circumference: at any time) comes from a seat that has
    not passed and is on turn; the refusal says when the action was never finished."""
    if event.type == CRANIUM_RECORDED or state["finished"] or event.type in (GAME_CONCLUDED, TABLE_PAUSED):
        return
    seat = _seat(event)
    if state["players"][seat]["passed"]:
        raise RuleViolation(
            "already_passed",
            f"{seat_label(seat)} has passed and is out until round {state['round']} ends.",
            RULE_OVERVIEW,
        )
    if seat != state["turn"]:
        on_turn = seat_label(state["turn"])
        if state["card_played"]:  # the commonest slip at a table: the turn was never ended
            message = f"It is {on_turn}'s turn, and the action is not finished: record its effects, then end the turn."
        else:
            message = f"It is {on_turn}'s turn."
        raise RuleViolation("not_your_turn", message, RULE_OVERVIEW)


# -- one check per entry type -------------------------------------------------------------------------------
def check_card_played(state: State, event: Event) -> None:
    """One card a turn, into the leftmost empty slot, paid for (a $0 price pays nothing: a debt does not stop
    it); only a team card has a cost of its own, only a species a minor find."""
    seat = _seat(event)
    if state["card_played"]:
        raise RuleViolation(
            "card_already_played",
            f"{seat_label(seat)} has already played a card this turn: record its effects, then end the turn.",
            RULE_PLAYING,
        )
    card = event.data["card"]
    if card["kind"] in ("species", "paleontologist") and card["cost"]:
        raise RuleViolation(
            "card_has_no_cost",
            f"A {card['kind']} card has no cost of its own (got ${card['cost']}); only the slot is paid.",
            RULE_PLAYING,
        )
    if card["kind"] == "species" and card.get("minor_find") is None:
        raise RuleViolation(
            "minor_find_required",
            "A species card shows a minor find icon (bug, footprint, fossil, hammer or plant): name it.",
            RULE_CARDS,
        )
    if card["kind"] != "species" and card.get("minor_find") is not None:
        raise RuleViolation(
            "minor_find_not_species",
            f"Only species cards show a minor find; a {card['kind']} card has none.",
            RULE_CARDS,
        )
    player = state["players"][seat]
    index = next_slot(player)
    if index is None:
        raise RuleViolation(
            "no_empty_slot",
            f"Every action slot of {seat_label(seat)} holds a card this round: {seat_label(seat)} must pass.",
            RULE_PLAYING,
        )
    slot_cost = player["slots"][index]["cost"]
    price = slot_cost + card["cost"]
    if price > 0 and price > player["money"]:
        raise RuleViolation(
            "not_enough_money",
            f"Slot {index + 1} costs ${slot_cost} plus ${card['cost']} for the card: ${price}, "
            f"but {_holds(seat, player['money'])}.",
            RULE_PLAYING,
        )


def check_money_changed(state: State, event: Event) -> None:
    """After the card; a change of $0 changes nothing, a payment needs the money (a gain never does)."""
    _after_card(state, event, "the action changes money")
    seat, amount = _seat(event), event.data["amount"]
    if amount == 0:
        raise RuleViolation("zero_amount", "A money change of $0 changes nothing.", RULE_ENTRIES)
    money = state["players"][seat]["money"]
    if amount < 0 and money + amount < 0:
        raise RuleViolation(
            "money_below_zero",
            f"{_holds(seat, money)}; paying ${-amount} would leave less than $0."
            if money >= 0
            else f"{_holds(seat, money)} (a debt recorded under an override): paying ${-amount} needs the "
            "money; a gain can be recorded.",
            RULE_ENTRIES,
        )


def check_loyalty_gained(state: State, event: Event) -> None:
    """After the card."""
    _after_card(state, event, "gaining loyalty")


def check_paper_published(state: State, event: Event) -> None:
    """After the card, onto a side of the bookshelf that has an empty shelf."""
    _after_card(state, event, "publishing a paper")
    side = event.data["side"]
    if state["credibility"][side] >= state["shelves"]:
        raise RuleViolation(
            "shelf_full",
            f"{PATRON_NAMES[side]}'s side of the bookshelf is full ({state['shelves']} papers).",
            RULE_LOYALTY,
        )


def check_paper_debunked(state: State, event: Event) -> None:
    """After the card, from a side of the bookshelf that holds a paper."""
    _after_card(state, event, "debunking a paper")
    side = event.data["side"]
    if state["credibility"][side] <= 0:
        raise RuleViolation(
            "shelf_empty",
            f"{PATRON_NAMES[side]}'s side of the bookshelf holds no paper to debunk.",
            RULE_LOYALTY,
        )


def check_patron_flipped(state: State, event: Event) -> None:
    """After the card."""
    _after_card(state, event, "flipping the patron tile")


def check_species_archived(state: State, event: Event) -> None:
    """After the card."""
    _after_card(state, event, "archiving a species")


def check_slot_upgraded(state: State, event: Event) -> None:
    """After the card; the new slot costs at least as much as the one to its left (version 1: any cost)."""
    _after_card(state, event, "upgrading an action slot")
    left, cost = state["players"][_seat(event)]["slots"][-1], event.data["cost"]
    if cost < left["cost"] and not recorded_before(state, 2):
        raise RuleViolation(
            "upgrade_cheaper",
            f"Slot costs rise to the right (“the slot’s cost ($0 to $3, rising to the right)”): the new slot "
            f"goes right of a ${left['cost']} slot, so it costs at least ${left['cost']}, not ${cost}.",
            RULE_PLAYING,
        )


def check_card_upgraded(state: State, event: Event) -> None:
    """After the card: a team card already in a slot becomes another team card, whose own cost is paid."""
    _after_card(state, event, "upgrading a card in a slot")
    seat = _seat(event)
    player = state["players"][seat]
    number = event.data["slot"]
    if number > len(player["slots"]):
        raise RuleViolation(
            "no_such_slot", f"{seat_label(seat)} has {len(player['slots'])} action slots, not {number}.", RULE_CARDS
        )
    held = player["slots"][number - 1]["card"]
    if held is None:
        raise RuleViolation(
            "slot_empty",
            f"Slot {number} holds no card: only a card already in an action slot can be upgraded.",
            RULE_CARDS,
        )
    card = event.data["card"]
    if held["kind"] != "team" or card["kind"] != "team":
        raise RuleViolation(
            "upgrade_not_team",
            f"Only a team card is upgraded, to another team card (slot {number} holds a {held['kind']} card; "
            f"the new card is a {card['kind']} card).",
            RULE_CARDS,
        )
    if card.get("minor_find") is not None:
        raise RuleViolation("minor_find_not_species", "Only species cards show a minor find.", RULE_CARDS)
    if card["cost"] > 0 and card["cost"] > player["money"]:  # a $0 card pays nothing
        raise RuleViolation(
            "not_enough_money",
            f"The new card costs ${card['cost']} (the slot stays paid), but {_holds(seat, player['money'])}.",
            RULE_PLAYING,
        )


def check_rp_gained(state: State, event: Event) -> None:
    """During the rounds after the card; after the last pass (the awards) by any seat. Never 0 RP, never a
    loss below 0."""
    if not state["finished"]:
        _after_card(state, event, "gaining RP")
    _check_rp(state, _seat(event), event.data["amount"])


def check_game_concluded(state: State, event: Event) -> None:
    """Only after the last pass (the phase check refuses it once the end is confirmed)."""
    if not state["finished"]:
        raise RuleViolation(
            "game_not_over",
            f"The game lasts 4 rounds: round {state['round']} is still being played.",
            RULE_OVERVIEW,
        )


def check_turn_ended(state: State, event: Event) -> None:
    """After the card (a seat that plays none passes instead)."""
    _after_card(state, event, "ending the turn (or pass instead)")


def check_passed(state: State, event: Event) -> None:
    """Instead of a card, not after one."""
    if state["card_played"]:
        raise RuleViolation(
            "card_already_played",
            f"{seat_label(_seat(event))} played a card this turn: pass instead of playing, not after it. End the turn.",
            RULE_OVERVIEW,
        )


def check_cranium_recorded(state: State, event: Event) -> None:
    """At any time, by any seat, even after the game: a length above 0 cm."""
    if event.data["cm"] <= 0:
        raise RuleViolation("invalid_circumference", "A cranial circumference is a length above 0 cm.", RULE_TIES)


def check_table_paused(state: State, event: Event) -> None:
    """Something was recorded since the last pause (or the start)."""
    if current_sitting(state) is None:
        since = "" if state["finished"] else " (or since the start)"
        raise RuleViolation(
            "nothing_to_pause",
            f"Nothing has been recorded since the table last paused{since}.",
            RULE_SITTINGS,
        )


RULES = {
    CARD_PLAYED: check_card_played,
    MONEY_CHANGED: check_money_changed,
    LOYALTY_GAINED: check_loyalty_gained,
    PAPER_PUBLISHED: check_paper_published,
    PAPER_DEBUNKED: check_paper_debunked,
    PATRON_FLIPPED: check_patron_flipped,
    SPECIES_ARCHIVED: check_species_archived,
    SLOT_UPGRADED: check_slot_upgraded,
    CARD_UPGRADED: check_card_upgraded,
    RP_GAINED: check_rp_gained,
    GAME_CONCLUDED: check_game_concluded,
    TURN_ENDED: check_turn_ended,
    PASSED: check_passed,
    CRANIUM_RECORDED: check_cranium_recorded,
    TABLE_PAUSED: check_table_paused,
}


def legal_moves(state: State) -> list[Event]:
    """The finite legal entries: passes, turn end, papers, patron flip, slot upgrades, table pause.

    Cards, money, loyalty, RP, species names and circumferences are what the table says (unbounded values),
    so they are never listed; every listed entry is accepted by ``validate``.
    """
    moves: list[Event] = []
    if state["finished"]:
        if not state.get("concluded", False) and not recorded_before(state, 2):
            moves.append(Event(GAME_CONCLUDED, None, {}))
            if current_sitting(state) is not None:  # packing away before the awards are counted
                moves.append(Event(TABLE_PAUSED, None, {}))
        return moves
    seat = state["turn"]
    if not state["card_played"]:
        moves.extend(Event(PASSED, seat, {"patron": side}) for side in SIDES)
    else:
        moves.append(Event(TURN_ENDED, seat, {}))
        moves.append(Event(PATRON_FLIPPED, seat, {}))
        cred = state["credibility"]
        moves.extend(Event(PAPER_PUBLISHED, seat, {"side": s}) for s in SIDES if cred[s] < state["shelves"])
        moves.extend(Event(PAPER_DEBUNKED, seat, {"side": s}) for s in SIDES if cred[s] > 0)
        left = state["players"][seat]["slots"][-1]["cost"]
        moves.extend(
            Event(SLOT_UPGRADED, seat, {"cost": cost, "icon": icon}) for cost in range(left, 4) for icon in ICONS
        )
    if current_sitting(state) is not None:
        moves.append(Event(TABLE_PAUSED, None, {}))
    return moves

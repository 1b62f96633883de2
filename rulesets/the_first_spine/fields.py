"""The First Spine's entries and options: their names, fields, and the rulebook sections the refusals cite."""

from __future__ import annotations

from typing import Any

from rulesets.base import ENTRIES_RULE, EventType
from rulesets.schema import Field
from rulesets.the_first_spine.cards import (
    CAPACITIES,
    CAPACITY_WORDS,
    DESTINIES,
    DESTINY_WORDS,
    KIND_WORDS,
    KINDS,
    ORIGIN_WORDS,
    ORIGINS,
    SIDE_CAPACITIES,
    SIDES,
    default_cards,
)

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

DESTINY_CHOSEN = "destiny_chosen"
ORIGIN_CHOSEN = "origin_chosen"
CARD_MOVED = "card_moved"
HAND_REFILLED = "hand_refilled"
CARD_PLACED = "card_placed"
HP_CHANGED = "hp_changed"
CONFRONTATION_TARGET_CHOSEN = "confrontation_target_chosen"
TURN_ENDED = "turn_ended"

SETUP_EVENTS = (DESTINY_CHOSEN, ORIGIN_CHOSEN)
# before the discard/draw: Run, and "before your turn" effects of card texts (recorded as hp_changed)
START_EVENTS = (CARD_MOVED, HP_CHANGED, HAND_REFILLED)

DEFAULT_BOARD = [7, 7]
DEFAULT_WIZARD_HP = 20
DEFAULT_HAND_SIZE = 6
DEFAULT_DECK_SIZE = 30
BOARD_MIN, BOARD_MAX = 3, 15
ORIGIN_CARDS = 6  # "complete your deck with 6 additional cards"


def _stat_sides(label: str) -> Field:
    return Field(
        label.lower(),
        "object",
        label=f"{label} (front, right, back, left)",
        fields=tuple(Field(s, "int", minimum=0, maximum=99, label=s.capitalize()) for s in SIDES),
    )


CARD_FIELDS: tuple[Field, ...] = (
    Field("name", "str", max_length=60, label="Name"),
    Field("kind", "choice", choices=KINDS, choice_labels=KIND_WORDS, label="Kind"),
    Field("hp", "int", minimum=1, maximum=99, label="Hit points"),
    _stat_sides("Attack"),
    _stat_sides("Defense"),
    Field(
        "capacities",
        "list",
        item=Field(
            "capacity", "choice", choices=CAPACITIES, choice_labels=tuple(CAPACITY_WORDS[c] for c in CAPACITIES)
        ),
        required=False,
        default=[],
        max_items=len(CAPACITIES),
        label="Capacities",
    ),
    Field(
        "side_capacities",
        "object",
        required=False,
        default={},
        label="Side capacities",
        fields=tuple(
            Field(
                s,
                "choice",
                choices=SIDE_CAPACITIES,
                choice_labels=tuple(CAPACITY_WORDS[c] for c in SIDE_CAPACITIES),
                required=False,
                label=s.capitalize(),
            )
            for s in SIDES
        ),
    ),
    Field(
        "origin",
        "choice",
        choices=ORIGINS,
        choice_labels=ORIGIN_WORDS,
        required=False,
        nullable=True,
        label="Origin (none: a destiny card)",
    ),
    Field("text", "str", max_length=300, required=False, default="", label="Card text"),
)

OPTIONS_SCHEMA: tuple[Field, ...] = (
    Field(
        "board",
        "list",
        item=Field("size", "int", minimum=BOARD_MIN, maximum=BOARD_MAX),
        min_items=2,
        max_items=2,
        required=False,
        default=DEFAULT_BOARD,
        label="Board size",
        item_labels=("Rows", "Columns"),
    ),
    Field(
        "wizard_hp",
        "int",
        minimum=1,
        maximum=99,
        required=False,
        default=DEFAULT_WIZARD_HP,
        label="Wizard life",
        help="The rulebook prints no number; 20 is this project's default.",
    ),
    Field("hand_size", "int", minimum=1, maximum=20, required=False, default=DEFAULT_HAND_SIZE, label="Hand size"),
    Field(
        "deck_size",
        "int",
        minimum=ORIGIN_CARDS,
        maximum=200,
        required=False,
        default=DEFAULT_DECK_SIZE,
        label="Deck size (with the 6 origin cards)",
    ),
    Field("first_seat", "choice", choices=(0, 1, 2, 3), required=False, default=0, label="Who starts", per_seat=True),
    Field(
        "cards",
        "list",
        item=Field("card", "object", fields=CARD_FIELDS),
        min_items=1,
        max_items=100,
        required=False,
        default=default_cards(),
        label="Cards",
    ),
)

ROW_COL = ("row", "column")
CELL_HELP = "The numbers along the board's top and left edges; or tap the cell on the board."

EVENT_TYPES: dict[str, EventType] = {
    DESTINY_CHOSEN: EventType(
        name=DESTINY_CHOSEN,
        label="Chose a destiny",
        fields=(Field("destiny", "choice", choices=DESTINIES, choice_labels=DESTINY_WORDS, label="Destiny"),),
        description="Installation: each player chooses a destiny (open to everyone).",
    ),
    ORIGIN_CHOSEN: EventType(
        name=ORIGIN_CHOSEN,
        label="Chose a secret origin",
        fields=(Field("origin", "choice", choices=ORIGINS, choice_labels=ORIGIN_WORDS, label="Secret origin"),),
        description="Installation: each player chooses an origin; others only learn it when a card of it is played.",
        secret="secret origin",
    ),
    CARD_MOVED: EventType(
        name=CARD_MOVED,
        label="Moved a card (Run)",
        fields=(
            Field("from", "cell", label="From", help=CELL_HELP, axes=ROW_COL, first=1),
            Field("to", "cell", label="To", help=CELL_HELP, axes=ROW_COL, first=1),
        ),
        description="Before the discard/draw phase: one card with Run moves to an adjacent empty cell.",
    ),
    HAND_REFILLED: EventType(
        name=HAND_REFILLED,
        label="Discarded and drew (start of turn)",
        fields=(Field("discarded", "int", minimum=0, maximum=20, label="Cards discarded"),),
        description="Mandatory first: the first discard is free, each further one costs 1 life; then draw up to "
        "the hand size, 1 life per card that cannot be drawn.",
    ),
    CARD_PLACED: EventType(
        name=CARD_PLACED,
        label="Placed a card",
        fields=(
            Field("card", "str", max_length=60, label="Card", names="hand"),
            Field("at", "cell", label="Cell", help=CELL_HELP, axes=ROW_COL, first=1),
        ),
        description="Actions: a card from hand onto an empty cell next to your wizard or one of your cards "
        "(a spell is cast on any cell and goes to the discard).",
        secret="secret origin",  # an origin card may be played only by the seat of that origin (it reveals it)
    ),
    HP_CHANGED: EventType(
        name=HP_CHANGED,
        label="Changed hit points (spell or card text)",
        fields=(
            Field("at", "cell", label="Cell", help=CELL_HELP, axes=ROW_COL, first=1),
            Field("amount", "int", minimum=-99, maximum=99, label="Amount (+ heals, - hurts)"),
            Field("note", "str", max_length=200, required=False, default="", label="Why (card text)"),
        ),
        description="Actions: a spell or a card's text changes the life of a card or a wizard.",
    ),
    CONFRONTATION_TARGET_CHOSEN: EventType(
        name=CONFRONTATION_TARGET_CHOSEN,
        label="Chose a confrontation target",
        fields=(
            Field("from", "cell", label="Your card", help=CELL_HELP, axes=ROW_COL, first=1),
            Field("target", "cell", label="Confronts", help=CELL_HELP, axes=ROW_COL, first=1),
        ),
        description="When one of your cards is next to several opponent cards, which one it confronts.",
    ),
    TURN_ENDED: EventType(
        name=TURN_ENDED,
        label="Ended the turn (confrontations)",
        description="Closes the turn: the app resolves every confrontation and passes the turn clockwise.",
    ),
}


def check_options(options: dict[str, Any]) -> list[str]:
    """Cross-field problems in schema-checked options (an empty list when fine)."""
    problems: list[str] = []
    cards = options.get("cards") or default_cards()
    seen: set[str] = set()
    reported: set[str] = set()
    for card in cards:
        name = card["name"].strip()
        key = name.casefold()
        if key in seen and key not in reported:
            problems.append(f"The card name '{name}' is used twice.")
            reported.add(key)
        seen.add(key)
        if name.casefold() == "wizard":
            problems.append(f"{name}: 'Wizard' is the name of the wizards on the board; pick another name.")
        if card["kind"] == "spell" and (card.get("side_capacities") or card.get("capacities")):
            problems.append(f"{name}: a spell never stays on the board, so it cannot have capacities.")
        caps = card.get("capacities") or []
        if len(set(caps)) != len(caps):
            problems.append(f"{name}: a capacity is listed twice.")
    hand, deck = options.get("hand_size", DEFAULT_HAND_SIZE), options.get("deck_size", DEFAULT_DECK_SIZE)
    if hand is not None and deck is not None and hand > deck:
        problems.append(f"The deck ({deck} cards) cannot hold a starting hand of {hand} cards.")
    return problems

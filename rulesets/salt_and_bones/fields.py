"""Salt & Bones entries and options: their names, fields, the rulebook sections the refusals cite, and the
cross-field option checks."""

from __future__ import annotations

from typing import Any

from rulesets.base import ENTRIES_RULE, EventType
from rulesets.cells import row_col_words
from rulesets.salt_and_bones.catalog import (
    ACTIVATION_WORDS,
    ACTIVATIONS,
    ATTACK_BONUS_WORDS,
    ATTACK_BONUSES,
    AUTOMATIC_EFFECTS,
    CARD_KIND_WORDS,
    CHOICE_EFFECTS,
    DEFAULT_DECKS,
    GAMBIT_EFFECTS,
    SLOT_WORDS,
    SLOTS,
    STRATEGY_EFFECT_WORDS,
    STRATEGY_EFFECTS,
    STRATEGY_TYPE_WORDS,
    STRATEGY_TYPES,
    default_attack_cards,
    default_board,
    default_strategy_cards,
)
from rulesets.schema import Field, start_field

BOOK = "Salt & Bones"
RULE_LOOP = f"{BOOK} › 2. Gameplay Loop"
RULE_CARDS = f"{BOOK} › 1.1 Anatomy of Components › Your Cards"
RULE_FIELD = f"{BOOK} › 4.1 Field Phase"
RULE_BOARD = f"{BOOK} › 1.1 Anatomy of Components › Your Field Board"
RULE_DRAW = f"{BOOK} › 4.2 Draw Phase"
RULE_PREP = f"{BOOK} › 4.3 Preparation Phase"
RULE_COMBAT = f"{BOOK} › 4.4 Combat Phase"
RULE_CHAIN = f"{BOOK} › 4.4.2 Chain Cards"
RULE_STRATEGY = f"{BOOK} › 4.4.3 Playing Strategy Cards"
RULE_END = f"{BOOK} › 4.4.4 End of Combat"
RULE_WIN = f"{BOOK} › 5. How To Win"
RULE_DISENGAGE = f"{BOOK} › 6. Glossary › Disengage"
RULE_NEGATION = f"{BOOK} › 6. Glossary › Card Negation"
RULE_DAMAGE_NEGATION = f"{BOOK} › 6. Glossary › Damage Negation"
RULE_ACTIVATION = f"{BOOK} › 6. Glossary › Activation Rules"
# refusals that are not rulebook rules (an entry the app cannot read: its type, seat, or card data)
RULE_ENTRIES = ENTRIES_RULE

FIELD_CARD_FLIPPED = "field_card_flipped"
HAND_CARD_DISCARDED = "hand_card_discarded"
CARDS_DRAWN = "cards_drawn"
STRATEGY_CARD_PLACED = "strategy_card_placed"
PREPARATION_FINISHED = "preparation_finished"
ATTACK_CARD_PLAYED = "attack_card_played"
STRATEGY_CARD_PLAYED = "strategy_card_played"
DISENGAGED = "disengaged"
ADDITIONAL_TURN_PASSED = "additional_turn_passed"

# what a seat keeps hidden (the names of its face-down INSTINCT cards), in players' words
SECRET = "face-down cards"

ROW_COL = ("row", "column")
CELL = Field("cell", "cell", label="Tile", axes=ROW_COL, first=1)

BOARD_FIELDS = (
    Field("rows", "int", minimum=2, maximum=20, label="Rows"),
    Field("cols", "int", minimum=2, maximum=20, label="Columns"),
    Field("grey", "list", item=CELL, required=False, default=[], max_items=400, label="Grey tiles (never playable)"),
    Field("centre", "list", item=CELL, min_items=1, max_items=400, label="Centre tiles (first card of a combat)"),
)

ATTACK_CARD_FIELDS = (
    Field("name", "str", max_length=60, label="Name"),
    Field("copies", "int", minimum=0, maximum=99, label="Copies in the deck"),
    Field("attack", "int", minimum=0, maximum=99, label="Attack Value"),
    Field("opportunity", "int", minimum=0, maximum=99, label="Opportunity Value"),
    Field(
        "bonus",
        "choice",
        choices=ATTACK_BONUSES,
        choice_labels=tuple(ATTACK_BONUS_WORDS[v] for v in ATTACK_BONUSES),
        required=False,
        default="none",
        label="Bonus Effect",
    ),
    Field(
        "bonus_damage",
        "int",
        minimum=0,
        maximum=99,
        required=False,
        default=0,
        label="Bonus damage",
        help="Extra damage instances: the damage of each extra instance; Riposte: added to the card's instance.",
    ),
    Field(
        "bonus_instances",
        "int",
        minimum=0,
        maximum=10,
        required=False,
        default=0,
        label="Extra damage instances (that Bonus Effect only)",
    ),
    Field("text", "str", max_length=300, required=False, default="", label="Card text"),
)

STRATEGY_CARD_FIELDS = (
    Field("name", "str", max_length=60, label="Name"),
    Field("copies", "int", minimum=0, maximum=99, label="Copies in the deck"),
    Field(
        "type",
        "choice",
        choices=STRATEGY_TYPES,
        choice_labels=tuple(STRATEGY_TYPE_WORDS[v] for v in STRATEGY_TYPES),
        label="Type",
    ),
    Field(
        "activation",
        "choice",
        choices=ACTIVATIONS,
        choice_labels=tuple(ACTIVATION_WORDS[v] for v in ACTIVATIONS),
        label="Activation (automatic or by choice)",
    ),
    Field(
        "effect",
        "choice",
        choices=STRATEGY_EFFECTS,
        choice_labels=tuple(STRATEGY_EFFECT_WORDS[v] for v in STRATEGY_EFFECTS),
        label="Effect",
    ),
    Field(
        "amount",
        "int",
        minimum=0,
        maximum=99,
        required=False,
        default=0,
        label="Effect amount",
        help="extra_instance: damage of the instance; increase_instances: added to each instance.",
    ),
    Field("destroyed_at_round_end", "bool", required=False, default=False, label="Destroyed when the round ends"),
    Field("text", "str", max_length=300, required=False, default="", label="Card text"),
)

OPTIONS_SCHEMA: tuple[Field, ...] = (
    start_field(
        "momentum_seat",
        2,
        label="Who starts with Momentum",
        help="Player 1 or 2, or random: Chronicle draws who begins with the Momentum Token and records the draw.",
    ),
    Field("starting_health", "int", minimum=1, maximum=99, required=False, default=20, label="Starting Health"),
    Field("hand_size", "int", minimum=1, maximum=20, required=False, default=7, label="Hand size"),
    Field(
        "attack_deck",
        "int",
        minimum=1,
        maximum=500,
        required=False,
        default=DEFAULT_DECKS["attack"],
        label="Attack Deck size",
    ),
    Field(
        "strategy_deck",
        "int",
        minimum=1,
        maximum=500,
        required=False,
        default=DEFAULT_DECKS["strategy"],
        label="Strategy Deck size",
    ),
    Field(
        "field_deck",
        "int",
        minimum=0,
        maximum=100,
        required=False,
        default=DEFAULT_DECKS["field"],
        label="Field Deck size",
    ),
    Field("board", "object", fields=BOARD_FIELDS, required=False, default=default_board(), label="Field Board"),
    Field(
        "attack_cards",
        "list",
        item=Field("card", "object", fields=ATTACK_CARD_FIELDS),
        min_items=1,
        max_items=60,
        required=False,
        default=default_attack_cards(),
        label="Attack cards",
    ),
    Field(
        "strategy_cards",
        "list",
        item=Field("card", "object", fields=STRATEGY_CARD_FIELDS),
        min_items=1,
        max_items=60,
        required=False,
        default=default_strategy_cards(),
        label="Strategy cards",
    ),
)

EVENT_TYPES: dict[str, EventType] = {
    FIELD_CARD_FLIPPED: EventType(
        name=FIELD_CARD_FLIPPED,
        label="Field card flipped",
        seat_required=False,
        fields=(Field("tiles", "list", item=CELL, min_items=1, max_items=400, label="Tiles it destroys"),),
        description="Field Phase: the top Field card destroys these tiles for the rest of the game.",
    ),
    HAND_CARD_DISCARDED: EventType(
        name=HAND_CARD_DISCARDED,
        label="Discarded a card from hand",
        fields=(
            Field(
                "kind",
                "choice",
                choices=("attack", "strategy"),
                choice_labels=(CARD_KIND_WORDS["attack"], CARD_KIND_WORDS["strategy"]),
                label="Kind of card",
            ),
        ),
        description="Draw Phase, before anyone draws: the optional single discard from hand.",
    ),
    CARDS_DRAWN: EventType(
        name=CARDS_DRAWN,
        label="Drew cards",
        fields=(
            Field("attack", "int", minimum=0, maximum=20, label="Attack cards drawn"),
            Field("strategy", "int", minimum=0, maximum=20, label="Strategy cards drawn"),
        ),
        description="Draw Phase: everything this seat drew to refill its hand (Momentum seat first).",
    ),
    STRATEGY_CARD_PLACED: EventType(
        name=STRATEGY_CARD_PLACED,
        label="Placed a strategy card",
        fields=(
            Field(
                "slot", "choice", choices=tuple(SLOTS), choice_labels=tuple(SLOT_WORDS[v] for v in SLOTS), label="Slot"
            ),
            Field(
                "card",
                "str",
                max_length=60,
                nullable=True,
                label="Card",
                names="strategy",
                help="Left empty for a card put face down in INSTINCT that the recorder does not know.",
            ),
        ),
        description="Preparation Phase: a Strategy card from hand onto this seat's Player Board.",
        secret=SECRET,  # an INSTINCT goes face-down: its name is the seat's secret
    ),
    PREPARATION_FINISHED: EventType(
        name=PREPARATION_FINISHED,
        label="Finished preparing",
        description="Preparation Phase: this seat has placed everything it wants to.",
    ),
    ATTACK_CARD_PLAYED: EventType(
        name=ATTACK_CARD_PLAYED,
        label="Played an attack card",
        fields=(
            Field(
                "card",
                "any",
                label="Card",
                names="attack",
                help="A card of the catalog (picked from the hand when the rules can list it). A card not in the catalog "
                "is recorded through the API as an object with its name, attack, opportunity and bonus.",
            ),
            Field("attack_tile", "cell", label="Tile under the Attack half", axes=ROW_COL, first=1),
            Field("opportunity_tile", "cell", label="Tile under the Opportunity half", axes=ROW_COL, first=1),
        ),
        description="Combat Phase: an Attack card on two orthogonally adjacent tiles.",
    ),
    STRATEGY_CARD_PLAYED: EventType(
        name=STRATEGY_CARD_PLAYED,
        label="Played an INSTINCT card",
        fields=(
            Field("card", "str", max_length=60, label="Card", names="instinct"),
            Field(
                "target",
                "any",
                required=False,
                nullable=True,
                label="Target",
                help=(
                    'Anticipation: {"card": n, "instance": i} (n = the Attack card\'s number on the board); '
                    'Condescend: {"card": n} (the Chain card or INSTINCT card it negates); others: null.'
                ),
            ),
        ),
        description="Combat Phase, any time, either seat: an INSTINCT card from the Player Board.",
        secret=SECRET,  # it comes from the seat's face-down INSTINCT slots
    ),
    DISENGAGED: EventType(
        name=DISENGAGED,
        label="Disengaged",
        description="Combat Phase, at the start of this seat's turn: ends combat (unless Test of Courage).",
    ),
    ADDITIONAL_TURN_PASSED: EventType(
        name=ADDITIONAL_TURN_PASSED,
        label="Passed the additional turn (Test of Courage)",
        description="Combat Phase, Test of Courage: the opponent of the disengaging seat plays no Attack card in "
        "its additional turn; the disengage may then be recorded again and succeeds.",
    ),
}


def _cell_ok(cell: Any, rows: int, cols: int) -> bool:
    return 0 <= cell[0] < rows and 0 <= cell[1] < cols


def check_options(options: dict[str, Any]) -> list[str]:
    """Cross-field problems in already schema-checked options (empty list when fine)."""
    problems: list[str] = []
    board = options.get("board") or default_board()
    rows, cols = board["rows"], board["cols"]
    grey = {tuple(c) for c in board.get("grey", [])}
    for cell in board.get("grey", []):
        if not _cell_ok(cell, rows, cols):
            problems.append(f"Grey tile at {row_col_words(cell)} is outside the {rows} × {cols} board.")
    for cell in board["centre"]:
        if not _cell_ok(cell, rows, cols):
            problems.append(f"Centre tile at {row_col_words(cell)} is outside the {rows} × {cols} board.")
        elif tuple(cell) in grey:
            problems.append(f"Centre tile at {row_col_words(cell)} is grey.")
    attack = options.get("attack_cards") or default_attack_cards()
    strategy = options.get("strategy_cards") or default_strategy_cards()
    for label, cards in (("attack", attack), ("strategy", strategy)):
        names = [c["name"] for c in cards]
        for name in sorted({n for n in names if names.count(n) > 1}):
            problems.append(f"The {label} card name '{name}' is used twice.")
    for card in attack:
        if card.get("bonus") == "extra_instances" and card.get("bonus_instances", 0) < 1:
            problems.append(f"{card['name']}: an extra_instances bonus needs bonus_instances of at least 1.")
    for card in strategy:
        name, kind, activation, effect = card["name"], card["type"], card["activation"], card["effect"]
        if kind == "GAMBIT":
            if effect not in GAMBIT_EFFECTS:
                problems.append(f"{name}: a GAMBIT cannot have the effect '{effect}'.")
            if activation != "automatic":
                problems.append(f"{name}: a GAMBIT is always in effect; its activation must be 'automatic'.")
        elif kind == "EQUIPMENT":
            if activation != "automatic":
                problems.append(f"{name}: EQUIPMENT cards trigger automatically; activation must be 'automatic'.")
            if effect not in AUTOMATIC_EFFECTS and effect != "none":
                problems.append(f"{name}: EQUIPMENT cannot have the effect '{effect}'.")
        else:
            allowed = AUTOMATIC_EFFECTS if activation == "automatic" else CHOICE_EFFECTS
            if effect not in allowed:
                problems.append(f"{name}: an INSTINCT with activation '{activation}' cannot have effect '{effect}'.")
    return problems

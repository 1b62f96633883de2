"""Get Salty's entries and options: their names, fields and the rulebook sections the refusals cite."""

from __future__ import annotations

from rulesets.base import EventType
from rulesets.get_salty.board import ATTRIBUTE_WORDS, ATTRIBUTES, COLORS, CRACKER_WORDS, CRACKERS, SHAPES
from rulesets.schema import Field, start_field

RULE_SETUP = "Get Salty › Setup"
RULE_GAMEPLAY = "Get Salty › Gameplay"
RULE_A = "Get Salty › Player Turn › A"
RULE_B = "Get Salty › Player Turn › B"
RULE_LOCK = "Get Salty › Player Turn › A and B"
RULE_C = "Get Salty › Player Turn › C"
RULE_D = "Get Salty › Player Turn › D"
# the rulebook's heading of each Player Turn step (docs/rules/get-salty.md quotes them)
RULE_HEADINGS = {
    RULE_A: "Flip Salt Container",
    RULE_B: "Move & Flip Salt Container",
    RULE_LOCK: "Flip, or Move & Flip, the Salt Container",
    RULE_C: "Flip a Cracker",
    RULE_D: "Move & Flip Cracker",
}
RULE_AREA = "Get Salty › Key Concepts › Contiguous Play Area"
RULE_VICTORY = "Get Salty › Victory"

ATTRIBUTE_CHOSEN = "victory_attribute_chosen"
CONTAINER_FLIPPED = "salt_container_flipped"
CONTAINER_MOVED = "salt_container_moved"
CRACKER_FLIPPED = "cracker_flipped"
CRACKER_MOVED = "cracker_moved"

# the exact keys each entry's data holds (checked with the entry's type and seat, before the phase)
PAYLOAD_KEYS: dict[str, frozenset[str]] = {
    ATTRIBUTE_CHOSEN: frozenset({"attribute"}),
    CONTAINER_FLIPPED: frozenset(),
    CONTAINER_MOVED: frozenset({"to"}),
    CRACKER_FLIPPED: frozenset({"cracker"}),
    CRACKER_MOVED: frozenset({"cracker", "to"}),
}


def _names_field(name: str, keys: tuple[str, ...], label: str) -> Field:
    return Field(
        name,
        "object",
        required=False,
        nullable=True,
        label=label,
        help="Optional display labels; they never change the rules.",
        fields=tuple(Field(k, "str", required=False, max_length=40, label=k) for k in keys),
    )


OPTIONS_SCHEMA = (
    start_field(
        "first_seat",
        2,
        label="Who starts",
        help="Player 1 or 2, or random: Chronicle draws the starting player and records the draw.",
    ),
    _names_field("shape_names", SHAPES, "Display names for the shapes"),
    _names_field("color_names", COLORS, "Display names for the colors"),
)

_TO_HELP = "The numbers along the board's top and left edges; or tap the cell on the board."

EVENT_TYPES = {
    ATTRIBUTE_CHOSEN: EventType(
        name=ATTRIBUTE_CHOSEN,
        label="Chose a victory attribute",
        fields=(
            Field(
                "attribute",
                "choice",
                choices=ATTRIBUTES,
                choice_labels=ATTRIBUTE_WORDS,
                label="Victory attribute",
                rule=RULE_SETUP,
                rule_text="the victory attribute is “either shape or color”",
            ),
        ),
        description="The starting player picks shape or color; the opponent takes the other.",
    ),
    CONTAINER_FLIPPED: EventType(
        name=CONTAINER_FLIPPED,
        label="Flipped the Salt Container (A)",
        description="Action A: flip the Salt Container in place.",
    ),
    CONTAINER_MOVED: EventType(
        name=CONTAINER_MOVED,
        label="Moved & flipped the Salt Container (B)",
        fields=(Field("to", "cell", label="To cell", help=_TO_HELP),),
        description="Action B: put the Salt Container next to a cracker in play, then flip it.",
    ),
    CRACKER_FLIPPED: EventType(
        name=CRACKER_FLIPPED,
        label="Flipped a cracker (C)",
        fields=(Field("cracker", "choice", choices=CRACKERS, choice_labels=CRACKER_WORDS, label="Cracker"),),
        description="Action C: flip a cracker in play showing the opposite salt condition to the container.",
    ),
    CRACKER_MOVED: EventType(
        name=CRACKER_MOVED,
        label="Moved & flipped a cracker (D)",
        fields=(
            Field("cracker", "choice", choices=CRACKERS, choice_labels=CRACKER_WORDS, label="Cracker"),
            Field("to", "cell", label="To cell", help=_TO_HELP),
        ),
        description="Action D: place a cracker (from the reserve or from play) next to a token, then flip it.",
    ),
}

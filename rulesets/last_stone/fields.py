"""Last Stone's entries and options: their names, fields and the rulebook sections the refusals cite."""

from __future__ import annotations

from rulesets.base import EventType
from rulesets.schema import Field, start_field

RULE_TURN = "Last Stone › Turns"
RULE_TAKE = "Last Stone › Taking stones"
RULE_END = "Last Stone › End of the game"

STONES_TAKEN = "stones_taken"

OPTIONS_SCHEMA = (
    Field("stones", "int", required=False, default=10, minimum=1, maximum=1000, label="Stones in the pile"),
    start_field("first_seat", 2, label="Who starts"),
)

EVENT_TYPES = {
    STONES_TAKEN: EventType(
        name=STONES_TAKEN,
        label="Took stones",
        fields=(Field("count", "int", minimum=1, maximum=3, label="How many"),),
    ),
}

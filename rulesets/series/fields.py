"""A series' entries and options, and the section its refusals cite."""

from __future__ import annotations

from rulesets.base import EventType
from rulesets.schema import Field
from rulesets.series.standings import DEFAULT_PLACE_POINTS

RULE_SERIES = "Chronicle › Series"

MATCH_ADDED = "match_added"
MATCH_REMOVED = "match_removed"

_MATCH = Field("match", "int", minimum=1, label="Match id")

OPTIONS_SCHEMA = (
    Field("game", "str", max_length=64, label="Game", help="slug of the game every match of the series plays"),
    Field(
        "place_points",
        "list",
        item=Field("points", "int", minimum=0, maximum=1000),
        required=False,
        default=list(DEFAULT_PLACE_POINTS),
        min_items=1,
        max_items=20,
        label="Points for 1st, 2nd, 3rd… place",
        help="place_points[i] is what finishing in place i+1 earns; places past the list earn 0.",
    ),
)

EVENT_TYPES = {
    MATCH_ADDED: EventType(
        name=MATCH_ADDED,
        label="Match added",
        seat_required=False,
        fields=(
            _MATCH,
            Field("game", "str", max_length=64, required=False, label="The match's game (filled in by the server)"),
        ),
        description="A match joins the series; it counts in the standings once it is finished.",
    ),
    MATCH_REMOVED: EventType(
        name=MATCH_REMOVED,
        label="Match removed",
        seat_required=False,
        fields=(_MATCH,),
        description="A match leaves the series (the log keeps that it was there).",
    ),
}

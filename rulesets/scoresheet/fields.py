"""The score sheet's entries and options, and the sections its refusals cite."""

from __future__ import annotations

from rulesets.base import EventType
from rulesets.schema import Field

RULE_POINTS = "Score sheet › Points"
RULE_END = "Score sheet › End of the game"
MAX_POINTS = 1_000_000

POINTS_SCORED = "points_scored"
GAME_ENDED = "game_ended"

OPTIONS_SCHEMA = (
    Field("title", "str", required=False, default="", max_length=120, label="The game's name"),
    Field("bgg_id", "int", required=False, nullable=True, minimum=1, label="BoardGameGeek id"),
    Field("highest_wins", "bool", required=False, default=True, label="Highest score wins"),
    Field("cooperative", "bool", required=False, default=False, label="Cooperative (win or lose together)"),
)

EVENT_TYPES = {
    POINTS_SCORED: EventType(
        name=POINTS_SCORED,
        label="Scored points",
        fields=(
            Field("points", "int", minimum=-MAX_POINTS, maximum=MAX_POINTS, label="Points (negative to lose)"),
            Field("round", "int", required=False, nullable=True, minimum=1, maximum=1000, label="Round"),
        ),
        description="Adds points to the acting seat's total (per round or once at the end).",
    ),
    GAME_ENDED: EventType(
        name=GAME_ENDED,
        label="Game ended",
        seat_required=False,
        fields=(
            Field(
                "won",
                "bool",
                required=False,
                nullable=True,
                label="Cooperative games: did the players win?",
            ),
        ),
        description="Ends the game: the totals decide; a cooperative game also says whether the players won.",
    ),
}

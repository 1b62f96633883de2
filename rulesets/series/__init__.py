"""Series: a named group of matches of one game that keeps standings (a league, a club night's ladder).

The stream records which matches belong to the series (``match_added`` / ``match_removed``); standings are
computed from the matches' own results by :mod:`rulesets.series.standings`.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State, TurnInfo
from rulesets.schema import Field
from rulesets.series.standings import DEFAULT_PLACE_POINTS

__all__ = ["DEFAULT_PLACE_POINTS", "RULESET", "RULE_SERIES", "Series"]

RULE_SERIES = "Chronicle › Series"

_MATCH = Field("match", "int", minimum=1, label="Match id")


def _game_name(slug: str) -> str:
    """A game's name for messages (its slug when unknown)."""
    from rulesets.registry import UnknownGame, get_ruleset

    try:
        return get_ruleset(slug).name
    except UnknownGame:
        return slug


class Series(Ruleset):
    slug = "series"
    name = "Series (standings across matches)"
    seats = (0,)
    version = 1
    kind = "series"
    example_options = {"game": "bone-wars"}
    options_schema = (
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
    event_types = {
        "match_added": EventType(
            name="match_added",
            label="Match added",
            seat_required=False,
            fields=(
                _MATCH,
                Field("game", "str", max_length=64, required=False, label="The match's game (filled in by the server)"),
            ),
            description="A match joins the series; it counts in the standings once it is finished.",
        ),
        "match_removed": EventType(
            name="match_removed",
            label="Match removed",
            seat_required=False,
            fields=(_MATCH,),
            description="A match leaves the series (the log keeps that it was there).",
        ),
    }

    def initial_state(self, options: dict[str, Any], seat_count: int = 0) -> State:
        return {
            "game": options["game"],
            "place_points": list(options.get("place_points") or DEFAULT_PLACE_POINTS),
            "matches": [],
        }

    def validate(self, state: State, event: Event) -> None:
        """Refuses: an unknown entry, a match of another game, a match already in (or not in) the series."""
        match = event.data.get("match")
        if event.type == "match_added":
            game = event.data.get("game")
            if game is not None and game != state["game"]:
                raise RuleViolation(
                    "other_game",
                    f"Match {match} is a game of {_game_name(game)}; this series is for {_game_name(state['game'])}.",
                    RULE_SERIES,
                )
            if match in state["matches"]:
                raise RuleViolation("already_in_series", f"Match {match} is already in this series.", RULE_SERIES)
        elif event.type == "match_removed":
            if match not in state["matches"]:
                raise RuleViolation("not_in_series", f"Match {match} is not in this series.", RULE_SERIES)
        else:
            raise RuleViolation("unknown_event", f"A series has no '{event.type}' entry.", RULE_SERIES)

    def apply(self, state: State, event: Event) -> State:
        match = event.data["match"]
        matches = [m for m in state["matches"] if m != match]
        if event.type == "match_added":
            matches.append(match)
        return {**state, "matches": matches}

    def outcome(self, state: State) -> Outcome | None:
        """A series never ends: it is a tracker."""
        return None

    def turn(self, state: State) -> TurnInfo:
        return TurnInfo(seats=(), phase="open", prompt="Add finished matches to update the standings.")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        match = event.data.get("match")  # None: a match this reader may not see (campaigns.series_sight)
        which = "A private match" if match is None else f"Match {match}"
        if event.type == "match_added":
            return f"{which} added to the series."
        if event.type == "match_removed":
            return f"{which} removed from the series."
        return super().describe(event, seat_names)


RULESET = Series()

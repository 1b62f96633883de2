"""Series: a named group of matches of one game that keeps standings (a league, a club night's ladder).

The stream records which matches belong to the series (``match_added`` / ``match_removed``); standings are
computed from the matches' own results by :mod:`rulesets.series.standings`.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State, TurnInfo
from rulesets.series.engine import EFFECTS, clone, new_state
from rulesets.series.fields import EVENT_TYPES, MATCH_ADDED, MATCH_REMOVED, OPTIONS_SCHEMA, RULE_SERIES
from rulesets.series.rules import RULES
from rulesets.series.standings import DEFAULT_PLACE_POINTS

__all__ = ["DEFAULT_PLACE_POINTS", "RULESET", "RULE_SERIES", "Series"]


class Series(Ruleset):
    slug = "series"
    name = "Series (standings across matches)"
    seats = (0,)
    version = 1
    kind = "series"
    example_options = {"game": "bone-wars"}
    options_schema = OPTIONS_SCHEMA
    event_types: dict[str, EventType] = EVENT_TYPES
    rules = RULES
    effects = EFFECTS

    def initial_state(self, options: dict[str, Any], seat_count: int = 0) -> State:
        return new_state(options)

    def check_entry(self, state: State, event: Event) -> EventType:
        """A series has two entries, the table's (no seat)."""
        spec = self.event_types.get(event.type)
        if spec is None:
            raise RuleViolation("unknown_event", f"A series has no '{event.type}' entry.", RULE_SERIES)
        return spec

    def clone(self, state: State) -> State:
        return clone(state)

    def outcome(self, state: State) -> Outcome | None:
        """A series never ends: it is a tracker."""
        return None

    def turn(self, state: State) -> TurnInfo:
        return TurnInfo(seats=(), phase="open", prompt="Add finished matches to update the standings.")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        match = event.data.get("match")  # None: a match this reader may not see (campaigns.series.sight)
        which = "A private match" if match is None else f"Match {match}"
        if event.type == MATCH_ADDED:
            return f"{which} added to the series."
        if event.type == MATCH_REMOVED:
            return f"{which} removed from the series."
        return super().describe(event, seat_names)


RULESET = Series()

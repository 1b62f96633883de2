"""Get Salty: two players slide, place and flip salted crackers to line up their shape or color."""

from __future__ import annotations

from rulesets.base import Event, State
from rulesets.get_salty.ruleset import RULESET, GetSalty, position


def hints(state: State, seat: int) -> dict[str, list[Event]]:
    """``winning_moves`` and ``opponent_threats`` for ``seat``; see :meth:`GetSalty.hints`."""
    return RULESET.hints(state, seat)


__all__ = ["RULESET", "GetSalty", "hints", "position"]

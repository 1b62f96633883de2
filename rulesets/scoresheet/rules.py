"""The score sheet's rules: only what a paper score pad checks (points go to a seat; an end says how it ended)."""

from __future__ import annotations

from rulesets.base import ENTRIES_RULE, Event, RuleViolation, State
from rulesets.scoresheet.fields import GAME_ENDED, POINTS_SCORED, RULE_END


def check_points(state: State, event: Event) -> None:
    """Points go to a seat of the match (``no_such_seat`` otherwise)."""
    seat, count = event.seat, len(state["totals"])
    if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count):
        said = "say whose points these are" if seat is None else f"{seat!r} is not a seat of this match"
        raise RuleViolation("no_such_seat", f"Points go to a seat (0 to {count - 1}): {said}.", ENTRIES_RULE)


def check_end(state: State, event: Event) -> None:
    """A cooperative game ends won or lost; a scored game ends on its totals, once there are some."""
    won = event.data.get("won")
    if state["cooperative"] and won is None:
        raise RuleViolation(
            "won_or_lost", "A cooperative game ends won or lost: say whether the players won.", RULE_END
        )
    if not state["cooperative"] and won is not None:
        raise RuleViolation("not_cooperative", "This game is not cooperative: the scores decide who won.", RULE_END)
    if not state["cooperative"] and not state["entries"]:
        raise RuleViolation(
            "no_points",
            "No points are recorded: record the scores first, or record the result (who won) instead.",
            RULE_END,
        )


RULES = {POINTS_SCORED: check_points, GAME_ENDED: check_end}

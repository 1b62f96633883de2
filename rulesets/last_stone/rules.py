"""Last Stone's rules: one check per entry type (the common checks come first, in ``rulesets.base``)."""

from __future__ import annotations

from rulesets.base import Event, RuleViolation, State
from rulesets.last_stone.fields import RULE_TAKE, STONES_TAKEN
from rulesets.names import plural


def check_take(state: State, event: Event) -> None:
    """No more stones than the pile holds."""
    count, pile = event.data["count"], state["pile"]
    if count > pile:
        raise RuleViolation(
            "not_enough_stones",
            f"Only {plural(pile, 'stone')} {'is' if pile == 1 else 'are'} left: {count} cannot be taken.",
            RULE_TAKE,
        )


RULES = {STONES_TAKEN: check_take}


def legal_moves(state: State) -> list[Event]:
    """Every take the seat on turn may make."""
    if state["winner"] is not None:
        return []
    return [Event(STONES_TAKEN, state["turn"], {"count": n}) for n in range(1, min(3, state["pile"]) + 1)]

"""Last Stone: a tiny take-away game (take 1 to 3 stones; whoever takes the last stone wins).

It is not one of the published games; it exists to exercise the store, the API and the pages with a
ruleset small enough to reason about in tests, and as the example a new game copies
(docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options, rule names), ``rules.py`` (one
check per entry type), ``engine.py`` (the state and one effect per entry type), and this module, the ruleset
object that ties them together.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, Outcome, Ruleset, RuleViolation, State, TurnInfo
from rulesets.last_stone.engine import EFFECTS, new_state
from rulesets.last_stone.fields import EVENT_TYPES, OPTIONS_SCHEMA, RULE_END, RULE_TURN
from rulesets.last_stone.rules import RULES, legal_moves
from rulesets.names import plural, seat_ref

__all__ = ["RULESET", "LastStone"]


class LastStone(Ruleset):
    slug = "last-stone"
    name = "Last Stone (demo)"
    seats = (2,)
    version = 1
    start_option = "first_seat"
    start_rule = "Last Stone › Turns: the table chooses who starts (seat 0, seat 1 or a random draw)."
    options_schema = OPTIONS_SCHEMA
    event_types = EVENT_TYPES
    rules = RULES
    effects = EFFECTS
    over_rule = RULE_END
    turn_rule = RULE_TURN

    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        return new_state(options, self.start_seat(options))

    def start_with(self, state: State, seat: int) -> State:
        """``seat`` takes the first stones."""
        if seat not in (0, 1):
            raise RuleViolation("unknown_seat", f"Last Stone has seats 0 and 1 only, not {seat!r}.", RULE_TURN)
        return {**state, "turn": seat}

    def over_words(self, state: State, ended: Outcome) -> str:
        return "The game is over: the last stone has been taken."

    def outcome(self, state: State) -> Outcome | None:
        if state["winner"] is None:
            return None
        return Outcome(winners=(state["winner"],), reason="took the last stone")

    def legal_moves(self, state: State) -> list[Event]:
        return legal_moves(state)

    def turn(self, state: State) -> TurnInfo:
        if state["winner"] is not None:
            return TurnInfo(seats=(), phase="over")
        what = f"take 1 to {min(3, state['pile'])} of the {plural(state['pile'], 'stone')} left"
        return TurnInfo(seats=(state["turn"],), phase="play", prompt=what)

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        who = seat_ref(event.seat) if event.seat is not None else "The table"
        return f"{who} took {plural(event.data.get('count', 0), 'stone')}"


RULESET = LastStone()

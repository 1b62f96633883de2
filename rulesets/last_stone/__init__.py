"""Last Stone: a tiny take-away game (take 1 to 3 stones; whoever takes the last stone wins).

It is not one of the published games; it exists to exercise the store, the API and the pages with a
ruleset small enough to reason about in tests, and as the simplest example of the interface.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State, TurnInfo
from rulesets.names import plural, seat_ref
from rulesets.schema import Field, start_field

RULE_TURN = "Last Stone › Turns"
RULE_TAKE = "Last Stone › Taking stones"
RULE_END = "Last Stone › End of the game"


class LastStone(Ruleset):
    slug = "last-stone"
    name = "Last Stone (demo)"
    seats = (2,)
    version = 1
    start_option = "first_seat"
    start_rule = "Last Stone › Turns: the table chooses who starts (seat 0, seat 1 or a random draw)."
    options_schema = (
        Field("stones", "int", required=False, default=10, minimum=1, maximum=1000, label="Stones in the pile"),
        start_field("first_seat", 2, label="Who starts"),
    )
    event_types = {
        "stones_taken": EventType(
            name="stones_taken",
            label="Took stones",
            fields=(Field("count", "int", minimum=1, maximum=3, label="How many"),),
        ),
    }

    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        return {"pile": options.get("stones", 10), "turn": self.start_seat(options), "winner": None}

    def start_with(self, state: State, seat: int) -> State:
        """``seat`` takes the first stones."""
        if seat not in (0, 1):
            raise RuleViolation("unknown_seat", f"Last Stone has seats 0 and 1 only, not {seat!r}.", RULE_TURN)
        return {**state, "turn": seat}

    def validate(self, state: State, event: Event) -> None:
        if state["winner"] is not None:
            raise RuleViolation("game_over", "The game is over: the last stone has been taken.", RULE_END)
        if event.type not in self.event_types:
            raise RuleViolation("unknown_event", f"Last Stone has no '{event.type}' action.", RULE_TURN)
        if event.seat != state["turn"]:
            raise RuleViolation("not_your_turn", f"It is {seat_ref(state['turn'])}'s turn.", RULE_TURN)
        count = event.data["count"]
        if count > state["pile"]:
            raise RuleViolation(
                "not_enough_stones",
                f"Only {plural(state['pile'], 'stone')} {'is' if state['pile'] == 1 else 'are'} left; you cannot take {count}.",
                RULE_TAKE,
            )

    def apply(self, state: State, event: Event) -> State:
        pile = state["pile"] - event.data["count"]
        seat = event.seat if event.seat is not None else state["turn"]
        return {"pile": pile, "turn": 1 - seat, "winner": seat if pile == 0 else None}

    def outcome(self, state: State) -> Outcome | None:
        if state["winner"] is None:
            return None
        return Outcome(winners=(state["winner"],), reason="took the last stone")

    def legal_moves(self, state: State) -> list[Event]:
        if state["winner"] is not None:
            return []
        return [Event("stones_taken", state["turn"], {"count": n}) for n in range(1, min(3, state["pile"]) + 1)]

    def turn(self, state: State) -> TurnInfo:
        if state["winner"] is not None:
            return TurnInfo(seats=(), phase="over")
        what = f"take 1 to {min(3, state['pile'])} of the {plural(state['pile'], 'stone')} left"
        return TurnInfo(seats=(state["turn"],), phase="play", prompt=what)

    def describe(self, event: Event, seat_names: list[str]) -> str:
        who = seat_ref(event.seat) if event.seat is not None else "The table"
        return f"{who} took {plural(event.data.get('count', 0), 'stone')}"


RULESET = LastStone()

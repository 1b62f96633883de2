"""Score sheet: any game Chronicle has no rules for, kept as points per seat and a result.

The sheet checks only what a paper score pad would: points go to a seat of the match, nothing is recorded
after the game ended, and a cooperative game ends won or lost. The outcome comes from the totals (highest or
lowest wins, ties share the win), or from the table's word for cooperative games.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, State, TurnInfo, unknown_event
from rulesets.names import seat_ref
from rulesets.scoresheet.engine import EFFECTS, clone, new_state
from rulesets.scoresheet.fields import EVENT_TYPES, GAME_ENDED, OPTIONS_SCHEMA, POINTS_SCORED, RULE_END
from rulesets.scoresheet.rules import RULES

__all__ = ["RULESET", "ScoreSheet"]


class ScoreSheet(Ruleset):
    """Order: game over → the entry's type → its data (``Chronicle › Entries``) → the sheet's own rules (the
    seat of a score is the sheet's rule, ``no_such_seat``; anyone may score at any time: no turns)."""

    slug = "scoresheet"
    name = "Score sheet (any game)"
    seats = tuple(range(1, 13))
    version = 1
    history_needs_state = False  # a round is written on the entry itself
    options_schema = OPTIONS_SCHEMA
    event_types: dict[str, EventType] = EVENT_TYPES
    rules = RULES
    effects = EFFECTS
    over_rule = RULE_END

    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        return new_state(options, seat_count)

    def over_words(self, state: State, ended: Outcome) -> str:
        return "The game has ended; void its end to add more."

    def check_entry(self, state: State, event: Event) -> EventType:
        """Only the type: a score's seat is checked by its own rule (``no_such_seat``)."""
        spec = self.event_types.get(event.type)
        if spec is None:
            raise unknown_event("A score sheet", event.type)
        return spec

    def check_turn(self, state: State, event: Event) -> None:
        """Anyone may score at any time."""

    def clone(self, state: State) -> State:
        return clone(state)

    def outcome(self, state: State) -> Outcome | None:
        if not state["ended"]:
            return None
        totals = state["totals"]
        scores = dict(enumerate(totals)) if state["entries"] else None
        seats = tuple(range(len(totals)))
        if state["cooperative"]:
            if state["won"]:
                return Outcome(winners=seats, reason="the players won together", scores=scores)
            return Outcome(winners=(), reason="the players lost together", scores=scores)
        if not totals:
            return Outcome(draw=True, reason="no players")
        best = max(totals) if state["highest_wins"] else min(totals)
        winners = tuple(i for i, t in enumerate(totals) if t == best)
        word = "highest" if state["highest_wins"] else "lowest"
        reason = f"{word} score ({best})" if len(winners) == 1 else f"shared {word} score ({best})"
        return Outcome(winners=winners, reason=reason, scores=dict(enumerate(totals)))

    def turn(self, state: State) -> TurnInfo:
        """Anyone may score; once ended, the line names the winners ("Seat 1 wins with 31 points (highest
        score)"), never naming a seat twice."""
        result = self.outcome(state)
        if result is None:
            return TurnInfo(
                seats=tuple(range(len(state["totals"]))),
                phase="scoring",
                prompt="record points for anyone, then end the game",
            )
        if state["cooperative"]:
            return TurnInfo(seats=(), phase="over", prompt=f"{result.reason[0].upper()}{result.reason[1:]}.")
        if not result.winners:
            return TurnInfo(seats=(), phase="over", prompt="The game is over: no players.")
        names = " and ".join(seat_ref(w) for w in result.winners)
        verb = "wins" if len(result.winners) == 1 else "share the win"
        total = state["totals"][result.winners[0]]
        unit = "point" if abs(total) == 1 else "points"
        decided = result.reason.split(" (")[0]
        return TurnInfo(seats=(), phase="over", prompt=f"{names} {verb} with {total} {unit} ({decided}).")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        if event.type == POINTS_SCORED:
            who = seat_names[event.seat] if event.seat is not None and event.seat < len(seat_names) else "Someone"
            points = event.data.get("points", 0)
            unit = "point" if abs(points) == 1 else "points"
            when = f" in round {event.data['round']}" if event.data.get("round") else ""
            return f"{who} scored {points} {unit}{when}"
        if event.type == GAME_ENDED:
            won = event.data.get("won")
            return "The game ended" + ("" if won is None else (": the players won" if won else ": the players lost"))
        return super().describe(event, seat_names)

    def demo_script(self) -> tuple[dict[str, Any], list[Event]]:
        """Options and entries of the demo match (``load_demo``): two rounds of a game of Azul."""
        rounds = [(0, 14, 1), (1, 11, 1), (0, 9, 2), (1, 17, 2)]
        return {"title": "Azul", "bgg_id": 230802}, [
            Event(POINTS_SCORED, s, {"points": p, "round": r}) for s, p, r in rounds
        ]


RULESET = ScoreSheet()

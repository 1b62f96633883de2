"""Score sheet: any game Chronicle has no rules for, kept as points per seat and a result.

The sheet checks only what a paper score pad would: points go to a seat of the match, nothing is recorded
after the game ended, and a cooperative game ends won or lost. The outcome comes from the totals (highest or
lowest wins, ties share the win), or from the table's word for cooperative games.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import (
    ENTRIES_RULE,
    Event,
    EventType,
    Outcome,
    Ruleset,
    RuleViolation,
    State,
    TurnInfo,
    payload_refusal,
    unknown_event,
)
from rulesets.names import seat_ref
from rulesets.schema import Field, SchemaError, check_payload

RULE_POINTS = "Score sheet › Points"
RULE_END = "Score sheet › End of the game"
MAX_POINTS = 1_000_000


class ScoreSheet(Ruleset):
    slug = "scoresheet"
    name = "Score sheet (any game)"
    seats = tuple(range(1, 13))
    version = 1
    history_needs_state = False  # a round is written on the entry itself
    options_schema = (
        Field("title", "str", required=False, default="", max_length=120, label="The game's name"),
        Field("bgg_id", "int", required=False, nullable=True, minimum=1, label="BoardGameGeek id"),
        Field("highest_wins", "bool", required=False, default=True, label="Highest score wins"),
        Field("cooperative", "bool", required=False, default=False, label="Cooperative (win or lose together)"),
    )
    event_types = {
        "points_scored": EventType(
            name="points_scored",
            label="Scored points",
            fields=(
                Field("points", "int", minimum=-MAX_POINTS, maximum=MAX_POINTS, label="Points (negative to lose)"),
                Field("round", "int", required=False, nullable=True, minimum=1, maximum=1000, label="Round"),
            ),
            description="Adds points to the acting seat's total (per round or once at the end).",
        ),
        "game_ended": EventType(
            name="game_ended",
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

    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        return {
            "title": options.get("title", ""),
            "highest_wins": options.get("highest_wins", True),
            "cooperative": options.get("cooperative", False),
            "totals": [0] * seat_count,
            "entries": [],
            "ended": False,
            "won": None,
        }

    def validate(self, state: State, event: Event) -> None:
        """Game over → Chronicle's checks of the entry (``Chronicle › Entries``) → the sheet's own rules."""
        if state["ended"]:
            raise RuleViolation("game_over", "The game has ended; void its end to add more.", RULE_END)
        spec = self.event_types.get(event.type)
        if spec is None:
            raise unknown_event("A score sheet", event.type)
        try:
            check_payload(spec.fields, event.data)
        except SchemaError as exc:
            raise payload_refusal(spec.fields, event.data, exc) from None
        if event.type == "points_scored":
            seat, count = event.seat, len(state["totals"])
            if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count):
                said = "say whose points these are" if seat is None else f"{seat!r} is not a seat of this match"
                raise RuleViolation("no_such_seat", f"Points go to a seat (0 to {count - 1}): {said}.", ENTRIES_RULE)
            return
        if event.type == "game_ended":
            won = event.data.get("won")
            if state["cooperative"] and won is None:
                raise RuleViolation(
                    "won_or_lost", "A cooperative game ends won or lost: say whether the players won.", RULE_END
                )
            if not state["cooperative"] and won is not None:
                raise RuleViolation(
                    "not_cooperative", "This game is not cooperative: the scores decide who won.", RULE_END
                )
            if not state["cooperative"] and not state["entries"]:
                raise RuleViolation(
                    "no_points",
                    "No points are recorded: record the scores first, or record the result (who won) instead.",
                    RULE_END,
                )
            return

    def apply(self, state: State, event: Event) -> State:
        if event.type == "points_scored":
            totals = list(state["totals"])
            totals[event.seat] += event.data["points"]
            entry = {"seat": event.seat, "points": event.data["points"], "round": event.data.get("round")}
            return {**state, "totals": totals, "entries": [*state["entries"], entry]}
        return {**state, "ended": True, "won": event.data.get("won")}

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
        if event.type == "points_scored":
            who = seat_names[event.seat] if event.seat is not None and event.seat < len(seat_names) else "Someone"
            points = event.data.get("points", 0)
            unit = "point" if abs(points) == 1 else "points"
            when = f" in round {event.data['round']}" if event.data.get("round") else ""
            return f"{who} scored {points} {unit}{when}"
        if event.type == "game_ended":
            won = event.data.get("won")
            return "The game ended" + ("" if won is None else (": the players won" if won else ": the players lost"))
        return super().describe(event, seat_names)

    def demo_script(self) -> tuple[dict[str, Any], list[Event]]:
        """Options and entries of the demo match (``load_demo``): two rounds of a game of Azul."""
        rounds = [(0, 14, 1), (1, 11, 1), (0, 9, 2), (1, 17, 2)]
        return {"title": "Azul", "bgg_id": 230802}, [
            Event("points_scored", s, {"points": p, "round": r}) for s, p, r in rounds
        ]


RULESET = ScoreSheet()

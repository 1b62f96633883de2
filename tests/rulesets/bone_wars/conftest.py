"""Shared helpers for the Bone Wars tests: a recorder-like ``Table`` that validates and applies entries."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.bone_wars import RULESET
from rulesets.replay import Position, replay, step
from rulesets.schema import check_payload


def key(event: Event) -> str:
    return json.dumps(event.to_dict(), sort_keys=True)


class Table:
    """A match in progress: ``do`` records a legal entry, ``bad`` asserts the refusal and that nothing changed."""

    def __init__(self, seats: int = 2, **options: Any) -> None:
        self.options = check_payload(RULESET.options_schema, options)  # what match creation does
        self.seats = seats
        self.state = RULESET.initial_state(self.options, seats)
        self.events: list[Event] = []

    @staticmethod
    def event(type_: str, seat: int | None = None, **data: Any) -> Event:
        data = check_payload(RULESET.event_types[type_].fields, data)  # what the API layer does
        return Event(type_, seat, data)

    def do(self, type_: str, seat: int | None = None, **data: Any) -> Table:
        ev = self.event(type_, seat, **data)
        before = json.dumps(self.state, sort_keys=True)
        RULESET.validate(self.state, ev)
        new = RULESET.apply(self.state, ev)
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        assert json.loads(json.dumps(new)) == new
        self.state = new
        self.events.append(ev)
        return self

    def override(self, type_: str, seat: int | None = None, **data: Any) -> Table:
        """``rule_overridden`` then the entry, as the recorder folds them (the rules not checked; what the
        reducer cannot place is refused ``unplayable`` and nothing is recorded)."""
        ev = self.event(type_, seat, **data)
        waiting = Position(self.state, len(self.events) + 1, True)
        self.state = step(RULESET, waiting, ev).state  # numbered len(events) + 2, after the override
        self.events += [Event("rule_overridden", None, {"reason": "house rule"}), ev]
        return self

    def bad(self, code: str, type_: str, seat: int | None = None, **data: Any) -> RuleViolation:
        ev = self.event(type_, seat, **data)
        before = json.dumps(self.state, sort_keys=True)
        with pytest.raises(RuleViolation) as info:
            RULESET.validate(self.state, ev)
        assert info.value.code == code, (info.value.code, info.value.message)
        assert info.value.rule.startswith(("Bone Wars ›", "Chronicle ›")) and info.value.message
        assert key(ev) not in {key(m) for m in RULESET.legal_moves(self.state)}
        assert json.dumps(self.state, sort_keys=True) == before
        return info.value

    # -- shortcuts ----------------------------------------------------------------------------------
    def card(self, seat: int, kind: str = "team", name: str = "Field Team", cost: int = 0, find: str | None = None):
        card: dict[str, Any] = {"kind": kind, "name": name, "cost": cost}
        if find is not None:
            card["minor_find"] = find
        return self.do("card_played", seat, card=card)

    def species(self, seat: int, name: str, find: str) -> Table:
        return self.card(seat, "species", name, 0, find)

    def end(self, seat: int) -> Table:
        return self.do("turn_ended", seat)

    def turn(self, seat: int, *effects: tuple[str, dict[str, Any]], kind: str = "team", cost: int = 0) -> Table:
        """One whole turn: a card, its effects, the turn's end."""
        self.card(seat, kind, cost=cost)
        for type_, data in effects:
            self.do(type_, seat, **data)
        return self.end(seat)

    def pas(self, seat: int, patron: str | None = None) -> Table:
        return self.do("passed", seat, patron=patron or self.player(seat)["patron"])

    def pass_round(self) -> Table:
        """Every seat still in passes, keeping its patron, in turn order: the round ends."""
        start = self.state["round"]
        while self.state["round"] == start and not self.state["finished"]:
            self.pas(self.state["turn"])
        return self

    def player(self, seat: int) -> dict[str, Any]:
        return self.state["players"][seat]

    def replayed(self) -> Any:
        """Replay every entry from scratch with the rules checked (versions 1..n): the same game."""
        pos = replay(RULESET, self.options, self.seats, self.events, check=True)
        assert pos.version == len(self.events)
        return pos


@pytest.fixture
def table() -> type[Table]:
    return Table


@pytest.fixture
def rs() -> Any:
    return RULESET

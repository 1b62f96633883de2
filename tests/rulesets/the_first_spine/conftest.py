"""Shared helpers for The First Spine tests: a recorder-like ``Table`` playing events on the pure ruleset."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import replay
from rulesets.schema import check_payload
from rulesets.the_first_spine import RULESET
from rulesets.the_first_spine import engine as E

# Tests use a 4 × 5 board (board=[4, 5]) to put the two wizards three cells apart: seat 0 on [3, 2], seat 1 on [0, 2].


ENTRY_CODES = frozenset({"unknown_event", "unknown_seat", "invalid_payload", "zero_amount", "unknown_card"})


class Table:
    """A match in progress: ``do`` records a legal event (checking purity), ``bad`` asserts a refusal code."""

    def __init__(self, seats: int = 2, **options: Any) -> None:
        self.options = check_payload(RULESET.options_schema, options)
        assert RULESET.check_options(self.options) == []
        self.seats = seats
        self.state = RULESET.initial_state(self.options, seats)
        self.events: list[Event] = []
        self.built = False

    @staticmethod
    def event(type_: str, seat: int | None, **data: Any) -> Event:
        return Event(type_, seat, check_payload(RULESET.event_types[type_].fields, data))

    def do(self, type_: str, seat: int | None = None, **data: Any) -> Table:
        seat = self.state["turn"]["seat"] if seat is None else seat
        ev = self.event(type_, seat, **data)
        before = json.dumps(self.state, sort_keys=True)
        RULESET.validate(self.state, ev)
        new = RULESET.apply(self.state, ev)
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        assert json.loads(json.dumps(new)) == new, "the state is plain JSON"
        self.state = new
        self.events.append(ev)
        return self

    def bad(self, code: str, type_: str, seat: int | None = None, **data: Any) -> RuleViolation:
        seat = self.state["turn"]["seat"] if seat is None else seat
        ev = Event(type_, seat, data)
        before = json.dumps(self.state, sort_keys=True)
        with pytest.raises(RuleViolation) as info:
            RULESET.validate(self.state, ev)
        assert info.value.code == code, (info.value.code, info.value.message)
        if code in ENTRY_CODES:  # not rulebook rules: the app cannot read the entry
            assert info.value.rule == "Chronicle › Entries", info.value.rule
        else:
            assert info.value.rule.startswith("The First Spine ›"), info.value.rule
        assert info.value.message
        assert json.dumps(self.state, sort_keys=True) == before
        return info.value

    # -- shortcuts ----------------------------------------------------------------------------------------
    def setup(self, origins: tuple[str, ...] = ("healer", "architect", "priest", "blacksmith")) -> Table:
        for seat in range(self.seats):
            self.do("destiny_chosen", seat, destiny="conjurer")
            self.do("origin_chosen", seat, origin=origins[seat])
        return self

    def refill(self, discarded: int = 0) -> Table:
        return self.do("hand_refilled", discarded=discarded)

    def place(self, card: str, at: list[int]) -> Table:
        return self.do("card_placed", card=card, at=at)

    def end(self) -> Table:
        return self.do("turn_ended")

    def pass_turns(self, n: int = 1) -> Table:
        for _ in range(n):
            self.refill().end()
        return self

    def put(self, name: str, at: list[int], seat: int) -> Table:
        """Set up a position: ``name`` (a catalog card) stands on ``at`` for ``seat`` without being played.
        Used to build a board for a capacity test; the rules under test are then played by events."""
        card = E.find_card(self.state, name)
        assert card is not None
        state = E.clone(self.state)
        E.put_card(state, card, seat, (at[0], at[1]))
        self.state = E.derive(state)
        self.events = []  # a built position has no event history to replay
        self.built = True
        return self

    def card(self, at: list[int]) -> dict[str, Any] | None:
        return E.occupancy(self.state).get((at[0], at[1]))

    def hp(self, at: list[int]) -> int | None:
        c = self.card(at)
        return None if c is None else c["hp"]

    def player(self, seat: int) -> dict[str, Any]:
        return self.state["players"][seat]

    def replayed(self) -> None:
        """Replaying every recorded event with the rules checked gives the same state."""
        assert not self.built, "a position built with put() has no history to replay"
        pos = replay(RULESET, self.options, self.seats, self.events, check=True)
        assert pos.state == self.state


def card(name: str, kind: str = "creature", hp: int = 3, attack: Any = 1, defense: Any = 0, **rest: Any) -> dict:
    """A catalog card for custom card lists; ``attack``/``defense`` an int for every side or a 4-tuple."""

    def sides(v: Any) -> dict[str, int]:
        vals = (v, v, v, v) if isinstance(v, int) else v
        return dict(zip(("front", "right", "back", "left"), vals, strict=True))

    return {"name": name, "kind": kind, "hp": hp, "attack": sides(attack), "defense": sides(defense), **rest}


@pytest.fixture
def table() -> type[Table]:
    return Table


@pytest.fixture
def card_def() -> Any:
    return card


@pytest.fixture
def rs() -> Any:
    return RULESET

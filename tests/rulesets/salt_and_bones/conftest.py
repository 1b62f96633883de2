"""Shared helpers for the Salt & Bones tests: a recorder-like ``Table`` that validates and applies events."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import replay
from rulesets.salt_and_bones import RULESET
from rulesets.schema import check_payload

ENTRY_CODES = frozenset({"unknown_event", "unknown_seat", "unknown_card", "bad_card"})


class Table:
    """A match in progress: ``do`` records a legal event, ``bad`` asserts a RuleViolation code."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self.state = RULESET.initial_state(options, 2)
        self.events: list[Event] = []

    @staticmethod
    def event(type_: str, seat: int | None = None, **data: Any) -> Event:
        if type_ in RULESET.event_types:
            data = check_payload(RULESET.event_types[type_].fields, data)  # what the API layer would do
        return Event(type_, seat, data)

    def do(self, type_: str, seat: int | None = None, **data: Any) -> Table:
        ev = self.event(type_, seat, **data)
        before = json.dumps(self.state, sort_keys=True)
        RULESET.validate(self.state, ev)
        new = RULESET.apply(self.state, ev)
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        self.state = new
        self.events.append(ev)
        return self

    def bad(self, code: str, type_: str, seat: int | None = None, **data: Any) -> RuleViolation:
        ev = self.event(type_, seat, **data)
        with pytest.raises(RuleViolation) as info:
            RULESET.validate(self.state, ev)
        assert info.value.code == code, (info.value.code, info.value.message)
        if code in ENTRY_CODES:  # not rulebook rules: the app cannot read the entry
            assert info.value.rule == "Chronicle › Entries", info.value.rule
        else:
            assert info.value.rule.startswith("Salt & Bones ›"), info.value.rule
        assert info.value.message
        return info.value

    # -- shortcuts ----------------------------------------------------------------------------------
    @property
    def momentum(self) -> int:
        return self.state["momentum"]

    def field(self, *tiles: list[int]) -> Table:
        return self.do("field_card_flipped", None, tiles=list(tiles) or [[0, 1]])

    def draw(self, hands: dict[int, tuple[int, int]] | None = None) -> Table:
        """Both seats draw, Momentum first; ``hands[seat] = (attack, strategy)`` (default: fill with attack)."""
        hands = hands or {}
        m = self.momentum
        for seat in (m, 1 - m):
            need = self.state["settings"]["hand_size"] - sum(self.state["hands"][seat].values())
            a, s = hands.get(seat, (need, 0))
            self.do("cards_drawn", seat, attack=a, strategy=s)
        return self

    def prep(self, seat: int, *placements: tuple[str, str | None]) -> Table:
        for slot, card in placements:
            self.do("strategy_card_placed", seat, slot=slot, card=card)
        return self.do("preparation_finished", seat)

    def to_combat(
        self,
        boards: dict[int, list[tuple[str, str | None]]] | None = None,
        hands: dict[int, tuple[int, int]] | None = None,
        tiles: list[list[int]] | None = None,
    ) -> Table:
        """Field card (if due), draw, prepare both boards (Momentum first): the Combat Phase begins."""
        boards = boards or {}
        if self.state["phase"] == "field":
            self.field(*(tiles or [[0, 1]]))
        if hands is None:
            hands = {}
            for seat in (0, 1):
                strategy = len(boards.get(seat, []))
                have = self.state["hands"][seat]
                need = self.state["settings"]["hand_size"] - have["attack"] - have["strategy"]
                s = max(0, strategy - have["strategy"])
                hands[seat] = (need - s, s)
        self.draw(hands)
        m = self.momentum
        for seat in (m, 1 - m):
            self.prep(seat, *boards.get(seat, []))
        assert self.state["phase"] == "combat"
        return self

    def attack(self, seat: int, card: Any, a: list[int], o: list[int]) -> Table:
        return self.do("attack_card_played", seat, card=card, attack_tile=a, opportunity_tile=o)

    def instinct(self, seat: int, card: str, target: Any = None) -> Table:
        return self.do("strategy_card_played", seat, card=card, target=target)

    def on(self, instance: int) -> dict[str, int]:
        """Anticipation's target: ``instance`` of the latest Attack card (the one whose damage is open)."""
        return {"card": self.state["combat"]["window"]["strike"]["card"], "instance": instance}

    def latest_card(self) -> dict[str, int]:
        """Condescend's target: the latest Attack card (a Chain card)."""
        return {"card": self.state["combat"]["window"]["strike"]["card"]}

    def latest_instinct(self, seat: int) -> dict[str, int]:
        """Condescend's target: the latest INSTINCT ``seat`` played in the open window."""
        reactions = [r for r in self.state["combat"]["window"]["reactions"] if r["seat"] == seat]
        return {"card": reactions[-1]["uid"]}

    def disengage(self, seat: int) -> Table:
        return self.do("disengaged", seat)

    def health(self) -> list[int]:
        return list(self.state["health"])

    def card_at(self, cell: list[int]) -> dict[str, Any]:
        uid = self.state["field"]["grid"][cell[0]][cell[1]]["card"]
        return next(c for c in self.state["field"]["cards"] if c["uid"] == uid)

    def replayed(self) -> Any:
        """Replay every recorded event from scratch with the rules checked; it must give the same state."""
        pos = replay(RULESET, self.options, 2, self.events, check=True)
        assert pos.state == self.state
        assert pos.version == len(self.events)
        return pos


@pytest.fixture
def table() -> type[Table]:
    return Table


@pytest.fixture
def rs() -> Any:
    return RULESET

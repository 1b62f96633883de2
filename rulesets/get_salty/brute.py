"""A slow reference for Get Salty's legal moves: try ``validate`` on every plausible event (tests, benchmarks)."""

from __future__ import annotations

from rulesets.base import Event, RuleViolation, State
from rulesets.get_salty import RULESET
from rulesets.get_salty.board import ATTRIBUTES, CRACKERS
from rulesets.get_salty.fields import (
    ATTRIBUTE_CHOSEN,
    CONTAINER_FLIPPED,
    CONTAINER_MOVED,
    CRACKER_FLIPPED,
    CRACKER_MOVED,
)


def candidate_events(state: State, margin: int = 2) -> list[Event]:
    """A superset of the legal events: every type for both seats, every cell within ``margin`` of a token."""
    cells = [tok["cell"] for tok in state["tokens"].values() if tok["cell"] is not None]
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    area = [
        [x, y]
        for x in range(min(xs) - margin, max(xs) + margin + 1)
        for y in range(min(ys) - margin, max(ys) + margin + 1)
    ]
    out: list[Event] = []
    for seat in (0, 1):
        out.extend(Event(ATTRIBUTE_CHOSEN, seat, {"attribute": a}) for a in ATTRIBUTES)
        out.append(Event(CONTAINER_FLIPPED, seat, {}))
        out.extend(Event(CONTAINER_MOVED, seat, {"to": c}) for c in area)
        out.extend(Event(CRACKER_FLIPPED, seat, {"cracker": n}) for n in CRACKERS)
        out.extend(Event(CRACKER_MOVED, seat, {"cracker": n, "to": c}) for n in CRACKERS for c in area)
    return out


def brute_force_legal_moves(state: State) -> list[Event]:
    """The candidate events ``validate`` accepts (same set as ``legal_moves``, found the slow way)."""
    legal = []
    for event in candidate_events(state):
        try:
            RULESET.validate(state, event)
        except RuleViolation:
            continue
        legal.append(event)
    return legal

"""Salt & Bones' legal moves: every entry the rules (``rulesets.salt_and_bones.rules``) accept now."""

from __future__ import annotations

import json
from typing import Any

from rulesets.base import Event, RuleViolation, State
from rulesets.salt_and_bones import board as E
from rulesets.salt_and_bones.catalog import SLOTS
from rulesets.salt_and_bones.fields import (
    ADDITIONAL_TURN_PASSED,
    ATTACK_CARD_PLAYED,
    CARDS_DRAWN,
    DISENGAGED,
    HAND_CARD_DISCARDED,
    PREPARATION_FINISHED,
    STRATEGY_CARD_PLACED,
    STRATEGY_CARD_PLAYED,
)
from rulesets.salt_and_bones.rules import (
    attack_seat_problem,
    check_disengage,
    check_pass,
    draw_target,
    placement_problem,
    strategy_problem,
)


def legal_placements(state: State) -> list[tuple[list[int], list[int]]]:
    """Every (attack tile, opportunity tile) an attack card may take now."""
    f = state["field"]
    out = []
    for r in range(f["rows"]):
        for c in range(f["cols"]):
            for n in E.neighbours((r, c)):
                if placement_problem(state, [r, c], list(n)) is None:
                    out.append(([r, c], list(n)))
    return out


def legal_moves(state: State) -> list[Event] | None:
    """Every event ``validate`` accepts now; None in the Field Phase (the flipped tiles are chance data).

    In combat the list names catalog cards only: inline card objects are accepted too but not listed.
    """
    if state["result"] is not None:
        return []
    phase = state["phase"]
    if phase == "field":
        return None
    if phase == "draw":
        return _draw_moves(state)
    if phase == "preparation":
        return _prep_moves(state)
    return _combat_moves(state)


def _draw_moves(state: State) -> list[Event]:
    moves = []
    if not any(state["draw"]["drawn"]):
        for seat in E.SEATS:
            if not state["draw"]["discarded"][seat]:
                for kind in ("attack", "strategy"):
                    if state["hands"][seat][kind] > 0:
                        moves.append(Event(HAND_CARD_DISCARDED, seat, {"kind": kind}))
    seat = E.next_drawer(state)
    if seat is not None:
        total = draw_target(state, seat)
        da, ds = state["decks"]["attack"], state["decks"]["strategy"]
        for a in range(max(0, total - ds), min(total, da) + 1):
            moves.append(Event(CARDS_DRAWN, seat, {"attack": a, "strategy": total - a}))
    return moves


def _prep_moves(state: State) -> list[Event]:
    seat = E.preparing_seat(state)
    if seat is None:
        return []
    moves = []
    if state["hands"][seat]["strategy"] > 0:
        for slot, (kind, capacity) in SLOTS.items():
            if len(state["boards"][seat][slot]) >= capacity:
                continue
            if slot == "instinct":
                moves.append(Event(STRATEGY_CARD_PLACED, seat, {"slot": slot, "card": None}))
            for name, d in state["catalog"]["strategy"].items():
                if d["type"] == kind and E.copies_left(state, "strategy", name, seat) > 0:
                    moves.append(Event(STRATEGY_CARD_PLACED, seat, {"slot": slot, "card": name}))
    moves.append(Event(PREPARATION_FINISHED, seat, {}))
    return moves


def _combat_moves(state: State) -> list[Event]:
    moves: list[Event] = []
    c = state["combat"]
    placements = None
    for seat in E.SEATS:
        if attack_seat_problem(state, seat) is None:
            chain_only = seat == c["turn"] and bool(c["turn_cards"])
            if placements is None:
                placements = legal_placements(state)
            for name, d in state["catalog"]["attack"].items():
                if chain_only and d["bonus"] != "chain":
                    continue
                if E.copies_left(state, "attack", name) <= 0:
                    continue
                for a, o in placements:
                    moves.append(
                        Event(ATTACK_CARD_PLAYED, seat, {"card": name, "attack_tile": a, "opportunity_tile": o})
                    )
        for kind, check in ((DISENGAGED, check_disengage), (ADDITIONAL_TURN_PASSED, check_pass)):
            try:
                check(state, Event(kind, seat, {}))
                moves.append(Event(kind, seat, {}))
            except RuleViolation:
                pass
    for seat in E.SEATS:
        names: list[str] = []
        for slot_card in state["boards"][seat]["instinct"]:
            if slot_card["name"] is not None:
                names.append(slot_card["name"])
            else:
                names.extend(n for n, d in state["catalog"]["strategy"].items() if d["type"] == "INSTINCT")
        targets = instinct_targets(state)
        done: set[str] = set()
        for name in dict.fromkeys(names):
            for target in targets:
                key = json.dumps([name, target])
                if key in done or strategy_problem(state, seat, name, target) is not None:
                    continue
                done.add(key)
                moves.append(Event(STRATEGY_CARD_PLAYED, seat, {"card": name, "target": target}))
    return moves


def instinct_targets(state: State) -> list[Any]:
    """Every target an INSTINCT might take now: none, each card Condescend could name, each open instance."""
    w = state["combat"]["window"]
    strike = w["strike"]
    targets: list[Any] = [None]
    uids = [strike["card"]] if strike else []
    uids += [r["uid"] for r in w["reactions"]] + [t["uid"] for t in w.get("triggered", [])]
    targets += [{"card": uid} for uid in dict.fromkeys(uids)]
    if strike:
        targets += [{"card": strike["card"], "instance": i} for i in range(len(E.current_instances(state)))]
    return targets

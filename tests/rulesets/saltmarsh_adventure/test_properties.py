"""Random adventures keep HP, markers, surges and experience within the rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.base import Event
from rulesets.saltmarsh_adventure import RULESET
from rulesets.saltmarsh_adventure.engine import gain_condition
from rulesets.saltmarsh_adventure.fields import CONDITIONS
from tests.rulesets.scenario import try_step

pytestmark = pytest.mark.pure

MONSTERS = ["Kobold", "Sahuagin", "Ghoul"]
HERO_KINDS = ["hero_moved", "attack_rolled", "poison_roll_made", "hero_phase_ended", "hero_phase_ended"]
ANY_KINDS = [
    "damage_taken",
    "damage_taken",
    "hp_healed",
    "condition_gained",
    "condition_gained",
    "condition_lost",
    "monster_placed",
    "monster_defeated",
    "treasure_found",
    "treasure_used",
    "gold_found",
]
VILLAIN_KINDS = ["monster_activated", "attack_rolled", "encounter_cancelled", "villain_phase_ended"]
RARE = ["adventure_won", "adventure_lost", "hero_phase_started"]


def candidate(draw: Any, state: dict[str, Any]) -> Event:
    """A plausible entry for the current state: mostly legal, sometimes not."""
    n = len(state["heroes"])
    phase_kinds = {"start": ["hero_phase_started"] * 3, "hero": HERO_KINDS, "villain": VILLAIN_KINDS}
    kinds = phase_kinds.get(state["phase"], []) * 2 + ANY_KINDS
    if draw(st.integers(0, 150)) == 75:  # a mid value: Hypothesis favours the bounds
        kinds = RARE
    kind = draw(st.sampled_from(kinds))
    seat: int | None = state["active"] if draw(st.integers(0, 3)) else draw(st.integers(-1, n))
    if seat == -1:
        seat = None
    in_play = [m["name"] for m in state["monsters"]]
    monster = draw(st.sampled_from(in_play if in_play and draw(st.integers(0, 3)) else MONSTERS))
    held = state["heroes"][seat]["conditions"] if seat is not None and 0 <= seat < n else []
    rolls = draw(st.lists(st.integers(1, 20), min_size=1, max_size=2))
    data: dict[str, Any]
    if kind in ("damage_taken", "hp_healed", "gold_found"):
        data = {"amount": draw(st.integers(1, 12))}
        if kind == "damage_taken" and state["phase"] == "villain":
            seat = (state["active"] + 1) % n  # the next hero may start its turn at 0 HP
    elif kind in ("condition_gained", "condition_lost"):
        target = draw(st.sampled_from(["hero", "hero", "monster"]))
        data = {"target": target, "condition": draw(st.sampled_from(CONDITIONS))}
        if target == "monster":
            data["monster"] = monster
    elif kind == "attack_rolled":
        attacker = "hero" if state["phase"] == "hero" else "monster"
        if state["activation"] and draw(st.booleans()):
            monster = state["activation"]["monster"]
        if attacker == "hero" and seat is not None and 0 <= seat < n and draw(st.integers(0, 4)):
            rolls = rolls[:1] * (2 if {"advantage", "disadvantage"} & set(held) else 1)
        data = {"attacker": attacker, "rolls": rolls}
        if attacker == "monster":
            data["monster"] = monster
    elif kind == "poison_roll_made":
        data = {"roll": draw(st.integers(1, 20))}
    elif kind in ("monster_placed", "monster_activated"):
        data = {"monster": monster}
    elif kind == "monster_defeated":
        data = {"monster": monster, "xp": draw(st.integers(0, 4))}
    elif kind == "encounter_cancelled":
        data = {"encounter": "Gust"}
    elif kind == "treasure_found":
        data = {"item": {"name": draw(st.sampled_from(["Potion", "Wand"])), "buy": 10, "sell": None}}
    elif kind == "treasure_used":
        data = {"item": draw(st.sampled_from(["Potion", "Wand"]))}
    elif kind == "adventure_lost":
        data = {"reason": "Out of time."}
    else:
        data = {}
    return Event(kind, seat, data)


def check_invariants(state: dict[str, Any]) -> None:
    assert state["xp"] >= 0, "experience never negative"
    assert state["healing_surges"] >= 0
    assert 0 <= state["active"] < len(state["heroes"])
    for hero in state["heroes"]:
        assert 0 <= hero["hp"] <= hero["max_hp"], "HP stays between 0 and max"
        assert hero["gold"] >= 0
    holders = state["heroes"] + state["monsters"]
    for holder in holders:
        conds = holder["conditions"]
        assert len(conds) == len(set(conds)), "at most one marker of a kind"
        assert set(conds) <= set(CONDITIONS)
        assert not {"advantage", "disadvantage"} <= set(conds), "advantage and disadvantage never together"
    for monster in state["monsters"]:
        assert "poisoned" not in monster["conditions"]
    names = [m["name"].casefold() for m in state["monsters"]]
    assert len(names) == len(set(names))
    outcome = RULESET.outcome(state)
    assert (outcome is None) == (state["result"] is None)
    assert (state["phase"] == "over") == (state["result"] is not None)
    if state["result"] == "won":
        assert outcome is not None and outcome.winners == tuple(range(len(state["heroes"])))


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(1, 5), st.sampled_from([0, 1, 2]), st.sampled_from([None, 3]))
def test_random_adventures_keep_the_invariants(data: Any, seats: int, surges: int, surge_hp: int | None) -> None:
    options = {"healing_surges": surges, "surge_hp": surge_hp, "encounter_cancel_xp": 3}
    state = RULESET.initial_state(options, seats)
    for _ in range(60):
        event = candidate(data.draw, state)
        new = try_step(RULESET, state, event)
        if new is None:
            continue
        state = new
        check_invariants(state)
        if state["result"] is not None:
            break


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CONDITIONS), max_size=12))
def test_markers_stay_single_and_opposites_never_meet(gains: list[str]) -> None:
    held: list[str] = []
    for condition in gains:
        held = gain_condition(held, condition)
        assert len(held) == len(set(held))
        assert not {"advantage", "disadvantage"} <= set(held)
        assert held == [c for c in CONDITIONS if c in held]

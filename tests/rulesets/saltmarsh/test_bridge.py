"""An adventure match's result flowing into the campaign stream."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.base import Event
from rulesets.saltmarsh import RULESET, events_from_adventure, sheet
from rulesets.saltmarsh_adventure import RULESET as ADVENTURE

PARTY = [
    {"name": "Ana", "class": "Fighter", "max_hp": 10},
    {"name": "Bo", "class": "Wizard", "max_hp": 7},
]


def adventure(finish: Event | None) -> dict[str, Any]:
    """Ana and Bo play 'Sinister Secret': treasure, gold, 6 XP gained, an encounter cancelled."""
    state = ADVENTURE.initial_state({"heroes": PARTY, "adventure": "Sinister Secret", "campaign_reward": 300}, 2)
    events = [
        Event("hero_phase_started", 0),
        Event("monster_placed", None, {"monster": "Kobold"}),
        Event("monster_defeated", None, {"monster": "Kobold", "xp": 6}),
        Event("treasure_found", 0, {"item": {"name": "Potion", "buy": 100, "sell": 50}}),
        Event("treasure_found", 0, {"item": {"name": "Rope", "buy": 10, "sell": None}}),
        Event("treasure_found", 1, {"item": {"name": "Wand", "buy": None, "sell": 200}}),
        Event("gold_found", 1, {"amount": 100}),
        Event("gold_found", 1, {"amount": 25}),
        Event("treasure_used", 0, {"item": "Rope"}),
        Event("hero_phase_ended", 0),
        Event("encounter_cancelled", None, {"encounter": "Gust"}),
    ]
    if finish is not None:
        events.append(finish)
    for e in events:
        ADVENTURE.validate(state, e)
        state = ADVENTURE.apply(state, e)
    return state


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_a_won_adventure_becomes_treasure_gold_and_completion(town, play, ev) -> None:
    won = adventure(Event("adventure_won", None, {}))
    assert won["xp"] == 1  # the adventure had experience ...
    events = events_from_adventure(won)
    assert [e.to_dict() for e in events] == [
        {"type": "treasure_gained", "seat": None,
         "data": {"hero": "Ana", "item": {"name": "Potion", "buy": 100, "sell": 50}}},
        {"type": "treasure_gained", "seat": None,
         "data": {"hero": "Bo", "item": {"name": "Wand", "buy": None, "sell": 200}}},
        {"type": "gold_gained", "seat": None, "data": {"hero": "Bo", "amount": 125}},
        {"type": "adventure_completed", "seat": None, "data": {"reward": 300}},
    ]  # fmt: skip
    state = play(town, ev("adventure_started", adventure="Sinister Secret", heroes=["Ana", "Bo"]), *events)
    got = {h["name"]: (h["gold"], [i["name"] for i in h["items"]]) for h in sheet(state)["heroes"]}
    assert got == {"Ana": (300, ["Potion"]), "Bo": (425, ["Wand"]), "Cy": (200, [])}
    # ... and none of it reaches the campaign
    assert not {k for k in keys(state) if "xp" in k.casefold() or "experience" in k.casefold()}
    assert RULESET.events_from_adventure(won) == events


def test_a_lost_adventure_keeps_treasure_and_fails(town, play, ev) -> None:
    lost = adventure(Event("adventure_lost", None, {"reason": "The smugglers escaped."}))
    events = events_from_adventure(lost)
    assert events[-1] == Event("adventure_failed", None, {})
    state = play(town, ev("adventure_started", adventure="Sinister Secret", heroes=["Ana", "Bo"]), *events)
    assert [h["gold"] for h in state["heroes"]] == [0, 125, 0]
    assert state["adventures"][-1]["result"] == "failed"


def test_an_unfinished_adventure_has_no_result_to_flow(town) -> None:
    with pytest.raises(ValueError):
        events_from_adventure(adventure(None))


def test_the_campaign_still_checks_the_flowed_entries(town, play, ev, rejected) -> None:
    events = events_from_adventure(adventure(Event("adventure_won", None, {})))
    assert rejected(town, events[0]) == "no_adventure"
    state = play(town, ev("adventure_started", adventure="Sinister Secret", heroes=["Ana"]))
    assert rejected(state, events[1]) == "not_in_adventure"  # Bo's wand, but Bo was not sent

"""Heroes joining and retiring; the stream-level checks (unknown entries, seats)."""

from __future__ import annotations

import importlib

import pytest

from rulesets.base import Event
from rulesets.saltmarsh import RULESET

pytestmark = pytest.mark.pure


def test_registered_as_a_campaign_without_seats() -> None:
    ruleset = importlib.import_module("rulesets.saltmarsh").RULESET  # what the registry loads
    assert ruleset is RULESET and ruleset.slug == "saltmarsh"
    assert ruleset.kind == "campaign"
    assert ruleset.seats == (0,)
    assert all(not et.seat_required for et in ruleset.event_types.values())


def test_hero_joins_at_level_one_with_nothing(new, play, ev) -> None:
    state = play(new, ev("hero_joined", hero="Ana", **{"class": "Fighter"}))
    (hero,) = state["heroes"]
    assert (hero["name"], hero["class"], hero["level"], hero["gold"], hero["items"]) == ("Ana", "Fighter", 1, 0, [])


def test_hero_names_are_unique_among_active_heroes(town, ev, rejected) -> None:
    assert rejected(town, ev("hero_joined", hero="ana ", **{"class": "Cleric"})) == "duplicate_hero"


def test_a_retired_heroes_name_may_be_reused(town, play, ev) -> None:
    state = play(town, ev("hero_retired", hero="Ana"), ev("hero_joined", hero="Ana", **{"class": "Cleric"}))
    assert [(h["name"], h["class"], h["retired"]) for h in state["heroes"] if h["name"] == "Ana"] == [
        ("Ana", "Fighter", True),
        ("Ana", "Cleric", False),
    ]


def test_retired_heroes_cannot_act(town, play, ev, rejected) -> None:
    state = play(town, ev("hero_retired", hero="Cy"))
    assert rejected(state, ev("leveled_up", hero="Cy")) == "hero_retired"
    assert rejected(state, ev("powers_swapped", hero="Cy", powers=["Sneak"])) == "hero_retired"
    assert rejected(state, ev("hero_retired", hero="Cy")) == "hero_retired"
    assert rejected(state, ev("adventure_started", adventure="X", heroes=["Ana", "Cy"])) == "hero_retired"


def test_unknown_hero_is_refused(town, ev, rejected) -> None:
    assert rejected(town, ev("powers_swapped", hero="Zed", powers=[])) == "unknown_hero"


def test_roster_changes_wait_for_the_adventure_to_end(on_adventure, ev, rejected) -> None:
    assert rejected(on_adventure, ev("hero_joined", hero="Di", **{"class": "Cleric"})) == "adventure_in_progress"
    assert rejected(on_adventure, ev("hero_retired", hero="Cy")) == "adventure_in_progress"


def test_campaign_entries_have_no_seat(town, rejected) -> None:
    assert rejected(town, Event("hero_joined", 0, {"hero": "Di", "class": "Cleric"})) == "no_seats"


def test_unknown_entry_is_refused(town, rejected) -> None:
    assert rejected(town, Event("cracker_moved", None, {})) == "unknown_event"


def test_powers_swapped_replaces_the_selection(town, play, ev, rejected) -> None:
    state = play(town, ev("powers_swapped", hero="Bo", powers=["Magic Missile", "Shield"]))
    assert state["heroes"][1]["powers"] == ["Magic Missile", "Shield"]
    state = play(state, ev("powers_swapped", hero="Bo", powers=["Fireball"]))
    assert state["heroes"][1]["powers"] == ["Fireball"]

"""Heroes joining and retiring; the stream-level checks (unknown entries, seats)."""

from __future__ import annotations

import importlib

import pytest

from rulesets.base import Event, RuleViolation
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


def test_an_unknown_entry_cites_chronicles_own_rule(town) -> None:
    """Issue 22 item 10: not a rulebook rule, so "Chronicle › Entries"."""
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(town, Event("cracker_moved", None, {}))
    assert info.value.rule == "Chronicle › Entries"
    assert info.value.message == "A Saltmarsh campaign has no 'cracker_moved' entry."


def test_the_prompt_says_what_the_table_does_next(town, on_adventure) -> None:
    """Issue 22 item 10: in town, and during an adventure recorded by hand, what comes next."""
    assert RULESET.turn(town).prompt == "In town: heroes may take town actions or set out."
    assert RULESET.turn(on_adventure).prompt == (
        "Sinister Secret is in progress: record the treasure and gold found, then whether it was completed or failed."
    )


def test_powers_swapped_replaces_the_selection(town, play, ev, rejected) -> None:
    state = play(town, ev("powers_swapped", hero="Bo", powers=["Magic Missile", "Shield"]))
    assert state["heroes"][1]["powers"] == ["Magic Missile", "Shield"]
    state = play(state, ev("powers_swapped", hero="Bo", powers=["Fireball"]))
    assert state["heroes"][1]["powers"] == ["Fireball"]

"""Monsters in play, party experience, Encounter cancelling, treasure and gold."""

from __future__ import annotations

import pytest

from rulesets.saltmarsh_adventure import RULESET

pytestmark = pytest.mark.pure


def test_monster_names_are_unique_in_play(villain, ev, rejected) -> None:
    assert rejected(villain, ev("monster_placed", monster="kobold")) == "duplicate_monster"


def test_defeated_monsters_give_experience_and_leave_play(villain, play, ev, rejected) -> None:
    state = play(
        villain, ev("monster_defeated", monster="Kobold", xp=2), ev("monster_defeated", monster="Sahuagin", xp=3)
    )
    assert state["xp"] == 5
    assert state["monsters"] == []
    assert state["defeated"] == [{"monster": "Kobold", "xp": 2}, {"monster": "Sahuagin", "xp": 3}]
    assert rejected(state, ev("monster_defeated", monster="Kobold", xp=2)) == "unknown_monster"
    assert rejected(state, ev("monster_activated", monster="Kobold")) == "unknown_monster"
    state = play(state, ev("monster_placed", monster="Kobold"))  # a new figure may reuse the name
    assert [m["name"] for m in state["monsters"]] == ["Kobold"]


def test_monsters_activate_in_the_villain_phase(ana_phase, villain, play, ev, rejected) -> None:
    state = play(ana_phase, ev("monster_placed", monster="Kobold"))
    assert rejected(state, ev("monster_activated", monster="Kobold")) == "wrong_phase"
    assert rejected(villain, ev("monster_activated", monster="Ghoul")) == "unknown_monster"


def test_experience_cancels_an_encounter_for_five(villain, play, ev, rejected) -> None:
    cancel = ev("encounter_cancelled", encounter="Frenzied Leap")
    state = play(villain, ev("monster_defeated", monster="Kobold", xp=4))
    assert rejected(state, cancel) == "not_enough_xp"
    state = play(state, ev("monster_defeated", monster="Sahuagin", xp=3), cancel)
    assert (state["xp"], state["encounters_cancelled"]) == (2, ["Frenzied Leap"])


def test_the_cancel_cost_is_an_option(play, ev, start, to_villain) -> None:
    state = to_villain(start({"encounter_cancel_xp": 2}))
    state = play(state, ev("monster_placed", monster="Kobold"), ev("monster_defeated", monster="Kobold", xp=2))
    state = play(state, ev("encounter_cancelled", encounter="Gust"))
    assert state["xp"] == 0


def test_encounters_are_cancelled_in_the_villain_phase(ana_phase, play, ev, rejected) -> None:
    state = play(ana_phase, ev("monster_placed", monster="Kobold"), ev("monster_defeated", monster="Kobold", xp=9))
    assert rejected(state, ev("encounter_cancelled", encounter="Gust")) == "wrong_phase"


def test_treasure_and_gold_belong_to_the_hero_who_found_them(ana_phase, play, ev, rejected) -> None:
    state = play(
        ana_phase,
        ev("treasure_found", 1, item={"name": "Potion", "buy": 100, "sell": 50}),
        ev("treasure_found", 1, item={"name": "Wand", "buy": None, "sell": 200}),
        ev("gold_found", 2, amount=100),
        ev("gold_found", 2, amount=50),
    )
    assert [i["name"] for i in state["heroes"][1]["items"]] == ["Potion", "Wand"]
    assert state["heroes"][2]["gold"] == 150
    state = play(state, ev("treasure_used", 1, item="potion"))
    assert [i["name"] for i in state["heroes"][1]["items"]] == ["Wand"]
    assert rejected(state, ev("treasure_used", 1, item="Potion")) == "item_not_held"
    assert rejected(state, ev("treasure_used", 0, item="Wand")) == "item_not_held"


def test_an_overridden_cancel_without_the_xp_is_unplayable_never_clamped(villain) -> None:
    """Issue 22 item 10: XP the party does not have cannot be spent; under an override the entry is refused as
    ``unplayable`` rather than the XP quietly set to 0."""
    from rulesets.base import Event, RuleViolation
    from rulesets.replay import Position, step

    assert villain["xp"] < villain["encounter_cancel_xp"]
    with pytest.raises(RuleViolation) as info:
        step(RULESET, Position(villain, 9, True), Event("encounter_cancelled", None, {"encounter": "Gust"}))
    assert info.value.code == "unplayable" and "XP" in info.value.message

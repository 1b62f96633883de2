"""Hit points and the party's healing surges."""

from __future__ import annotations

import pytest

from rulesets.saltmarsh_adventure import RULESET

pytestmark = pytest.mark.pure


def test_damage_stops_at_zero(ana_phase, play, ev) -> None:
    state = play(ana_phase, ev("damage_taken", 1, amount=3))
    assert state["heroes"][1]["hp"] == 4
    state = play(state, ev("damage_taken", 1, amount=50))
    assert state["heroes"][1]["hp"] == 0


def test_healing_stops_at_maximum(ana_phase, play, ev) -> None:
    state = play(ana_phase, ev("damage_taken", 0, amount=5), ev("hp_healed", 0, amount=3))
    assert state["heroes"][0]["hp"] == 8
    state = play(state, ev("hp_healed", 0, amount=30))
    assert state["heroes"][0]["hp"] == 10


def test_a_hero_at_zero_spends_a_surge_at_the_start_of_its_hero_phase(fresh, play, ev) -> None:
    state = play(fresh, ev("damage_taken", 0, amount=10), ev("hero_phase_started", 0))
    assert (state["heroes"][0]["hp"], state["healing_surges"]) == (4, 1)  # Ana's card: surge value 4
    assert any("healing surge" in n for n in state["notices"])


def test_surge_default_is_half_max_hp_rounded_down(fresh, play, ev, to_villain) -> None:
    state = play(to_villain(fresh), ev("damage_taken", 1, amount=7), ev("villain_phase_ended", 0))
    state = play(state, ev("hero_phase_started", 1))
    assert state["heroes"][1]["hp"] == 3  # Bo: max 7, no card value


def test_surge_hp_option_for_heroes_without_a_card_value(play, ev, start) -> None:
    state = start({"surge_hp": 5})
    assert [h["surge_hp"] for h in state["heroes"]] == [4, 5, 5]
    assert [h["surge_hp"] for h in start({"surge_hp": 50})["heroes"]] == [4, 7, 8]  # never above max HP


def test_no_surge_while_above_zero(fresh, play, ev) -> None:
    state = play(fresh, ev("damage_taken", 0, amount=9), ev("hero_phase_started", 0))
    assert (state["heroes"][0]["hp"], state["healing_surges"]) == (1, 2)


def test_healed_before_its_turn_needs_no_surge(fresh, play, ev) -> None:
    state = play(fresh, ev("damage_taken", 0, amount=10), ev("hp_healed", 0, amount=2), ev("hero_phase_started", 0))
    assert (state["heroes"][0]["hp"], state["healing_surges"]) == (2, 2)


def test_no_surge_left_loses_the_adventure(play, ev, start, rejected) -> None:
    state = start({"healing_surges": 0})
    state = play(state, ev("damage_taken", 0, amount=10), ev("hero_phase_started", 0))
    assert state["result"] == "lost"
    assert "no healing surge" in state["reason"]
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.winners == ()
    assert rejected(state, ev("hero_moved", 0)) == "game_over"


def test_a_hero_at_zero_only_triggers_a_surge_on_its_own_turn(fresh, play, ev) -> None:
    state = play(fresh, ev("damage_taken", 1, amount=7), ev("hero_phase_started", 0))
    assert (state["heroes"][1]["hp"], state["healing_surges"], state["result"]) == (0, 2, None)

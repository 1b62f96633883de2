"""Advantage, Disadvantage, Stunned and Poisoned, and the attack rolls they change."""

from __future__ import annotations

import pytest

from rulesets.saltmarsh_adventure.engine import gain_condition

pytestmark = pytest.mark.pure


def hero_gains(ev, seat: int, condition: str):
    return ev("condition_gained", seat, target="hero", condition=condition)


def monster_gains(ev, monster: str, condition: str):
    return ev("condition_gained", None, target="monster", monster=monster, condition=condition)


def attack(ev, seat: int, *rolls: int):
    return ev("attack_rolled", seat, attacker="hero", rolls=list(rolls))


def monster_attack(ev, monster: str, *rolls: int):
    return ev("attack_rolled", None, attacker="monster", monster=monster, rolls=list(rolls))


# -- advantage and disadvantage ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "gained", "after"),
    [
        ([], "advantage", ["advantage"]),
        (["advantage"], "advantage", ["advantage"]),
        (["advantage"], "disadvantage", []),
        (["disadvantage"], "advantage", []),
        (["disadvantage", "stunned"], "disadvantage", ["disadvantage", "stunned"]),
        (["stunned"], "stunned", ["stunned"]),
        (["poisoned"], "poisoned", ["poisoned"]),
        (["advantage", "poisoned"], "stunned", ["advantage", "stunned", "poisoned"]),
    ],
)
def test_one_marker_of_a_kind_and_opposites_cancel(held, gained, after) -> None:
    assert gain_condition(held, gained) == after


def test_a_hero_gaining_disadvantage_while_having_advantage_discards_both(ana_phase, play, ev) -> None:
    state = play(ana_phase, hero_gains(ev, 1, "advantage"), hero_gains(ev, 1, "advantage"))
    assert state["heroes"][1]["conditions"] == ["advantage"]
    state = play(state, hero_gains(ev, 1, "disadvantage"))
    assert state["heroes"][1]["conditions"] == []


def test_advantage_rolls_twice_keeps_the_higher_and_is_discarded(ana_phase, play, ev, rejected) -> None:
    state = play(ana_phase, hero_gains(ev, 0, "advantage"))
    assert rejected(state, attack(ev, 0, 15)) == "wrong_roll_count"
    state = play(state, attack(ev, 0, 3, 15))
    assert (state["last_attack"]["mode"], state["last_attack"]["result"]) == ("advantage", 15)
    assert state["heroes"][0]["conditions"] == []
    same = ev("attack_rolled", 0, attacker="hero", rolls=[3, 15], same_attack=True)
    assert rejected(state, same) == "wrong_roll_count"  # the marker is gone: the next target rolls once
    state = play(state, ev("attack_rolled", 0, attacker="hero", rolls=[3], same_attack=True))
    assert (state["last_attack"]["mode"], state["last_attack"]["result"]) == ("normal", 3)


def test_disadvantage_rolls_twice_keeps_the_lower_and_is_discarded(ana_phase, play, ev) -> None:
    state = play(ana_phase, hero_gains(ev, 0, "disadvantage"), attack(ev, 0, 18, 6))
    assert (state["last_attack"]["mode"], state["last_attack"]["result"]) == ("disadvantage", 6)
    assert state["heroes"][0]["conditions"] == []


def test_heroes_attack_in_their_own_hero_phase(fresh, ana_phase, villain, ev, rejected) -> None:
    assert rejected(fresh, attack(ev, 0, 10)) == "wrong_phase"
    assert rejected(ana_phase, attack(ev, 1, 10)) == "not_your_turn"
    assert rejected(villain, attack(ev, 0, 10)) == "wrong_phase"
    assert rejected(ana_phase, ev("attack_rolled", None, attacker="hero", rolls=[10])) == "seat_required"
    # the missing hero is said before the phase (a hero's attack names its seat wherever it is recorded)
    assert rejected(villain, ev("attack_rolled", None, attacker="hero", rolls=[10])) == "seat_required"
    assert rejected(fresh, ev("condition_gained", None, target="hero", condition="stunned")) == "seat_required"


def test_monster_advantage_applies_to_its_attack(villain, play, ev, rejected) -> None:
    state = play(villain, monster_gains(ev, "Kobold", "advantage"), ev("monster_activated", monster="kobold"))
    assert rejected(state, monster_attack(ev, "Kobold", 9)) == "wrong_roll_count"
    state = play(state, monster_attack(ev, "Kobold", 9, 2))
    assert state["last_attack"]["result"] == 9
    assert state["monsters"][0]["conditions"] == []


def test_a_monster_attacks_during_its_activation(villain, ana_phase, play, ev, rejected) -> None:
    assert rejected(villain, monster_attack(ev, "Kobold", 9)) == "monster_not_activated"
    state = play(villain, ev("monster_activated", monster="Sahuagin"))
    assert rejected(state, monster_attack(ev, "Kobold", 9)) == "monster_not_activated"
    assert rejected(state, monster_attack(ev, "Ghoul", 9)) == "unknown_monster"
    assert rejected(state, ev("attack_rolled", None, attacker="monster", rolls=[9])) == "monster_required"
    play(state, monster_attack(ev, "Sahuagin", 9))
    assert rejected(ana_phase, monster_attack(ev, "Kobold", 9)) == "wrong_phase"


# -- stunned -------------------------------------------------------------------------------------------


def test_a_hero_moves_up_to_twice(ana_phase, play, ev, rejected) -> None:
    state = play(ana_phase, ev("hero_moved", 0), ev("hero_moved", 0))
    assert rejected(state, ev("hero_moved", 0)) == "no_action_left"
    assert rejected(state, attack(ev, 0, 12)) == "no_action_left"  # two moves spent the action too


@pytest.mark.parametrize("first", ["move", "attack"])
def test_a_hero_phase_is_a_move_and_one_action_in_either_order(ana_phase, play, ev, rejected, first) -> None:
    """Item 9.8: move then attack, or attack then move; then nothing more, and never two attacks."""
    move, hit = ev("hero_moved", 0), attack(ev, 0, 12)
    state = play(ana_phase, move if first == "move" else hit)
    if first == "attack":
        assert rejected(state, attack(ev, 0, 9)) == "already_attacked"
    state = play(state, hit if first == "move" else move)
    assert rejected(state, ev("hero_moved", 0)) == "no_action_left"
    assert rejected(state, attack(ev, 0, 9)) == "no_action_left"


def test_one_attack_may_roll_for_several_targets(ana_phase, play, ev, rejected) -> None:
    again = ev("attack_rolled", 0, attacker="hero", rolls=[7], same_attack=True)
    assert rejected(ana_phase, again) == "no_attack_to_continue"
    state = play(ana_phase, attack(ev, 0, 12), again, again, ev("hero_moved", 0))
    assert rejected(state, again) == "no_attack_to_continue"  # the move came in between


def test_a_stunned_hero_loses_the_free_move(ana_phase, play, ev, rejected) -> None:
    """Stunned: one action only, a move or an attack (reported by the audit: it moved and attacked)."""
    stunned = play(ana_phase, hero_gains(ev, 0, "stunned"))
    state = play(stunned, ev("hero_moved", 0))
    assert rejected(state, ev("hero_moved", 0)) == "no_action_left"
    assert rejected(state, attack(ev, 0, 12)) == "no_action_left"
    state = play(stunned, attack(ev, 0, 12))
    assert rejected(state, ev("hero_moved", 0)) == "no_action_left"


def test_stunned_is_discarded_at_the_end_of_the_hero_phase(fresh, play, ev) -> None:
    state = play(fresh, hero_gains(ev, 0, "stunned"), hero_gains(ev, 1, "stunned"))
    state = play(state, ev("hero_phase_started", 0))
    assert "stunned" in state["heroes"][0]["conditions"]
    state = play(state, ev("hero_phase_ended", 0))
    assert state["heroes"][0]["conditions"] == []
    assert state["heroes"][1]["conditions"] == ["stunned"]  # only the hero whose phase ended


def test_a_stunned_monster_skips_its_next_activation_then_loses_the_marker(villain, play, ev, rejected) -> None:
    state = play(villain, monster_gains(ev, "Kobold", "stunned"), ev("monster_activated", monster="Kobold"))
    assert state["activation"] == {"monster": "Kobold", "skipped": True}
    assert state["monsters"][0]["conditions"] == []
    assert rejected(state, monster_attack(ev, "Kobold", 12)) == "monster_skipped"
    state = play(state, ev("monster_activated", monster="Kobold"), monster_attack(ev, "Kobold", 12))
    assert state["last_attack"]["monster"] == "Kobold"


# -- poisoned ------------------------------------------------------------------------------------------


def test_poison_deals_one_damage_at_the_start_of_the_hero_phase(fresh, play, ev) -> None:
    state = play(fresh, hero_gains(ev, 0, "poisoned"), ev("hero_phase_started", 0))
    assert state["heroes"][0]["hp"] == 9


def test_poison_damage_comes_before_the_surge_check(fresh, play, ev) -> None:
    state = play(fresh, ev("damage_taken", 0, amount=9), hero_gains(ev, 0, "poisoned"), ev("hero_phase_started", 0))
    assert (state["heroes"][0]["hp"], state["healing_surges"]) == (4, 1)


def test_poison_at_zero_with_no_surge_loses(play, ev, start) -> None:
    state = start({"healing_surges": 0})
    state = play(state, ev("damage_taken", 0, amount=9), hero_gains(ev, 0, "poisoned"), ev("hero_phase_started", 0))
    assert state["result"] == "lost"


def test_a_poisoned_hero_rolls_at_the_end_of_the_hero_phase(fresh, play, ev, rejected) -> None:
    state = play(fresh, hero_gains(ev, 0, "poisoned"), ev("hero_phase_started", 0))
    assert rejected(state, ev("hero_phase_ended", 0)) == "poison_roll_needed"
    state = play(state, ev("poison_roll_made", 0, roll=9))
    assert "poisoned" in state["heroes"][0]["conditions"]
    assert rejected(state, ev("poison_roll_made", 0, roll=15)) == "hero_phase_ending"
    assert rejected(state, ev("hero_moved", 0)) == "hero_phase_ending"
    assert rejected(state, attack(ev, 0, 4)) == "hero_phase_ending"
    state = play(state, ev("hero_phase_ended", 0))
    assert state["phase"] == "villain"
    assert "poisoned" in state["heroes"][0]["conditions"]


@pytest.mark.parametrize(("roll", "cured"), [(1, False), (9, False), (10, True), (20, True)])
def test_ten_or_higher_clears_poison(fresh, play, ev, roll, cured) -> None:
    state = play(
        fresh, hero_gains(ev, 0, "poisoned"), ev("hero_phase_started", 0), ev("poison_roll_made", 0, roll=roll)
    )
    assert ("poisoned" not in state["heroes"][0]["conditions"]) is cured


def test_no_poison_roll_without_poison(ana_phase, ev, rejected) -> None:
    assert rejected(ana_phase, ev("poison_roll_made", 0, roll=12)) == "not_poisoned"


def test_the_poison_roll_belongs_to_the_active_hero(fresh, play, ev, rejected) -> None:
    state = play(fresh, hero_gains(ev, 1, "poisoned"), ev("hero_phase_started", 0))
    assert rejected(state, ev("poison_roll_made", 1, roll=12)) == "not_your_turn"


def test_monsters_cannot_be_poisoned(villain, ev, rejected) -> None:
    assert rejected(villain, monster_gains(ev, "Kobold", "poisoned")) == "monster_not_poisonable"


def test_conditions_need_a_target(fresh, villain, ev, rejected) -> None:
    assert rejected(fresh, ev("condition_gained", None, target="hero", condition="stunned")) == "seat_required"
    assert rejected(villain, ev("condition_gained", None, target="monster", condition="stunned")) == "monster_required"
    assert rejected(villain, monster_gains(ev, "Ghoul", "stunned")) == "unknown_monster"


def test_an_effect_may_discard_a_marker(fresh, villain, play, ev, rejected) -> None:
    lose = ev("condition_lost", 2, target="hero", condition="poisoned")
    assert rejected(fresh, lose) == "condition_absent"
    state = play(fresh, hero_gains(ev, 2, "poisoned"), lose)
    assert state["heroes"][2]["conditions"] == []
    state = play(villain, monster_gains(ev, "Sahuagin", "advantage"))
    state = play(state, ev("condition_lost", None, target="monster", monster="Sahuagin", condition="advantage"))
    assert state["monsters"][1]["conditions"] == []

"""Setup, turn order and phases, the stream-level checks and the end of the adventure."""

from __future__ import annotations

import copy
import importlib
import json

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.saltmarsh_adventure import RULESET
from rulesets.schema import check_payload

pytestmark = pytest.mark.pure


def test_registered_as_a_match_for_one_to_five_heroes() -> None:
    ruleset = importlib.import_module("rulesets.saltmarsh_adventure").RULESET  # what the registry loads
    assert ruleset is RULESET and ruleset.slug == "saltmarsh-adventure"
    assert (ruleset.kind, ruleset.seats) == ("match", (1, 2, 3, 4, 5))


def test_each_seat_plays_its_hero_at_full_hp(fresh) -> None:
    assert [(h["name"], h["hp"], h["max_hp"]) for h in fresh["heroes"]] == [("Ana", 10, 10), ("Bo", 7, 7), ("Cy", 8, 8)]
    assert (fresh["healing_surges"], fresh["xp"], fresh["active"], fresh["phase"]) == (2, 0, 0, "start")
    assert RULESET.warnings(fresh) == []
    assert json.loads(json.dumps(fresh)) == fresh


def test_option_defaults() -> None:
    assert check_payload(RULESET.options_schema, {}) == {
        "heroes": [],
        "healing_surges": 2,
        "surge_hp": None,
        "adventure": "Adventure",
        "campaign_reward": 0,
        "encounter_cancel_xp": 5,
    }


def test_seats_the_options_do_not_describe_get_a_default_hero_and_a_warning() -> None:
    state = RULESET.initial_state({"heroes": [{"name": "Ana", "class": "Fighter", "max_hp": 9}]}, 2)
    assert [h["name"] for h in state["heroes"]] == ["Ana", "Hero 2"]
    assert len(RULESET.warnings(state)) == 1
    assert RULESET.warnings(RULESET.initial_state({}, 2)) == []


def test_hero_names_must_differ() -> None:
    heroes = [{"name": "Ana", "class": "Fighter", "max_hp": 9}, {"name": "ana", "class": "Rogue", "max_hp": 9}]
    assert RULESET.check_options({"heroes": heroes})
    assert RULESET.check_options({"heroes": heroes[:1]}) == []


def test_a_turn_is_hero_phase_then_villain_phase_then_next_seat(fresh, play, ev) -> None:
    assert (RULESET.turn(fresh).seats, RULESET.turn(fresh).phase) == ((0,), "start")
    state = play(fresh, ev("hero_phase_started", 0))
    assert RULESET.turn(state).phase == "hero"
    state = play(state, ev("hero_phase_ended", 0))
    assert RULESET.turn(state).phase == "villain"
    state = play(state, ev("villain_phase_ended", 0))
    assert (RULESET.turn(state).seats, RULESET.turn(state).phase, state["round"]) == ((1,), "start", 1)


def test_the_last_seat_hands_over_to_the_first_and_a_new_round(play, ev, start) -> None:
    state = start(seats=1)
    state = play(state, ev("hero_phase_started", 0), ev("hero_phase_ended", 0), ev("villain_phase_ended", 0))
    assert (state["active"], state["round"]) == (0, 2)


def test_only_the_active_seat_runs_its_turn(fresh, ana_phase, rejected, ev) -> None:
    assert rejected(fresh, ev("hero_phase_started", 1)) == "not_your_turn"
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(fresh, ev("hero_phase_started", 1))
    assert info.value.message == f"It is {fresh['heroes'][0]['name']}'s turn."  # the hero, never "seat 0"
    assert rejected(ana_phase, ev("hero_moved", 2)) == "not_your_turn"
    assert rejected(ana_phase, ev("hero_phase_ended", 1)) == "not_your_turn"


def test_phases_come_in_order(fresh, ana_phase, villain, rejected, ev) -> None:
    assert rejected(fresh, ev("hero_moved", 0)) == "wrong_phase"
    assert rejected(fresh, ev("hero_phase_ended", 0)) == "wrong_phase"
    assert rejected(fresh, ev("villain_phase_ended", 0)) == "wrong_phase"
    assert rejected(ana_phase, ev("hero_phase_started", 0)) == "wrong_phase"
    assert rejected(ana_phase, ev("villain_phase_ended", 0)) == "wrong_phase"
    assert rejected(villain, ev("hero_moved", 0)) == "wrong_phase"
    assert rejected(villain, ev("hero_phase_started", 0)) == "wrong_phase"


def test_seats_and_entries_must_exist(fresh, rejected) -> None:
    assert rejected(fresh, Event("hero_phase_started", 3, {})) == "no_such_seat"
    assert rejected(fresh, Event("hero_phase_started", None, {})) == "seat_required"
    assert rejected(fresh, Event("damage_taken", None, {"amount": 1})) == "seat_required"
    assert rejected(fresh, Event("stones_taken", 0, {"count": 1})) == "unknown_event"


def test_winning_makes_every_seat_a_winner(ana_phase, play, ev, rejected) -> None:
    state = play(ana_phase, ev("adventure_won"))
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.draw, outcome.scores) == ((0, 1, 2), False, None)
    assert "Sinister Secret" in outcome.reason
    assert RULESET.turn(state).phase == "over"
    assert rejected(state, ev("hero_moved", 0)) == "game_over"
    assert rejected(state, ev("adventure_lost", reason="x")) == "game_over"


def test_losing_has_no_winners_and_a_reason(fresh, play, ev, rejected) -> None:
    assert RULESET.outcome(fresh) is None
    assert rejected(fresh, ev("adventure_lost", reason="   ")) == "reason_required"
    state = play(fresh, ev("adventure_lost", reason="The villain escaped."))
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((), "The villain escaped.")
    assert rejected(state, ev("adventure_won")) == "game_over"


def test_the_end_is_final_no_house_rule_reopens_it(ana_phase, play, ev) -> None:
    """Issue 46: once the adventure is won or lost, every entry is refused and no override is offered."""
    from rulesets.replay import Position, step

    for ending in (ev("adventure_won"), ev("adventure_lost", reason="The villain escaped.")):
        over = play(ana_phase, ending)
        with pytest.raises(RuleViolation) as info:
            step(RULESET, Position(over, 3, False), ev("damage_taken", 0, amount=1))
        assert (info.value.code, info.value.overridable) == ("game_over", False)
        assert info.value.message.startswith("The adventure is over: ")
        assert info.value.rule == "Ghosts of Saltmarsh › Playing the Campaign"


def test_the_data_is_checked_against_the_entry_fields(fresh, ana_phase, rejected, ev) -> None:
    """The one shape: data that does not fit the entry's fields is refused (``invalid_payload``) after the phase
    and the turn, before the move's own checks; a blank reason for a loss stays the rulebook's refusal."""
    assert rejected(ana_phase, ev("hero_moved", 0, steps=2)) == "invalid_payload"
    assert rejected(fresh, ev("hero_moved", 0, steps=2)) == "wrong_phase"
    assert rejected(ana_phase, ev("attack_rolled", 0, attacker="hero", rolls=[21])) == "invalid_payload"
    assert rejected(fresh, ev("damage_taken", 0)) == "invalid_payload"
    assert rejected(fresh, ev("adventure_lost", reason="   ")) == "reason_required"
    assert rejected(fresh, ev("adventure_lost")) == "invalid_payload"


def test_each_entry_keeps_only_its_own_notices(fresh, play, ev) -> None:
    poisoned = play(fresh, ev("condition_gained", 0, target="hero", condition="poisoned"))
    started = play(poisoned, ev("hero_phase_started", 0))
    assert started["notices"] == ["Ana took 1 poison damage."]
    assert play(started, ev("hero_moved", 0))["notices"] == []


def test_apply_does_not_mutate(ana_phase, ev) -> None:
    before = copy.deepcopy(ana_phase)
    RULESET.apply(ana_phase, ev("damage_taken", 0, amount=3))
    assert ana_phase == before


SAMPLES = {
    "hero_phase_started": (0, {}),
    "hero_moved": (0, {}),
    "attack_rolled": (None, {"attacker": "monster", "monster": "Kobold", "rolls": [4, 17]}),
    "poison_roll_made": (0, {"roll": 12}),
    "hero_phase_ended": (0, {}),
    "villain_phase_ended": (0, {}),
    "damage_taken": (1, {"amount": 2}),
    "hp_healed": (1, {"amount": 2}),
    "condition_gained": (None, {"target": "monster", "monster": "Kobold", "condition": "stunned"}),
    "condition_lost": (2, {"target": "hero", "condition": "poisoned"}),
    "monster_placed": (None, {"monster": "Kobold"}),
    "monster_activated": (None, {"monster": "Kobold"}),
    "monster_defeated": (None, {"monster": "Kobold", "xp": 2}),
    "encounter_cancelled": (None, {"encounter": "Frenzied Leap"}),
    "treasure_found": (0, {"item": {"name": "Potion", "buy": 100, "sell": 50}}),
    "treasure_used": (0, {"item": "Potion"}),
    "gold_found": (0, {"amount": 100}),
    "adventure_won": (None, {}),
    "adventure_lost": (None, {"reason": "Time ran out."}),
}


@pytest.mark.parametrize("name", sorted(RULESET.event_types))
def test_every_entry_has_a_sentence_and_a_valid_sample(name) -> None:
    seat, data = SAMPLES[name]
    check_payload(RULESET.event_types[name].fields, data)
    sentence = RULESET.describe(Event(name, seat, data), ["Ana", "Bo", "Cy"])
    assert sentence.endswith(".") and len(sentence) > 8


def test_the_turn_line_names_the_player_once_and_says_what_to_do(fresh, play, ev) -> None:
    """Issue 22 item 10: the prompt is an imperative without the seat (TurnInfo's rule); it says how the
    phase ends."""
    from rulesets.names import turn_line

    names = ["Pia", "Quinn", "Rae"]  # the players; Ana, Bo and Cy are their heroes
    info = RULESET.turn(fresh)
    assert turn_line(info.seats, info.prompt, names) == "Pia to play — start Ana's Hero Phase"
    state = play(fresh, ev("hero_phase_started", 0))
    assert RULESET.turn(state).prompt == "play Ana's Hero Phase, then end it"
    poisoned = play(state, ev("condition_gained", 0, target="hero", condition="poisoned"))
    assert RULESET.turn(poisoned).prompt == "play Ana's Hero Phase, roll against poison, then end the phase"
    state = play(state, ev("hero_phase_ended", 0))
    assert RULESET.turn(state).prompt == "play Ana's Exploration and Villain Phase, then end it"


def test_chronicles_own_checks_cite_entries(fresh) -> None:
    for event, code in [
        (Event("dice_thrown", 0, {}), "unknown_event"),
        (Event("hero_phase_started", 5, {}), "no_such_seat"),
        (Event("hero_phase_started", None, {}), "seat_required"),
    ]:
        with pytest.raises(RuleViolation) as info:
            RULESET.validate(fresh, event)
        assert (info.value.code, info.value.rule) == (code, "Chronicle › Entries"), info.value.to_dict()

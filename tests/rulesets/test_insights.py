"""Per-game insights: facts of a finished game the statistics count across many games."""

from __future__ import annotations

import pytest

from rulesets import get_ruleset
from rulesets.base import Event
from rulesets.replay import walk
from rulesets.salt_and_bones import board as E
from tests.rulesets.salt_and_bones.conftest import Table as SaltTable

pytestmark = pytest.mark.pure


def test_get_salty_counts_the_winning_attribute_and_line() -> None:
    state = {
        "winner": 1,
        "combinations": [
            {"seat": 1, "attribute": "color", "value": "red", "kind": "row", "cells": []},
            {"seat": 0, "attribute": "shape", "value": "round", "kind": "diagonal", "cells": []},
        ],
    }
    assert get_ruleset("get-salty").insights(state) == {"winning attribute": ["color"], "winning line": ["row"]}
    assert get_ruleset("get-salty").insights({"winner": None, "combinations": []}) == {}


def test_salt_and_bones_says_what_decided_the_game() -> None:
    rules = get_ruleset("salt-and-bones")
    ko = {"result": {"winners": [0], "draw": False, "reason": "Bo is at 0 Health"}, "log": [], "round": 4}
    assert rules.insights(ko) == {"decided by": "0 Health", "rounds": 4}
    tired = {"result": {"winners": [], "draw": True, "reason": "Exhaustion: a deck ran out"}, "log": [], "round": 7}
    assert rules.insights(tired)["decided by"] == "Exhaustion"
    assert rules.insights({"result": None}) == {}


def _walked(rules, options, seats, events):
    return rules.log_insights(walk(rules, options, seats, list(enumerate(events, start=1))))


def test_salt_and_bones_log_insights_replay_each_combat() -> None:
    """The complete game of tests/rulesets/salt_and_bones/test_end.py, by hand. Combat 1: Heavy Blow 4 + 1 (Test
    of Skill) is negated by Bracer but Razor Oil's 2 + 1 gets through (3); Bo's Slash 3 + 0 + 1 is negated by
    Anticipation (0); Flourish (2 + 0 + 1) + (1 + 1) + (1 + 1) = 7; the chained Feint 1 + 1 + 0 + 1 = 3: 13.
    Combat 2 (no GAMBIT): Heavy Blow 4, Bo's Slash 3 (Heavy Blow's opportunity is 0), Ana's Slash 3 (the final
    blow, Bo 3 → 0, the first card of her turn), Bo's Thrust 2 (no opportunity lined up): 12."""
    rules = get_ruleset("salt-and-bones")
    t = _complete_game()
    facts = _walked(rules, t.options, 2, t.events)
    assert facts["damage per combat"] == [3 + 0 + 7 + 3, 4 + 3 + 3 + 2]
    assert facts["second wind"] == "no" and facts["final blow"] == "a regular Attack card"


def test_salt_and_bones_final_blow_counts_the_winners_cards_in_order() -> None:
    cards = [
        {"seat": 0, "damage": 2, "as_chain": False},
        {"seat": 1, "damage": 9, "as_chain": False},  # the loser's own card does not count
        {"seat": 0, "damage": 0, "as_chain": True},  # a negated Chain card deals nothing
        {"seat": 0, "damage": 3, "as_chain": True},
        {"seat": 0, "damage": 4, "as_chain": False},
    ]
    assert E.final_blow(cards, 0, 5) is cards[3]  # 2 + 3 reaches 5
    assert E.final_blow(cards, 0, 2) is cards[0]
    assert E.final_blow(cards, 0, 10) is None


def test_walk_skips_voided_entries_and_overrides() -> None:
    rules = get_ruleset("last-stone")
    events = [
        Event("stones_taken", 0, {"count": 1}),
        Event("event_voided", None, {"version": 1, "reason": "oops"}),
        Event("rule_overridden", None, {"reason": "house rule"}),
        Event("stones_taken", 0, {"count": 2}),
    ]
    steps = list(walk(rules, {"stones": 5}, 2, list(enumerate(events, start=1))))
    assert [(e.version, e.data["count"]) for e, _, _ in steps] == [(4, 2)]
    assert steps[0][1]["pile"] == 5 and steps[0][2]["pile"] == 3


def test_bone_wars_patron_switches_from_the_log() -> None:
    rules = get_ruleset("bone-wars")
    events = [
        Event("passed", 0, {"patron": "cope"}),  # Marsh → Cope: a switch
        Event("passed", 1, {"patron": "cope"}),  # already Cope: none
        Event("card_played", 0, {"card": {"kind": "team", "name": "Crew", "cost": 0}}),
        Event("patron_flipped", 0, {}),  # Cope → Marsh
    ]
    facts = _walked(rules, {}, 2, events)
    assert facts == {
        "patron switches per game": 2,
        "patron switches per player": [2, 0],
        "patron switched by": ["returning on a pass", "flipping the patron tile"],
    }
    assert rules.numeric_insights == {"patron switches per game", "patron switches per player"}


def test_adventures_count_successes() -> None:
    rules = get_ruleset("saltmarsh-adventure")
    assert rules.insights({"result": "won", "adventure": "The Sinister Secret"}) == {
        "adventure result": "won",
        "adventure": "The Sinister Secret",
    }


def test_games_without_insights_give_none() -> None:
    assert get_ruleset("last-stone").insights({"pile": 0, "turn": 1, "winner": 0}) == {}


def test_bone_wars_counts_what_decided_and_the_rp_spread() -> None:
    rules = get_ruleset("bone-wars")
    state = rules.initial_state({}, 2)
    assert rules.insights(state) == {}
    finished = {**state, "finished": True, "players": [{**p} for p in state["players"]]}
    finished["players"][0]["rp"], finished["players"][1]["rp"] = 31, 17
    assert rules.insights(finished) == {"decided by": "most RP", "RP spread": "10–19"}
    finished["players"][1]["rp"] = 31
    assert rules.insights(finished)["decided by"] in {"shared win", "species in the archive", "cranial circumference"}


def _complete_game() -> SaltTable:
    from tests.rulesets.salt_and_bones.test_end import test_complete_game_from_the_first_field_card_to_a_win as game

    built: list[SaltTable] = []

    class Recording(SaltTable):
        def __init__(self, **options) -> None:
            super().__init__(**options)
            built.append(self)

    game(Recording, get_ruleset("salt-and-bones"))
    return built[0]

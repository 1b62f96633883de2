"""Per-game insights: facts of a finished game the statistics count across many games."""

from __future__ import annotations

from rulesets import get_ruleset


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
    ko = {
        "result": {"winners": [0], "draw": False, "reason": "Bo is at 0 Health"},
        "log": ["Second Wind: both …"],
        "round": 4,
    }
    assert rules.insights(ko) == {"decided by": "0 Health", "second wind": "yes", "rounds": 4}
    tired = {"result": {"winners": [], "draw": True, "reason": "Exhaustion: a deck ran out"}, "log": [], "round": 7}
    assert rules.insights(tired)["decided by"] == "Exhaustion"
    assert rules.insights({"result": None}) == {}


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

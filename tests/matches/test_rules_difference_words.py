"""The upgrade preview's one line (``matches.checks.difference_words``): it says every score that moves, in
players' signs (a minus, never a hyphen), and says so when nothing would change."""

from __future__ import annotations

import pytest

from matches.checks import RulesDifference, difference_json, difference_words, points_words, scores_words
from rulesets import get_ruleset
from rulesets.base import Outcome

pytestmark = pytest.mark.pure

NAMES = ["Ana", "Bo"]


def diff(recorded: Outcome | None, current: Outcome | None) -> RulesDifference:
    return RulesDifference(recorded_version=1, current_version=2, recorded=recorded, current=current)


def test_nothing_changing_is_said_in_words():
    ruleset = get_ruleset("last-stone")
    won = Outcome(winners=(0,), reason="took the last stone")
    text = difference_words(ruleset, diff(won, won), NAMES)
    assert text == "under the current rules nothing would change; recorded result kept: Ana won"
    assert "scores would be ;" not in text
    assert difference_words(ruleset, diff(None, None), NAMES) == (
        "under the current rules nothing would change; recorded position kept: no result yet (in progress)"
    )


def test_a_score_that_moves_is_named_with_a_minus_sign():
    ruleset = get_ruleset("scoresheet")
    recorded = Outcome(winners=(0,), scores={0: 12, 1: 0})
    current = Outcome(winners=(0,), scores={0: 12, 1: -4})
    text = difference_words(ruleset, diff(recorded, current), NAMES)
    assert text == "under the current rules the scores would change: Bo 0 \u2192 \u22124; recorded result kept: Ana won"
    assert "-4" not in text
    assert scores_words(current, NAMES) == "Ana 12, Bo \u22124"


def test_a_changed_winner_says_the_scores_too():
    ruleset = get_ruleset("scoresheet")
    recorded = Outcome(winners=(0,), scores={0: 3, 1: 2})
    current = Outcome(winners=(1,), scores={0: 1, 1: 2})
    assert difference_words(ruleset, diff(recorded, current), NAMES) == (
        "under the current rules the result would be: Bo won (scores: Ana 3 \u2192 1); recorded result kept: Ana won"
    )


def test_the_games_unit_follows_each_score(monkeypatch):
    ruleset = get_ruleset("bone-wars")
    monkeypatch.setattr(type(ruleset), "score_unit", "RP")
    recorded = Outcome(winners=(0,), scores={0: 14, 1: 0})
    current = Outcome(winners=(0,), scores={0: 14, 1: -4})
    assert "Bo 0 RP \u2192 \u22124 RP" in difference_words(ruleset, diff(recorded, current), NAMES)
    shown = difference_json(ruleset, diff(recorded, current), NAMES)
    assert shown["current"]["scores_words"] == "Ana 14 RP, Bo \u22124 RP"
    assert points_words(2.5) == "2.5" and points_words(-0.5, "VP") == "\u22120.5 VP"

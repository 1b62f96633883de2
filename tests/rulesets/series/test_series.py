"""The series stream's rules: which matches belong to it (pure, no database)."""

from __future__ import annotations

import pytest

from rulesets import Event, RuleViolation, get_ruleset
from rulesets.replay import replay

pytestmark = pytest.mark.pure

RS = get_ruleset("series")


def state():
    return RS.initial_state({"game": "last-stone", "place_points": [5, 3]}, 0)


def refused(st, event):
    with pytest.raises(RuleViolation) as info:
        RS.validate(st, event)
    assert info.value.rule == "Chronicle › Series" and info.value.message
    return info.value.code


def test_matches_are_added_and_removed_in_order():
    st = state()
    for m in (4, 2, 9):
        RS.validate(st, Event("match_added", None, {"match": m, "game": "last-stone"}))
        st = RS.apply(st, Event("match_added", None, {"match": m, "game": "last-stone"}))
    assert st["matches"] == [4, 2, 9]
    RS.validate(st, Event("match_removed", None, {"match": 2}))
    assert RS.apply(st, Event("match_removed", None, {"match": 2}))["matches"] == [4, 9]
    assert st["matches"] == [4, 2, 9]  # apply copies
    assert st["place_points"] == [5, 3] and RS.outcome(st) is None


def test_a_match_of_another_game_is_refused():
    assert refused(state(), Event("match_added", None, {"match": 1, "game": "get-salty"})) == "other_game"


def test_a_match_already_in_the_series_is_refused():
    st = RS.apply(state(), Event("match_added", None, {"match": 1, "game": "last-stone"}))
    assert refused(st, Event("match_added", None, {"match": 1, "game": "last-stone"})) == "already_in_series"


def test_removing_a_match_not_in_the_series_is_refused():
    assert refused(state(), Event("match_removed", None, {"match": 3})) == "not_in_series"


def test_a_voided_addition_takes_the_match_out_and_it_can_be_added_again():
    events = [
        Event("match_added", None, {"match": 1, "game": "last-stone"}),
        Event("event_voided", None, {"version": 1, "reason": "wrong match"}),
        Event("match_added", None, {"match": 1, "game": "last-stone"}),
    ]
    assert replay(RS, {"game": "last-stone"}, 0, events, check=True).state["matches"] == [1]


def test_default_place_points():
    assert RS.initial_state({"game": "x"}, 0)["place_points"] == [3, 2, 1]


def test_a_match_the_reader_may_not_see_is_worded_without_its_id():
    series = get_ruleset("series")
    assert series.describe(Event("match_added", None, {"match": None, "game": None}), []) == (
        "A private match added to the series."
    )
    assert (
        series.describe(Event("match_removed", None, {"match": None}), []) == "A private match removed from the series."
    )
    assert series.describe(Event("match_added", None, {"match": 7}), []) == "Match 7 added to the series."

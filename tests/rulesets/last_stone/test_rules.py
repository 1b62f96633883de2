"""Last Stone, the example every game copies: each rule played legal and illegal, and random games keep the
pile's invariants (the rulesets' own tests need no database)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import Event, RuleViolation, get_ruleset
from rulesets.last_stone.fields import RULE_END, RULE_TAKE, RULE_TURN

pytestmark = pytest.mark.pure

RULESET = get_ruleset("last-stone")


def _state(stones: int = 10, first: int = 0) -> dict:
    return RULESET.initial_state({"stones": stones, "first_seat": first}, 2)


def _refusal(state: dict, event: Event) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(state, event)
    return info.value


def test_a_take_of_one_to_three_stones_passes_the_turn():
    state = RULESET.apply(_state(), Event("stones_taken", 0, {"count": 3}))
    assert (state["pile"], state["turn"], state["winner"]) == (7, 1, None)


def test_taking_more_than_three_or_none_is_refused_by_the_entrys_fields():
    for count in (0, 4):
        assert _refusal(_state(), Event("stones_taken", 0, {"count": count})).code == "invalid_payload"


def test_taking_more_than_the_pile_is_refused_with_the_rule():
    refusal = _refusal(_state(stones=2), Event("stones_taken", 0, {"count": 3}))
    assert (refusal.code, refusal.rule) == ("not_enough_stones", RULE_TAKE)
    assert "Only 2 stones are left" in refusal.message


def test_only_the_seat_on_turn_takes():
    refusal = _refusal(_state(first=1), Event("stones_taken", 0, {"count": 1}))
    assert (refusal.code, refusal.rule, refusal.message) == ("not_your_turn", RULE_TURN, "It is Seat 1's turn.")
    RULESET.validate(_state(first=1), Event("stones_taken", 1, {"count": 1}))


def test_an_unknown_entry_or_seat_is_refused_before_the_rules():
    assert _refusal(_state(), Event("stones_dropped", 0, {})).code == "unknown_event"
    assert _refusal(_state(), Event("stones_taken", 2, {"count": 1})).code == "unknown_seat"
    assert _refusal(_state(), Event("stones_taken", None, {"count": 1})).code == "unknown_seat"


def test_whoever_takes_the_last_stone_wins_and_the_end_is_final():
    state = RULESET.apply(_state(stones=2), Event("stones_taken", 0, {"count": 2}))
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    refusal = _refusal(state, Event("stones_taken", 1, {"count": 1}))
    assert (refusal.code, refusal.rule, refusal.overridable) == ("game_over", RULE_END, False)
    assert RULESET.legal_moves(state) == [] and RULESET.turn(state).seats == ()


def test_who_starts_and_the_history_sentence():
    assert RULESET.start_with(_state(), 1)["turn"] == 1
    with pytest.raises(RuleViolation):
        RULESET.start_with(_state(), 2)
    assert RULESET.describe(Event("stones_taken", 1, {"count": 1}), ["Ana", "Bo"]) == "Seat 1 took 1 stone"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=40), st.lists(st.integers(min_value=0, max_value=9), max_size=60))
def test_random_legal_games_keep_the_pile_and_end_with_one_winner(stones, picks):
    state = _state(stones=stones)
    taken = 0
    for pick in picks:
        moves = RULESET.legal_moves(state)
        if not moves:
            break
        move = moves[pick % len(moves)]
        RULESET.validate(state, move)
        state = RULESET.apply(state, move)
        taken += move.data["count"]
        assert state["pile"] == stones - taken >= 0
    assert (RULESET.outcome(state) is not None) == (state["pile"] == 0)

"""The shared corrections fold and the payload schema language, on the demo game (no database)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import Event, Field, RuleViolation, SchemaError, check_payload, get_ruleset
from rulesets.replay import Position, ReplayError, fold, replay, states_before, step, voided_versions
from rulesets.schema import json_schema

pytestmark = pytest.mark.pure

STONES = get_ruleset("last-stone")


def take(seat, n):
    return Event("stones_taken", seat, {"count": n})


def test_void_removes_the_entry_from_the_fold():
    pos = replay(
        STONES, {"stones": 10}, 2, [take(0, 3), take(1, 2), Event("event_voided", None, {"version": 2, "reason": "x"})]
    )
    assert pos.state == {"pile": 7, "turn": 1, "winner": None} and pos.version == 3


def test_override_lets_one_illegal_move_through():
    start = Position(STONES.initial_state({"stones": 10}, 2))
    with pytest.raises(RuleViolation):
        step(STONES, start, take(1, 1))
    pos = step(STONES, start, Event("rule_overridden", None, {"reason": "house rule"}))
    assert pos.override_pending
    pos = step(STONES, pos, take(1, 1))
    assert pos.state["pile"] == 9 and not pos.override_pending
    with pytest.raises(RuleViolation):
        step(STONES, pos, take(0, 1))  # seat 1 moved, so seat 0 is on turn: legal
        step(STONES, pos, take(1, 1))


def test_two_overrides_in_a_row_are_refused():
    pos = step(STONES, Position(STONES.initial_state({}, 2)), Event("rule_overridden", None, {"reason": "a"}))
    with pytest.raises(RuleViolation) as exc:
        step(STONES, pos, Event("rule_overridden", None, {"reason": "b"}))
    assert exc.value.code == "override_pending"


def test_checked_fold_reports_the_entry_that_became_illegal():
    events = list(enumerate([take(0, 3), take(1, 3)], start=1))
    with pytest.raises(ReplayError) as exc:
        fold(STONES, Position(STONES.initial_state({}, 2)), events, {1}, check=True)
    assert exc.value.version == 2 and exc.value.violation.code == "not_your_turn"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=3), max_size=20), st.data())
def test_voiding_the_last_entry_equals_never_recording_it(counts, data):
    state = STONES.initial_state({"stones": 100}, 2)
    events = []
    for n in counts:
        seat = state["turn"]
        events.append(take(seat, n))
        state = STONES.apply(state, events[-1])
    if not events:
        return
    voided = replay(
        STONES, {"stones": 100}, 2, [*events, Event("event_voided", None, {"version": len(events), "reason": "x"})]
    )
    assert voided.state == replay(STONES, {"stones": 100}, 2, events[:-1]).state
    assert voided_versions([(1, Event("event_voided", None, {"version": 3}))]) == {3}


def test_schema_rejects_wrong_shapes_and_fills_defaults():
    fields = (
        Field("n", "int", minimum=0, maximum=5),
        Field("cell", "cell"),
        Field("kind", "choice", choices=("a", "b")),
        Field("tags", "list", item=Field("tag", "str"), required=False, default=[]),
        Field("opt", "bool", required=False, default=False),
    )
    assert check_payload(fields, {"n": 1, "cell": [0, 1], "kind": "a"}) == {
        "n": 1, "cell": [0, 1], "kind": "a", "tags": [], "opt": False,
    }  # fmt: skip
    with pytest.raises(SchemaError) as exc:
        check_payload(fields, {"n": 9, "cell": [0], "kind": "c", "tags": [1], "zzz": 1})
    assert set(exc.value.errors) == {"n", "cell", "kind", "tags[0]", "zzz"}
    schema = json_schema(fields)
    assert schema["required"] == ["n", "cell", "kind"] and schema["properties"]["kind"] == {"enum": ["a", "b"]}


def test_number_fields_take_whole_and_decimal_numbers_within_bounds():
    fields = (Field("cm", "number", minimum=0, maximum=200),)
    assert check_payload(fields, {"cm": 57.5}) == {"cm": 57.5}
    assert check_payload(fields, {"cm": 58}) == {"cm": 58}
    for bad in ("57", True, float("nan"), float("inf"), -1, 200.5, [57]):
        with pytest.raises(SchemaError) as exc:
            check_payload(fields, {"cm": bad})
        assert list(exc.value.errors) == ["cm"]
    assert json_schema(fields)["properties"]["cm"] == {"type": "number", "minimum": 0, "maximum": 200}


def test_folded_events_carry_their_stream_version():
    seen = []

    class Recorder(type(STONES)):
        def apply(self, state, event):
            seen.append(event.version)
            return super().apply(state, event)

    events = [take(0, 1), take(1, 1), Event("event_voided", None, {"version": 2, "reason": "x"}), take(1, 2)]
    replay(Recorder(), {"stones": 10}, 2, events)
    assert seen == [1, 4]  # the voided entry is skipped; versions are the stream's, not a count
    assert take(0, 1) == Event("stones_taken", 0, {"count": 1}, version=7)  # not part of the identity


def test_states_before_gives_the_state_each_entry_was_played_on():
    events = [take(0, 3), take(1, 2), Event("event_voided", None, {"version": 2, "reason": "x"}), take(1, 1)]
    before = states_before(STONES, Position(STONES.initial_state({"stones": 10}, 2)), enumerate(events, start=1))
    assert [before[v]["pile"] for v in (1, 2, 3, 4)] == [10, 7, 7, 7]


def test_name_seats_puts_the_players_names_in_place_of_seat_numbers():
    from rulesets.base import name_seats

    names = ["Ana", "Bo"]
    assert name_seats("It is Seat 1's turn; seat 0 waits.", names) == "It is Bo's turn; Ana waits."
    assert name_seats("seats 0 and 1; Seat 7; Seat 10", names) == "seats 0 and 1; Seat 7; Seat 10"


# -- the end is final (DESIGN.md §2): no house rule reopens a finished game; a correction does ---------------


def _finished_last_stone() -> Position:
    ruleset = get_ruleset("last-stone")
    return replay(ruleset, {"stones": 2}, 2, [Event("stones_taken", 0, {"count": 2})])


def test_after_a_final_result_a_house_rule_is_refused_and_not_overridable():
    ruleset = get_ruleset("last-stone")
    pos = _finished_last_stone()
    with pytest.raises(RuleViolation) as info:
        step(ruleset, pos, Event("rule_overridden", None, {"reason": "one more"}))
    assert (info.value.code, info.value.overridable) == ("game_over", False)
    with pytest.raises(RuleViolation) as info:
        step(ruleset, pos, Event("stones_taken", 1, {"count": 1}))
    assert (info.value.code, info.value.overridable) == ("game_over", False)


def test_a_stored_house_rule_after_the_end_still_replays_as_recorded():
    """Streams recorded before the end was final keep their entries: the replay does not judge them."""
    ruleset = get_ruleset("last-stone")
    events = [
        Event("stones_taken", 0, {"count": 2}),
        Event("rule_overridden", None, {"reason": "old house rule"}),
        Event("stones_taken", 1, {"count": 1}),
    ]
    assert replay(ruleset, {"stones": 2}, 2, events).version == 3


def test_a_void_reopens_a_finished_game():
    ruleset = get_ruleset("last-stone")
    events = [Event("stones_taken", 0, {"count": 2}), Event("event_voided", None, {"version": 1, "reason": "x"})]
    pos = replay(ruleset, {"stones": 2}, 2, events)
    assert ruleset.outcome(pos.state) is None
    step(ruleset, pos, Event("rule_overridden", None, {"reason": "house rule"}))

"""``rulesets.offline`` without a server: the answers the match page gets for voids, folds and calls that fail
(the differential browser test holds every answer equal to the server's)."""

from __future__ import annotations

import json

import pytest

from rulesets import get_ruleset
from rulesets.offline import fold_entries, handle, record, void_json

pytestmark = pytest.mark.pure

TAKE = {"type": "stones_taken", "seat": 0, "data": {"count": 2}}


def start() -> dict:
    state = get_ruleset("last-stone").initial_state({"stones": 10, "first_seat": 0}, 2)
    return {"game": "last-stone", "options": {"stones": 10, "first_seat": 0}, "version": 0, "state": state,
            "override_pending": False, "seat_names": ["Ana", "Bo"]}  # fmt: skip


def test_a_void_needs_the_log_up_to_the_position():
    after = record(start(), TAKE)["position"]
    log = [{"version": 1, **TAKE}]
    assert void_json(after, None, 1)["ok"] is None
    assert void_json(after, [], 1)["ok"] is None  # a log that stops short of the position
    undone = void_json(after, log, 1, "wrong pile")
    assert undone["ok"] and undone["position"]["version"] == 2 and undone["position"]["state"] == start()["state"]
    assert undone["words"] == "Voided entry 1: wrong pile"
    assert void_json(after, log, 2)["body"]["violation"] == "no_such_entry"


def test_fold_stops_at_the_first_entry_not_recorded_and_keeps_the_log_for_voids():
    folded = fold_entries(start(), [TAKE, TAKE], [])
    assert folded["ok"] is False and folded["refused_at"] == 1 and folded["position"]["version"] == 1
    assert folded["body"]["detail"] == "It is Bo's turn."
    undo = {"type": "event_voided", "seat": None, "data": {"version": 1, "reason": "oops"}}
    folded = fold_entries(start(), [TAKE, undo, TAKE], [])
    assert folded["ok"] is True and folded["position"]["version"] == 3


def test_an_incomplete_position_leaves_the_rules_to_the_server_but_still_checks_the_shape():
    hidden = {**start(), "complete": False}
    assert record(hidden, TAKE)["ok"] is None
    assert record(hidden, {"type": "stones_taken", "seat": 7})["body"]["errors"] == {
        "seat": ["No seat 7: this stream has seats 0 to 1."]
    }


def test_a_call_that_fails_answers_an_error_never_a_traceback():
    assert "error" in json.loads(handle('{"op": "nope"}'))
    assert json.loads(handle(json.dumps({"op": "turn", "args": [start()]})))["line"].startswith("Ana to play")
    assert record({"game": "chess"}, TAKE)["ok"] is None


def test_a_seat_revealed_on_a_shared_phone_is_hidden_again_by_the_next_entry():
    shown = {**start(), "viewer": {"everything": False, "seat": 0, "revealed": True}}
    after = record(shown, TAKE)["position"]
    assert after["viewer"] == {"everything": False, "seat": None, "revealed": False}
    held = {**start(), "viewer": {"everything": False, "seat": 0}}  # a seat holder's own view stays
    assert record(held, TAKE)["position"]["viewer"] == held["viewer"]

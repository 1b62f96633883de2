"""``rulesets.offline`` without a server: the answers the match page gets for voids, folds and calls that fail
(the differential browser test holds every answer equal to the server's)."""

from __future__ import annotations

import json

import pytest

from rulesets import get_ruleset
from rulesets.offline import fold_entries, handle, record, void_json
from rulesets.schema import check_payload

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
    assert undone["words"] == "Move 1 was undone: wrong pile"
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


def test_a_refusal_says_whether_a_house_rule_could_record_it():
    """The offline page offers "Record it anyway (house rule)" only when the body's ``overridable`` says so, as
    the server's page does (issue 32: a First Spine setup entry after setup is unplayable even then)."""
    ruleset = get_ruleset("the-first-spine")
    options = check_payload(ruleset.options_schema, {"board": [4, 5]})
    pos = {"game": "the-first-spine", "options": options, "version": 0,
           "state": ruleset.initial_state(options, 2), "override_pending": False,
           "seat_names": ["Ana", "Bo"]}  # fmt: skip
    for entry in (
        {"type": "destiny_chosen", "seat": 0, "data": {"destiny": "hunter"}},
        {"type": "origin_chosen", "seat": 0, "data": {"origin": "healer"}},
        {"type": "destiny_chosen", "seat": 1, "data": {"destiny": "hunter"}},
        {"type": "origin_chosen", "seat": 1, "data": {"origin": "priest"}},
        {"type": "hand_refilled", "seat": 0, "data": {"discarded": 0}},
    ):
        answer = record(pos, entry)
        assert answer["ok"], answer
        pos = answer["position"]
    again = record(pos, {"type": "destiny_chosen", "seat": 0, "data": {"destiny": "sorcerer"}})
    assert again["body"]["violation"] == "setup_finished" and again["body"]["overridable"] is False
    away = record(pos, {"type": "card_placed", "seat": 0, "data": {"card": "Squire", "at": [0, 0]}})
    assert away["body"]["violation"] == "not_next_to_yours" and away["body"]["overridable"] is True
    taken = record(start(), {"type": "stones_taken", "seat": 1, "data": {"count": 1}})
    assert taken["body"]["overridable"] is True
    house = {"type": "rule_overridden", "seat": None, "data": {"reason": "we allow it"}}
    twice = record(record(start(), house)["position"], house)  # Chronicle's own rules: never
    assert twice["body"]["violation"] == "override_pending" and twice["body"]["overridable"] is False

"""The rest of the interface: registry, schemas, descriptions, views, replay."""

from __future__ import annotations

import importlib
import json

import pytest

from rulesets.base import Event
from rulesets.replay import describe_entry, replay
from rulesets.schema import check_payload

pytestmark = pytest.mark.pure


def test_registered_under_its_slug(gs):
    # what rulesets.registry does with each listed module (not called: it imports every other game too)
    assert importlib.import_module("rulesets.get_salty").RULESET is gs.R
    assert gs.R.slug == "get-salty" and gs.R.seats == (2,) and gs.R.name == "Get Salty"


def test_every_listed_move_passes_the_payload_schema(gs):
    state = gs.position({"circle-red": (1, 0)}, container=(0, 0))
    for move in [*gs.R.legal_moves(gs.R.initial_state({}, 2)), *gs.R.legal_moves(state)]:
        fields = gs.R.event_types[move.type].fields
        assert check_payload(fields, move.data) == move.data


def test_describe(gs):
    names = ["Ann", "Bob"]
    assert describe_entry(gs.R, gs.ev("victory_attribute_chosen", 0, attribute="shape"), names) == (
        "Ann chose shape as their victory attribute."
    )
    assert describe_entry(gs.R, gs.ev("salt_container_flipped", 1), names) == "Bob flipped the Salt Container."
    assert describe_entry(gs.R, gs.ev("salt_container_moved", 1, to=[2, -1]), names) == (
        "Bob moved the Salt Container to column 2, row -1 and flipped it."
    )
    assert (
        describe_entry(gs.R, gs.ev("cracker_flipped", 0, cracker="square-blue"), names)
        == "Ann flipped the blue square."
    )
    assert describe_entry(gs.R, gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]), names) == (
        "Ann moved the red circle to column 1, row 0 and flipped it."
    )
    assert describe_entry(gs.R, Event("cracker_moved", None, {}), names).startswith("The table")
    # told with the position it was played on, a destination is placed next to a token, as on the board
    before = gs.position({"circle-red": (1, 0)}, container=(0, 0))
    assert describe_entry(gs.R, gs.ev("cracker_moved", 1, cracker="square-blue", to=[1, -1]), names, before) == (
        "Bob moved the blue square to column 1, row -1, above the red circle, and flipped it."
    )


def test_view_is_public_and_json(gs):
    state = gs.started()
    assert gs.R.view(state, 0) == gs.R.view(state, None) == state
    assert json.loads(json.dumps(state)) == state


def test_replay_with_checks_matches_step_by_step_play(gs):
    events = [
        gs.ev("victory_attribute_chosen", 1, attribute="color"),
        gs.ev("cracker_moved", 1, cracker="circle-red", to=[1, 0]),
        gs.ev("cracker_moved", 0, cracker="square-blue", to=[0, 1]),
        gs.ev("salt_container_moved", 1, to=[1, 1]),
        gs.ev("cracker_flipped", 0, cracker="circle-red"),
    ]
    pos = replay(gs.R, {"first_seat": 1}, 2, events, check=True)
    assert pos.version == 5
    assert pos.state == gs.play(gs.R.initial_state({"first_seat": 1}, 2), *events)
    assert pos.state["tokens"]["container"] == {"cell": [1, 1], "salty": False}
    assert pos.state["tokens"]["circle-red"] == {"cell": [1, 0], "salty": False}

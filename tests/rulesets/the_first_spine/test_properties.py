"""Hypothesis: random games never crash on replay, refusals never change the state, views never leak an origin."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.base import Event
from rulesets.replay import replay
from rulesets.schema import check_payload
from rulesets.the_first_spine import RULESET as rs
from rulesets.the_first_spine import engine as E
from rulesets.the_first_spine import rules as R
from rulesets.the_first_spine.cards import ORIGINS
from tests.rulesets.scenario import try_step

pytestmark = pytest.mark.pure

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.fixed_dictionaries(
    {
        "board": st.sampled_from([[3, 3], [4, 5], [5, 5], [7, 7]]),
        "wizard_hp": st.integers(min_value=1, max_value=12),
        "hand_size": st.integers(min_value=1, max_value=6),
        "deck_size": st.integers(min_value=6, max_value=14),
        "first_seat": st.sampled_from([0, 1, 2, 3]),
    }
)


def _cell(data: Any, state: dict[str, Any], label: str) -> list[int]:
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    return [data.draw(st.integers(-1, rows), label=f"{label}.r"), data.draw(st.integers(-1, cols), label=f"{label}.c")]


def _candidate(data: Any, state: dict[str, Any]) -> Event:
    """A plausible event: mostly a listed or well-aimed one, sometimes anything at all."""
    seats = len(state["players"])
    moves = rs.legal_moves(state)
    if moves and data.draw(st.integers(0, 9), label="listed?") < 8:
        return data.draw(st.sampled_from(moves), label="listed")
    seat = data.draw(st.one_of(st.just(state["turn"]["seat"]), st.integers(-1, seats)), label="seat")
    kind = data.draw(st.sampled_from(sorted(rs.event_types)), label="type")
    occupied = [c["at"] for c in state["cards"]]
    if kind == "card_placed":
        payload = {
            "card": data.draw(st.sampled_from([*state["catalog"], "Nope"]), label="card"),
            "at": data.draw(
                st.one_of(
                    st.sampled_from(R.placeable_cells(state, state["turn"]["seat"]) or [[0, 0]]),
                    st.just(_cell(data, state, "at")),
                ),
                label="at",
            ),
        }
    elif kind == "hp_changed":
        at = data.draw(st.sampled_from(occupied), label="at") if occupied else [0, 0]
        payload = {"at": at, "amount": data.draw(st.integers(-6, 4), label="amount"), "note": ""}
    elif kind == "confrontation_target_chosen":
        _, missing = E.plan(state) if state["turn"]["phase"] == "actions" else ([], [])
        if missing:
            m = missing[0]
            payload = {"from": m["from"], "target": data.draw(st.sampled_from(m["options"]), label="target")}
        else:
            payload = {"from": _cell(data, state, "from"), "target": _cell(data, state, "target")}
    elif kind == "card_moved":
        payload = {"from": _cell(data, state, "from"), "to": _cell(data, state, "to")}
    elif kind == "hand_refilled":
        payload = {"discarded": data.draw(st.integers(-1, 8), label="n")}
    elif kind == "turn_ended":
        payload = data.draw(st.sampled_from([{}, {"x": 1}]), label="payload")
    elif kind == "destiny_chosen":
        payload = {"destiny": data.draw(st.sampled_from(["hunter", "sorcerer", "pirate"]), label="destiny")}
    else:
        payload = {"origin": data.draw(st.sampled_from([*ORIGINS, "pirate"]), label="origin")}
    return Event(kind, seat, payload)


def _play(data: Any, steps: int = 60) -> tuple[dict[str, Any], int, list[Event], dict[str, Any]]:
    options = check_payload(rs.options_schema, data.draw(OPTIONS, label="options"))
    seats = data.draw(st.sampled_from([2, 3, 4]), label="seats")
    state = rs.initial_state(options, seats)
    events: list[Event] = []
    for _ in range(steps):
        if rs.outcome(state) is not None:
            break
        event = _candidate(data, state)
        before = json.dumps(state, sort_keys=True)
        new = try_step(rs, state, event)
        if new is None:
            assert json.dumps(state, sort_keys=True) == before, "a refusal changed the state"
            continue
        _check_invariants(state, event, new)
        state = new
        events.append(event)
        if len(events) % 8 == 0:
            _check_views(state)
    _check_views(state)
    return options, seats, events, state


def _check_invariants(before: dict[str, Any], event: Event, state: dict[str, Any]) -> None:
    cells = [tuple(c["at"]) for c in state["cards"]]
    assert len(cells) == len(set(cells)), "two pieces on one cell"
    rows, cols = state["board"]["rows"], state["board"]["cols"]
    assert all(0 <= r < rows and 0 <= c < cols for r, c in cells)
    for p in state["players"]:
        assert p["hand"] >= 0 and p["deck"] >= 0 and p["hand"] <= state["settings"]["hand_size"]
        assert p["wizard_hp"] >= 0
        assert (E.wizard_of(state, p["seat"]) is None) == p["out"]
    for c in state["cards"]:
        assert c["kind"] == "wizard" or c["hp"] > 0, "a card at 0 stays on the board"
        assert not state["players"][c["controller"]]["out"]
    living = [p for p in state["players"] if not p["out"]]
    assert (state["result"] is not None) == (len(living) <= 1)


def _check_views(state: dict[str, Any]) -> None:
    """No viewer sees a secret origin; what they see does not change if that origin were another one."""
    seats = len(state["players"])
    for viewer in [None, *range(seats)]:
        seen = rs.view(state, viewer)
        for p in seen["players"]:
            if p["seat"] != viewer and not p["origin_revealed"]:
                assert p["origin"] is None
                for other in ORIGINS:
                    twin = {**state, "players": copy.deepcopy(state["players"])}
                    twin["players"][p["seat"]]["origin"] = other
                    assert rs.view(twin, viewer) == seen


@given(st.data())
@SETTINGS
def test_random_games_replay_refuse_cleanly_and_never_leak(data):
    options, seats, events, state = _play(data)
    pos = replay(rs, options, seats, events, check=True)
    assert pos.state == state
    for event in events:
        for viewer in [None, *range(seats)]:
            shown = rs.redact_event(event, state, viewer)
            if event.type == "origin_chosen" and event.seat != viewer:
                assert shown.data["origin"] is None
            rs.describe(shown, [f"P{i}" for i in range(seats)])


@given(st.data())
@SETTINGS
def test_replay_of_any_prefix_matches_the_live_state(data):
    options, seats, events, _ = _play(data, steps=30)
    cut = data.draw(st.integers(0, len(events)), label="cut")
    pos = replay(rs, options, seats, events[:cut], check=True)
    assert pos.version == cut
    rs.turn(pos.state)
    rs.legal_moves(pos.state)

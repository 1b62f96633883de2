"""Hypothesis: a turn end's result depends on the board, never on the order the cards were placed in
(issue 22: the same board built in any placement order resolves to the same state)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.base import Event
from rulesets.schema import check_payload
from rulesets.the_first_spine import RULESET as rs
from rulesets.the_first_spine import engine as E
from rulesets.the_first_spine.cards import default_cards

pytestmark = pytest.mark.pure

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _extra(name: str, hp: int, attack: int, caps: list[str]) -> dict[str, Any]:
    sides = ("front", "right", "back", "left")
    return {
        "name": name,
        "kind": "creature",
        "hp": hp,
        "attack": dict.fromkeys(sides, attack),
        "defense": dict.fromkeys(sides, 0),
        "capacities": caps,
    }


CARDS = [
    *default_cards(),
    _extra("Traitor", 2, 2, ["treason"]),
    _extra("Zealot", 2, 1, ["death", "treason"]),
    _extra("Leech", 1, 1, ["death"]),
]
ON_BOARD = [c["name"] for c in CARDS if c["kind"] != "spell"]


def _started(options: dict[str, Any], seats: int) -> dict[str, Any]:
    state = rs.initial_state(options, seats)
    for seat in range(seats):
        state = rs.apply(state, Event("destiny_chosen", seat, {"destiny": "hunter"}))
        state = rs.apply(state, Event("origin_chosen", seat, {"origin": "priest"}))
    return rs.apply(state, Event("hand_refilled", 0, {"discarded": 0}))


def _built(start: dict[str, Any], placements: list[tuple[list[int], str, int, int]]) -> dict[str, Any]:
    """``start`` with the cards stood in the given order, each at its given life (hurt earlier)."""
    state = E.clone(start)
    for at, name, seat, hp in placements:
        piece = E.put_card(state, E.find_card(state, name), seat, (at[0], at[1]))
        piece["hp"] = min(hp, piece["hp"])
    return E.derive(state)


def _end_turn(state: dict[str, Any]) -> dict[str, Any]:
    """Choose a target for every card facing several (the first cell in reading order), then end the turn."""
    for _ in range(len(state["cards"])):
        _, missing = E.plan(state)
        if not missing:
            break
        m = missing[0]
        target = min(m["options"])
        state = rs.apply(state, Event("confrontation_target_chosen", 0, {"from": m["from"], "target": target}))
    event = Event("turn_ended", 0, {})
    rs.validate(state, event)
    return rs.apply(state, event)


def _board(state: dict[str, Any]) -> dict[str, Any]:
    """The state without the card ids (which only record the placement order)."""
    out = copy.deepcopy(state)
    for card in out["cards"]:
        del card["id"]
    out["cards"].sort(key=lambda c: tuple(c["at"]))
    del out["next_id"]
    return out


@given(st.data())
@SETTINGS
def test_a_turn_end_does_not_depend_on_the_placement_order(data):
    seats = data.draw(st.sampled_from([2, 3]), label="seats")
    board = data.draw(st.sampled_from([[4, 5], [5, 5]]), label="board")
    options = check_payload(rs.options_schema, {"board": board, "cards": CARDS, "wizard_hp": 6})
    start = _started(options, seats)
    wizards = {tuple(c["at"]) for c in start["cards"]}
    free = [[r, c] for r in range(board[0]) for c in range(board[1]) if (r, c) not in wizards]
    cells = data.draw(st.lists(st.sampled_from(free), min_size=2, max_size=9, unique_by=tuple), label="cells")
    placements = [
        (
            cell,
            data.draw(st.sampled_from(ON_BOARD), label="card"),
            data.draw(st.integers(0, seats - 1), label="seat"),
            data.draw(st.integers(1, 6), label="hp"),
        )
        for cell in cells
    ]
    order = data.draw(st.permutations(placements), label="placement order")
    one, other = _end_turn(_built(start, placements)), _end_turn(_built(start, order))
    a, b = _board(one), _board(other)
    assert (a["cards"], a["players"], a["result"]) == (b["cards"], b["players"], b["result"])  # the outcome
    assert a == b  # and every line of the log, in the same order

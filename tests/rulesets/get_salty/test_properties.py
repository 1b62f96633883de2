"""Property tests: random legal games keep the invariants; legal_moves is exactly what validate accepts."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.base import Event, RuleViolation
from rulesets.get_salty import RULESET, hints
from rulesets.get_salty.board import CRACKERS, MAX_SPAN, components
from rulesets.get_salty.brute import brute_force_legal_moves
from rulesets.replay import replay

pytestmark = pytest.mark.pure

TYPES = [
    "victory_attribute_chosen",
    "salt_container_flipped",
    "salt_container_moved",
    "cracker_flipped",
    "cracker_moved",
]


def _key(event):
    return (event.type, event.seat, json.dumps(event.data, sort_keys=True))


def _walk(first, choices, avoid_wins):
    """Play from the start, picking legal moves by ``choices``; returns (states, events)."""
    state = RULESET.initial_state({"first_seat": first}, 2)
    states, events = [state], []
    for c in choices:
        moves = RULESET.legal_moves(state)
        if not moves:
            break
        if avoid_wins:
            quiet = [m for m in moves if RULESET.winner_after(state, m) is None]
            moves = quiet or moves
        move = moves[c % len(moves)]
        state = RULESET.apply(state, move)
        states.append(state)
        events.append(move)
    return states, events


games = st.tuples(
    st.sampled_from([0, 1]),
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=45),
    st.booleans(),
)


def _check_invariants(state):
    assert json.loads(json.dumps(state)) == state
    tokens = state["tokens"]
    cells = [tuple(t["cell"]) for t in tokens.values() if t["cell"] is not None]
    assert tokens["container"]["cell"] is not None
    assert len(cells) == len(set(cells)), "two tokens share a cell"
    assert len(components(set(cells))) == 1, "tokens not in one group"
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    assert max(xs) - min(xs) < MAX_SPAN and max(ys) - min(ys) < MAX_SPAN
    assert state["reserve"] == [n for n in CRACKERS if tokens[n]["cell"] is None]
    assert all(tokens[n]["salty"] is False for n in state["reserve"])
    assert state["container_wild"] == (state["reserve"] == [])
    scores = state["scores"]
    assert scores == {str(s): sum(1 for c in state["combinations"] if c["seat"] == s) for s in (0, 1)}
    outcome = RULESET.outcome(state)
    if scores["0"] != scores["1"]:
        assert state["winner"] == (0 if scores["0"] > scores["1"] else 1)
        assert outcome is not None and outcome.winners == (state["winner"],) and outcome.reason
        assert RULESET.legal_moves(state) == []
    else:
        assert state["winner"] is None and outcome is None
        # nobody is ever stuck: a seat without a move is skipped by the reducer
        assert RULESET.legal_moves(state)


@settings(max_examples=60, deadline=None)
@given(games)
def test_random_games_keep_the_invariants(game):
    first, choices, avoid = game
    states, events = _walk(first, choices, avoid)
    for before, event, after in zip(states[:-1], events, states[1:], strict=True):
        snapshot = copy.deepcopy(before)
        RULESET.validate(before, event)
        assert RULESET.apply(before, event) == after
        assert before == snapshot, "apply mutated its input"
        _check_invariants(after)
        if event.type == "victory_attribute_chosen":
            assert after["turn"] == event.seat
            continue
        skipped = after["skipped"][len(before["skipped"]) :]
        if after["winner"] is not None:
            assert after["turns_played"] == before["turns_played"] + 1
        elif skipped:
            assert skipped == [{"turn": before["turns_played"] + 2, "seat": 1 - event.seat}]
            assert after["turn"] == event.seat and not after["container_locked"]
            stuck = {**after, "turn": 1 - event.seat, "turns_played": after["turns_played"] - 1}
            assert RULESET.legal_moves(stuck) == []
        else:
            assert after["turn"] == 1 - event.seat
            assert after["container_locked"] == event.type.startswith("salt_container")
    pos = replay(RULESET, {"first_seat": first}, 2, events, check=True)
    assert pos.state == states[-1] and pos.version == len(events)


@settings(max_examples=40, deadline=None)
@given(games)
def test_legal_moves_equal_the_brute_force_set(game):
    states, _ = _walk(*game)
    for state in (states[len(states) // 2], states[-1]):
        listed = [_key(m) for m in RULESET.legal_moves(state)]
        assert len(listed) == len(set(listed)), "a move is listed twice"
        assert set(listed) == {_key(m) for m in brute_force_legal_moves(state)}


def _random_event(draw, state):
    cells = [t["cell"] for t in state["tokens"].values() if t["cell"] is not None]
    x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
    cell = st.lists(st.integers(min_value=-3, max_value=6), min_size=2, max_size=2).map(
        lambda d: [x0 + d[0], y0 + d[1]]
    )
    cracker = st.one_of(st.sampled_from(CRACKERS), st.sampled_from(["container", "circle-green", "", "red-circle"]))
    type_ = draw(st.one_of(st.sampled_from(TYPES), st.just("cracker_eaten")))
    seat = draw(st.one_of(st.sampled_from([0, 1]), st.sampled_from([None, 2, -1])))
    data = {
        "victory_attribute_chosen": {"attribute": draw(st.sampled_from(["shape", "color", "size"]))},
        "salt_container_flipped": {},
        "salt_container_moved": {"to": draw(cell)},
        "cracker_flipped": {"cracker": draw(cracker)},
        "cracker_moved": {"cracker": draw(cracker), "to": draw(cell)},
    }.get(type_, {})
    return Event(type_, seat, data)


@settings(max_examples=120, deadline=None)
@given(games, st.data())
def test_random_events_are_accepted_exactly_when_listed(game, data):
    states, _ = _walk(*game)
    state = states[-1]
    listed = {_key(m) for m in RULESET.legal_moves(state)}
    for _ in range(25):
        event = data.draw(st.composite(lambda draw: _random_event(draw, state))())
        try:
            RULESET.validate(state, event)
        except RuleViolation as violation:
            assert _key(event) not in listed, violation.to_dict()
            assert violation.rule.startswith(("Get Salty ›", "Chronicle ›")) and violation.message
        else:
            assert _key(event) in listed
            RULESET.apply(state, event)
    for move in RULESET.legal_moves(state):
        RULESET.validate(state, move)


@settings(max_examples=40, deadline=None)
@given(games)
def test_hints_agree_with_playing_the_moves(game):
    states, _ = _walk(*game)
    state = states[-1]
    if state["attributes"] is None or state["winner"] is not None:
        return
    seat = state["turn"]
    other = 1 - seat
    wins = [_key(m) for m in RULESET.legal_moves(state) if RULESET.apply(state, m)["winner"] == seat]
    passed = {**state, "turn": other, "turns_played": state["turns_played"] + 1}
    threats = [_key(m) for m in RULESET.legal_moves(passed) if RULESET.apply(passed, m)["winner"] == other]
    mine = hints(state, seat)
    assert [_key(m) for m in mine["winning_moves"]] == wins
    assert [_key(m) for m in mine["opponent_threats"]] == threats
    theirs = hints(state, other)
    assert theirs["winning_moves"] == []
    assert [_key(m) for m in theirs["opponent_threats"]] == wins

"""A seat with no legal move has its turn skipped (derived by the reducer, no event)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_a_seat_without_a_legal_move_is_skipped(gs):
    state = gs.started()
    # seat 0 flips the container: it is empty now, every cracker is unsalted and in the reserve, and seat 1
    # may not flip or move the container again, so seat 1 can do nothing
    after = gs.play(state, gs.ev("salt_container_flipped", 0))
    assert after["skipped"] == [{"turn": 2, "seat": 1}]
    assert after["turn"] == 0 and after["turns_played"] == 2
    assert after["container_locked"] is False
    assert [(m.type, m.seat) for m in gs.R.legal_moves(after)] == [("salt_container_flipped", 0)]
    assert any("skipped" in w for w in gs.R.warnings(after))
    gs.reject(after, gs.ev("salt_container_flipped", 1), "not_your_turn")


def test_play_resumes_after_a_skip(gs):
    state = gs.play(gs.started(), gs.ev("salt_container_flipped", 0), gs.ev("salt_container_flipped", 0))
    assert state["turn"] == 1 and state["container_locked"] is True
    assert state["tokens"]["container"]["salty"] is True
    assert gs.R.warnings(state) == []
    moves = gs.R.legal_moves(state)
    assert moves and {m.type for m in moves} == {"cracker_moved"}
    gs.reject(state, gs.ev("salt_container_flipped", 1), "container_locked")


def test_no_skip_while_a_move_exists(gs):
    state = gs.play(gs.started(), gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    after = gs.play(state, gs.ev("salt_container_flipped", 1))
    # circle-red is salty and the container empty: seat 0 can flip or move circle-red
    assert after["turn"] == 0 and after["skipped"] == []

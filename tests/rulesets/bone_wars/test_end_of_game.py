"""The end of the game (issue 22, item 4): the final awards after the last pass, a provisional outcome until
the table confirms the end with ``game_concluded``, and the winner's line."""

from __future__ import annotations

import pytest

from rulesets.base import Event

pytestmark = pytest.mark.pure


def _played_out(table, rps=(3, 1)):
    """Both seats gain ``rps`` RP during round 1, then every round is passed out: the final scoring is made."""
    t = table(len(rps), starting_money=99)
    for seat, rp in enumerate(rps):
        t.turn(seat, ("rp_gained", {"amount": rp, "reason": "bonus"}))
    for _ in range(4):
        t.pass_round()
    assert t.state["finished"] and not t.state["concluded"]
    return t


def test_awards_after_the_last_pass_need_no_override_and_change_the_provisional_winner(rs, table):
    t = _played_out(table)
    first = rs.outcome(t.state)
    assert first.provisional and first.winners == (0,)
    # any seat, no card, no turn: the awards of the final scoring, each with its reason
    t.do("rp_gained", 1, amount=4, reason="discoverer award: Cope")
    t.do("rp_gained", 0, amount=1, reason="discoverer award: Marsh")
    result = rs.outcome(t.state)
    assert result.provisional and result.winners == (1,) and result.scores == {0: 4, 1: 5}
    assert result.to_dict()["provisional"] is True
    t.do("game_concluded")
    final = rs.outcome(t.state)
    assert not final.provisional and final.winners == (1,) and final.to_dict()["provisional"] is False
    assert rs.turn(t.state).prompt == "Seat 1 wins with 5 RP (most RP)."
    assert t.replayed().state == t.state


def test_the_awards_are_checked_like_any_rp(rs, table):
    t = _played_out(table)
    v = t.bad("zero_amount", "rp_gained", 0, amount=0, reason="nothing")
    assert v.rule == "Chronicle › Entries"
    t.bad("rp_below_zero", "rp_gained", 1, amount=-2, reason="penalty")


def test_only_awards_and_the_confirmation_after_the_last_pass(rs, table):
    t = _played_out(table)
    assert rs.legal_moves(t.state) == [Event("game_concluded", None, {})]
    v = t.bad("game_over", "passed", 0, patron="marsh")
    assert v.rule == "Bone Wars › Overview › Mid-game and final scoring" and "final awards" in v.message
    t.bad("game_over", "card_played", 0, card={"kind": "team", "name": "Late"})
    t.bad("game_over", "table_paused")
    t.do("cranial_circumference_recorded", 0, cm=57)  # the tie-break, at any time: does not conclude
    assert not t.state["concluded"]


def test_nothing_after_the_table_confirmed_the_end(rs, table):
    t = _played_out(table)
    t.do("game_concluded")
    assert rs.legal_moves(t.state) == []
    t.bad("game_over", "rp_gained", 0, amount=2, reason="late award")
    t.bad("game_over", "game_concluded")
    t.do("cranial_circumference_recorded", 1, cm=60)  # still allowed: only the tie-break


def test_the_end_cannot_be_confirmed_before_round_four_is_over(table):
    t = table(2)
    v = t.bad("game_not_over", "game_concluded")
    assert v.rule == "Bone Wars › Overview" and "round 1" in v.message


def test_the_turn_line_during_the_awards_says_who_leads_and_what_to_do(rs, table):
    t = _played_out(table, (2, 2))
    info = rs.turn(t.state)
    assert info.seats == () and info.phase == "awards"
    assert info.prompt == (
        "Round 4 is over: record the final awards (RP with a reason), then confirm the end of the game. "
        "For now Seat 0 and Seat 1 lead together with 2 RP (tied on RP and species; a cranial circumference "
        "is missing)."
    )
    t.do("game_concluded")
    assert rs.turn(t.state).prompt == (
        "Seat 0 and Seat 1 win together with 2 RP (tied on RP and species; a cranial circumference is missing)."
    )

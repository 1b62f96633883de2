"""The end of the game (issue 22, item 4): the final awards after the last pass, a provisional outcome until
the table confirms the end with ``game_concluded``, and the winner's line."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import Position, step

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


def test_only_awards_a_pause_and_the_confirmation_after_the_last_pass(rs, table):
    t = _played_out(table)
    assert rs.legal_moves(t.state) == [Event("game_concluded", None, {}), Event("table_paused", None, {})]
    v = t.bad("game_over", "passed", 0, patron="marsh")
    # when the awards are scored is Chronicle's decision (docs/rules/bone-wars.md › The final awards)
    assert v.rule == "Chronicle › The final awards" and "final awards" in v.message
    t.bad("game_over", "card_played", 0, card={"kind": "team", "name": "Late"})
    t.do("cranial_circumference_recorded", 0, cm=57)  # the tie-break, at any time: does not conclude
    assert not t.state["concluded"]


def test_nothing_after_the_table_confirmed_the_end_and_the_refusal_names_the_winner(rs, table):
    t = _played_out(table)
    t.do("game_concluded")
    assert rs.legal_moves(t.state) == []
    v = t.bad("game_over", "rp_gained", 0, amount=2, reason="late award")
    assert v.rule == "Chronicle › The final awards"
    assert v.message == (
        "The game is over: Seat 0 won with 3 RP (most RP). Only a cranial circumference may still be recorded."
    )
    t.bad("game_over", "game_concluded")
    t.bad("game_over", "table_paused")  # after the confirmation nothing is left to pause
    t.do("cranial_circumference_recorded", 1, cm=60)  # still allowed: only the tie-break


def test_the_end_once_confirmed_is_final_no_house_rule_reopens_it(rs, table):
    """Issue 46: "The end is final … not overridable": the refusal offers no override, even where the reducer
    could place the move; the awards' refusal before the confirmation still may be overridden."""
    t = _played_out(table)
    assert t.bad("game_over", "card_played", 0, card={"kind": "team", "name": "Late"}).overridable is True
    t.do("game_concluded")
    for type_, seat, data in [
        ("rp_gained", 0, {"amount": 2, "reason": "late award"}),
        ("card_played", 0, {"card": {"kind": "team", "name": "Late"}}),
        ("table_paused", None, {}),
    ]:
        assert t.bad("game_over", type_, seat, **data).overridable is False
        with pytest.raises(RuleViolation) as info:
            step(rs, Position(t.state, len(t.events)), t.event(type_, seat, **data))
        assert info.value.code == "game_over" and info.value.overridable is False


def test_the_game_over_refusal_names_a_shared_win(table):
    t = _played_out(table, (2, 2, 2))
    t.do("game_concluded")
    v = t.bad("game_over", "rp_gained", 2, amount=1, reason="late")
    assert v.message.startswith(
        "The game is over: Seat 0, Seat 1 and Seat 2 won together with 2 RP (tied on RP and species; "
    )


def test_a_table_may_pause_before_the_awards_and_take_them_up_at_the_next_sitting(rs, table):
    """Issue 32, item 5: the table packs away after the last pass with the awards still to count."""
    t = _played_out(table)
    last_pass = len(t.events)
    t.do("table_paused")
    t.bad("nothing_to_pause", "table_paused")
    assert rs.outcome(t.state).provisional and rs.turn(t.state).phase == "awards"
    assert rs.legal_moves(t.state) == [Event("game_concluded", None, {})]  # nothing to pause twice
    # the next evening: the awards, then the confirmation, in the second sitting
    t.do("rp_gained", 1, amount=4, reason="discoverer award: Cope")
    t.do("rp_gained", 0, amount=1, reason="discoverer award: Marsh")
    t.do("game_concluded")
    first, second = t.state["sittings"]
    assert first["paused"] and first["to_version"] == last_pass + 1 and first["rp"] == [3, 1]
    assert second == {
        "number": 2,
        "from_version": last_pass + 2,
        "to_version": last_pass + 4,
        "rounds": [],  # after the last pass no round is played
        "rp": [1, 4],  # the awards belong to the sitting in which they are recorded
        "paused": False,
    }
    assert rs.outcome(t.state).winners == (1,) and not rs.outcome(t.state).provisional
    assert t.replayed().state == t.state


def test_awards_in_the_sitting_of_the_last_pass_stay_in_it(table):
    t = _played_out(table)
    t.do("rp_gained", 1, amount=4, reason="award").do("game_concluded")
    (only,) = t.state["sittings"]
    assert only["rounds"] == [1, 2, 3, 4] and only["rp"] == [3, 5]


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


def test_three_tied_seats_are_named_as_a_sentence_names_them(rs, table):
    """Issue 32, wording: "Ana, Bo and Cy win together", not "Ana and Bo and Cy"."""
    t = _played_out(table, (2, 2, 2))
    t.do("game_concluded")
    assert rs.turn(t.state).prompt.startswith("Seat 0, Seat 1 and Seat 2 win together with 2 RP (")
    assert rs.warnings(t.state) == [
        "Tied: measure the cranial circumference of Seat 0, Seat 1 and Seat 2 to break the tie."
    ]


def test_the_confirmation_line_never_calls_a_result_final_that_a_circumference_can_change(rs, table):
    """Issue 32, wording: a tie on RP and species is still open to a cranial circumference."""
    names = ["Ana", "Bo"]
    concluded = Event("game_concluded", None, {})
    tied = _played_out(table, (2, 2))
    text = rs.describe(concluded, names, before=tied.state)
    assert text == (
        "The table confirmed the end of the game: the awards are recorded; a cranial circumference can still "
        "change the winner"
    )
    assert "final" not in text
    clear = _played_out(table, (3, 1))
    assert rs.describe(concluded, names, before=clear.state) == (
        "The table confirmed the end of the game: the awards are recorded"
    )
    # and it is true: a circumference recorded after the confirmation breaks the tie
    tied.do("game_concluded").do("cranial_circumference_recorded", 0, cm=58)
    tied.do("cranial_circumference_recorded", 1, cm=61)
    assert rs.outcome(tied.state).winners == (1,)

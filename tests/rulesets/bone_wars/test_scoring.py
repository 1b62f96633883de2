"""Bone Wars › Overview › Mid-game and final scoring, and the end of the game; Ties."""

from __future__ import annotations

import pytest

from rulesets.base import Outcome

pytestmark = pytest.mark.pure


def _loyal(t, seat: int, marsh: int, cope: int) -> None:
    """One turn in which ``seat`` gains ``marsh`` loyalty for Marsh and ``cope`` for Cope (flipping its
    patron tile to reach each track)."""
    t.card(seat)
    for side, amount in (("marsh", marsh), ("cope", cope)):
        if amount:
            if t.player(seat)["patron"] != side:
                t.do("patron_flipped", seat)
            t.do("loyalty_gained", seat, amount=amount)
    t.end(seat)


def test_mid_game_scoring_after_round_two(table):
    t = table(2)
    _loyal(t, 0, marsh=3, cope=1)
    _loyal(t, 1, marsh=0, cope=2)
    t.turn(0, ("paper_published", {"side": "marsh"}), ("paper_published", {"side": "marsh"}))
    t.turn(1, ("paper_published", {"side": "cope"}))
    t.pass_round()
    assert t.state["scorings"] == []
    t.pass_round()
    # Marsh has 2 papers, Cope 1. Seat 0: 3 × 2 + 1 × 1 = 7; seat 1: 0 × 2 + 2 × 1 = 2
    [scoring] = t.state["scorings"]
    assert scoring["round"] == 2 and scoring["name"] == "mid-game"
    assert scoring["credibility"] == {"marsh": 2, "cope": 1}
    assert scoring["seats"] == [{"marsh": 6, "cope": 1, "gain": 7}, {"marsh": 0, "cope": 2, "gain": 2}]
    assert [p["rp"] for p in t.state["players"]] == [7, 2]
    assert t.state["round"] == 3 and not t.state["finished"]
    assert t.state["players"][0]["loyalty"] == {"marsh": 3, "cope": 1}  # markers stay where they are


def test_final_scoring_after_round_four_ends_the_game(table):
    t = table(2)
    _loyal(t, 0, marsh=2, cope=0)
    t.pas(1)
    t.pas(0)
    t.pass_round()  # round 2: no papers, nothing scored (0 × 0)
    assert [s["seats"] for s in t.state["scorings"]] == [[{"marsh": 0, "cope": 0, "gain": 0}] * 2]
    t.turn(0, ("paper_published", {"side": "marsh"}), ("paper_published", {"side": "marsh"}))
    _loyal(t, 1, marsh=1, cope=4)
    t.pass_round()
    t.turn(0, ("paper_published", {"side": "cope"}), ("rp_gained", {"amount": 5, "reason": "award"}))
    t.pass_round()
    s = t.state
    # Marsh 2 papers, Cope 1. Seat 0: 2 × 2 + 0 = 4 (+5 award); seat 1: 1 × 2 + 4 × 1 = 6
    assert s["finished"] and s["turn"] is None and s["round"] == 4
    final = s["scorings"][1]
    assert final["round"] == 4 and final["name"] == "final"
    assert final["seats"] == [{"marsh": 4, "cope": 0, "gain": 4}, {"marsh": 2, "cope": 4, "gain": 6}]
    assert [p["rp"] for p in s["players"]] == [9, 6]
    assert t.state["players"][0]["slots"][0]["card"] is None
    assert t.replayed().state == s


def _finished(table, rps, archives=None, heads=None):
    """A finished game in which seat i ends with ``rps[i]`` RP (from awards), ``archives[i]`` species."""
    t = table(len(rps), starting_money=99)
    for seat, rp in enumerate(rps):
        effects = [("rp_gained", {"amount": rp, "reason": "award"})] if rp else []
        for n in range((archives or [0] * len(rps))[seat]):
            effects.append(("species_archived", {"name": f"Species {n}"}))
        if effects:
            t.turn(seat, *effects)
        else:
            t.turn(seat)
    for _ in range(4):
        t.pass_round()
    t.do("game_concluded")
    for seat, cm in enumerate(heads or []):
        if cm is not None:
            t.do("cranial_circumference_recorded", seat, cm=cm)
    return t


def test_most_rp_wins(rs, table):
    t = _finished(table, [3, 8, 5])
    assert rs.outcome(t.state) == Outcome(winners=(1,), reason="most RP (8)", scores={0: 3, 1: 8, 2: 5})


def test_tie_broken_by_most_species_in_the_archive(rs, table):
    t = _finished(table, [8, 8, 1], archives=[1, 2, 5])
    result = rs.outcome(t.state)
    assert result.winners == (1,) and result.reason == "tied on 8 RP; most species in the archive (2)"


def test_then_by_the_largest_cranial_circumference(rs, table):
    t = _finished(table, [8, 8], archives=[2, 2], heads=[57.5, 58])
    result = rs.outcome(t.state)
    assert result.winners == (1,)
    assert result.reason == "tied on 8 RP and 2 archived species; largest cranial circumference (58 cm)"
    assert result.scores == {0: 8, 1: 8}


def test_a_missing_circumference_leaves_the_tied_seats_winning_together(rs, table):
    t = _finished(table, [4, 4, 4], archives=[1, 1, 0], heads=[56, None, 70])
    result = rs.outcome(t.state)
    assert result.winners == (0, 1) and not result.draw
    assert "a cranial circumference is missing" in result.reason
    assert rs.warnings(t.state) == ["Tied: measure the cranial circumference of Seat 1 to break the tie."]


def test_still_tied_after_every_tie_break_win_together(rs, table):
    t = _finished(table, [0, 0], heads=[55, 55])
    result = rs.outcome(t.state)
    assert result.winners == (0, 1) and result.reason.endswith("the tied players win together")


def test_the_circumference_may_be_recorded_at_any_time_even_after_the_game(rs, table):
    t = table(2)
    t.do("cranial_circumference_recorded", 1, cm=54.5)  # not seat 1's turn: it does not matter
    assert t.player(1)["cranial_circumference"] == 54.5
    t.bad("invalid_circumference", "cranial_circumference_recorded", 0, cm=0)
    t = _finished(table, [2, 2])
    assert rs.outcome(t.state).winners == (0, 1)
    t.do("cranial_circumference_recorded", 0, cm=60).do("cranial_circumference_recorded", 1, cm=59)
    assert rs.outcome(t.state).winners == (0,)


def test_nothing_else_after_the_game(rs, table):
    t = _finished(table, [1, 0])
    assert rs.legal_moves(t.state) == []
    v = t.bad("game_over", "passed", 0, patron="marsh")
    assert v.rule == "Chronicle › The final awards" and v.message.startswith("The game is over: Seat 0 won with")
    t.bad("game_over", "table_paused")
    t.bad("game_over", "card_played", 0, card={"kind": "team", "name": "Late"})


def test_no_outcome_while_the_game_goes_on(rs, table):
    assert rs.outcome(table(2).state) is None

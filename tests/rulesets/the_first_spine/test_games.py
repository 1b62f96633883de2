"""Whole games: two, three and four players played to a win, replayed from the log with the rules checked."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def test_a_two_player_game_to_a_win(rs, table):
    t = table(2, board=[4, 5], wizard_hp=6).setup()
    t.refill().place("Paladin", [2, 2]).end()
    t.refill().place("Barbed Wire", [1, 2]).end()
    t.refill().end()  # the rulebook's example: the Barbed Wire falls, the Paladin keeps 2
    assert (t.card([1, 2]), t.hp([2, 2])) == (None, 2)
    t.refill().place("Squire", [0, 1]).end()
    t.refill().place("Paladin", [1, 2]).end()  # the second Paladin hits seat 1's wizard: 6 − 3
    assert t.player(1)["wizard_hp"] == 3
    t.refill().place("Squire", [1, 1]).end()  # left side against left side: 1 − 1 both ways
    assert (t.hp([1, 1]), t.hp([1, 2])) == (3, 4)
    t.refill(discarded=1)
    t.bad("choose_target", "turn_ended")  # the Paladin touches the wizard and the Squire
    t.do("confrontation_target_chosen", **{"from": [1, 2], "target": [0, 2]}).end()
    out = rs.outcome(t.state)
    assert out.winners == (0,) and out.reason == "the last wizard standing (6 life left)"
    assert (
        t.player(1)["out"] and t.card([1, 1]) is None and t.player(1)["discard"] == ["Barbed Wire", "Squire", "Squire"]
    )
    t.replayed()


def _play_to_the_end(t, rs, limit=200):
    for _ in range(limit):
        if rs.outcome(t.state) is not None:
            return
        seat = t.state["turn"]["seat"]
        t.refill()
        wiz = [c for c in t.state["cards"] if c["kind"] == "wizard" and c["owner"] != seat]
        target = wiz[0]
        # cast a Fireball at the next opponent's wizard each turn
        t.place("Fireball", target["at"]).do("hp_changed", at=target["at"], amount=-3, note="Fireball")
        if rs.outcome(t.state) is None and t.state["turn"]["seat"] == seat:
            t.end()
    raise AssertionError("no winner")


def test_a_three_player_game(rs, table):
    t = table(3, wizard_hp=6).setup()
    _play_to_the_end(t, rs)
    (winner,) = rs.outcome(t.state).winners
    assert [p["out"] for p in t.state["players"]].count(False) == 1
    assert not t.player(winner)["out"]
    t.replayed()


def test_a_four_player_game(rs, table):
    t = table(4, wizard_hp=5).setup()
    _play_to_the_end(t, rs)
    assert len(rs.outcome(t.state).winners) == 1
    assert sum(not p["out"] for p in t.state["players"]) == 1
    t.replayed()

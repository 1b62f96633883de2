"""Salt & Bones: How To Win — the win check, Second Wind, Exhaustion; whole games replayed end-to-end."""

from __future__ import annotations

import pytest

from rulesets.names import seat_ref

pytestmark = pytest.mark.pure


def test_complete_game_from_the_first_field_card_to_a_win(table, rs) -> None:
    t = table()
    # Round 1
    t.field([1, 1])
    t.do("cards_drawn", 0, attack=5, strategy=2).do("cards_drawn", 1, attack=5, strategy=2)
    t.prep(0, ("equipment", "Razor Oil"), ("instinct", "Anticipation"))
    t.prep(1, ("equipment", "Bracer"), ("gambit", "Test of Skill"))
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])  # 4 + 1 (Test of Skill), Bracer; Razor Oil 2 + 1 gets through
    assert t.health() == [20, 17]
    assert t.state["combat"]["turn"] == 1  # Heavy Blow stops chain
    t.attack(1, "Slash", [3, 3], [3, 2])  # 3 + 0 (Heavy Blow's opportunity) + 1
    assert t.health() == [16, 17]
    t.instinct(0, "Anticipation", t.on(0))
    assert t.health() == [20, 17]
    t.attack(0, "Flourish", [2, 4], [1, 4])  # (2 + 0 + 1) + (1 + 1) + (1 + 1)
    assert t.health() == [20, 10]
    t.attack(0, "Feint", [1, 3], [0, 3])  # chain: 1 + 1 (Flourish's opportunity) + 0 + 1
    assert t.health() == [20, 7]
    t.disengage(1)
    assert t.state["round"] == 2 and t.state["momentum"] == 0
    assert t.state["boards"][1]["gambit"] == [] and t.state["boards"][0]["equipment"] == []
    # Round 2
    t.field([1, 0])
    t.do("cards_drawn", 0, attack=5, strategy=0).do("cards_drawn", 1, attack=3, strategy=0)
    t.prep(0)
    t.prep(1)
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    t.attack(1, "Slash", [3, 3], [3, 2])
    t.attack(0, "Slash", [2, 4], [2, 5])
    assert t.health() == [17, 0]
    assert rs.outcome(t.state) is None  # win conditions are checked only at the end of combat
    t.attack(1, "Thrust", [3, 4], [4, 4])  # at 0 Health, still fighting
    t.disengage(0)
    out = rs.outcome(t.state)
    assert out is not None and out.winners == (0,) and not out.draw
    assert t.state["phase"] == "over"
    over = t.bad("game_over", "field_card_flipped", None, tiles=[[1, 2]])
    assert over.overridable is False  # the end is final: no house rule reopens it (issue 46)
    assert rs.legal_moves(t.state) == []
    assert rs.turn(t.state).phase == "over"
    pos = t.replayed()
    assert rs.outcome(pos.state) == out


def test_second_wind_then_a_winner(table, rs) -> None:
    t = table(starting_health=4)
    t.to_combat()
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    t.attack(1, "Heavy Blow", [3, 3], [3, 2])
    assert t.health() == [0, 0]
    t.disengage(0)
    assert t.health() == [1, 1]  # Second Wind: both rebalance to 1
    assert rs.outcome(t.state) is None
    assert t.state["round"] == 2 and t.state["momentum"] == 1
    assert any("Second Wind" in line for line in t.state["log"])
    t.to_combat()
    t.attack(1, "Slash", [2, 2], [2, 3])
    t.disengage(0)
    out = rs.outcome(t.state)
    assert out is not None and out.winners == (1,)
    t.replayed()


def test_one_player_at_zero_only_at_the_end_wins(table, rs) -> None:
    t = table(starting_health=3)
    t.to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health() == [3, 0] and rs.outcome(t.state) is None
    t.disengage(1)
    assert rs.outcome(t.state).winners == (0,)
    assert f"{seat_ref(1)} is at 0 Health" in rs.outcome(t.state).reason


def test_exhaustion_draw(table, rs) -> None:
    t = table(attack_deck=10)
    t.field([1, 1])
    t.do("cards_drawn", 0, attack=5, strategy=2).do("cards_drawn", 1, attack=5, strategy=2)
    assert t.state["decks"]["attack"] == 0 and t.state["last_round"]
    assert rs.warnings(t.state)  # the table is told this is the last round
    t.prep(0)
    t.prep(1)
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.disengage(1)
    out = rs.outcome(t.state)
    assert out is not None and out.draw and out.winners == ()
    assert "Exhaustion" in out.reason
    t.replayed()


def test_exhaustion_round_can_still_have_a_winner(table, rs) -> None:
    t = table(attack_deck=10, starting_health=3)
    t.field().draw({0: (5, 2), 1: (5, 2)})
    t.prep(0)
    t.prep(1)
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    t.disengage(1)
    assert rs.outcome(t.state).winners == (0,)


def test_exhaustion_with_both_at_zero_is_a_draw(table, rs) -> None:
    t = table(strategy_deck=3, starting_health=4)
    t.field().draw({0: (5, 2), 1: (6, 1)})
    assert t.state["last_round"]  # the Strategy Deck ran out
    t.prep(0)
    t.prep(1)
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    t.attack(1, "Heavy Blow", [3, 3], [3, 2])
    t.disengage(0)
    out = rs.outcome(t.state)
    assert out.draw and "both players are at 0" in out.reason


def test_replay_rejects_an_illegal_stored_event(table, rs) -> None:
    from rulesets.replay import ReplayError, replay

    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    events = [*t.events, t.event("attack_card_played", 1, card="Slash", attack_tile=[0, 0], opportunity_tile=[0, 1])]
    try:
        replay(rs, {}, 2, events, check=True)
    except ReplayError as exc:
        assert exc.version == len(events) and exc.violation.code in {"grey_tile", "destroyed_tile"}
    else:
        raise AssertionError("the illegal entry must fail the replay")

"""Salt & Bones: the Combat Phase — placement, turns, chains, disengaging, Momentum, Test of Courage."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure

INLINE_CHAIN = {"name": "Homemade Chain", "attack": 1, "opportunity": 0, "bonus": "chain"}


# -- 4.4 Combat Phase: placement ----------------------------------------------------------------------------
def test_momentum_seat_plays_first(table) -> None:
    t = table(momentum_seat=1).to_combat()
    t.bad("not_your_turn", "attack_card_played", 0, card="Slash", attack_tile=[2, 2], opportunity_tile=[2, 3])
    t.bad("not_your_turn", "disengaged", 0)
    t.attack(1, "Slash", [2, 2], [2, 3])


def test_first_card_must_cover_a_centre_tile(table) -> None:
    t = table().to_combat()
    t.bad("not_centre", "attack_card_played", 0, card="Slash", attack_tile=[1, 1], opportunity_tile=[1, 2])
    t.attack(0, "Slash", [1, 2], [2, 2])  # one half on a centre tile is enough
    assert t.state["field"]["grid"][1][2]["half"] == "attack" and t.state["field"]["grid"][1][2]["seat"] == 0
    assert t.card_at([2, 2])["name"] == "Slash"
    assert t.state["field"]["grid"][2][2]["half"] == "opportunity"


def test_card_covers_two_orthogonally_adjacent_tiles(table) -> None:
    t = table().to_combat()
    t.bad("tiles_not_adjacent", "attack_card_played", 0, card="Slash", attack_tile=[2, 2], opportunity_tile=[3, 3])
    t.bad("tiles_not_adjacent", "attack_card_played", 0, card="Slash", attack_tile=[2, 2], opportunity_tile=[2, 2])
    t.bad("off_board", "attack_card_played", 0, card="Slash", attack_tile=[2, 5], opportunity_tile=[2, 6])


def test_later_cards_go_adjacent_on_free_playable_tiles(table) -> None:
    t = table().to_combat(tiles=[[1, 4]])
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("occupied_tile", "attack_card_played", 1, card="Thrust", attack_tile=[2, 3], opportunity_tile=[2, 4])
    t.bad("not_adjacent", "attack_card_played", 1, card="Thrust", attack_tile=[4, 4], opportunity_tile=[4, 3])
    t.bad("destroyed_tile", "attack_card_played", 1, card="Thrust", attack_tile=[1, 3], opportunity_tile=[1, 4])
    t.attack(1, "Thrust", [3, 3], [3, 4])
    t.bad("grey_tile", "attack_card_played", 0, card="Slash", attack_tile=[4, 5], opportunity_tile=[5, 5])


def test_unknown_and_inline_cards(table) -> None:
    t = table().to_combat()
    t.bad("unknown_card", "attack_card_played", 0, card="Cannon", attack_tile=[2, 2], opportunity_tile=[2, 3])
    t.bad("bad_card", "attack_card_played", 0, card=7, attack_tile=[2, 2], opportunity_tile=[2, 3])
    t.bad(
        "bad_card",
        "attack_card_played",
        0,
        card={"name": "X", "attack": -1, "opportunity": 0, "bonus": "none"},
        attack_tile=[2, 2],
        opportunity_tile=[2, 3],
    )
    t.bad(
        "bad_card",
        "attack_card_played",
        0,
        card={"name": "X", "attack": 1, "opportunity": 0, "bonus": "explode"},
        attack_tile=[2, 2],
        opportunity_tile=[2, 3],
    )
    t.attack(0, {"name": "Boarding Axe", "attack": 5, "opportunity": 1, "bonus": "none"}, [2, 2], [2, 3])
    assert t.health() == [20, 15]
    assert t.card_at([2, 2])["name"] == "Boarding Axe"


def test_copies_of_an_attack_card_run_out(table) -> None:
    cards = [
        {"name": "Slash", "copies": 1, "attack": 3, "opportunity": 1},
        {"name": "Thrust", "copies": 20, "attack": 2, "opportunity": 2},
    ]
    t = table(attack_cards=cards).to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])  # the single copy
    t.bad("no_copies_left", "attack_card_played", 1, card="Slash", attack_tile=[3, 3], opportunity_tile=[3, 2])
    t.attack(1, "Thrust", [3, 3], [3, 2])


# -- 4.4.2 Chain Cards ---------------------------------------------------------------------------------------
def test_one_attack_card_per_turn_without_momentum(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Thrust", [3, 2], [3, 3])
    assert t.state["combat"]["turn"] == 0  # seat 1 has no Momentum: its turn ended by itself
    refusal = t.bad("not_your_turn", "attack_card_played", 1, card="Slash", attack_tile=[3, 1], opportunity_tile=[4, 1])
    assert refusal.message.startswith("It is Seat 0's turn: Seat 1's Attack card ended their turn")


def test_momentum_seat_may_chain_after_a_card_that_does_not_stop_chains(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("one_card_per_turn", "attack_card_played", 0, card="Thrust", attack_tile=[1, 2], opportunity_tile=[1, 1])
    t.attack(0, "Feint", [1, 2], [1, 1])
    assert t.card_at([1, 2])["as_chain"]
    t.attack(0, "Quick Cut", [1, 3], [1, 4])  # chains may follow chains
    t.attack(0, INLINE_CHAIN, [3, 3], [4, 3])
    assert t.state["combat"]["turn"] == 0 and len(t.state["combat"]["turn_cards"]) == 4
    t.attack(1, "Slash", [3, 2], [4, 2])  # the opponent's play ends the chaining turn
    assert t.state["combat"]["turn"] == 0 and t.state["combat"]["turn_cards"] == []


def test_stops_chain_ends_the_turn(table) -> None:
    t = table().to_combat()
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    assert t.state["combat"]["turn"] == 1
    refusal = t.bad("not_your_turn", "attack_card_played", 0, card="Feint", attack_tile=[1, 2], opportunity_tile=[1, 1])
    assert refusal.message == "It is Seat 1's turn: Seat 0's Heavy Blow stops chain, so their turn ended with it."


def test_chain_card_without_momentum_is_a_plain_card(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Feint", [3, 2], [4, 2])
    assert not t.card_at([3, 2])["as_chain"]
    refusal = t.bad(
        "not_your_turn", "attack_card_played", 1, card="Quick Cut", attack_tile=[3, 3], opportunity_tile=[4, 3]
    )
    assert "could follow Seat 1's card only as a chain, and chaining needs Momentum" in refusal.message


def test_chain_needs_cards_in_hand(table) -> None:
    t = table().to_combat(hands={0: (1, 6), 1: (7, 0)})
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.state["combat"]["turn"] == 1  # no Attack card left to chain with
    t.bad("not_your_turn", "attack_card_played", 0, card="Feint", attack_tile=[1, 2], opportunity_tile=[1, 1])


# -- 4.4.4 End of Combat / Disengage ---------------------------------------------------------------------------
def test_disengage_only_at_the_start_of_a_turn(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("already_played", "disengaged", 0)
    t.attack(1, "Thrust", [3, 2], [3, 3])
    t.bad("not_your_turn", "disengaged", 1)
    t.disengage(0)
    assert t.state["phase"] == "field" and t.state["combat"] is None


def test_opponent_may_disengage_while_the_momentum_seat_could_chain(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.disengage(1)
    assert t.state["round"] == 2 and t.state["momentum"] == 0  # seat 1 had no Momentum: nothing changes


def test_disengaging_momentum_holder_passes_momentum(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Thrust", [3, 2], [3, 3])
    t.disengage(0)
    assert t.state["momentum"] == 1
    assert t.state["discards"]["attack"] == 2
    t.field([1, 1])
    t.bad("not_your_turn", "cards_drawn", 0, attack=1, strategy=0)  # Momentum draws first now
    t.draw()
    t.prep(1)
    t.prep(0)
    t.bad("not_your_turn", "attack_card_played", 0, card="Slash", attack_tile=[2, 2], opportunity_tile=[2, 3])
    t.attack(1, "Slash", [2, 2], [2, 3])


def test_momentum_never_changes_any_other_way(table) -> None:
    t = table(starting_health=5).to_combat()
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    t.attack(1, "Heavy Blow", [3, 3], [3, 2])
    assert t.state["momentum"] == 0  # damage, turns, health: Momentum stays put
    t.disengage(0)
    assert t.state["momentum"] == 1


def test_no_attack_cards_forces_a_disengage(table, rs) -> None:
    t = table().to_combat(hands={0: (7, 0), 1: (0, 7)})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("no_attack_cards", "attack_card_played", 1, card="Thrust", attack_tile=[3, 2], opportunity_tile=[3, 3])
    seat1 = {(m.type, m.seat) for m in rs.legal_moves(t.state) if m.seat == 1}
    assert seat1 == {("disengaged", 1)}
    t.disengage(1)


def test_forced_disengage_bonus(table) -> None:
    t = table().to_combat()
    t.attack(0, "Disarm", [2, 2], [2, 3])
    t.bad("must_disengage", "attack_card_played", 1, card="Thrust", attack_tile=[3, 2], opportunity_tile=[3, 3])
    t.disengage(1)
    assert t.state["combat"] is None


def test_forced_disengage_waits_for_the_opponents_own_turn(table) -> None:
    t = table(momentum_seat=1).to_combat()
    t.attack(1, "Slash", [2, 2], [2, 3])
    t.attack(0, "Disarm", [3, 2], [3, 3])  # seat 0 forces seat 1 out at the start of seat 1's next turn
    t.bad("must_disengage", "attack_card_played", 1, card="Thrust", attack_tile=[4, 2], opportunity_tile=[4, 3])
    t.disengage(1)
    assert t.state["momentum"] == 0  # seat 1 had Momentum and disengaged


# -- Test of Courage ----------------------------------------------------------------------------------------
def test_test_of_courage_gives_the_opponent_an_additional_turn(table) -> None:
    t = table().to_combat(boards={0: [("gambit", "Test of Courage")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Thrust", [3, 2], [3, 3])
    t.disengage(0)
    c = t.state["combat"]
    assert c is not None and c["pending_disengage"] == 0 and c["turn"] == 1
    t.bad("disengage_pending", "attack_card_played", 0, card="Slash", attack_tile=[1, 2], opportunity_tile=[1, 1])
    t.bad("disengage_pending", "disengaged", 1)
    t.bad("additional_turn_first", "disengaged", 0)  # the opponent's additional turn must happen first
    t.attack(1, "Slash", [1, 2], [1, 1])  # the additional turn
    assert t.health()[0] == 20 - 2 - 3
    t.bad("not_your_turn", "attack_card_played", 1, card="Slash", attack_tile=[4, 2], opportunity_tile=[4, 1])
    t.bad("already_played", "additional_turn_passed", 1)
    t.disengage(0)  # now the disengage succeeds
    assert t.state["combat"] is None and t.state["momentum"] == 1


def test_strategy_cards_are_played_as_normal_during_the_additional_turn(table) -> None:
    t = table().to_combat(boards={0: [("gambit", "Test of Courage")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.disengage(1)
    t.attack(0, "Heavy Blow", [1, 2], [1, 3])  # seat 0's additional turn
    t.bad("disengage_pending", "attack_card_played", 1, card="Slash", attack_tile=[3, 2], opportunity_tile=[3, 3])
    t.instinct(1, "Anticipation", t.on(0))  # the disengaging seat still plays Strategy cards
    t.disengage(1)
    assert t.health() == [20, 20 - 3]
    assert t.state["momentum"] == 0  # seat 1 had no Momentum


def test_test_of_courage_extra_turn_is_taken_or_passed_never_skipped(table, rs) -> None:
    """ "your opponent receives an additional turn before you disengage successfully" (4.4.4)."""
    t = table().to_combat(boards={0: [("gambit", "Test of Courage")]})
    t.disengage(0)
    assert t.state["combat"]["pending_disengage"] == 0
    refusal = t.bad("additional_turn_first", "disengaged", 0)
    assert "Seat 1 receives an additional turn before Seat 0's disengage succeeds" in refusal.message
    assert ("disengaged", 0) not in {(m.type, m.seat) for m in rs.legal_moves(t.state)}
    assert rs.turn(t.state).seats == (1,)
    t.bad("not_your_turn", "additional_turn_passed", 0)  # only the opponent passes its additional turn
    t.do("additional_turn_passed", 1)
    assert rs.turn(t.state).seats == (0,)
    t.disengage(0)
    assert t.state["combat"] is None and t.state["momentum"] == 1
    assert "Seat 1 passes the additional turn." in t.state["log"]


def test_an_additional_turn_exists_only_under_test_of_courage(table) -> None:
    t = table().to_combat()
    t.bad("no_additional_turn", "additional_turn_passed", 1)
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("no_additional_turn", "additional_turn_passed", 1)


def test_a_chaining_additional_turn_ends_when_the_disengage_is_recorded(table) -> None:
    t = table(momentum_seat=1).to_combat(boards={1: [("gambit", "Test of Courage")]})
    t.attack(1, "Slash", [2, 2], [2, 3])
    t.disengage(0)  # seat 1 (Momentum) gets the additional turn and may chain in it
    t.bad("additional_turn_first", "disengaged", 0)
    t.attack(1, "Thrust", [1, 2], [1, 1])
    t.attack(1, "Feint", [1, 3], [1, 4])
    t.disengage(0)
    assert t.state["combat"] is None and t.state["momentum"] == 1


@pytest.mark.parametrize("momentum", [0, 1])
def test_turn_info_follows_the_turn(table, rs, momentum) -> None:
    t = table(momentum_seat=momentum).to_combat()
    assert rs.turn(t.state).seats == (momentum,)
    t.attack(momentum, "Slash", [2, 2], [2, 3])
    assert set(rs.turn(t.state).seats) == {0, 1}  # chain or the opponent's turn
    t.attack(1 - momentum, "Slash", [3, 2], [3, 3])
    assert rs.turn(t.state).seats == (momentum,)

"""Salt & Bones: phase order, the Field, Draw and Preparation phases."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


# -- 2. Gameplay Loop: Field → Draw → Preparation → Combat --------------------------------------------------
def test_phase_order_is_enforced(table) -> None:
    t = table()
    assert t.state["phase"] == "field"
    t.bad("wrong_phase", "cards_drawn", 0, attack=7, strategy=0)
    t.bad("wrong_phase", "attack_card_played", 0, card="Slash", attack_tile=[2, 2], opportunity_tile=[2, 3])
    t.field([1, 1])
    assert t.state["phase"] == "draw"
    t.bad("wrong_phase", "field_card_flipped", None, tiles=[[1, 2]])
    t.bad("wrong_phase", "strategy_card_placed", 0, slot="instinct", card=None)
    t.draw()
    assert t.state["phase"] == "preparation"
    t.bad("wrong_phase", "disengaged", 0)
    t.prep(0)
    t.prep(1)
    assert t.state["phase"] == "combat"
    t.bad("wrong_phase", "preparation_finished", 0)


# -- 4.1 Field Phase ----------------------------------------------------------------------------------------
def test_field_card_destroys_tiles_for_the_rest_of_the_game(table) -> None:
    t = table()
    t.field([1, 1], [1, 2])
    assert t.state["field"]["destroyed"] == [[1, 1], [1, 2]]
    assert t.state["field"]["grid"][1][2]["tile"] == "destroyed"
    assert t.state["decks"]["field"] == 9
    t.to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3]).disengage(1)
    assert t.state["round"] == 2 and t.state["phase"] == "field"
    assert t.state["field"]["grid"][1][1]["tile"] == "destroyed"  # still destroyed next round
    assert t.state["field"]["cards"] == []  # attack cards were discarded


def test_field_card_with_bad_tiles_is_rejected(table) -> None:
    t = table()
    t.bad("off_board", "field_card_flipped", None, tiles=[[6, 1]])
    t.bad("grey_tile", "field_card_flipped", None, tiles=[[0, 0]])
    t.bad("duplicate_tile", "field_card_flipped", None, tiles=[[1, 1], [1, 1]])
    t.do("field_card_flipped", 1, tiles=[[1, 1]])  # any seat (or none) may record the flip


def test_destroyed_tiles_cannot_take_attack_cards(table) -> None:
    t = table()
    t.to_combat(tiles=[[2, 2]])
    t.bad("destroyed_tile", "attack_card_played", 0, card="Slash", attack_tile=[2, 2], opportunity_tile=[2, 3])
    t.attack(0, "Slash", [2, 3], [2, 4])


def test_empty_field_deck_skips_the_field_phase(table) -> None:
    t = table(field_deck=1)
    t.to_combat()
    assert t.state["decks"]["field"] == 0
    t.attack(0, "Slash", [2, 2], [2, 3]).disengage(1)
    assert t.state["round"] == 2 and t.state["phase"] == "draw"


# -- 4.2 Draw Phase -----------------------------------------------------------------------------------------
def test_momentum_seat_draws_first(table) -> None:
    t = table(momentum_seat=1)
    t.field()
    t.bad("not_your_turn", "cards_drawn", 0, attack=7, strategy=0)
    t.do("cards_drawn", 1, attack=4, strategy=3)
    t.bad("already_drawn", "cards_drawn", 1, attack=0, strategy=0)
    t.do("cards_drawn", 0, attack=7, strategy=0)
    assert t.state["hands"] == [{"attack": 7, "strategy": 0}, {"attack": 4, "strategy": 3}]
    assert t.state["decks"]["attack"] == 40 - 11 and t.state["decks"]["strategy"] == 37


def test_draw_fills_the_hand_to_exactly_seven(table) -> None:
    t = table()
    t.field()
    t.bad("wrong_hand_size", "cards_drawn", 0, attack=4, strategy=2)
    t.bad("wrong_hand_size", "cards_drawn", 0, attack=5, strategy=3)
    t.do("cards_drawn", 0, attack=5, strategy=2)


def test_draw_cannot_take_more_than_a_deck_holds(table) -> None:
    t = table(attack_deck=5)
    t.field()
    t.bad("deck_too_small", "cards_drawn", 0, attack=6, strategy=1)
    t.do("cards_drawn", 0, attack=5, strategy=2)
    t.bad("deck_too_small", "cards_drawn", 1, attack=1, strategy=6)
    t.do("cards_drawn", 1, attack=0, strategy=7)
    assert t.state["last_round"] is True  # the Attack Deck ran out: Exhaustion round


def test_when_both_decks_run_dry_draw_what_is_left(table) -> None:
    """ "Starting with the player with Momentum, take turns drawing a card": 9 cards for two hands of 7 go
    5 to the Momentum seat (cards 1, 3, 5, 7, 9) and 4 to the other."""
    t = table(attack_deck=4, strategy_deck=5)
    t.field()
    refusal = t.bad("wrong_hand_size", "cards_drawn", 0, attack=4, strategy=3)
    assert "draw exactly 5, as Seat 0's share of the 9 cards left" in refusal.message
    t.do("cards_drawn", 0, attack=4, strategy=1)
    t.bad("wrong_hand_size", "cards_drawn", 1, attack=0, strategy=3)
    t.do("cards_drawn", 1, attack=0, strategy=4)
    assert t.state["hands"] == [{"attack": 4, "strategy": 1}, {"attack": 0, "strategy": 4}]
    assert t.state["last_round"]


def test_a_short_supply_alternates_from_the_momentum_seat(table) -> None:
    t = table(attack_deck=5, strategy_deck=6, momentum_seat=1)
    t.field()
    t.bad("wrong_hand_size", "cards_drawn", 1, attack=5, strategy=2)  # 7: more than its share of 11
    t.draw({1: (4, 2), 0: (1, 4)})  # 11 cards: 6 to the Momentum seat, 5 to the other
    assert [sum(h.values()) for h in t.state["hands"]] == [5, 6]


def test_once_one_hand_is_full_the_other_player_continues(table, rs) -> None:
    """3 cards left, the Momentum seat needs 3 and the other 1: Momentum, other (full), Momentum → 2 and 1."""
    t = table(attack_deck=13, strategy_deck=4).to_combat(
        boards={1: [("instinct", "Anticipation"), ("instinct", "Condescend")]}, hands={0: (7, 0), 1: (5, 2)}
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Thrust", [3, 2], [3, 3])
    t.disengage(0)  # Momentum passes to seat 1
    assert t.momentum == 1 and not t.state["last_round"]
    assert [sum(h.values()) for h in t.state["hands"]] == [6, 4]
    assert t.state["decks"]["attack"] + t.state["decks"]["strategy"] == 3
    t.field([0, 2])
    assert {m.data["attack"] + m.data["strategy"] for m in rs.legal_moves(t.state) if m.type == "cards_drawn"} == {2}
    t.bad("wrong_hand_size", "cards_drawn", 1, attack=1, strategy=2)
    t.do("cards_drawn", 1, attack=1, strategy=1)
    t.do("cards_drawn", 0, attack=0, strategy=1)
    assert [sum(h.values()) for h in t.state["hands"]] == [7, 6]


def test_single_discard_before_drawing(table) -> None:
    t = table()
    t.field()
    t.bad("no_such_card", "hand_card_discarded", 0, kind="attack")  # empty hand in round 1
    t.draw({0: (5, 2), 1: (7, 0)})
    t.prep(0, ("instinct", None))
    t.prep(1)
    t.attack(0, "Slash", [2, 2], [2, 3]).disengage(1)
    t.field([1, 1])
    t.bad("no_such_card", "hand_card_discarded", 1, kind="strategy")  # seat 1 holds attack cards only
    t.do("hand_card_discarded", 1, kind="attack")
    t.bad("already_discarded", "hand_card_discarded", 1, kind="attack")
    assert t.state["hands"][1] == {"attack": 6, "strategy": 0}
    assert t.state["discards"]["attack"] == 1 + 1  # Slash from the field, and the discard
    t.do("cards_drawn", 0, attack=2, strategy=0)
    t.bad("drawing_started", "hand_card_discarded", 0, kind="attack")
    t.do("cards_drawn", 1, attack=1, strategy=0)


def test_discard_takes_the_named_kind(table) -> None:
    t = table()
    t.field()
    t.draw({0: (5, 2), 1: (6, 1)})
    t.prep(0)
    t.prep(1)
    t.disengage(0)
    t.field([1, 1])
    t.do("hand_card_discarded", 0, kind="strategy")
    assert t.state["hands"][0] == {"attack": 5, "strategy": 1}
    t.do("cards_drawn", 1, attack=0, strategy=0)  # the other seat's Momentum now: seat 1 draws first
    t.do("cards_drawn", 0, attack=1, strategy=0)


# -- 4.3 Preparation Phase ----------------------------------------------------------------------------------
def test_momentum_seat_prepares_first(table) -> None:
    t = table()
    t.field().draw({0: (4, 3), 1: (4, 3)})
    t.bad("not_your_turn", "strategy_card_placed", 1, slot="equipment", card="Bracer")
    t.bad("not_your_turn", "preparation_finished", 1)
    t.do("strategy_card_placed", 0, slot="equipment", card="Bracer")
    t.do("preparation_finished", 0)
    t.bad("not_your_turn", "strategy_card_placed", 0, slot="equipment", card="Bracer")
    t.do("strategy_card_placed", 1, slot="gambit", card="Test of Pain")
    t.do("preparation_finished", 1)
    assert t.state["phase"] == "combat"
    assert t.state["boards"][0]["equipment"][0]["name"] == "Bracer"
    assert t.state["hands"][0]["strategy"] == 2


def test_slot_capacities_three_two_one(table) -> None:
    t = table()
    t.field().draw({0: (0, 7), 1: (7, 0)})
    for _ in range(3):
        t.do("strategy_card_placed", 0, slot="instinct", card=None)
    t.bad("slot_full", "strategy_card_placed", 0, slot="instinct", card=None)
    t.do("strategy_card_placed", 0, slot="equipment", card="Bracer")
    t.do("strategy_card_placed", 0, slot="equipment", card="Razor Oil")
    t.bad("slot_full", "strategy_card_placed", 0, slot="equipment", card="Bracer")
    t.do("strategy_card_placed", 0, slot="gambit", card="Test of Will")
    t.bad("slot_full", "strategy_card_placed", 0, slot="gambit", card="Test of Pain")
    assert t.state["hands"][0]["strategy"] == 1


def test_cards_only_fit_their_own_slot(table) -> None:
    t = table()
    t.field().draw({0: (0, 7), 1: (7, 0)})
    t.bad("wrong_slot", "strategy_card_placed", 0, slot="equipment", card="Anticipation")
    t.bad("wrong_slot", "strategy_card_placed", 0, slot="instinct", card="Bracer")
    t.bad("wrong_slot", "strategy_card_placed", 0, slot="gambit", card="Razor Oil")
    t.bad("card_required", "strategy_card_placed", 0, slot="equipment", card=None)
    t.bad("unknown_card", "strategy_card_placed", 0, slot="instinct", card="Cutlass of Doom")


def test_placing_needs_a_strategy_card_in_hand(table) -> None:
    t = table()
    t.field().draw({0: (7, 0), 1: (7, 0)})
    t.bad("no_strategy_cards", "strategy_card_placed", 0, slot="instinct", card=None)


def test_copies_limit_named_cards(table) -> None:
    strategy = [
        {
            "name": "Bracer",
            "copies": 1,
            "type": "EQUIPMENT",
            "activation": "automatic",
            "effect": "negate_first_instance",
        },
        {
            "name": "Anticipation",
            "copies": 1,
            "type": "INSTINCT",
            "activation": "choice",
            "effect": "negate_chosen_instance",
        },
    ]
    t = table(strategy_cards=strategy)
    t.field().draw({0: (3, 4), 1: (3, 4)})
    t.do("strategy_card_placed", 0, slot="equipment", card="Bracer")
    t.do("strategy_card_placed", 0, slot="instinct", card="Anticipation")
    t.bad("no_copies_left", "strategy_card_placed", 0, slot="equipment", card="Bracer")
    t.bad("no_copies_left", "strategy_card_placed", 0, slot="instinct", card="Anticipation")


def test_unplaced_and_unplayed_strategy_cards_carry_over(table) -> None:
    t = table()
    t.to_combat(
        boards={
            0: [
                ("instinct", "Anticipation"),
                ("equipment", "Bracer"),
                ("equipment", "Razor Oil"),
                ("gambit", "Test of Skill"),
            ],
            1: [],
        },
        hands={0: (3, 4), 1: (7, 0)},
    )
    t.disengage(0)
    board = t.state["boards"][0]
    assert [c["name"] for c in board["instinct"]] == ["Anticipation"]
    assert [c["name"] for c in board["equipment"]] == ["Bracer"]  # Razor Oil: destroyed when the round ends
    assert board["gambit"] == []  # GAMBITs are discarded at the end of combat
    assert t.state["hands"][0]["strategy"] == 0
    assert t.state["discards"]["strategy"] == 2

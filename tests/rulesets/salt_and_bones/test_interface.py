"""Salt & Bones: view (hidden INSTINCTs), describe, turn, warnings and legal_moves per phase."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.replay import describe_entry
from rulesets.salt_and_bones.catalog import default_strategy_cards

pytestmark = pytest.mark.pure


def test_view_hides_face_down_instincts_from_the_other_seat(table, rs) -> None:
    t = table().to_combat(boards={0: [("instinct", "Anticipation"), ("equipment", "Bracer")], 1: [("instinct", None)]})
    own = rs.view(t.state, 0)
    assert own["boards"][0]["instinct"][0]["name"] == "Anticipation"
    other = rs.view(t.state, 1)
    uid = own["boards"][0]["instinct"][0]["uid"]
    assert other["boards"][0]["instinct"][0] == {"uid": uid, "name": None, "hidden": True}
    assert other["boards"][0]["equipment"][0]["name"] == "Bracer"  # EQUIPMENT is face-up
    assert other["combat"]["window"]["snapshot"]["boards"][0]["instinct"][0]["name"] is None
    spectator = rs.view(t.state, None)
    assert spectator["boards"][0]["instinct"][0]["name"] is None
    assert t.state["boards"][0]["instinct"][0]["name"] == "Anticipation"  # view copies, never edits


DESCRIBED = [
    (
        Event("field_card_flipped", None, {"tiles": [[1, 1], [1, 2]]}),
        "The table flipped a Field card: the tiles at column 2, row 2; column 3, row 2 are destroyed.",
    ),
    (Event("hand_card_discarded", 0, {"kind": "attack"}), "Anne discarded an attack card before drawing."),
    (Event("cards_drawn", 1, {"attack": 4, "strategy": 3}), "Bart drew 4 attack and 3 strategy cards."),
    (
        Event("strategy_card_placed", 0, {"slot": "instinct", "card": "Anticipation"}),
        "Anne placed a card face-down in an INSTINCT slot.",
    ),
    (
        Event("strategy_card_placed", 0, {"slot": "equipment", "card": "Bracer"}),
        "Anne placed Bracer in an EQUIPMENT slot.",
    ),
    (Event("preparation_finished", 1, {}), "Bart finished preparing."),
    (
        Event("attack_card_played", 0, {"card": "Slash", "attack_tile": [2, 2], "opportunity_tile": [2, 3]}),
        "Anne played Slash (attack on column 3, row 3; opportunity on column 4, row 3).",
    ),
    (
        Event("strategy_card_played", 1, {"card": "Anticipation", "target": {"card": 3, "instance": 0}}),
        "Bart played Anticipation against damage instance 0 of card 3.",
    ),
    (
        Event("strategy_card_played", 1, {"card": "Condescend", "target": {"card": 4}}),
        "Bart played Condescend against card 4.",
    ),
    (Event("disengaged", 0, {}), "Anne disengaged."),
]


def test_describe_gives_one_plain_sentence_per_event(rs) -> None:
    for event, sentence in DESCRIBED:
        assert describe_entry(rs, event, ["Anne", "Bart"]) == sentence


def test_turn_names_phase_and_seats(table, rs) -> None:
    t = table(momentum_seat=1)
    assert rs.turn(t.state).phase == "field"
    t.field()
    info = rs.turn(t.state)
    assert info.phase == "draw" and info.seats == (1,)  # round 1: seat 0 holds no card to discard first
    t.draw()
    assert rs.turn(t.state).seats == (1,) and rs.turn(t.state).phase == "preparation"
    t.prep(1)
    assert rs.turn(t.state).seats == (0,)
    t.prep(0)
    assert rs.turn(t.state).phase == "combat" and rs.turn(t.state).seats == (1,)


def test_turn_in_a_later_draw_phase_names_a_seat_that_may_still_discard(table, rs) -> None:
    t = table(momentum_seat=1)
    t.field()
    t.draw()
    state = {
        **t.state,
        "phase": "draw",
        "draw": {**t.state["draw"], "drawn": [False, False], "discarded": [False, False]},
    }
    assert rs.turn(state).seats == (1, 0)  # both hold cards: the other seat may discard before the draws
    state["draw"]["discarded"] = [True, False]  # seat 0 has discarded its one card
    assert rs.turn(state).seats == (1,)


def test_turn_while_the_momentum_seat_may_chain(table, rs) -> None:
    t = table().to_combat()
    t.attack(0, "Disarm", [2, 2], [2, 3])
    t.attack(0, "Feint", [1, 2], [1, 1])
    assert rs.turn(t.state).seats == (0, 1)
    t.bad("must_disengage", "attack_card_played", 1, card="Slash", attack_tile=[3, 2], opportunity_tile=[4, 2])


def test_forced_turn_prompt(table, rs) -> None:
    t = table(momentum_seat=1).to_combat()
    t.attack(1, "Slash", [2, 2], [2, 3])
    t.attack(0, "Disarm", [3, 2], [3, 3])
    info = rs.turn(t.state)
    assert info.seats == (1,) and info.prompt.startswith("disengage")


def test_warnings_for_a_destroyed_centre_and_unnamed_automatic_instincts(table, rs) -> None:
    strategy = [
        *default_strategy_cards(),
        {
            "name": "Iron Skin",
            "copies": 3,
            "type": "INSTINCT",
            "activation": "automatic",
            "effect": "negate_first_instance",
        },
    ]
    t = table(strategy_cards=strategy).to_combat(
        tiles=[[2, 2], [2, 3], [3, 2], [3, 3]], boards={0: [("instinct", None)]}
    )
    text = " ".join(rs.warnings(t.state))
    assert "centre tile is destroyed" in text
    assert "Iron Skin" in text
    t.bad("not_centre", "attack_card_played", 0, card="Slash", attack_tile=[1, 2], opportunity_tile=[1, 3])
    # no Attack card can be placed: disengage (or reveal the face-down card as an Overwhelm for later)
    assert {m.type for m in rs.legal_moves(t.state) if m.seat == 0} == {"disengaged", "strategy_card_played"}


def test_legal_moves_in_the_field_phase_are_not_listed(rs) -> None:
    assert rs.legal_moves(rs.initial_state({}, 2)) is None


def test_legal_moves_in_the_draw_phase(table, rs) -> None:
    t = table(attack_deck=5)
    t.field()
    moves = rs.legal_moves(t.state)
    assert {(m.data["attack"], m.data["strategy"]) for m in moves} == {(a, 7 - a) for a in range(6)}
    assert all(m.type == "cards_drawn" and m.seat == 0 for m in moves)  # empty hands: nothing to discard


def test_legal_moves_in_the_preparation_phase(table, rs) -> None:
    t = table().field().draw({0: (6, 1), 1: (7, 0)})
    moves = rs.legal_moves(t.state)
    placed = {(m.data["slot"], m.data["card"]) for m in moves if m.type == "strategy_card_placed"}
    assert ("instinct", None) in placed and ("equipment", "Bracer") in placed and ("gambit", "Test of Will") in placed
    assert ("equipment", "Anticipation") not in placed
    assert Event("preparation_finished", 0, {}) in moves


def test_legal_moves_in_combat_cover_chains_placements_and_instincts(table, rs) -> None:
    t = table().to_combat(boards={1: [("instinct", "Anticipation")]})
    first = rs.legal_moves(t.state)
    attacks = [m for m in first if m.type == "attack_card_played"]
    assert attacks and all(m.seat == 0 for m in attacks)
    cells = {tuple(m.data["attack_tile"]) for m in attacks} | {tuple(m.data["opportunity_tile"]) for m in attacks}
    assert {(2, 2), (2, 3), (3, 2), (3, 3)} <= cells
    t.attack(0, "Slash", [2, 2], [2, 3])
    moves = rs.legal_moves(t.state)
    seat0 = {m.data["card"] for m in moves if m.type == "attack_card_played" and m.seat == 0}
    assert seat0 == {"Feint", "Quick Cut"}  # only Chain cards may follow
    assert Event("disengaged", 1, {}) in moves and Event("disengaged", 0, {}) not in moves
    assert Event("strategy_card_played", 1, {"card": "Anticipation", "target": t.on(0)}) in moves

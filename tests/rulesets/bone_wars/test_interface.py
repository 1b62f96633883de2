"""The rest of the interface: registry, legal moves, turn prompts, descriptions, view."""

from __future__ import annotations

import json

import pytest

from rulesets.base import Event
from rulesets.registry import get_ruleset
from rulesets.schema import check_payload

pytestmark = pytest.mark.pure


def test_registered_under_its_slug(rs):
    assert get_ruleset("bone-wars") is rs
    assert rs.name == "Bone Wars" and rs.seats == (1, 2, 3, 4) and rs.rulebook == "bone-wars.txt"


def _keys(moves):
    return sorted(json.dumps(m.to_dict(), sort_keys=True) for m in moves)


def test_legal_moves_before_the_card_are_the_two_passes(rs, table):
    t = table(2)
    assert _keys(rs.legal_moves(t.state)) == _keys(
        [Event("passed", 0, {"patron": "marsh"}), Event("passed", 0, {"patron": "cope"})]
    )
    t.card(0)
    t.end(0)
    assert Event("table_paused", None, {}) in rs.legal_moves(t.state)


def test_legal_moves_after_the_card_list_the_finite_effects(rs, table):
    t = table(2, shelves=1)
    t.card(0)
    t.do("paper_published", 0, side="cope")
    moves = rs.legal_moves(t.state)
    types = [m.type for m in moves]
    assert "passed" not in types and "card_played" not in types
    assert Event("turn_ended", 0, {}) in moves and Event("patron_flipped", 0, {}) in moves
    assert [m.data for m in moves if m.type == "paper_published"] == [{"side": "marsh"}]  # Cope's is full
    assert [m.data for m in moves if m.type == "paper_debunked"] == [{"side": "cope"}]
    assert types.count("slot_upgraded") == 4 * 5
    for move in moves:
        assert check_payload(rs.event_types[move.type].fields, move.data) == move.data
        rs.validate(t.state, move)


def test_turn_names_whose_turn_it_is_and_what_comes_next(rs, table):
    t = table(2, first_seat=1)
    info = rs.turn(t.state)
    assert info.seats == (1,) and info.phase == "play"
    assert info.prompt == "Round 1 of 4: Seat 1 plays a card into slot 1 ($0 + the card's cost) or passes."
    t.card(1)
    info = rs.turn(t.state)
    assert info.phase == "action" and info.prompt == (
        "Round 1 of 4: Seat 1 records the action's effects, then ends the turn."
    )
    t.end(1).card(0).end(0)
    assert "slot 2 ($1" in rs.turn(t.state).prompt


def test_turn_says_when_the_slots_are_full_and_when_the_game_is_over(rs, table):
    t = table(1, starting_money=99)
    for _ in range(5):
        t.turn(0)
    assert rs.turn(t.state).prompt == "Round 1 of 4: Seat 0's slots are full: Seat 0 passes."
    for _ in range(4):
        t.pass_round()
    info = rs.turn(t.state)
    assert info.seats == () and info.phase == "over" and info.prompt == "The game is over: most RP (0)."


def test_describe_names_the_player_and_with_the_state_the_slot_price_and_prize(rs, table):
    names = ["Ana", "Bo"]
    t = table(2)
    t.card(0).end(0).card(1).end(1)
    cope_team = Event("card_played", 0, {"card": {"kind": "team", "name": "Cope's Team", "cost": 2}})
    assert rs.describe(cope_team, names, before=t.state) == "Ana played Cope's Team into slot 2 (cost 1+2)"
    t.card(0, "team").end(0).card(1).end(1)
    raptor = Event("card_played", 0, {"card": {"kind": "species", "name": "Raptor", "cost": 0, "minor_find": "fossil"}})
    assert rs.describe(raptor, names, before=t.state) == "Ana played Raptor into slot 3 (cost 1+0): prize bonus"
    assert rs.describe(raptor, names) == "Ana played Raptor (species, own cost 0)"


def test_describe_every_other_entry(rs, table):
    names = ["Ana", "Bo"]
    t = table(2)
    t.card(0)
    cases = {
        ("money_changed", 0, (("amount", 3),)): "Ana gained $3",
        ("money_changed", 0, (("amount", -2),)): "Ana paid $2",
        ("loyalty_gained", 0, (("amount", 2),)): "Ana gained 2 loyalty on Marsh's track",
        ("paper_published", 1, (("side", "cope"),)): "Bo published a paper for Cope",
        ("paper_debunked", 1, (("side", "marsh"),)): "Bo debunked a paper of Marsh",
        ("patron_flipped", 0, ()): "Ana flipped the patron tile",
        ("species_archived", 0, (("name", "Coryphodon"),)): "Ana archived Coryphodon",
        ("slot_upgraded", 0, (("cost", 2), ("icon", "bug"))): "Ana added an action slot ($2, bug)",
        ("rp_gained", 1, (("amount", 4), ("reason", "award"))): "Bo gained 4 RP: award",
        ("turn_ended", 0, ()): "Ana ended the turn",
        ("passed", 1, (("patron", "cope"),)): "Bo passed and returns to Cope",
        ("cranial_circumference_recorded", 1, (("cm", 57.5),)): "Bo's cranial circumference: 57.5 cm",
        ("table_paused", None, ()): "The table paused: end of the sitting",
    }
    for (type_, seat, data), text in cases.items():
        assert rs.describe(Event(type_, seat, dict(data)), names, before=t.state) == text


def test_view_is_public(rs, table):
    t = table(3)
    t.card(0, "species", "Hidden?", find="bug")
    assert rs.view(t.state, 1) == rs.view(t.state, None) == t.state

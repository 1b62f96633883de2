"""The rest of the interface: registry, legal moves, turn prompts, descriptions, view."""

from __future__ import annotations

import json

import pytest

from rulesets.base import Event
from rulesets.names import name_seats, turn_line
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
    assert types.count("slot_upgraded") == 1 * 5  # right of the $3 slot only a $3 slot (rising to the right)
    for move in moves:
        assert check_payload(rs.event_types[move.type].fields, move.data) == move.data
        rs.validate(t.state, move)


def test_turn_names_whose_turn_it_is_and_what_comes_next(rs, table):
    t = table(2, first_seat=1)
    info = rs.turn(t.state)
    assert info.seats == (1,) and info.phase == "play"
    assert info.prompt == "play a card into slot 1 ($0; a team card adds its own cost) or pass (round 1 of 4)"
    t.card(1)
    info = rs.turn(t.state)
    assert info.phase == "action" and info.prompt == (
        "finish the action (record its effects), then end the turn (round 1 of 4)"
    )
    t.end(1).card(0).end(0)
    assert "slot 2 ($1" in rs.turn(t.state).prompt


def test_turn_says_when_the_slots_are_full_and_when_the_game_is_over(rs, table):
    t = table(1, starting_money=99)
    for _ in range(5):
        t.turn(0)
    assert rs.turn(t.state).prompt == "pass: every action slot holds a card (round 1 of 4)"
    for _ in range(4):
        t.pass_round()
    info = rs.turn(t.state)
    assert (
        info.seats == ()
        and info.phase == "awards"
        and info.prompt
        == (
            "Round 4 is over: record the final awards (RP with a reason), then confirm the end of the game. "
            "For now Seat 0 leads with 0 RP (most RP)."
        )
    )
    t.do("game_concluded")
    info = rs.turn(t.state)
    assert info.seats == () and info.phase == "over" and info.prompt == "Seat 0 wins with 0 RP (most RP)."


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


def test_the_turn_line_says_what_the_table_must_do_and_names_the_player_once(rs, table):
    """Item 8: after Ana's card the others are told she must finish her action and end her turn; the turn
    line (TurnInfo's rule: the prompt never names the seat on turn) names her once."""
    names = ["Ana", "Bo"]
    t = table(2)
    info = rs.turn(t.state)
    assert turn_line(info.seats, info.prompt, names) == (
        "Ana to play — play a card into slot 1 ($0; a team card adds its own cost) or pass (round 1 of 4)"
    )
    t.card(0)
    info = rs.turn(t.state)
    assert turn_line(info.seats, info.prompt, names) == (
        "Ana to play — finish the action (record its effects), then end the turn (round 1 of 4)"
    )
    v = t.bad("not_your_turn", "card_played", 1, card={"kind": "team", "name": "Eager"})
    # issue 32: the player is named once ("It is Ana's turn: Ana must…" read twice)
    assert name_seats(v.message, names) == (
        "It is Ana's turn, and the action is not finished: record its effects, then end the turn."
    )
    t.bad("not_your_turn", "passed", 1, patron="cope")


def test_the_prompt_never_offers_a_slot_the_seat_cannot_pay_for(rs, table):
    t = table(1, starting_money=0)
    t.card(0).end(0)  # slot 1 costs $0; slot 2 costs $1 and the seat has $0
    assert rs.turn(t.state).prompt == "pass: slot 2 costs $1 and only $0 is left (round 1 of 4)"
    t.bad("not_enough_money", "card_played", 0, card={"kind": "team", "name": "Broke"})


def test_the_end_of_game_line_names_the_winner(rs, table):
    t = table(2, starting_money=9)
    t.pas(0).turn(1, ("rp_gained", {"amount": 14, "reason": "awards"}))
    for _ in range(4):
        t.pass_round()
    t.do("game_concluded")
    info = rs.turn(t.state)
    assert turn_line(info.seats, info.prompt, ["Ana", "Bo"]) == "Bo wins with 14 RP (most RP)."

"""What the table reads (issue 22, items 8–10): turn lines that say what to do next and name nobody twice, an
end-of-game line naming the winner, Chronicle's own refusals cited as such, overrides that never bend a count."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.names import name_seats, turn_line
from rulesets.replay import Position, step
from rulesets.the_first_spine import RULESET
from tests.rulesets.scenario import assert_names_each_once, turn_line_of

pytestmark = pytest.mark.pure

NAMES = ["Ana", "Bo", "Cy"]


def line(state) -> str:
    return turn_line_of(RULESET, state, NAMES)


def named_once(text: str) -> None:
    assert_names_each_once(text, NAMES)


def test_turn_lines_name_each_player_once(table):
    t = table(3, board=[5, 5])
    assert line(t.state) == "Ana or Bo or Cy to play — choose a destiny and a secret origin."
    t.do("destiny_chosen", 0, destiny="hunter")
    assert line(t.state) == (
        "Ana or Bo or Cy to play — choose a destiny and a secret origin, each what they still lack "
        "(2 destiny, 3 origin)."
    )
    for seat in (1, 2):
        t.do("destiny_chosen", seat, destiny="hunter")
    assert line(t.state) == "Ana or Bo or Cy to play — choose a secret origin."
    for seat in range(3):
        t.do("origin_chosen", seat, origin="healer")
    named_once(line(t.state))
    assert line(t.state).startswith("Ana to play — discard (the first is free")
    t.refill().place("Squire", [3, 2])
    named_once(line(t.state))
    assert line(t.state) == "Ana to play — place cards and record spell effects, then end the turn."


def test_a_seat_acting_out_of_turn_is_told_what_the_table_must_do_next(table):
    t = table(2, board=[4, 5]).setup()
    v = t.bad("not_your_turn", "hand_refilled", 1, discarded=0)
    assert (
        name_seats(v.message, NAMES)
        == "It is Ana's turn: they must discard and draw first, then act and end their turn."
    )
    t.refill().place("Squire", [2, 2])
    v = t.bad("already_refilled", "hand_refilled", 1, discarded=0)  # Bo starts his turn once Ana has played
    assert name_seats(v.message, NAMES) == "Ana must finish their actions and end their turn before Bo's turn begins."
    v = t.bad("not_your_turn", "turn_ended", 1)
    assert name_seats(v.message, NAMES) == "Ana must finish their actions and end their turn."


def test_the_end_of_game_line_names_the_winner(rs, table):
    t = table(2, board=[4, 5], wizard_hp=3).setup()
    t.refill().place("Paladin", [2, 2]).place("Paladin", [1, 2]).end()
    info = rs.turn(t.state)
    assert info.seats == () and info.phase == "over"
    assert turn_line(info.seats, info.prompt, NAMES) == "Ana wins with the last wizard standing (3 life left)."
    v = t.bad("game_over", "hand_refilled", 1, discarded=0)
    assert name_seats(v.message, NAMES) == "The game is over: Ana wins with the last wizard standing (3 life left)."
    assert v.rule == "The First Spine › The essentials › Objective of the game"
    assert not v.overridable  # the end is final: no house rule reopens it (issue 46)
    assert rs.outcome(t.state).reason == "the last wizard standing (3 life left)"  # pages put "Won by Ana" first


@pytest.mark.parametrize(
    ("code", "type_", "seat", "data", "words"),
    [
        ("unknown_event", "card_drawn", 0, {}, "The First Spine has no 'card_drawn' entry"),
        (
            "unknown_seat",
            "hand_refilled",
            None,
            {"discarded": 0},
            "Say which seat this entry is for: its seats are 0 or 1.",
        ),
        ("unknown_seat", "hand_refilled", 5, {"discarded": 0}, "This match has no seat 5: its seats are 0 or 1."),
        (
            "invalid_payload",
            "hp_changed",
            0,
            {"at": [1, 2], "amount": 500},
            "Amount (+ heals, - hurts): must be at most 99.",
        ),
        ("zero_amount", "hp_changed", 0, {"at": [3, 2], "amount": 0}, "A change of 0 hit points changes nothing"),
        ("unknown_card", "card_placed", 0, {"card": "Dragon", "at": [2, 2]}, "no card called 'Dragon'"),
    ],
)
def test_refusals_that_are_not_rulebook_rules_cite_chronicle(table, code, type_, seat, data, words):
    t = table(2, board=[4, 5]).setup()
    t.refill()
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(t.state, Event(type_, seat, data))
    assert info.value.code == code and info.value.rule == "Chronicle › Entries"
    assert words in info.value.message, info.value.message


@pytest.mark.parametrize(
    ("type_", "data", "words"),
    [
        ("hand_refilled", {"discarded": 9}, "(Seat 0 holds 6 cards and cannot discard 9)"),
        ("card_placed", {"card": "Squire", "at": [3, 2]}, "(column 3, row 4 already holds Seat 0's wizard)"),
        ("card_placed", {"card": "Squire", "at": [1, 2]}, "(column 3, row 2 already holds Squire)"),
        ("card_placed", {"card": "Squire", "at": [9, 9]}, "(column 10, row 10 is off the 4 × 5 board)"),
        ("card_moved", {"from": [2, 2], "to": [3, 2]}, "(column 3, row 4 already holds Seat 0's wizard)"),
        ("card_moved", {"from": [2, 2], "to": [2, 5]}, "(column 6, row 3 is off the 4 × 5 board)"),
        ("card_moved", {"from": [1, 1], "to": [1, 0]}, "(there is no card on column 2, row 2 to move)"),
        ("hp_changed", {"at": [1, 1], "amount": -1, "note": ""}, "there is no card or wizard on column 2, row 2"),
    ],
)
def test_an_override_never_bends_a_count_or_stacks_pieces(table, type_, data, words):
    t = table(2, board=[4, 5]).setup()
    t.put("Squire", [2, 2], 0).put("Squire", [1, 2], 1)
    if type_ != "card_moved":
        t.refill()
    with pytest.raises(RuleViolation) as info:
        step(RULESET, Position(t.state, 10, override_pending=True), Event(type_, 0, data))
    assert info.value.code == "unplayable" and words in info.value.message, info.value.message


def test_an_override_records_what_the_table_said(table):
    """A house rule lets a card go on a cell the rules refuse (not next to one's own cards): it is placed."""
    t = table(2, board=[4, 5]).setup()
    t.refill()
    pos = step(
        RULESET, Position(t.state, 10, override_pending=True), Event("card_placed", 0, {"card": "Squire", "at": [0, 0]})
    )
    squire = next(c for c in pos.state["cards"] if c["at"] == [0, 0])
    assert squire["hp"] == 3 and pos.state["players"][0]["hand"] == 5


# -- issue 32: wording ------------------------------------------------------------------------------------------


def test_one_card_in_hand_is_said_in_the_singular(table):
    t = table(2, board=[4, 5], hand_size=1, deck_size=7).setup()
    with pytest.raises(RuleViolation) as info:
        step(RULESET, Position(t.state, 10, override_pending=True), Event("hand_refilled", 0, {"discarded": 2}))
    assert "(Seat 0 holds 1 card and cannot discard 2)" in info.value.message, info.value.message
    assert t.bad("not_enough_cards", "hand_refilled", discarded=2).message == (
        "Seat 0 holds 1 card and cannot discard 2."
    )


def test_the_start_prompt_with_a_run_card_keeps_the_before_turn_effects(rs, table):
    t = table(2, board=[4, 5]).setup()
    t.put("Grey Wolf", [2, 2], 0)
    assert rs.turn(t.state).prompt == (
        "first, a card with Run may move and “before your turn” effects are recorded; then discard (the first "
        "is free, then 1 life each) and draw up to 6."
    )


def test_same_name_cards_are_told_apart_by_their_cells(table):
    t = table(2, board=[4, 5]).setup()
    t.put("Squire", [2, 2], 0).put("Squire", [1, 2], 1)
    assert line(t.state).startswith("Ana to play — discard")
    t.refill()
    assert line(t.state).endswith(
        "Ending the turn resolves: Squire on column 3, row 3 deals 1 to Squire on column 3, row 2 "
        "(attack 2 − defense 1), takes 1 (attack 2 − defense 1)."
    )
    t.end()
    assert [e["text"] for e in t.state["log"] if e["kind"] == "confrontation"] == [
        "Squire on column 3, row 3 deals 1 to Squire on column 3, row 2 (attack 2 − defense 1), "
        "takes 1 (attack 2 − defense 1)."
    ]


def test_two_death_cards_each_say_which_card_they_take_along(table, card_def):
    cards = [
        card_def("Imp", hp=5, attack=1, defense=0),
        card_def("Ghoul", hp=2, attack=1, defense=0, capacities=["death"]),
    ]
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Imp", [2, 1], 0).put("Imp", [2, 3], 0).put("Ghoul", [1, 1], 1).put("Ghoul", [1, 3], 1)
    t.refill().end()
    texts = [e["text"] for e in t.state["log"] if e["kind"] in ("capacity", "destroyed")]
    assert "Death: Ghoul on column 2, row 2 takes Imp on column 2, row 3 with it." in texts
    assert "Death: Ghoul on column 4, row 2 takes Imp on column 4, row 3 with it." in texts
    assert "Imp on column 2, row 3 is destroyed and goes to Seat 0's discard." in texts
    assert len(set(texts)) == len(texts), texts  # no line said twice


def test_a_refused_target_says_one_of_the_seats_cards(table):
    t = table(2, board=[4, 5]).setup()
    t.refill()
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(t.state, Event("confrontation_target_chosen", 0, {"from": [1, 1], "target": [1, 2]}))
    assert info.value.code == "not_your_card"
    assert name_seats(info.value.message, NAMES) == "The cell at column 2, row 2 does not hold one of Ana's cards."


def test_setup_not_finished_cites_what_is_missing(table):
    t = table(2, board=[4, 5])
    v = t.bad("setup_not_finished", "hand_refilled", 0, discarded=0)
    assert v.rule == "The First Spine › Installation › 1 Choose a destiny"
    t.do("destiny_chosen", 0, destiny="hunter").do("destiny_chosen", 1, destiny="hunter")
    t.do("origin_chosen", 0, origin="healer")
    v = t.bad("setup_not_finished", "hand_refilled", 0, discarded=0)
    assert v.rule == "The First Spine › Installation › 2 Choose an origin"
    assert name_seats(v.message, NAMES).endswith("still to choose: Bo (origin).")


def test_rules_the_rulebook_leaves_blank_cite_chronicles_reading(table):
    """The rulebook's Actions section is empty: no refusal cites it; an invented rule cites the reading written
    in docs/rules/the-first-spine.md, a rule the rulebook prints elsewhere cites that section."""
    from rulesets.the_first_spine import fields as F
    from rulesets.the_first_spine import rules as R

    for module in (F, R):
        assert not any("Game play › Actions" in v for v in vars(module).values() if isinstance(v, str))
    t = table(2, board=[4, 5], hand_size=1, deck_size=8).setup()
    t.refill()
    assert t.bad("not_next_to_yours", "card_placed", card="Squire", at=[0, 0]).rule == (
        "The First Spine › Chronicle's reading › Placing a card"
    )
    assert t.bad("cell_occupied", "card_placed", card="Squire", at=[0, 2]).rule == (
        "The First Spine › Chronicle's reading › Placing a card"
    )
    assert t.bad("off_board", "card_placed", card="Squire", at=[4, 2]).rule == (
        "The First Spine › The essentials › Objective of the game"
    )
    assert t.bad("no_card_there", "hp_changed", at=[1, 1], amount=-1).rule == (
        "The First Spine › Chronicle's reading › Life changes"
    )
    t.place("Squire", [2, 2])
    assert t.bad("empty_hand", "card_placed", card="Squire", at=[2, 1]).rule == (
        "The First Spine › The essentials › Objective of the game"
    )


def test_cards_leaving_with_an_eliminated_player_are_logged(table):
    t = table(2, board=[4, 5], wizard_hp=3).setup()
    t.put("Squire", [0, 0], 1).put("Turncoat", [0, 4], 1)
    t.state["cards"][-1]["owner"] = 0  # a Turncoat Seat 1 took from Seat 0 by Treason
    t.refill().place("Paladin", [2, 2]).place("Paladin", [1, 2]).end()
    out = [name_seats(e["text"], NAMES) for e in t.state["log"] if e["kind"] == "out"]
    assert out == [
        "Bo's wizard has no life left: Bo is out.",
        "Squire leaves the board with Bo's wizard and goes to Bo's discard.",
        "Turncoat leaves the board with Bo's wizard and goes to Ana's discard.",
    ]
    assert t.player(1)["discard"] == ["Squire"] and t.player(0)["discard"] == ["Turncoat"]


def test_the_history_names_the_card_on_a_cell(rs, table):
    from rulesets.replay import describe_entry

    t = table(2, board=[4, 5]).setup()
    t.put("Grey Wolf", [2, 1], 0).put("Squire", [1, 2], 1).put("Squire", [1, 0], 1)
    before = t.state

    def said(type_, data):
        return describe_entry(rs, Event(type_, 0, data), NAMES, before=before)

    assert said("card_moved", {"from": [2, 1], "to": [2, 2]}) == (
        "Ana moved Grey Wolf on column 2, row 3 to column 3, row 3 (Run)."
    )
    assert said("hp_changed", {"at": [1, 2], "amount": -3, "note": "Fireball"}) == (
        "Ana took 3 life from Squire on column 3, row 2 (Fireball)."
    )
    assert said("hp_changed", {"at": [0, 2], "amount": 2, "note": ""}) == (
        "Ana gave 2 life to Bo's wizard on column 3, row 1."
    )
    assert said("confrontation_target_chosen", {"from": [2, 1], "target": [1, 0]}) == (
        "Ana chose: Grey Wolf on column 2, row 3 confronts Squire on column 1, row 2."
    )
    # without the state it was played on (an entry whose state cannot be read) the cell alone is said
    assert describe_entry(rs, Event("card_moved", 0, {"from": [2, 1], "to": [2, 2]}), NAMES) == (
        "Ana moved the card on column 2, row 3 to column 3, row 3 (Run)."
    )

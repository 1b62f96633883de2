"""What the table reads (issue 22, item 10): turn lines that say what to do next and name nobody twice, an
end-of-game line naming the winner, a provisional state said as such, Chronicle's own refusals cited as such,
and overrides that never bend a count."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.names import name_seats
from rulesets.replay import Position, step
from rulesets.salt_and_bones import RULESET
from tests.rulesets.scenario import assert_names_each_once, turn_line_of

pytestmark = pytest.mark.pure

NAMES = ["Ana", "Bo"]


def line(state) -> str:
    return turn_line_of(RULESET, state, NAMES)


def named_once(text: str) -> None:
    assert_names_each_once(text, NAMES)


def test_every_turn_line_of_a_game_names_each_player_once(table):
    t = table(starting_health=2)
    seen = [line(t.state)]
    t.field([0, 1])
    seen.append(line(t.state))
    t.draw()
    seen.append(line(t.state))
    t.prep(0).prep(1)
    seen.append(line(t.state))
    t.attack(0, "Slash", [2, 2], [2, 3])
    seen.append(line(t.state))
    assert seen[-1] == (
        "Ana or Bo to play — the player with Momentum may chain another Attack card, or the other player starts "
        "a turn (play or disengage)."
    )
    t.disengage(1)
    seen.append(line(t.state))
    for text in seen:
        named_once(text)


def test_the_disengage_again_prompt_names_nobody_twice(table):
    t = table().to_combat(boards={0: [("gambit", "Test of Courage")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.disengage(1)  # Test of Courage: Ana (Momentum) gets an additional turn first
    t.attack(0, "Thrust", [3, 2], [3, 3])  # Ana may chain in it; Bo may record his disengage again
    info = RULESET.turn(t.state)
    assert info.seats == (0, 1)
    assert line(t.state) == (
        "Ana or Bo to play — a Chain card may follow the Attack card just played, or the disengage is recorded again."
    )


def test_the_end_of_game_line_names_the_winner(rs, table):
    t = table(starting_health=2).to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3]).disengage(1)
    assert rs.outcome(t.state).winners == (0,)
    assert line(t.state) == "Ana wins with 2 Health left (Bo is at 0 Health at the end of combat)."
    v = t.bad("game_over", "disengaged", 0)
    assert name_seats(v.message, NAMES) == (
        "The game is over: Ana wins with 2 Health left (Bo is at 0 Health at the end of combat)."
    )


def test_a_player_at_0_health_mid_combat_is_provisional_and_said_so(rs, table):
    t = table(starting_health=2).to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health() == [2, 0] and rs.outcome(t.state) is None  # nothing is decided before combat ends
    assert any(w.startswith("Seat 1 at 0 Health: nothing is decided until combat ends") for w in rs.warnings(t.state))
    t.disengage(1)
    assert not any("0 Health" in w for w in rs.warnings(t.state))


def test_acting_out_of_turn_says_what_the_table_must_do_next(table):
    t = table().field([0, 1]).draw()
    v = t.bad("not_your_turn", "preparation_finished", 1)
    assert name_seats(v.message, NAMES) == (
        "Ana is placing Strategy cards now (Momentum first): they place theirs and finish preparing, then the "
        "other player prepares."
    )
    t.prep(0).prep(1)
    v = t.bad("not_your_turn", "attack_card_played", 1, card="Slash", attack_tile=[2, 2], opportunity_tile=[2, 3])
    assert name_seats(v.message, NAMES) == "It is Ana's turn in combat: they play an Attack card or disengage."


@pytest.mark.parametrize(
    ("code", "type_", "seat", "data"),
    [
        ("unknown_event", "card_drawn", 0, {}),
        ("unknown_seat", "cards_drawn", 3, {"attack": 7, "strategy": 0}),
        ("unknown_seat", "cards_drawn", None, {"attack": 7, "strategy": 0}),
    ],
)
def test_refusals_that_are_not_rulebook_rules_cite_chronicle(table, code, type_, seat, data):
    t = table().field([0, 1])
    with pytest.raises(RuleViolation) as info:
        RULESET.validate(t.state, Event(type_, seat, data))
    assert info.value.code == code and info.value.rule == "Chronicle › Entries"


def test_unknown_cards_and_shapeless_inline_cards_cite_chronicle(table):
    t = table().to_combat()
    for card in ("Cannon", {"name": "X"}, {"name": "X", "attack": 100, "opportunity": 0, "bonus": "none"}):
        event = Event("attack_card_played", 0, {"card": card, "attack_tile": [2, 2], "opportunity_tile": [2, 3]})
        with pytest.raises(RuleViolation) as info:
            RULESET.validate(t.state, event)
        assert info.value.code in ("unknown_card", "bad_card") and info.value.rule == "Chronicle › Entries"


def _overridden(state, event):
    with pytest.raises(RuleViolation) as info:
        step(RULESET, Position(state, 10, override_pending=True), event)
    assert info.value.code == "unplayable"
    return info.value.message


def test_an_override_never_takes_a_count_below_zero_or_stacks_cards(table):
    t = table().field([0, 1])
    assert "holds no strategy card" in _overridden(t.state, Event("hand_card_discarded", 0, {"kind": "strategy"}))
    big = Event("cards_drawn", 0, {"attack": 99, "strategy": 0})
    assert "the decks hold" in _overridden(t.state, big)
    t.draw({0: (7, 0), 1: (7, 0)})
    assert "no Strategy card to place" in _overridden(
        t.state, Event("strategy_card_placed", 0, {"slot": "gambit", "card": "Test of Courage"})
    )
    t.prep(0).prep(1)
    t.attack(0, "Slash", [2, 2], [2, 3])
    on_top = Event("attack_card_played", 1, {"card": "Thrust", "attack_tile": [2, 2], "opportunity_tile": [3, 2]})
    said = _overridden(t.state, on_top)
    assert "the tile at column 3, row 3 is not a free tile" in said and "[" not in said  # players' words


def test_an_override_records_what_the_table_said(table):
    """A house rule lets a second discard through: it is recorded as the table said, not refused or clamped."""
    t = table().field([0, 1])
    t.state["hands"][0]["attack"] = 2  # a built position: a hand kept from an earlier round
    t.do("hand_card_discarded", 0, kind="attack")
    again = Event("hand_card_discarded", 0, {"kind": "attack"})
    pos = step(RULESET, Position(t.state, 10, override_pending=True), again)
    assert pos.state["hands"][0]["attack"] == 0 and pos.state["discards"]["attack"] == 2

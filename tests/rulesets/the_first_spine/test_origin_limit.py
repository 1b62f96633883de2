"""The origin-card limit: a deck holds the six cards of its origin, no more (issue 22, item 2)."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.replay import Position, step
from rulesets.the_first_spine import RULESET

pytestmark = pytest.mark.pure


def six_origin_cards_played(table):
    """Seat 0 (healer) casts Healing Light six times over two turns (a 6-card hand each turn)."""
    t = table(2).setup()
    t.refill()
    for _ in range(4):
        t.place("Healing Light", [6, 3])
    t.end().pass_turns(1)
    t.refill()
    t.place("Shield Maiden", [5, 3]).place("Healing Light", [6, 3])
    return t


def test_six_cards_of_ones_origin_may_be_played(rs, table):
    t = six_origin_cards_played(table)
    assert t.player(0)["origin_played"] == 6 and t.player(0)["origin_revealed"]
    t.replayed()


def test_a_seventh_card_of_ones_origin_is_refused_naming_the_rule(rs, table):
    t = six_origin_cards_played(table)
    assert "Healing Light" in rs.names(table(2).setup().state, 0)["hand"]
    v = t.bad("origin_cards_spent", "card_placed", card="Healing Light", at=[6, 3])
    assert v.rule == "The First Spine › Installation › 2 Choose an origin"
    assert "already played the 6 cards of their origin" in v.message and "put offside" in v.message
    t.bad("origin_cards_spent", "card_placed", card="shield maiden", at=[4, 3])
    t.place("Squire", [5, 2])  # destiny cards are still played
    assert not {"Healing Light", "Shield Maiden"} & set(rs.names(t.state, 0)["hand"])  # the form stops offering them
    assert "Squire" in rs.names(t.state, 0)["hand"]


def test_the_limit_counts_each_seat_on_its_own(table):
    t = six_origin_cards_played(table)
    t.end().refill()
    t.place("Surveyor", [1, 3])  # seat 1 (architect) has played none of its own yet
    assert t.player(1)["origin_played"] == 1


def test_a_house_rule_may_play_a_seventh_and_the_count_says_seven(table):
    t = six_origin_cards_played(table)
    event = Event("card_placed", 0, {"card": "Healing Light", "at": [6, 3]})
    pos = step(RULESET, Position(t.state, 20, override_pending=True), event)
    assert pos.state["players"][0]["origin_played"] == 7  # what the table did, not clamped to 6

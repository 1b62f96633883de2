"""The destiny share of the deck (issue 32, item 2): a deck of ``deck_size`` cards is its origin's 6 cards and
``deck_size`` − 6 destiny cards, so a seat plays at most that many destiny cards in a game."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.replay import Position, step
from rulesets.the_first_spine import RULESET
from rulesets.the_first_spine import rules as R

pytestmark = pytest.mark.pure

DECK_RULE = "The First Spine › The decks › Origins"


def test_a_six_card_deck_holds_only_origin_cards(rs, table):
    """The issue's repro: with deck_size 6 and hand_size 6, Seat 0 may not play a Squire."""
    t = table(2, board=[4, 5], deck_size=6, hand_size=6).setup()
    t.refill()
    v = t.bad("destiny_cards_spent", "card_placed", card="Squire", at=[2, 2])
    assert v.rule == DECK_RULE
    assert v.message == (
        "Seat 0's 6-card deck holds no destiny card (its 6 cards are their origin's: “complete your deck with 6 "
        "additional cards”), so Squire cannot be played."
    )
    t.bad("destiny_cards_spent", "card_placed", card="Fireball", at=[0, 2])  # a destiny spell is a destiny card
    assert set(rs.names(t.state, 0)["hand"]) == {"Healing Light", "Shield Maiden"}  # the form offers only these
    t.place("Shield Maiden", [2, 2])  # the origin's cards are played
    assert t.player(0)["destiny_played"] == 0 and t.player(0)["origin_played"] == 1
    t.replayed()


def test_the_destiny_share_is_the_deck_less_six(rs, table):
    t = table(2, board=[4, 5], deck_size=8, hand_size=6).setup()
    t.refill().place("Squire", [2, 2]).place("Fireball", [0, 2])
    assert t.player(0)["destiny_played"] == 2
    v = t.bad("destiny_cards_spent", "card_placed", card="Paladin", at=[2, 1])
    assert v.message == (
        "Seat 0 has already played the 2 destiny cards of their 8-card deck (the other 6 are their origin's: "
        "“complete your deck with 6 additional cards”), so Paladin cannot be played."
    )
    assert set(rs.names(t.state, 0)["hand"]) == {"Healing Light", "Shield Maiden"}
    t.place("Shield Maiden", [2, 1])
    t.end().refill()
    t.place("Squire", [1, 2])  # Seat 1 has played none of its own destiny cards
    assert t.player(1)["destiny_played"] == 1
    t.replayed()


def test_one_destiny_card_is_said_in_the_singular(table):
    t = table(2, board=[4, 5], deck_size=7, hand_size=6).setup()
    t.refill().place("Squire", [2, 2])
    v = t.bad("destiny_cards_spent", "card_placed", card="Squire", at=[2, 1])
    assert v.message.startswith("Seat 0 has already played the 1 destiny card of their 7-card deck")


def test_the_default_deck_holds_24_destiny_cards(rs, table):
    t = table(2).setup()
    assert "Squire" in rs.names(t.state, 0)["hand"]
    assert R.destiny_cards(t.state) == 24 and R.destiny_cards_left(t.state, 0) == 24


def test_a_house_rule_may_play_one_more_and_the_count_says_so(table):
    t = table(2, board=[4, 5], deck_size=6, hand_size=6).setup()
    t.refill()
    event = Event("card_placed", 0, {"card": "Squire", "at": [2, 2]})
    pos = step(RULESET, Position(t.state, 10, override_pending=True), event)
    assert pos.state["players"][0]["destiny_played"] == 1  # what the table did, not clamped to 0
    assert pos.state["players"][0]["hand"] == 5

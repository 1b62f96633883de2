"""Two cards that destroy each other at a turn end: the result is read from one board state, so two Treason
cards swap sides whatever order they were placed in (issue 22, item 1)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


def sides(t, at):
    card = t.card(at)
    return None if card is None else (card["name"], card["owner"], card["controller"], card["hp"], card["capacities"])


def test_the_issues_repro_turncoat_against_martyr(table):
    """The Martyr (Death, Treason) dies to the Turncoat and its Death takes the Turncoat: both come back, swapped."""
    t = table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    t.refill().place("Turncoat", [2, 2]).end()
    t.refill().place("Martyr", [1, 2]).end()
    assert sides(t, [1, 2]) == ("Martyr", 1, 0, 2, ["death"])
    assert sides(t, [2, 2]) == ("Turncoat", 0, 1, 3, [])
    assert t.player(0)["discard"] == [] and t.player(1)["discard"] == []
    treason = [e["text"] for e in t.state["log"] if e["text"].startswith("Treason")]
    assert treason == [
        "Treason: Martyr returns to column 3, row 2 under Seat 0's control.",
        "Treason: Turncoat returns to column 3, row 3 under Seat 1's control.",
    ]
    t.replayed()


@pytest.mark.parametrize("seat0_first", [True, False], ids=["seat0-placed-first", "seat1-placed-first"])
def test_two_turncoats_swap(table, seat0_first):
    t = table(2, board=[4, 5]).setup()
    order = [("Turncoat", [2, 2], 0), ("Turncoat", [1, 2], 1)]
    for name, at, seat in order if seat0_first else order[::-1]:
        t.put(name, at, seat)
    t.refill().do("hp_changed", at=[2, 2], amount=-2).do("hp_changed", at=[1, 2], amount=-2)  # both at 1 life
    t.end()  # seat 0's Turncoat confronts seat 1's: each deals 2 − 1 = 1, both are destroyed by the other
    assert sides(t, [2, 2]) == ("Turncoat", 0, 1, 3, [])
    assert sides(t, [1, 2]) == ("Turncoat", 1, 0, 3, [])
    assert t.player(0)["discard"] == [] and t.player(1)["discard"] == []


@pytest.fixture
def cards(card_def):
    return [
        card_def("Traitor", hp=2, attack=2, defense=0, capacities=["treason"]),
        card_def("Renegade", hp=2, attack=2, defense=0, capacities=["treason"]),
        card_def("Zealot", hp=2, attack=1, defense=0, capacities=["death", "treason"]),
        card_def("Weakling", hp=1, attack=1, defense=0, capacities=["treason"]),
    ]


@pytest.mark.parametrize("seat0_first", [True, False], ids=["seat0-placed-first", "seat1-placed-first"])
def test_a_custom_treason_pair_swaps(table, cards, seat0_first):
    t = table(2, board=[4, 5], cards=cards).setup()
    order = [("Traitor", [2, 2], 0), ("Renegade", [1, 2], 1)]
    for name, at, seat in order if seat0_first else order[::-1]:
        t.put(name, at, seat)
    t.refill().end()
    assert sides(t, [2, 2]) == ("Traitor", 0, 1, 2, [])
    assert sides(t, [1, 2]) == ("Renegade", 1, 0, 2, [])


@pytest.mark.parametrize("seat0_first", [True, False], ids=["seat0-placed-first", "seat1-placed-first"])
def test_death_and_treason_against_treason_swaps(table, cards, seat0_first):
    """The Weakling (Treason) hurts the Zealot (Death, Treason), which is destroyed and takes the Weakling
    along; the Weakling's 1 life is gone too. Each was destroyed by the other: both return, swapped."""
    t = table(2, board=[4, 5], cards=cards).setup()
    order = [("Weakling", [2, 2], 0), ("Zealot", [1, 2], 1)]
    for name, at, seat in order if seat0_first else order[::-1]:
        t.put(name, at, seat)
    t.refill().end()
    assert sides(t, [2, 2]) == ("Weakling", 0, 1, 1, [])
    assert sides(t, [1, 2]) == ("Zealot", 1, 0, 2, ["death"])


def test_a_treason_card_destroyed_by_a_treason_card_that_survives_changes_sides_alone(table, cards):
    """Only the destroyed card comes back for the other side; its destroyer stays where it was."""
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Weakling", [1, 2], 1).put("Traitor", [2, 2], 0)
    t.refill().end()  # the Traitor deals 2 (the Weakling had 1), takes 1 (it had 2)
    assert sides(t, [1, 2]) == ("Weakling", 1, 0, 1, [])
    assert sides(t, [2, 2]) == ("Traitor", 0, 0, 1, ["treason"])

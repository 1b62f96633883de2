"""Bone Wars setup: options and their defaults, the starting state."""

from __future__ import annotations

import pytest

from rulesets.bone_wars.fields import DEFAULT_SHELVES, DEFAULT_SLOTS, DEFAULT_STARTING_MONEY
from rulesets.schema import SchemaError, check_payload

pytestmark = pytest.mark.pure


def test_defaults_give_every_seat_money_an_alternating_patron_and_the_printed_board(table):
    t = table(4)
    s = t.state
    assert s["round"] == 1 and s["turn"] == 0 and s["first_seat"] == 0 and not s["finished"]
    assert s["credibility"] == {"marsh": 0, "cope": 0} and s["shelves"] == DEFAULT_SHELVES == 5
    assert [p["patron"] for p in s["players"]] == ["marsh", "cope", "marsh", "cope"]
    for p in s["players"]:
        assert p["money"] == DEFAULT_STARTING_MONEY == 7
        assert p["loyalty"] == {"marsh": 0, "cope": 0} and p["rp"] == 0 and p["archive"] == []
        assert [(sl["cost"], sl["icon"]) for sl in p["slots"]] == [(d["cost"], d["icon"]) for d in DEFAULT_SLOTS]
        assert all(sl["card"] is None and sl["prize"] is False for sl in p["slots"])
        assert p["passed"] is False and p["cranial_circumference"] is None
    assert s["scorings"] == [] and s["sittings"] == []


def test_options_set_first_seat_money_patrons_slots_and_shelves(table):
    slots = [{"cost": c, "icon": i} for c, i in [(0, "plant"), (0, "bug"), (2, "fossil"), (3, "hammer"), (3, "bug")]]
    t = table(3, first_seat=2, starting_money=0, patrons=["cope", "cope", "marsh"], slots=slots, shelves=2)
    s = t.state
    assert s["turn"] == 2 and s["first_seat"] == 2 and s["shelves"] == 2
    assert [p["patron"] for p in s["players"]] == ["cope", "cope", "marsh"]
    assert [p["money"] for p in s["players"]] == [0, 0, 0]
    assert [sl["icon"] for sl in s["players"][1]["slots"]] == ["plant", "bug", "fossil", "hammer", "bug"]


@pytest.mark.parametrize(
    "options, path",
    [
        ({"starting_money": -1}, "starting_money"),
        ({"shelves": 0}, "shelves"),
        ({"patrons": ["leidy"]}, "patrons[0]"),
        ({"slots": [{"cost": 0, "icon": "bug"}] * 4}, "slots"),
        ({"slots": [{"cost": 4, "icon": "bug"}] * 5}, "slots[0].cost"),
        ({"slots": [{"cost": 0, "icon": "bone"}] * 5}, "slots[0].icon"),
    ],
)
def test_malformed_options_are_refused_by_the_schema(rs, options, path):
    with pytest.raises(SchemaError) as info:
        check_payload(rs.options_schema, options)
    assert path in info.value.errors


def test_slot_costs_must_rise_to_the_right(rs):
    falling = [{"cost": c, "icon": "bug"} for c in (0, 1, 3, 2, 3)]
    assert rs.check_options({"slots": falling}) == [
        "Slot costs rise to the right: each slot costs at least as much as the one to its left."
    ]
    assert rs.check_options({"slots": [{"cost": c, "icon": "bug"} for c in (0, 0, 1, 3, 3)]}) == []
    assert rs.check_options({}) == []


def test_first_seat_and_patrons_must_fit_the_seats(rs):
    assert rs.check_setup({"first_seat": 2}, 2) == ["first_seat must be a seat of this match (0 to 1); got 2."]
    assert rs.check_setup({"patrons": ["marsh"]}, 2) == ["patrons needs one patron per seat (2); got 1."]
    assert rs.check_setup({"first_seat": 1, "patrons": ["cope", "cope"]}, 2) == []
    assert rs.check_setup({}, 1) == []

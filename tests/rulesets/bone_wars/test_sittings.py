"""Sittings: a game packed away with ``table_paused`` and taken up again (Chronicle › Sittings)."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.replay import replay

pytestmark = pytest.mark.pure


def test_the_first_entry_opens_sitting_one(table):
    t = table(2)
    t.card(0)
    assert t.state["sittings"] == [
        {"number": 1, "from_version": 1, "to_version": 1, "rounds": [1], "rp": [0, 0], "paused": False}
    ]


def test_a_pause_closes_the_sitting_and_the_next_entry_opens_another(table):
    t = table(2)
    t.turn(0).turn(1)
    t.pass_round()  # versions 5, 6: round 1 ends
    t.turn(0, ("paper_published", {"side": "cope"}))  # 7, 8, 9: round 2 starts at the first seat
    t.do("table_paused")  # 10
    t.bad("nothing_to_pause", "table_paused")
    assert t.state["sittings"][-1]["paused"] is True
    t.turn(1, ("loyalty_gained", {"amount": 2}))  # 11, 12, 13: onto Cope's track
    t.pass_round()  # 14, 15: round 2 ends, mid-game scoring: seat 1 gets 2 × 1
    t.card(0)  # 16: round 3
    first, second = t.state["sittings"]
    assert first == {"number": 1, "from_version": 1, "to_version": 10, "rounds": [1, 2], "rp": [0, 0], "paused": True}
    assert second == {
        "number": 2, "from_version": 11, "to_version": 16, "rounds": [2, 3], "rp": [0, 2], "paused": False,
    }  # fmt: skip
    assert t.replayed().state == t.state


def test_nothing_to_pause_before_the_first_entry(table):
    v = table(2).bad("nothing_to_pause", "table_paused")
    assert v.rule == "Chronicle › Sittings"


def test_sittings_carry_the_stream_versions_even_around_voids(rs, table):
    """Folded by the store, entries carry their stream version; a voided entry still owns its number."""
    t = table(2)
    t.card(0).end(0).do("table_paused").card(1)
    events = [*t.events[:2], Event("event_voided", None, {"version": 9, "reason": "typo"}), *t.events[2:]]
    # a void of an entry that does not exist here still takes version 3; the pause is 4, the card 5
    pos = replay(rs, t.options, 2, events)
    first, second = pos.state["sittings"]
    assert (first["from_version"], first["to_version"]) == (1, 4)
    assert (second["from_version"], second["to_version"]) == (5, 5)


def test_scorings_name_the_version_that_ended_the_round(table):
    t = table(1)
    t.pass_round().pass_round()
    assert t.state["scorings"][0]["version"] == 2


def test_a_pause_between_rounds_covers_no_new_round(table):
    t = table(1)
    t.pass_round().do("table_paused")
    assert t.state["round"] == 2 and t.state["sittings"][0]["rounds"] == [1]
    t.card(0)
    assert t.state["sittings"][1]["rounds"] == [2]

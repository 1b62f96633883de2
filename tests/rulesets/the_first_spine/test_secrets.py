"""The origin is secret: views and the event log hide it from everyone but its seat until it is revealed."""

from __future__ import annotations

import pytest

from rulesets.base import Event

pytestmark = pytest.mark.pure


def test_view_hides_other_origins_until_a_card_of_it_is_played(rs, table):
    t = table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    full = t.state
    assert [p["origin"] for p in full["players"]] == ["healer", "priest"]
    assert [p["origin"] for p in rs.view(full, 0)["players"]] == ["healer", None]
    assert [p["origin"] for p in rs.view(full, 1)["players"]] == [None, "priest"]
    assert [p["origin"] for p in rs.view(full, None)["players"]] == [None, None]
    assert [p["origin_chosen"] for p in rs.view(full, None)["players"]] == [True, True]
    assert full["players"][1]["origin"] == "priest"  # view never changes its input
    t.refill().place("Shield Maiden", [2, 2])  # a healer card: seat 0 reveals its origin
    assert [p["origin"] for p in rs.view(t.state, None)["players"]] == ["healer", None]
    assert [p["origin"] for p in rs.view(t.state, 1)["players"]] == ["healer", "priest"]


def test_a_plain_card_reveals_nothing(rs, table):
    t = table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    t.refill().place("Squire", [2, 2])
    assert rs.view(t.state, None)["players"][0]["origin"] is None


def test_the_origin_chosen_entry_is_redacted_for_everyone_else(rs):
    ev = Event("origin_chosen", 1, {"origin": "priest"})
    state = rs.initial_state({}, 2)
    assert rs.redact_event(ev, state, 1) == ev
    for viewer in (None, 0):
        hidden = rs.redact_event(ev, state, viewer)
        assert hidden.data == {"origin": None} and hidden.seat == 1
    assert ev.data == {"origin": "priest"}
    other = Event("destiny_chosen", 1, {"destiny": "hunter"})
    assert rs.redact_event(other, state, None) == other


def test_descriptions_never_name_an_origin(rs):
    for origin in ("healer", "architect", "priest", "blacksmith"):
        text = rs.describe(Event("origin_chosen", 0, {"origin": origin}), ["Bo", "Al"])
        assert text == "Bo chose an origin (kept secret)."


def test_the_spectators_view_does_not_depend_on_the_hidden_origins(rs, table):
    # the same table, different secret origins: everything a spectator or the other seat sees is identical
    a = table(3).setup(origins=("healer", "architect", "priest"))
    b = table(3).setup(origins=("priest", "blacksmith", "healer"))
    for t in (a, b):
        t.refill(discarded=2).place("Squire", [5, 3]).end()
    assert rs.view(a.state, None) == rs.view(b.state, None)
    assert rs.turn(a.state) == rs.turn(b.state)
    assert rs.legal_moves(a.state) == rs.legal_moves(b.state)
    for i in range(len(a.events)):
        ea = rs.redact_event(a.events[i], a.state, None)
        eb = rs.redact_event(b.events[i], b.state, None)
        assert ea == eb
        assert rs.describe(a.events[i], ["A", "B", "C"]) == rs.describe(b.events[i], ["A", "B", "C"])


def test_the_entries_that_set_or_read_the_secret_origin_declare_it(rs, table):
    """Choosing the origin sets it; placing a card reads it (an origin card is refused to a seat of another
    origin, which says what the origin is not): both declare the secret (issue 41). Nothing else depends on it."""
    declared = {name: spec.secret for name, spec in rs.event_types.items() if spec.secret}
    assert declared == {"origin_chosen": "secret origin", "card_placed": "secret origin"}
    t = table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    t.refill()
    t.bad("wrong_origin", "card_placed", card="Martyr", at=[2, 2])  # refused because Seat 0's origin is not Priest
    t.place("Shield Maiden", [2, 2])  # accepted because it is Healer, and it reveals it
    assert rs.view(t.state, 1)["players"][0]["origin"] == "healer"

"""A house rule that cannot place its move is spent (issue 46 item 3): the refused ``unplayable`` entry writes
nothing of its own, the house rule is withdrawn in the same request (``event_voided`` of it, "The house rule
could not place the move"), the answer says so, and the next entry is checked by the rules again (docs/
ARCHITECTURE.md › Corrections)."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow
from matches.models import Match
from tests.matches.api.test_bone_wars_api import Table, team

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

CORRECTIONS = "Chronicle › Corrections"


def test_an_unplayable_move_withdraws_its_house_rule_and_the_next_move_is_checked(api):
    t = Table(api, ["Ana", "Bo"])
    t.ok("card_played", 0, card=team("Diggers"))
    t.ok("turn_ended", 0)  # Bo's turn
    t.ok("rule_overridden", None, reason="Ana upgrades out of turn")  # version 3
    before = t.state()
    r = t.post("card_upgraded", 0, {"slot": 9, "card": {"kind": "team", "name": "Advanced Team"}})
    assert r.status_code == 400
    body = r.json()
    assert body["violation"] == "unplayable" and body["rule"] == CORRECTIONS and body["house_rule_withdrawn"] == 3
    assert "Ana has 5 action slots, not 9" in body["detail"]
    assert "The house rule of move 3 was withdrawn, so the next move is checked by the rules again" in body["detail"]
    # the refused entry itself is not written; the withdrawal is, and the log says why
    rows = list(
        EventRow.objects.filter(stream_id=Match.objects.get(pk=t.id).stream_id)
        .order_by("version")
        .values_list("type", "data")
    )
    assert [type_ for type_, _ in rows] == ["card_played", "turn_ended", "rule_overridden", "event_voided"]
    assert rows[-1][1] == {"version": 3, "reason": "The house rule could not place the move"}
    assert t.state() == before
    assert t.log()[-1] == (
        "Move 3 (House rule: the next move is let through (Ana upgrades out of turn)) was undone: "
        "The house rule could not place the move"
    )
    t.version = 4
    # the out-of-turn entry the pending house rule used to let through is refused now
    t.no("not_your_turn", "Bone Wars › Overview", "card_played", 0, card=team("Surveyors"))
    t.ok("card_played", 1, card=team("Surveyors"))


def test_a_house_rule_whose_move_fits_is_not_withdrawn(api):
    t = Table(api, ["Ana", "Bo"])
    t.ok("card_played", 0, card=team("Diggers"))
    t.ok("turn_ended", 0)
    t.ok("rule_overridden", None, reason="Ana plays out of turn")
    t.ok("card_played", 0, card=team("Surveyors"))
    assert not EventRow.objects.filter(type="event_voided").exists()

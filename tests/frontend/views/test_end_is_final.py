"""The end is final on the match page (issue 46 item 2): once the outcome is final the page offers no house rule,
and a posted override is refused in words (not overridable); undo still reopens the game."""

from __future__ import annotations

import json

import pytest

from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def _stones(owner, stones: int):
    return match_create(owner=owner, game="last-stone", options={"stones": stones},
                        seats=[{"name": "Ana"}, {"name": "Bo"}])  # fmt: skip


def test_a_finished_match_offers_no_house_rule_and_refuses_one(owner, client):
    client.force_login(owner)
    going = _stones(owner, 5)
    assert "House rule: let the next move through" in client.get(f"/matches/{going.pk}/").content.decode()
    done = _stones(owner, 2)
    match_event_record(match=done, user=owner, type="stones_taken", seat=0, data={"count": 2})
    page = client.get(f"/matches/{done.pk}/").content.decode()
    assert "House rule: let the next move through" not in page
    assert "Undo the last move" in page
    body = {"type": "rule_overridden", "data": {"reason": "one more"}}
    answer = client.post(f"/api/matches/{done.pk}/events/", json.dumps(body), content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "rule_violation" and answer.json()["violation"] == "game_over"
    assert answer.json()["overridable"] is False
    done.refresh_from_db()
    assert done.stream.version == 1  # nothing written

"""Bad input never gives a 500 and never writes: every kind gets a 4xx with a code and a detail."""

from __future__ import annotations

import json

import pytest

from matches.models import Event as EventRow
from matches.models import Match

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def post_raw(client, url, body, content_type="application/json"):
    return client.generic("POST", url, body, content_type=content_type)


def events_url(match):
    return f"/api/matches/{match.pk}/events/"


GOOD = {"type": "stones_taken", "seat": 0, "data": {"count": 1}}

DEEP = '{"type": "stones_taken", "seat": 0, "data": ' + "[" * 5000 + "]" * 5000 + "}"

BAD_BODIES = {
    "malformed json": ("{not json", 400, "malformed"),
    "truncated json": ('{"type": "stones_taken", "seat": 0', 400, "malformed"),
    "empty body": ("", 400, "invalid"),
    "not an object": ("[1, 2, 3]", 400, "invalid"),
    "NaN constant": ('{"type": "stones_taken", "seat": 0, "data": {"count": NaN}}', 400, "malformed"),
    "nested to death": (DEEP, 400, "malformed"),
    "moderately deep": (
        json.dumps({**GOOD, "data": {"count": 1, "x": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}}),
        400,
        "malformed",
    ),
    "huge payload": (json.dumps({**GOOD, "data": {"count": 1, "pad": "x" * 400_000}}), 400, "malformed"),
    "unknown type": (json.dumps({**GOOD, "type": "stones_eaten"}), 400, "invalid"),
    "missing type": (json.dumps({"seat": 0, "data": {"count": 1}}), 400, "invalid"),
    "type not a string": (json.dumps({**GOOD, "type": 5}), 400, "invalid"),
    "missing seat": (json.dumps({"type": "stones_taken", "data": {"count": 1}}), 400, "invalid"),
    "seat out of range": (json.dumps({**GOOD, "seat": 2}), 400, "invalid"),
    "negative seat": (json.dumps({**GOOD, "seat": -1}), 400, "invalid"),
    "seat not a number": (json.dumps({**GOOD, "seat": "north"}), 400, "invalid"),
    "missing data field": (json.dumps({**GOOD, "data": {}}), 400, "invalid"),
    "data not an object": (json.dumps({**GOOD, "data": [1]}), 400, "invalid"),
    "wrong field type": (json.dumps({**GOOD, "data": {"count": "three"}}), 400, "invalid"),
    "bool is not an int": (json.dumps({**GOOD, "data": {"count": True}}), 400, "invalid"),
    "out of range value": (json.dumps({**GOOD, "data": {"count": 9}}), 400, "invalid"),
    "unknown data field": (json.dumps({**GOOD, "data": {"count": 1, "extra": 1}}), 400, "invalid"),
    "illegal move": (json.dumps({**GOOD, "seat": 1}), 400, "rule_violation"),
    "bad expected_version": (json.dumps({**GOOD, "expected_version": "soon"}), 400, "invalid"),
    "negative expected_version": (json.dumps({**GOOD, "expected_version": -3}), 400, "invalid"),
    "stale expected_version": (json.dumps({**GOOD, "expected_version": 7}), 409, "version_conflict"),
    "idempotency key too long": (json.dumps({**GOOD, "idempotency_key": "k" * 500}), 400, "invalid"),
    "bad client_time": (json.dumps({**GOOD, "client_time": "yesterday"}), 400, "invalid"),
    "void of nothing": (
        json.dumps({"type": "event_voided", "data": {"version": 4, "reason": "x"}}),
        400,
        "rule_violation",
    ),
    "void without reason": (json.dumps({"type": "event_voided", "data": {"version": 1}}), 400, "invalid"),
}


@pytest.mark.parametrize("name", list(BAD_BODIES))
def test_bad_event_input_is_a_4xx_with_code_and_detail_and_writes_nothing(api, stone_match, name):
    body, status, code = BAD_BODIES[name]
    before = EventRow.objects.count()
    r = post_raw(api, events_url(stone_match), body)
    assert r.status_code == status, (name, r.content[:300])
    payload = r.json()
    assert payload["code"] == code and payload["detail"], payload
    assert EventRow.objects.count() == before


def test_rule_violation_names_the_rule(api, stone_match):
    r = api.post(events_url(stone_match), {**GOOD, "seat": 1}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body == {
        "code": "rule_violation",
        "violation": "not_your_turn",
        "rule": "Last Stone › Turns",
        "detail": body["detail"],
        "overridable": True,  # a house rule may let it through
    }
    assert body["detail"] == "It is Ana's turn."  # the player, not "seat 0"


def test_conflict_reports_the_current_version(api, stone_match):
    api.post(events_url(stone_match), GOOD, format="json")
    r = api.post(events_url(stone_match), {**GOOD, "seat": 1, "expected_version": 0}, format="json")
    assert r.status_code == 409 and r.json()["current_version"] == 1


def test_wrong_content_type_is_415(api, stone_match):
    r = post_raw(api, events_url(stone_match), "type=stones_taken", content_type="text/plain")
    assert r.status_code == 415 and r.json()["code"] == "unsupported_media_type"


def test_unknown_match_is_404_with_code(api):
    r = api.post("/api/matches/999999/events/", GOOD, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


@pytest.mark.parametrize("match_id", [2**63, 542589801240916182789488709206016])
def test_a_match_id_too_large_for_any_row_is_404(api, match_id):
    for r in (api.post(f"/api/matches/{match_id}/events/", GOOD, format="json"),
              api.get(f"/api/matches/{match_id}/state/")):  # fmt: skip
        assert r.status_code == 404 and r.json()["code"] == "not_found"


BAD_CREATES = {
    "unknown game": {"game": "chess", "seats": [{"name": "A"}, {"name": "B"}]},
    "too few seats": {"game": "last-stone", "seats": [{"name": "A"}]},
    "blank seat name": {"game": "last-stone", "seats": [{"name": " "}, {"name": "B"}]},
    "duplicate seat names": {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "ana"}]},
    "seats not a list": {"game": "last-stone", "seats": "A,B"},
    "bad option type": {"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], "options": {"stones": "ten"}},
    "unknown option": {"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], "options": {"dice": 2}},
    "options not an object": {"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], "options": [1]},
    "unknown recorder": {"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], "recorders": ["nobody"]},
    "unknown seat user": {"game": "last-stone", "seats": [{"name": "A", "user": "ghost"}, {"name": "B"}]},
}


@pytest.mark.parametrize("name", list(BAD_CREATES))
def test_bad_match_creation_is_400_and_creates_nothing(api, name):
    r = api.post("/api/matches/", BAD_CREATES[name], format="json")
    assert r.status_code == 400, (name, r.content)
    assert r.json()["code"] == "invalid" and r.json()["detail"]
    assert Match.objects.count() == 0


def test_bad_query_parameters_are_400(api, stone_match):
    assert api.get(f"/api/matches/{stone_match.pk}/state/?at=abc").status_code == 400
    assert api.get(f"/api/matches/{stone_match.pk}/state/?at=-1").status_code == 400
    r = api.get(f"/api/matches/{stone_match.pk}/state/?at=99")
    assert r.status_code == 404 and "latest is 0" in r.json()["detail"]
    assert api.get("/api/matches/?status=paused").status_code == 400

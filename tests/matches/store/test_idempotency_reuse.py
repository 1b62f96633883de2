"""An idempotency key names one request: a retry replays its answer, another payload under it is refused."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

MOVE = {"type": "stones_taken", "seat": 0, "data": {"count": 1}}


def url(match):
    return f"/api/matches/{match.pk}/events/"


def test_a_retry_with_the_same_payload_replays_the_first_answer(api, stone_match):
    first = api.post(url(stone_match), {**MOVE, "idempotency_key": "tap-1"}, format="json")
    again = api.post(url(stone_match), {**MOVE, "idempotency_key": "tap-1"}, format="json")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 1


@pytest.mark.parametrize(
    "other",
    [
        {**MOVE, "data": {"count": 2}},  # another payload, legal now
        {**MOVE, "seat": 1},  # another seat (illegal now: judged as a reuse, not a rule violation)
        {"type": "event_voided", "data": {"version": 1, "reason": "oops"}},  # another type
    ],
    ids=["data", "seat", "type"],
)
def test_the_same_key_with_another_payload_is_refused_and_writes_nothing(api, stone_match, other):
    api.post(url(stone_match), {**MOVE, "idempotency_key": "tap-1"}, format="json")
    r = api.post(url(stone_match), {**other, "idempotency_key": "tap-1"}, format="json")
    assert r.status_code == 422, r.content
    body = r.json()
    assert body["code"] == "idempotency_key_reused" and "tap-1" in body["detail"] and body["version"] == 1
    assert "Idempotent-Replayed" not in r
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 1


def test_the_key_header_is_compared_too(api, stone_match):
    api.post(url(stone_match), MOVE, format="json", HTTP_IDEMPOTENCY_KEY="hdr-1")
    r = api.post(url(stone_match), {**MOVE, "data": {"count": 3}}, format="json", HTTP_IDEMPOTENCY_KEY="hdr-1")
    assert r.status_code == 422 and r.json()["code"] == "idempotency_key_reused"


def test_the_fingerprint_is_stored_with_the_event_and_only_with_a_key(api, stone_match):
    api.post(url(stone_match), {**MOVE, "idempotency_key": "tap-1"}, format="json")
    api.post(url(stone_match), {**MOVE, "seat": 1}, format="json")
    keyed, plain = EventRow.objects.filter(stream_id=stone_match.stream_id).order_by("version")
    assert len(keyed.request_fingerprint) == 64 and plain.request_fingerprint == ""


def test_a_stale_expected_version_on_a_retry_still_replays(api, stone_match):
    first = api.post(url(stone_match), {**MOVE, "expected_version": 0, "idempotency_key": "k"}, format="json")
    again = api.post(url(stone_match), {**MOVE, "expected_version": 0, "idempotency_key": "k"}, format="json")
    assert again.status_code == 201 and again.json() == first.json()

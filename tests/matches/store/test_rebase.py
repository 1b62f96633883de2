"""Rebasing a stale entry (issue 23 item 7): the store's one rule, as the services and the API apply it.

A score sheet lets any seat score at any time, so another seat's entry leaves a stale move legal; its
``game_ended`` (a table-level game entry) makes every later move illegal.
"""

from __future__ import annotations

import pytest

from matches.errors import RebaseRefused, VersionConflict
from matches.models import Event as EventRow
from matches.services import match_event_record, match_event_void, match_rule_override
from matches.store import events as store
from rulesets import Event

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

POINTS = {"type": "points_scored", "data": {"points": 3}}


def score(match, user, seat, points=1, **kw):
    return match_event_record(match=match, user=user, type="points_scored", seat=seat, data={"points": points}, **kw)


def test_another_seats_entry_since_is_rebased_over(sheet, owner):
    score(sheet, owner, 0)  # the form below was drawn at version 1
    score(sheet, owner, 1)
    score(sheet, owner, 2)
    result = score(sheet, owner, 0, 5, expected_version=1, rebase=True)
    assert result.version == 4 and result.state["totals"] == [6, 1, 1]
    assert result.rebased == store.Rebased(after=3, seat=2, over=(2, 3))


def test_a_fresh_entry_is_not_marked_rebased(sheet, owner):
    assert score(sheet, owner, 0, expected_version=0, rebase=True).rebased is None


def test_the_same_seats_entry_since_is_never_rebased(sheet, owner):
    score(sheet, owner, 1)  # Tomas, from the other phone, after this phone's form was drawn at 0
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 1, expected_version=0, rebase=True)
    assert refused.value.reason == "same_seat" and refused.value.status_code == 409
    assert "Tomas recorded move 1 since your form was drawn" in refused.value.detail  # players' names
    assert EventRow.objects.filter(stream_id=sheet.stream_id).count() == 1


def test_a_move_no_longer_legal_is_refused_with_the_rule(sheet, owner):
    score(sheet, owner, 1)
    match_event_record(match=sheet, user=owner, type="game_ended", data={})  # table level: may be rebased over
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=0, rebase=True)
    body = refused.value.body()
    assert body["code"] == "version_conflict" and body["current_version"] == 2
    assert body["rebase_refused"]["reason"] == "illegal" and body["rebase_refused"]["violation"] == "game_over"
    assert "no longer legal: The game has ended" in body["detail"]
    assert EventRow.objects.filter(stream_id=sheet.stream_id).count() == 2


def test_an_undo_since_is_not_rebased_over(sheet, owner):
    score(sheet, owner, 1)
    match_event_void(match=sheet, user=owner, version=1, reason="typo")
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=1, rebase=True)
    assert refused.value.reason == "undo_since"


def test_a_waiting_house_rule_is_not_taken_by_a_rebased_move(sheet, owner):
    match_rule_override(match=sheet, user=owner, reason="our table")
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=0, rebase=True)
    assert refused.value.reason == "override_pending"


def test_corrections_and_table_entries_stay_strict(sheet, owner):
    score(sheet, owner, 1)
    with pytest.raises(RebaseRefused) as refused:
        match_event_record(
            match=sheet, user=owner, type="rule_overridden", data={"reason": "x"}, expected_version=0, rebase=True
        )
    assert refused.value.reason == "correction"
    match_event_record(match=sheet, user=owner, type="game_ended", data={})
    with pytest.raises(RebaseRefused) as table:  # a table-level entry over a table-level one: the same "seat"
        match_event_record(match=sheet, user=owner, type="game_ended", data={}, expected_version=1, rebase=True)
    assert table.value.reason == "table_entry"


def test_the_rule_is_one_pure_function():
    legal = store.rebase_refusal(Event("points_scored", 0, {}), [(2, 1, "points_scored"), (3, None, "x")], False)
    assert legal is None
    assert store.rebase_refusal(Event("points_scored", None, {}), [(2, 1, "points_scored")], False) is None
    assert store.rebase_refusal(Event("x", 1, {}), [(2, 0, "x"), (3, 1, "x")], False)[0] == "same_seat"


def test_without_the_flag_the_version_is_strict(sheet, owner):
    score(sheet, owner, 1)
    with pytest.raises(VersionConflict) as conflict:
        score(sheet, owner, 0, expected_version=0)
    assert not isinstance(conflict.value, RebaseRefused)


# -- the API ----------------------------------------------------------------------------------------------


def url(match):
    return f"/api/matches/{match.pk}/events/"


def test_api_is_strict_without_rebase(api, sheet, owner):
    score(sheet, owner, 1)
    r = api.post(url(sheet), {**POINTS, "seat": 0, "expected_version": 0}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "version_conflict" and "rebase_refused" not in r.json()


def test_api_rebases_when_asked_and_says_after_which_entry(api, sheet, owner):
    score(sheet, owner, 1)
    r = api.post(url(sheet), {**POINTS, "seat": 0, "expected_version": 0, "rebase": True}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["version"] == 2 and r.json()["rebased"] == {"after": 1, "seat": 1, "over": [1]}
    fresh = api.post(url(sheet), {**POINTS, "seat": 0, "expected_version": 2, "rebase": True}, format="json")
    assert fresh.status_code == 201 and fresh.json()["rebased"] is None


def test_api_refuses_a_same_seat_rebase_with_what_changed(api, sheet, owner):
    score(sheet, owner, 0)
    r = api.post(url(sheet), {**POINTS, "seat": 0, "expected_version": 0, "rebase": True}, format="json")
    body = r.json()
    assert r.status_code == 409 and body["code"] == "version_conflict" and body["current_version"] == 1
    assert body["rebase_refused"] == {"reason": "same_seat", "why": body["rebase_refused"]["why"]}
    assert "Ana recorded move 1" in body["rebase_refused"]["why"]


def test_api_rebase_must_be_a_boolean(api, sheet):
    r = api.post(url(sheet), {**POINTS, "seat": 0, "rebase": "yes"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "rebase" in r.json()["errors"]


def test_idempotent_retry_of_a_rebased_entry_returns_the_first_result(api, sheet, owner):
    score(sheet, owner, 1)
    body = {**POINTS, "seat": 0, "expected_version": 0, "rebase": True, "idempotency_key": "k-1"}
    first = api.post(url(sheet), body, format="json")
    score(sheet, owner, 2)  # more entries after the first answer was lost on the way back
    again = api.post(url(sheet), body, format="json")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["version"] == first.json()["version"] == 2
    assert again.json()["rebased"] == first.json()["rebased"] == {"after": 1, "seat": 1, "over": [1]}
    assert EventRow.objects.filter(stream_id=sheet.stream_id).count() == 3


def test_a_lean_token_post_rebases_too(owner, sheet):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    score(sheet, owner, 1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    r = client.post(url(sheet), {**POINTS, "seat": 2, "expected_version": 0, "rebase": True}, format="json")
    assert r.status_code == 201 and r.json()["rebased"]["after"] == 1


def test_the_schema_documents_rebase(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"]
    assert "rebase" in schema["EventInputRequest"]["properties"]
    assert "rebased" in schema["AppendOutput"]["properties"]

"""An offline queue's own entries in a rebase (``own_keys``): the entries a client names by their idempotency
keys are its own earlier ones, made before this one on the same device, and are not judged against it; every
other entry since ``expected_version`` is judged by the one rule (``store.rebase_refusal``) as before.
"""

from __future__ import annotations

import pytest

from matches.errors import InvalidInput, RebaseRefused
from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from tests.matches.store.test_rebase import (
    POINTS,
    score,
)  # the score sheet of three seats: tests/matches/conftest.py › sheet

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def url(match):
    return f"/api/matches/{match.pk}/events/"


def test_own_entries_are_left_out_of_the_rebase(sheet, owner):
    score(sheet, owner, 1)  # Tomas, from another phone, while this phone's queue (made on 0) waited
    first = score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-1")
    assert first.version == 2 and first.rebased == store.Rebased(after=1, seat=1, over=(1,))
    second = score(sheet, owner, 0, 2, expected_version=0, rebase=True, idempotency_key="q-2", own_keys=("q-1",))
    assert second.version == 3 and second.rebased == store.Rebased(after=2, seat=0, over=(1,))
    third = score(sheet, owner, 0, 4, expected_version=0, rebase=True, idempotency_key="q-3", own_keys=("q-1", "q-2"))
    assert third.version == 4 and third.state["totals"] == [7, 1, 0]
    # a repeat answers as before, with the same keys
    again = score(sheet, owner, 0, 4, expected_version=0, rebase=True, idempotency_key="q-3", own_keys=("q-1", "q-2"))
    assert again.repeated and again.version == 4 and again.rebased == third.rebased


def test_without_own_keys_the_queues_own_entry_is_the_same_seat(sheet, owner):
    score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-1")
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-2")
    assert refused.value.reason == "same_seat"


def test_only_own_entries_since_is_on_its_version(sheet, owner):
    score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-1")
    second = score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-2", own_keys=("q-1",))
    assert second.version == 2 and second.rebased is None
    # an own undo is a correction on its version: recorded when only the queue's own entries came since
    void = match_event_record(
        match=sheet, user=owner, type="event_voided", data={"version": 2, "reason": "typo"},
        expected_version=0, rebase=True, idempotency_key="q-3", own_keys=("q-1", "q-2"),
    )  # fmt: skip
    assert void.version == 3 and void.rebased is None
    # and the next entry is made after that undo on the same phone: the own undo is not "an undo since"
    after = score(
        sheet, owner, 0, 5, expected_version=0, rebase=True, idempotency_key="q-4", own_keys=("q-1", "q-2", "q-3")
    )
    assert after.version == 4 and after.state["totals"] == [6, 0, 0]


def test_a_foreign_same_seat_entry_is_refused_even_with_own_keys(sheet, owner):
    score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-1")
    score(sheet, owner, 0, idempotency_key="other-phone")  # Ana again, from another phone
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-2", own_keys=("q-1",))
    assert refused.value.reason == "same_seat" and "Ana recorded move 2" in refused.value.detail
    assert EventRow.objects.filter(stream_id=sheet.stream_id).count() == 2


def test_a_correction_is_not_rebased_over_a_foreign_entry_with_own_keys(sheet, owner):
    score(sheet, owner, 0, expected_version=0, rebase=True, idempotency_key="q-1")
    score(sheet, owner, 2)  # Cy, from another phone
    with pytest.raises(RebaseRefused) as refused:
        match_event_record(
            match=sheet, user=owner, type="event_voided", data={"version": 1, "reason": "typo"},
            expected_version=0, rebase=True, idempotency_key="q-2", own_keys=("q-1",),
        )  # fmt: skip
    assert refused.value.reason == "correction"


def test_keys_not_on_this_stream_count_for_nothing(sheet, owner):
    other = match_create(owner=owner, game="scoresheet", seats=[{"name": "A"}, {"name": "B"}])
    score(other, owner, 0, idempotency_key="elsewhere")
    score(sheet, owner, 0, idempotency_key="theirs")  # the same seat, not from this queue
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=0, rebase=True, own_keys=("elsewhere", "nowhere"))
    assert refused.value.reason == "same_seat"


def test_own_keys_only_with_rebase(sheet, owner):
    with pytest.raises(InvalidInput):
        score(sheet, owner, 0, expected_version=0, own_keys=("q-1",))


def test_api_takes_own_keys(api, sheet, owner):
    score(sheet, owner, 1)
    body = {**POINTS, "seat": 0, "expected_version": 0, "rebase": True}
    first = api.post(url(sheet), {**body, "idempotency_key": "q-1"}, format="json")
    assert first.status_code == 201 and first.json()["rebased"]["over"] == [1]
    second = api.post(url(sheet), {**body, "idempotency_key": "q-2", "own_keys": ["q-1"]}, format="json")
    assert second.status_code == 201, second.json()
    assert second.json()["version"] == 3 and second.json()["rebased"] == {"after": 2, "seat": 0, "over": [1]}
    refused = api.post(url(sheet), {**body, "idempotency_key": "q-3", "own_keys": ["nowhere"]}, format="json")
    assert refused.status_code == 409 and refused.json()["rebase_refused"]["reason"] == "same_seat"


@pytest.mark.parametrize(
    "own_keys",
    ["q-1", [""], [1], ["x" * 101], [f"k{i}" for i in range(store.MAX_OWN_KEYS + 1)], None],
)
def test_api_refuses_bad_own_keys(api, sheet, own_keys):
    r = api.post(
        url(sheet), {**POINTS, "seat": 0, "expected_version": 0, "rebase": True, "own_keys": own_keys}, format="json"
    )
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert [p for p in r.json()["errors"] if p.split("[")[0] == "own_keys"], r.json()  # own_keys, or own_keys[0]


def test_api_own_keys_without_rebase_is_invalid(api, sheet):
    r = api.post(url(sheet), {**POINTS, "seat": 0, "expected_version": 0, "own_keys": ["q-1"]}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "own_keys" in r.json()["errors"]


def test_the_schema_documents_own_keys(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()["components"]["schemas"]
    props = schema["EventInputRequest"]["properties"]
    assert props["own_keys"]["maxItems"] == store.MAX_OWN_KEYS and "rebase" in props["own_keys"]["description"]


def test_a_key_recorded_by_another_user_counts_for_nothing(owner, make_user):
    tomas = make_user("tomas")
    sheet = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Tomas"}], recorders=[tomas])
    score(sheet, tomas, 0, idempotency_key="tomas-phone")  # Ana's move, typed on Tomas's phone
    with pytest.raises(RebaseRefused) as refused:
        score(sheet, owner, 0, expected_version=0, rebase=True, own_keys=("tomas-phone",))
    assert refused.value.reason == "same_seat"


def test_a_lean_token_post_takes_own_keys(owner, sheet):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
    body = {**POINTS, "seat": 0, "expected_version": 0, "rebase": True}
    assert client.post(url(sheet), {**body, "idempotency_key": "q-1"}, format="json").status_code == 201
    r = client.post(url(sheet), {**body, "idempotency_key": "q-2", "own_keys": ["q-1"]}, format="json")
    assert r.status_code == 201 and r.json()["version"] == 2 and r.json()["rebased"] is None
    bad = client.post(url(sheet), {**body, "own_keys": "q-1"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"

"""Creating a match with an idempotency key: a retry returns the first match, another request under the key is
refused, and two racing creates with one key make one match (a phone starting a match offline retries)."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.models import Event as EventRow
from matches.models import Match, Stream
from matches.services import match_create
from tests.matches.racing import run_threads

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

BODY = {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "Bo"}], "idempotency_key": "local-1"}


def test_a_retried_create_returns_the_same_match_and_creates_nothing(api):
    first = api.post("/api/matches/", BODY, format="json")
    again = api.post("/api/matches/", BODY, format="json")
    assert first.status_code == again.status_code == 201, again.content
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert again.json()["id"] == first.json()["id"]
    assert Match.objects.count() == 1 and Stream.objects.count() == 1


@pytest.mark.parametrize(
    "other",
    [
        {**BODY, "seats": [{"name": "Ana"}, {"name": "Cy"}]},
        {**BODY, "title": "Another"},
        {**BODY, "game": "scoresheet"},
    ],
    ids=["seats", "title", "game"],
)
def test_the_same_key_with_another_body_is_refused_and_writes_nothing(api, other):
    first = api.post("/api/matches/", BODY, format="json").json()
    r = api.post("/api/matches/", other, format="json")
    assert r.status_code == 422, r.content
    body = r.json()
    assert body["code"] == "idempotency_key_reused" and "local-1" in body["detail"] and body["match"] == first["id"]
    assert Match.objects.count() == 1


def test_the_key_is_per_owner_and_the_header_counts(api, stranger, client_for):
    mine = api.post("/api/matches/", BODY, format="json").json()
    theirs = client_for(stranger).post("/api/matches/", BODY, format="json")
    assert theirs.status_code == 201 and theirs.json()["id"] != mine["id"]
    body = {k: v for k, v in BODY.items() if k != "idempotency_key"}
    by_header = api.post("/api/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY="local-1")
    assert by_header.status_code == 201 and by_header.json()["id"] == mine["id"]
    assert Match.objects.count() == 2


@pytest.mark.parametrize("key", ["", "k" * 101, 7, ["a"]])
def test_a_bad_key_is_invalid_and_creates_nothing(api, key):
    r = api.post("/api/matches/", {**BODY, "idempotency_key": key}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content
    assert Match.objects.count() == 0


def test_a_refused_create_keeps_the_key_free(api):
    bad = api.post("/api/matches/", {**BODY, "seats": [{"name": "Ana"}, {"name": "ana"}]}, format="json")
    assert bad.status_code == 400
    good = api.post("/api/matches/", BODY, format="json")
    assert good.status_code == 201 and "Idempotent-Replayed" not in good


def test_a_random_start_is_drawn_once_for_a_retried_create(api):
    body = {**BODY, "options": {"first_seat": "random"}}
    first = api.post("/api/matches/", body, format="json")
    again = api.post("/api/matches/", body, format="json")
    assert again.json()["id"] == first.json()["id"]
    assert EventRow.objects.filter(stream__match__pk=first.json()["id"]).count() == 1


def test_the_new_match_form_posted_twice_makes_one_match(owner, client):
    client.force_login(owner)
    form = {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo", "idempotency_key": "form-1"}
    first = client.post("/matches/new/", form)
    again = client.post("/matches/new/", form)
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Match.objects.count() == 1
    other = client.post("/matches/new/", {**form, "seat_1": "Cy"})
    assert other.status_code == 400 and b"already created another match" in other.content
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_racing_creates_with_one_key_make_one_match(owner):
    if connection.vendor != "postgresql":
        pytest.skip("concurrency of separate connections is PostgreSQL's behaviour (SQLite writes are serial)")
    outcomes = run_threads(
        6, lambda i: match_create(owner=owner, game="last-stone", seats=BODY["seats"], idempotency_key="race").pk
    )
    ids = [value for _, value in outcomes]  # a match id, or the exception raised
    assert len(set(ids)) == 1 and isinstance(ids[0], int), ids
    assert Match.objects.filter(owner=owner).count() == 1 and Stream.objects.count() == 1

"""The match API end to end on the demo game: create, record, read back."""

import pytest

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_create_record_and_read(api):
    r = api.post("/api/matches/", {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "Bo"}]}, format="json")
    assert r.status_code == 201, r.content
    mid = r.json()["id"]
    r = api.post(
        f"/api/matches/{mid}/events/", {"type": "stones_taken", "seat": 0, "data": {"count": 3}}, format="json"
    )
    assert r.status_code == 201, r.content
    assert r.json()["version"] == 1 and r.json()["state"]["pile"] == 7
    r = api.get(f"/api/matches/{mid}/state/?at=0")
    assert r.json()["state"]["pile"] == 10
    r = api.get(f"/api/matches/{mid}/legal-moves/")
    assert [m["data"]["count"] for m in r.json()] == [1, 2, 3]
    assert all(m["seat"] == 1 for m in r.json())

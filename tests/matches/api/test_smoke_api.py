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


@pytest.mark.parametrize(
    ("seats", "path", "message"),
    [
        ([{"name": "Ana"}, {"name": ""}], "seats[1].name", "A seat needs a name."),
        ([{"name": "Ana"}, {"name": "x" * 81}], "seats[1].name", "Ensure this field has no more than 80 characters."),
        ([{"name": "Ana"}, "Bo"], "seats[1]", "Invalid data. Expected a dictionary, but got str."),
    ],
)
def test_a_bad_seat_is_named_by_its_path_in_plain_words(api, seats, path, message):
    response = api.post("/api/matches/", {"game": "last-stone", "seats": seats}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["errors"] == {path: [message]}
    assert body["detail"] == f"Invalid {path}: {message}"
    assert "ErrorDetail" not in response.content.decode()

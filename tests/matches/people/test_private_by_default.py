"""New matches are private unless the owner says otherwise (issue 23 item 15): from the API with ``is_public``
left out, and from the new-match form with "Public" left unticked; the home page says what is public."""

from __future__ import annotations

import pytest

from matches.models import Match

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

BODY = {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "Bo"}]}


def test_the_api_creates_a_private_match_unless_asked(api, client_for):
    first = api.post("/api/matches/", BODY, format="json")
    assert first.status_code == 201 and first.json()["is_public"] is False
    assert client_for(None).get(f"/api/matches/{first.json()['id']}/").status_code == 404  # strangers see nothing
    shown = api.post("/api/matches/", {**BODY, "is_public": True}, format="json")
    assert shown.status_code == 201 and shown.json()["is_public"] is True


def test_the_form_creates_a_private_match_and_the_home_page_says_what_is_public(client, owner):
    client.force_login(owner)
    page = client.get("/matches/new/?game=last-stone").content.decode()
    assert 'name="is_public"' in page and 'name="is_public" checked' not in page
    client.post("/matches/new/", {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo"})
    assert Match.objects.get().is_public is False
    home = client.get("/").content.decode()
    assert "A match you start is private" in home and "recorders you name" in home
    client.logout()
    assert "Moves of public matches" in client.get("/").content.decode()

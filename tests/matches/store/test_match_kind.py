"""Match creation accepts only games that are played as matches; campaign games are started as campaigns."""

from __future__ import annotations

import pytest

from matches.models import Match, Stream

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_a_campaign_game_cannot_be_created_as_a_match_over_the_api(api):
    r = api.post("/api/matches/", {"game": "saltmarsh", "seats": []}, format="json")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "invalid" and "campaign game" in body["errors"]["game"][0]
    assert Match.objects.count() == 0 and Stream.objects.count() == 0


def test_a_campaign_game_cannot_be_created_on_the_new_match_page(client, owner):
    client.force_login(owner)
    r = client.post("/matches/new/", {"game": "saltmarsh", "title": "sneaky"})
    assert r.status_code == 400
    assert b"campaign game" in r.content
    assert Match.objects.count() == 0


def test_match_games_and_adventures_still_create(api):
    r = api.post("/api/matches/", {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "Bo"}]}, format="json")
    assert r.status_code == 201
    assert Match.objects.get().stream.kind == Stream.KIND_MATCH

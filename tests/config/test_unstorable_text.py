"""NUL characters and lone surrogates are refused at the edge (400), in every text a request carries."""

from __future__ import annotations

import json

import pytest

from matches.models import Catalog, Match
from matches.models import Event as EventRow

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

NUL = "\\u0000"  # as a client writes it in JSON
SURROGATE = "\\ud800"
MOVE = '{"type": "stones_taken", "seat": 0, "data": {"count": 1}}'


def post_json(client, url, text):
    return client.generic("POST", url, text.encode(), content_type="application/json")


@pytest.mark.parametrize("bad", [NUL, SURROGATE, "ok" + NUL + "ok", "\\udfff"])
@pytest.mark.parametrize(
    "body",
    [
        '{"type": "stones_taken", "seat": 0, "data": {"count": 1, "note": "%s"}}',
        '{"type": "stones_taken%s", "seat": 0, "data": {"count": 1}}',
        '{"type": "stones_taken", "seat": 0, "data": {"count": 1, "%s": 1}}',
        '{"type": "stones_taken", "seat": 0, "data": {"count": 1}, "idempotency_key": "%s"}',
    ],
    ids=["data value", "type", "data key", "idempotency key"],
)
def test_event_bodies_with_unstorable_text_are_400_and_write_nothing(api, stone_match, body, bad):
    r = post_json(api, f"/api/matches/{stone_match.pk}/events/", body % bad)
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid" and "NUL" in r.json()["detail"]
    assert EventRow.objects.count() == 0


def test_a_valid_surrogate_pair_is_an_ordinary_character(api, stone_match):
    r = post_json(api, f"/api/matches/{stone_match.pk}/events/", MOVE[:-1] + ', "idempotency_key": "\\ud83c\\udfb2"}')
    assert r.status_code == 201, r.content
    assert EventRow.objects.get().idempotency_key == "🎲"


@pytest.mark.parametrize(
    "body",
    [
        '{"game": "last-stone", "seats": [{"name": "A%s"}, {"name": "B"}]}',
        '{"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], "options": {"x%s": 1}}',
        '{"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], "title": "%s"}',
    ],
    ids=["seat name", "options", "title"],
)
@pytest.mark.parametrize("bad", [NUL, SURROGATE])
def test_match_creation_with_unstorable_text_is_400(api, body, bad):
    r = post_json(api, "/api/matches/", body % bad)
    assert r.status_code == 400 and r.json()["errors"]
    assert Match.objects.count() == 0


def test_campaign_creation_with_unstorable_text_is_400(api):
    r = post_json(api, "/api/campaigns/", '{"name": "Salt' + NUL + '"}')
    assert r.status_code == 400 and r.json()["code"] == "invalid"


@pytest.mark.parametrize("query", ["player=%00", "game=%00", "status=x%00", "%00=1"])
def test_query_strings_with_nul_are_400_on_api_and_pages(client, query):
    api = client.get(f"/api/matches/?{query}")
    assert api.status_code == 400 and api.json()["code"] == "invalid"
    page = client.get(f"/matches/?{query}")
    assert page.status_code == 400 and b"NUL" in page.content


@pytest.mark.parametrize("player", ["²", "٣", "99999999999999999999999999", "-1"])
def test_odd_player_filters_are_names_not_errors(client, player):
    assert client.get("/api/matches/", {"player": player}).status_code == 200
    assert client.get("/matches/", {"player": player}).status_code == 200


def test_idempotency_key_header_with_nul_is_400(api, stone_match):
    r = api.post(
        f"/api/matches/{stone_match.pk}/events/", json.loads(MOVE), format="json", HTTP_IDEMPOTENCY_KEY="a\x00"
    )
    assert r.status_code == 400 and r.json()["errors"] == {
        "Idempotency-Key": [r.json()["errors"]["Idempotency-Key"][0]]
    }
    assert EventRow.objects.count() == 0


def test_form_fields_with_nul_are_400(client, owner):
    client.force_login(owner)
    r = client.post("/matches/new/", {"game": "last-stone", "seat_0": "A\x00", "seat_1": "B"})
    assert r.status_code == 400 and b"NUL" in r.content
    assert Match.objects.count() == 0


def test_json_typed_into_a_form_is_checked_after_parsing(client, owner, stone_match):
    client.force_login(owner)
    move = '{"type": "stones_taken", "seat": 0, "data": {"count": 1, "x": "' + NUL + '"}}'
    r = client.post(f"/matches/{stone_match.pk}/record/", {"move": move})
    assert r.status_code == 400
    assert EventRow.objects.count() == 0


def test_catalog_import_with_escaped_nul_is_refused(client, owner):
    client.force_login(owner)
    r = client.post("/catalogs/import/", {"game": "salt-and-bones", "name": "Deck", "json": '{"name": "x' + NUL + '"}'})
    assert r.status_code == 400 and b"NUL" in r.content
    assert Catalog.objects.count() == 0


HUGE = "9" * 30


@pytest.mark.parametrize(
    "path",
    [
        "/matches/{id}/?at=" + HUGE,
        "/matches/{id}/history/?at=" + HUGE,
        "/api/matches/{id}/state/?at=" + HUGE,
        "/api/matches/{id}/state/?seat=" + HUGE,
        "/api/matches/?player=" + HUGE,
        "/api/matches/?page=" + HUGE,
        "/matches/?page=" + HUGE,
    ],
)
def test_numbers_too_big_for_the_database_are_never_a_500(client, stone_match, path):
    r = client.get(path.format(id=stone_match.pk))
    assert r.status_code < 500, (path, r.status_code)

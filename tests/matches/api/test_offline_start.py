"""A match started on a phone without a network (``rulesets.offline.start_json``, run by Pyodide) is checked as the
server checks a create: the same 400 bodies, and the same starting state as the match the server then creates."""

from __future__ import annotations

import pytest

from matches.errors import InvalidInput
from matches.models import Match
from matches.services import match_create
from matches.store import events as store
from rulesets.offline import RANDOM_START_OFFLINE, start_json

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

ANA_BO = [{"name": "Ana"}, {"name": "Bo"}]
REFUSED = [
    {"game": "last-stone", "seats": [{"name": "Ana"}]},
    {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": " ana "}]},
    {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": ""}]},
    {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "B" * 81}]},
    {"game": "last-stone", "seats": ANA_BO, "options": {"stones": 0}},
    {"game": "last-stone", "seats": ANA_BO, "options": {"stones": "many"}},
    {"game": "last-stone", "seats": ANA_BO, "options": {"colour": "red"}},
    {"game": "saltmarsh", "seats": ANA_BO},
    {"game": "series", "seats": ANA_BO},
]


@pytest.mark.parametrize("body", REFUSED, ids=range(len(REFUSED)))
def test_a_start_the_server_refuses_is_refused_offline_with_its_body(owner, body):
    with pytest.raises(InvalidInput) as refused:  # the service: what the new-match form and the API call
        match_create(owner=owner, **body)
    assert start_json(body) == {"ok": False, "status": 400, "body": refused.value.body()}
    assert Match.objects.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"game": "last-stone", "seats": ANA_BO, "options": {"stones": 7, "first_seat": 1}},
        {"game": "scoresheet", "seats": [*ANA_BO, {"name": "Cy"}], "options": {"title": "Azul"}},
        {"game": "get-salty", "seats": ANA_BO},
        {"game": "the-first-spine", "seats": ANA_BO},
    ],
    ids=["last-stone", "scoresheet", "get-salty", "the-first-spine"],
)
def test_a_start_offline_is_the_servers_first_position(api, body):
    answer = start_json(body)
    assert answer["ok"] is True, answer
    created = api.post("/api/matches/", body, format="json").json()
    head = store.head_load(Match.objects.get(pk=created["id"]).stream_id)
    position = answer["position"]
    assert (position["version"], position["state"], position["options"]) == (0, head.state, head.options)
    assert position["seat_names"] == [s["name"] for s in body["seats"]]
    assert answer["turn"]["line"]


def test_a_random_start_waits_for_the_server():
    answer = start_json({"game": "last-stone", "seats": ANA_BO, "options": {"first_seat": "random"}})
    assert answer["ok"] is False and answer["body"]["detail"] == RANDOM_START_OFFLINE
    assert answer["body"]["errors"] == {"options.first_seat": [RANDOM_START_OFFLINE]}


@pytest.mark.parametrize("body", [None, [], {"game": 3}, {"game": "last-stone", "seats": "Ana, Bo"}])
def test_a_body_that_is_not_a_create_is_invalid_never_an_error(body):
    answer = start_json(body)
    assert answer["ok"] is False and answer["body"]["code"] == "invalid"


def test_the_local_match_page_is_one_shell_for_signed_in_users(client, owner):
    assert client.get("/matches/local-0a1b2c3d-4e5f/").status_code == 302  # signed out: to the sign-in page
    client.force_login(owner)
    for url in ("/matches/local/", "/matches/local-0a1b2c3d-4e5f/"):
        page = client.get(url)
        assert page.status_code == 200 and b'id="match-live"' in page.content and b"local-page.js" in page.content
    assert client.get("/matches/local-NOT-HEX/").status_code == 404
    new = client.get("/matches/new/?game=last-stone").content.decode()
    assert 'id="offline-engine"' in new and 'id="offline-forms"' in new and 'data-event-type="stones_taken"' in new

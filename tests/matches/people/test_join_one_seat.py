"""A join link takes one seat in one match (issue 41, around the seats): never the owner's player elsewhere,
never the owner's seat; a link that is off tells only that. Over HTTP."""

from __future__ import annotations

import pytest

from matches.models import Match, Player, Seat
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def spine(owner, names=("Ana", "Dana"), **kw):
    return match_create(owner=owner, game="the-first-spine", seats=[{"name": n} for n in names], **kw)


def stones(owner, names=("Ana", "Dana"), **kw):
    return match_create(owner=owner, game="last-stone", seats=[{"name": n} for n in names], options={"stones": 10},
                        **kw)  # fmt: skip


def token_of(api, match):
    return api.post(f"/api/matches/{match.pk}/join-link/", {}, format="json").json()["token"]


def test_joining_does_not_hand_over_the_owners_player_in_other_matches(api, owner, make_user, client_for):
    earlier = stones(owner, is_public=True)  # the owner's Dana played here before, without an account
    match_event_record(match=earlier, user=owner, type="stones_taken", seat=0, data={"count": 1})
    dana = Player.objects.get(owner=owner, name="Dana")
    match = stones(owner)
    joiner = make_user("mallory")
    r = client_for(joiner).post(f"/api/join/{token_of(api, match)}/", {"seat": 1}, format="json")
    assert r.status_code == 200 and r.json()["seat"] == 1 and r.json()["already"] is False
    dana.refresh_from_db()
    assert dana.user_id is None  # the owner's Dana is nobody's account
    seat = Seat.objects.select_related("player").get(match=match, index=1)
    assert seat.player.user == joiner and seat.player.name == "Dana (mallory)" and seat.player.owner == owner
    assert Seat.objects.get(match=earlier, index=1).player_id == dana.pk  # the other match keeps its Dana
    # Dana's matches and stats are not the joiner's
    me = client_for(joiner).get("/api/stats/me/").json()
    assert [p["player_id"] for p in me["players"]] == [seat.player_id] and "Dana (mallory)" in str(me["players"])
    assert dana.pk not in [p["player_id"] for p in me["players"]]
    # and the seat is theirs here: a repeat answers it, and they may record
    again = client_for(joiner).post(f"/api/join/{token_of(api, match)}/", {"seat": 0}, format="json")
    assert again.json()["already"] is True and again.json()["seat"] == 1
    assert match.recorders.filter(pk=joiner.pk).exists()


def test_the_joiner_does_not_read_dana_s_secret_elsewhere(api, owner, make_user, client_for):
    earlier = spine(owner, is_public=True)
    match_event_record(match=earlier, user=owner, type="origin_chosen", seat=1, data={"origin": "healer"})
    before = client_for(None).get(f"/api/matches/{earlier.pk}/state/").json()
    match = spine(owner)
    joiner = make_user("mallory")
    assert client_for(joiner).post(f"/api/join/{token_of(api, match)}/", {"seat": 1}, format="json").status_code == 200
    players = client_for(joiner).get(f"/api/matches/{earlier.pk}/state/").json()["state"]["players"]
    assert [p["origin"] for p in players] == [None, None]  # no secret of Dana's
    events = client_for(joiner).get(f"/api/matches/{earlier.pk}/events/").json()["results"]
    assert "healer" not in str(events)
    assert client_for(joiner).get(f"/api/matches/{earlier.pk}/state/").json() == before  # as any stranger reads it


def test_the_owner_claims_the_same_dana_explicitly(api, owner, make_user, client_for):
    stones(owner)
    match = stones(owner)
    joiner = make_user("dana")
    client_for(joiner).post(f"/api/join/{token_of(api, match)}/", {"seat": 1}, format="json")
    taken = Seat.objects.get(match=match, index=1).player
    dana = Player.objects.get(owner=owner, name="Dana")
    assert client_for(joiner).post(f"/api/players/{taken.pk}/merge/", {"into": dana.pk}, format="json").status_code in (
        403,
        404,
    )  # only the owner says so
    r = api.post(f"/api/players/{taken.pk}/merge/", {"into": dana.pk, "reason": "the same Dana"}, format="json")
    assert r.status_code == 201
    dana.refresh_from_db()
    assert dana.user == joiner


def test_a_player_of_this_match_alone_is_linked_as_it_is(api, owner, make_user, client_for):
    match = stones(owner, names=("Ana", "Bo"))
    bo = make_user("bo")
    assert client_for(bo).post(f"/api/join/{token_of(api, match)}/", {"seat": 1}, format="json").status_code == 200
    assert Player.objects.get(owner=owner, name="Bo").user == bo
    assert Player.objects.filter(owner=owner).count() == 2


def test_the_owners_seat_is_not_offered_nor_taken(api, owner, make_user, client_for):
    match = stones(owner, names=("owner", "Bo"))  # the owner typed their own name: not linked to their account
    token = token_of(api, match)
    seen = client_for(None).get(f"/api/join/{token}/").json()
    assert [(s["name"], s["free"]) for s in seen["seats"]] == [("owner", False), ("Bo", True)]
    r = client_for(make_user("cy")).post(f"/api/join/{token}/", {"seat": 0}, format="json")
    assert r.status_code == 409 and "the owner's" in r.json()["detail"]
    assert Player.objects.get(owner=owner, name="owner").user_id is None
    page = client_for(None).get(f"/join/{token}/")
    body = page.content.decode()
    assert "owner: the owner's seat" in body and 'value="0"' not in body and 'value="1"' in body


def test_a_link_that_is_off_tells_only_that(api, owner, client_for):
    match = stones(owner, is_public=True, title="Secret club night")
    token = token_of(api, match)
    api.delete(f"/api/matches/{match.pk}/join-link/")
    r = client_for(None).get(f"/api/join/{token}/")
    assert r.status_code == 200 and r.json() == {
        "refusal": "The owner turned this join link off: ask them for a new one."
    }
    assert Match.objects.filter(pk=match.pk).exists()

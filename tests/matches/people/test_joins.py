"""Friends at one table through the API: seating an account at creation, and join links (issue 33 item 1).

Each rule is played legal and refused; a refusal writes nothing, a repeated join has no side effects.
"""

from __future__ import annotations

import pytest

from matches.models import JoinLink, Match, Player
from matches.people import joins
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def stones(owner, names=("Ana", "Bo"), stones=10, **kw):
    return match_create(owner=owner, game="last-stone", seats=[{"name": n} for n in names], options={"stones": stones},
                        **kw)  # fmt: skip


def take(client, match, seat, count=1):
    return client.post(
        f"/api/matches/{match.pk}/events/",
        {"type": "stones_taken", "seat": seat, "data": {"count": count}},
        format="json",
    )


def link_on(api, match, **body):
    return api.post(f"/api/matches/{match.pk}/join-link/", body, format="json")


# -- seating an account when the match is made --------------------------------------------------------------


def test_a_seated_account_is_linked_named_and_may_record(api, owner, make_user, client_for):
    bo = make_user("bo")
    r = api.post(
        "/api/matches/",
        {"game": "last-stone", "seats": [{"user": "owner"}, {"user": "bo"}], "options": {"stones": 10}},
        format="json",
    )
    assert r.status_code == 201, r.json()
    seats = r.json()["seats"]
    assert [(s["name"], s["user"]) for s in seats] == [("owner", "owner"), ("bo", "bo")]
    match = Match.objects.get(pk=r.json()["id"])
    assert list(match.recorders.all()) == [bo]  # a seated account may record by default (the owner always may)
    assert take(client_for(bo), match, 0).status_code == 201


def test_a_seated_account_keeps_the_name_the_owner_gives_it(api, owner, make_user):
    bo = make_user("bo")
    Player.objects.create(owner=owner, name="Bobby", user=bo)
    r = api.post(
        "/api/matches/",
        {"game": "last-stone", "seats": [{"name": "Ana"}, {"name": "", "user": "bo"}], "options": {"stones": 5}},
        format="json",
    )
    assert r.status_code == 201 and r.json()["seats"][1]["name"] == "Bobby"
    assert Player.objects.filter(owner=owner).count() == 2  # Ana, and Bobby again (no new player)


@pytest.mark.parametrize(
    ("seats", "path", "words"),
    [
        ([{"user": "bo"}, {"name": "Bob", "user": "bo"}], "seats[1].user", "already sits at another seat"),
        ([{"name": "Cyan", "user": "bo"}, {"name": "Ana"}], "seats[0].name", "already linked to another account"),
        ([{"user": "nobody"}, {"name": "Ana"}], "seats[0].user", "No user named nobody"),
        ([{"name": ""}, {"name": "Ana"}], "seats[0].name", "needs a name"),
    ],
)
def test_seating_refusals_write_nothing(api, owner, make_user, seats, path, words):
    make_user("bo")
    Player.objects.create(owner=owner, name="Cyan", user=make_user("cy"))
    before = (Match.objects.count(), Player.objects.count())
    r = api.post("/api/matches/", {"game": "last-stone", "seats": seats, "options": {"stones": 5}}, format="json")
    assert r.status_code == 400, r.json()
    assert any(words in m for m in r.json()["errors"][path])
    assert (Match.objects.count(), Player.objects.count()) == before


def test_the_owner_turns_a_seated_accounts_recording_off(api, owner, make_user, client_for):
    bo = make_user("bo")
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo", "user": bo}],
                         options={"stones": 10}, is_public=True)  # fmt: skip
    assert api.post(f"/api/matches/{match.pk}/recorders/", {"recorders": []}, format="json").status_code == 200
    r = take(client_for(bo), match, 0)
    assert r.status_code == 403


def test_the_people_played_with_are_offered_and_no_one_else(owner, make_user):
    bo, cy, stranger = make_user("bo"), make_user("cy"), make_user("stranger")
    stones(owner, names=("Ana", "Bo"))
    Player.objects.filter(owner=owner, name="Bo").update(user=bo)
    # a match of Cy's where the owner holds a seat: Cy's player there is Cy's own account
    theirs = match_create(owner=cy, game="last-stone", seats=[{"name": "Cy", "user": cy}, {"name": "O", "user": owner}],
                          options={"stones": 5})  # fmt: skip
    assert theirs.pk
    match_create(owner=stranger, game="last-stone", seats=[{"name": "S", "user": stranger}, {"name": "T"}],
                 options={"stones": 5})  # fmt: skip
    offered = joins.seat_accounts(owner)
    assert [(a.username, a.me) for a in offered] == [("owner", True), ("bo", False), ("cy", False)]
    assert offered[1].label == "Bo (bo)" and offered[0].label == "Me (owner)"


# -- join links ----------------------------------------------------------------------------------------------


def test_only_the_owner_shows_a_join_link_and_asking_twice_is_one_link(api, owner, stranger, client_for):
    match = stones(owner, is_public=True)
    first = link_on(api, match)
    assert first.status_code == 201 and len(first.json()["token"]) >= 32
    assert f"/join/{first.json()['token']}/" in first.json()["url"]
    again = link_on(api, match)
    assert again.status_code == 200 and again.json()["token"] == first.json()["token"]
    assert api.get(f"/api/matches/{match.pk}/join-link/").json()["token"] == first.json()["token"]
    assert link_on(client_for(stranger), match).status_code == 403  # public: seen, but not the owner's
    private = stones(owner)
    assert link_on(client_for(stranger), private).status_code == 404  # private: not even seen
    assert JoinLink.objects.count() == 1


def test_tokens_are_unguessable_and_a_new_link_turns_the_old_one_off(api, owner, make_user, client_for):
    match = stones(owner)
    old = link_on(api, match).json()["token"]
    new = link_on(api, match, new=True)
    assert new.status_code == 201 and new.json()["token"] != old
    cy = client_for(make_user("cy"))
    refused = cy.post(f"/api/join/{old}/", {"seat": 1}, format="json")
    assert refused.status_code == 409 and "turned this join link off" in refused.json()["detail"]
    assert Player.objects.get(name="Bo").user_id is None
    for bad in (f"{old[:-1]}x" if not old.endswith("x") else f"{old[:-1]}y", "%00", "%F0%9F%8E%B2"):
        assert client_for(None).get(f"/api/join/{bad}/").status_code == 404, bad
        assert cy.post(f"/api/join/{bad}/", {"seat": 1}, format="json").status_code == 404, bad


def test_a_friend_takes_a_free_seat_and_may_record(api, owner, make_user, client_for):
    match = stones(owner)  # private
    token = link_on(api, match).json()["token"]
    seen = client_for(None).get(f"/api/join/{token}/")
    assert seen.status_code == 200 and seen.json()["refusal"] == ""
    assert [(s["name"], s["free"]) for s in seen.json()["seats"]] == [("Ana", True), ("Bo", True)]
    assert client_for(None).post(f"/api/join/{token}/", {"seat": 1}, format="json").status_code in (401, 403)
    bo = make_user("bo")
    r = client_for(bo).post(f"/api/join/{token}/", {"seat": 1}, format="json")
    assert r.status_code == 200 and r.json() == {"match": match.pk, "seat": 1, "name": "Bo", "already": False}
    assert Player.objects.get(name="Bo").user == bo and list(match.recorders.all()) == [bo]
    assert client_for(bo).get(f"/api/matches/{match.pk}/").status_code == 200  # the private match is theirs now
    assert take(client_for(bo), match, 0).status_code == 201


def test_a_replayed_join_has_no_side_effects(api, owner, make_user, client_for):
    match = stones(owner)
    token = link_on(api, match).json()["token"]
    bo = client_for(make_user("bo"))
    assert bo.post(f"/api/join/{token}/", {"seat": 1}, format="json").json()["already"] is False
    for seat in (1, 0):  # the same request again, or another seat: the seat held is the answer
        r = bo.post(f"/api/join/{token}/", {"seat": seat}, format="json")
        assert r.status_code == 200 and r.json() == {"match": match.pk, "seat": 1, "name": "Bo", "already": True}
    assert Player.objects.get(name="Ana").user_id is None and match.recorders.count() == 1


def test_a_taken_seat_a_full_match_and_a_finished_one_refuse(api, owner, make_user, client_for):
    match = stones(owner, stones=1)
    token = link_on(api, match).json()["token"]
    assert client_for(make_user("bo")).post(f"/api/join/{token}/", {"seat": 1}, format="json").status_code == 200
    cy = client_for(make_user("cy"))
    taken = cy.post(f"/api/join/{token}/", {"seat": 1}, format="json")
    assert taken.status_code == 409 and "Bo's seat was taken by another account" in taken.json()["detail"]
    assert cy.post(f"/api/join/{token}/", {"seat": 0}, format="json").status_code == 200  # the owner's "Ana"
    full = client_for(make_user("di")).post(f"/api/join/{token}/", {"seat": 0}, format="json")
    assert full.status_code == 409 and "Every seat" in full.json()["detail"]
    other = stones(owner, names=("Ed", "Flo"), stones=1)
    other_token = link_on(api, other).json()["token"]
    match_event_record(match=other, user=owner, type="stones_taken", seat=0, data={"count": 1})
    finished = client_for(make_user("gil")).post(f"/api/join/{other_token}/", {"seat": 1}, format="json")
    assert finished.status_code == 409 and "finished" in finished.json()["detail"]
    assert client_for(None).get(f"/api/join/{other_token}/").json()["refusal"].startswith("This match is finished")
    assert link_on(api, other, new=True).status_code == 409  # no new link for a finished match
    assert Player.objects.get(name="Flo").user_id is None


@pytest.mark.parametrize("seat", [2, -1, "x", None, True])
def test_a_seat_that_is_not_the_matchs_is_refused(api, owner, make_user, client_for, seat):
    match = stones(owner)
    token = link_on(api, match).json()["token"]
    r = client_for(make_user("bo")).post(f"/api/join/{token}/", {"seat": seat}, format="json")
    assert r.status_code == 400, r.json()
    assert not Player.objects.filter(user__isnull=False).exists() and match.recorders.count() == 0


def test_turning_the_link_off_is_the_owners_and_seats_nobody(api, owner, stranger, make_user, client_for):
    match = stones(owner, is_public=True)
    token = link_on(api, match).json()["token"]
    assert client_for(stranger).delete(f"/api/matches/{match.pk}/join-link/").status_code == 403
    assert api.delete(f"/api/matches/{match.pk}/join-link/").status_code == 204
    assert api.delete(f"/api/matches/{match.pk}/join-link/").status_code == 204  # again: still off
    assert api.get(f"/api/matches/{match.pk}/join-link/").status_code == 404
    r = client_for(make_user("bo")).post(f"/api/join/{token}/", {"seat": 1}, format="json")
    assert r.status_code == 409 and "turned this join link off" in r.json()["detail"]

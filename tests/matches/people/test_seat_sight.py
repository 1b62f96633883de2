"""A friend is never locked out of a match they sit at (issue 43 item 1).

A name the owner gave an account (Cleo, linked when she took a seat by a join link) seats that account openly when
typed again: she is linked, may record and sees the match. A seat an account holds is that account's to read even
when the owner stops them recording, and for matches made before this rule (existing data needs no migration).
"""

from __future__ import annotations

import pytest

from matches.models import Match, Player
from matches.people import joins
from matches.services import match_create

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def cleo(owner, make_user, client_for):
    """Cleo, who took the seat "Cleo" of one of the owner's matches by its join link (the owner's player "Cleo"
    is now linked to her account)."""
    cleo = make_user("cleo")
    first = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Cleo"}],
                         options={"stones": 10})  # fmt: skip
    link = joins.join_link_on(match=first, user=owner)
    assert client_for(cleo).post(f"/api/join/{link.token}/", {"seat": 1}, format="json").status_code == 200
    assert Player.objects.get(owner=owner, name="Cleo").user == cleo
    return cleo


def test_a_typed_name_of_an_account_seats_it_openly(api, owner, cleo, client_for):
    r = api.post("/api/matches/", {"game": "the-first-spine", "seats": [{"name": "Ana"}, {"name": "Cleo"}]},
                 format="json")  # fmt: skip
    assert r.status_code == 201, r.json()
    assert [s["user"] for s in r.json()["seats"]] == [None, "cleo"]
    match = Match.objects.get(pk=r.json()["id"])
    assert list(match.recorders.all()) == [cleo]  # as if "Seat an account: Cleo" had been chosen
    as_cleo = client_for(cleo)
    assert as_cleo.get(f"/api/matches/{match.pk}/").status_code == 200
    assert match.pk in [m["id"] for m in as_cleo.get("/api/matches/").json()["results"]]


def test_a_seat_holder_reads_the_match_without_recording_it(api, owner, cleo, client, client_for):
    match = match_create(owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Cleo"}])
    match.recorders.clear()  # the owner stopped her recording (or the match was made before this rule)
    as_cleo = client_for(cleo)
    assert as_cleo.get(f"/api/matches/{match.pk}/").status_code == 200
    assert as_cleo.get(f"/api/matches/{match.pk}/state/").status_code == 200
    assert match.pk in [m["id"] for m in as_cleo.get("/api/matches/").json()["results"]]
    r = as_cleo.post(f"/api/matches/{match.pk}/events/", {"type": "turn_ended", "seat": 1, "data": {}},
                     format="json")  # fmt: skip
    assert r.status_code == 403
    client.force_login(cleo)
    assert client.get(f"/matches/{match.pk}/").status_code == 200


def test_a_stranger_still_gets_no_match(api, owner, cleo, stranger, client_for):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Cleo"}],
                         options={"stones": 5})  # fmt: skip
    r = client_for(stranger).get(f"/api/matches/{match.pk}/")
    assert r.status_code == 404 and r.json()["detail"] == f"No match {match.pk}."


def test_one_account_typed_at_one_seat_and_picked_at_another_is_refused(api, owner, cleo):
    before = Match.objects.count()
    seats = [{"name": "Cleo"}, {"name": "Cleopatra", "user": "cleo"}]
    r = api.post("/api/matches/", {"game": "last-stone", "seats": seats, "options": {"stones": 5}}, format="json")
    assert r.status_code == 400
    assert r.json()["errors"]["seats[1].user"] == ["cleo already sits at another seat."]
    assert Match.objects.count() == before

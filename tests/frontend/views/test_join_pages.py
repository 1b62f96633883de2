"""Friends at one table on the pages (issue 33 items 1 and 2): the seat picker of the new-match form, the
owner's join link and QR code, the join page signed in and out, and a private match's link signed out."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from matches.models import JoinLink, Match, Player
from matches.people import joins
from matches.services import match_create

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def stones(owner, names=("Ana", "Bo"), **kw):
    return match_create(owner=owner, game="last-stone", seats=[{"name": n} for n in names], options={"stones": 10},
                        **kw)  # fmt: skip


def new_match(web, **fields):
    body = {"game": "last-stone", "seat_count": "2", "option.stones": "10", "seat_0": "", "seat_1": ""}
    return web.post("/matches/new/", body | fields)


# -- the new-match form's picker ----------------------------------------------------------------------------


def test_the_form_offers_me_and_the_people_played_with(web, owner, make_user):
    make_user("stranger")
    bo = make_user("bo")
    stones(owner, names=("Ana", "Bobby"))
    Player.objects.filter(name="Bobby").update(user=bo)
    page = web.get("/matches/new/?game=last-stone").content.decode()
    picker = re.search(r'<select name="seat_1_account".*?</select>', page, re.S).group(0)
    assert f'<option value="{owner.pk}" data-name="owner">Me (owner)</option>' in picker
    assert f'<option value="{bo.pk}" data-name="Bobby">Bobby (bo)</option>' in picker
    assert "stranger" not in picker


def test_picking_an_account_seats_it_in_two_taps(web, owner, make_user):
    bo = make_user("bo")
    stones(owner, names=("Ana", "Bo"))
    Player.objects.filter(name="Bo").update(user=bo)
    r = new_match(web, seat_0_account=str(owner.pk), seat_1_account=str(bo.pk))  # no name typed
    assert r.status_code == 302, r.content.decode()[:2000]
    match = Match.objects.order_by("-pk").first()
    seated = [(s.player.name, s.player.user) for s in match.seats.select_related("player__user")]
    assert seated == [("owner", owner), ("Bo", bo)]
    assert list(match.recorders.all()) == [bo]
    page = signed_in(bo).get(f"/matches/{match.pk}/")
    assert page.status_code == 200 and b'id="record"' in page.content  # private, and Bo may record
    box = web.get(f"/matches/{match.pk}/").content.decode()
    assert "Seats: every one belongs to an account" in box  # no seat to take: the box does not offer one
    assert "scan to take a seat" not in box


def test_an_account_not_offered_is_refused_and_nothing_is_made(web, owner, make_user):
    stranger = make_user("stranger")
    r = new_match(web, seat_0="Ana", seat_1="", seat_1_account=str(stranger.pk))
    assert r.status_code == 400 and Match.objects.count() == 0
    page = r.content.decode()
    assert "Choose one of the people offered, or type a name." in page and "The match was not created" in page
    r = new_match(web, seat_0="Ana", seat_1="Bo", seat_1_account="me-or-not")
    assert r.status_code == 400 and Match.objects.count() == 0


def test_one_account_at_two_seats_is_refused(web, owner):
    r = new_match(web, seat_0_account=str(owner.pk), seat_1="Me again", seat_1_account=str(owner.pk))
    assert r.status_code == 400 and Match.objects.count() == 0
    assert "owner already sits at another seat." in r.content.decode()
    kept = re.search(r'<select name="seat_0_account".*?</select>', r.content.decode(), re.S).group(0)
    assert f'<option value="{owner.pk}" data-name="owner" selected>' in kept  # the pick is kept for the retry


# -- the owner's join link on the match page ----------------------------------------------------------------


def test_the_owner_shows_a_qr_code_drawn_on_the_server(web, owner, make_user):
    match = stones(owner)
    page = web.get(f"/matches/{match.pk}/").content.decode()
    assert "Show a join link and QR code" in page and "<svg" not in page.split('id="join"')[1]
    r = web.post(f"/matches/{match.pk}/join-link/", {"action": "on"})
    assert r.status_code == 302 and r["Location"].endswith(f"/matches/{match.pk}/#join")
    response = web.get(f"/matches/{match.pk}/")
    page = response.content.decode()
    token = JoinLink.objects.get().token
    assert f"/join/{token}/" in page and "Scan to take a seat" in page
    svg = re.search(r'<svg[^>]*class="join-qr".*?</svg>', page, re.S).group(0)
    assert "<script" not in svg and "<style" not in svg and "http" not in svg.split(">", 1)[0]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert web.post(f"/matches/{match.pk}/join-link/", {"action": "on"}).status_code == 302
    assert JoinLink.objects.count() == 1  # a second tap shows the same link
    web.post(f"/matches/{match.pk}/join-link/", {"action": "new"})
    assert JoinLink.objects.filter(revoked_at__isnull=True).count() == 1 and JoinLink.objects.count() == 2
    web.post(f"/matches/{match.pk}/join-link/", {"action": "off"})
    assert not JoinLink.objects.filter(revoked_at__isnull=True).exists()


def test_only_the_owner_switches_the_link_and_bad_actions_explain(web, owner, make_user):
    match = stones(owner, is_public=True)
    other = signed_in(make_user("cy"))
    assert b'id="join"' not in other.get(f"/matches/{match.pk}/").content
    r = other.post(f"/matches/{match.pk}/join-link/", {"action": "on"})
    assert r.status_code == 403 and "owner can show or turn off its join link" in r.content.decode()
    r = web.post(f"/matches/{match.pk}/join-link/", {"action": "sideways"})
    assert r.status_code == 400 and "Choose on, new or off." in r.content.decode()
    assert not JoinLink.objects.exists()


# -- the join page -------------------------------------------------------------------------------------------


def test_signed_in_a_friend_takes_a_seat_in_one_tap(owner, make_user):
    match = stones(owner)
    link = joins.join_link_on(match=match, user=owner)
    bo = signed_in(make_user("bo"))
    page = bo.get(f"/join/{link.token}/").content.decode()
    assert "I am Ana" in page and "I am Bo" in page
    r = bo.post(f"/join/{link.token}/", {"seat": "1"})
    assert r.status_code == 302 and r["Location"] == f"/matches/{match.pk}/"
    shown = bo.get(r["Location"]).content.decode()
    assert "You took Bo&#x27;s seat. You may record its moves from this phone." in shown
    again = bo.post(f"/join/{link.token}/", {"seat": "0"})  # a second tap, another seat: the one held
    assert again.status_code == 302 and Player.objects.get(name="Ana").user_id is None
    assert "You already sit at Bo" in bo.get(again["Location"]).content.decode()


def test_signed_out_the_friend_signs_up_on_the_way_and_lands_seated(owner):
    match = stones(owner)
    link = joins.join_link_on(match=match, user=owner)
    friend = Client()
    page = friend.get(f"/join/{link.token}/").content.decode()
    assert "You sign in or sign up next." in page
    assert f'href="/accounts/signup/?next=/join/{link.token}/"' in page  # the menu's links come back here too
    r = friend.post(f"/join/{link.token}/", {"seat": "1"})
    assert r.status_code == 302 and r["Location"] == f"/join/{link.token}/"
    page = friend.get(r["Location"]).content.decode()
    assert "s seat is yours once you sign up or sign in" in page and "<strong>Bo</strong>" in page
    assert Player.objects.get(name="Bo").user_id is None  # nothing taken yet, and no GET writes
    signup = f"/accounts/signup/?next=/join/{link.token}/"
    assert signup in page
    form = friend.get(signup).content.decode()
    assert f'name="next" value="/join/{link.token}/"' in form
    r = friend.post(signup, {"username": "bo", "password1": "salty-crackers-9", "password2": "salty-crackers-9",
                             "next": f"/join/{link.token}/"})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == f"/join/{link.token}/"
    assert Player.objects.get(name="Bo").user.username == "bo"  # the sign-up (a POST) took the kept seat
    assert match.recorders.get().username == "bo"
    r = friend.get(r["Location"])
    assert r.status_code == 302 and r["Location"] == f"/matches/{match.pk}/"
    shown = friend.get(r["Location"]).content.decode()
    assert "You took Bo&#x27;s seat. You may record its moves from this phone." in shown
    assert 'id="record"' in shown
    again = friend.get(f"/join/{link.token}/")  # the link again, later: on to the match, nothing written
    assert again.status_code == 302 and "You already sit at Bo" in friend.get(again["Location"]).content.decode()


def test_signed_out_an_existing_account_signs_in_on_the_way(owner, make_user):
    match = stones(owner)
    link = joins.join_link_on(match=match, user=owner)
    make_user("bo")
    friend = Client()
    friend.post(f"/join/{link.token}/", {"seat": "1"})
    r = friend.post("/accounts/login/", {"username": "bo", "password": "pass-word-123",
                                         "next": f"/join/{link.token}/"})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == f"/join/{link.token}/"
    assert Player.objects.get(name="Bo").user.username == "bo"
    friend.logout()
    friend.login(username="bo", password="pass-word-123")  # signing in again takes nothing more
    assert Player.objects.filter(user__username="bo").count() == 1 and match.recorders.count() == 1


def test_a_kept_seat_taken_meanwhile_is_told_after_signing_in(owner, make_user):
    match = stones(owner)
    link = joins.join_link_on(match=match, user=owner)
    make_user("bo")
    friend = Client()
    friend.post(f"/join/{link.token}/", {"seat": "1"})
    signed_in(make_user("cy")).post(f"/join/{link.token}/", {"seat": "1"})  # Cy taps first
    r = friend.post("/accounts/login/", {"username": "bo", "password": "pass-word-123",
                                         "next": f"/join/{link.token}/"})  # fmt: skip
    page = friend.get(r["Location"]).content.decode()
    assert "The seat was not taken: Bo&#x27;s seat was taken by another account" in page
    assert "Nothing was written." in page and "I am Ana" in page
    assert Player.objects.get(name="Bo").user.username == "cy" and match.recorders.get().username == "cy"


def test_the_join_page_refuses_in_plain_words(owner, make_user):
    match = stones(owner)
    link = joins.join_link_on(match=match, user=owner)
    bo = signed_in(make_user("bo"))
    assert bo.post(f"/join/{link.token}/", {"seat": "1"}).status_code == 302
    cy = signed_in(make_user("cy"))
    r = cy.post(f"/join/{link.token}/", {"seat": "1"})
    assert r.status_code == 409 and "seat was taken by another account" in r.content.decode()
    assert "Nothing was written." in r.content.decode()
    r = cy.post(f"/join/{link.token}/", {"seat": "seven"})
    assert r.status_code == 400 and "Choose a seat from 1 to 2." in r.content.decode()
    joins.join_link_off(match=match, user=owner)
    r = cy.get(f"/join/{link.token}/")
    assert r.status_code == 200 and "The owner turned this join link off" in r.content.decode()
    assert "I am Ana" not in r.content.decode()
    for bad in ("not-a-token", "%00", "%C3%A9" * 3, "x" * 65):
        r = cy.get(f"/join/{bad}/")
        assert r.status_code == 404 and "This join link is not valid" in r.content.decode(), bad
    assert cy.post("/join/%00/", {"seat": "0"}).status_code == 404
    assert Player.objects.get(name="Ana").user_id is None


# -- a private match's link, signed out (item 2) -------------------------------------------------------------


@pytest.mark.parametrize("path", ["/matches/{pk}/", "/matches/{pk}/history/"])
def test_a_private_matchs_link_signed_out_asks_to_sign_in_and_comes_back(owner, stranger, path):
    match = stones(owner)
    url = path.format(pk=match.pk)
    r = Client().get(url + "?at=1")
    assert r.status_code == 302 and r["Location"] == f"/accounts/login/?next={url}%3Fat%3D1"
    login = Client().get(r["Location"]).content.decode()
    assert "Sign in (or sign up) to open that page" in login
    assert f"/accounts/signup/?next={url}%3Fat%3D1" in login
    back = Client().post(r["Location"], {"username": "owner", "password": "pass-word-123",
                                         "next": f"{url}?at=1"})  # fmt: skip
    assert back.status_code == 302 and back["Location"] == f"{url}?at=1"
    assert signed_in(stranger).get(url).status_code == 404  # signed in, may not see it: still not found
    assert b"No match" in signed_in(stranger).get(url).content


def test_signed_out_every_hidden_id_asks_the_same_and_a_public_match_opens(owner):
    assert Client().get("/matches/999999/")["Location"] == "/accounts/login/?next=/matches/999999/"
    public = stones(owner, is_public=True)
    assert Client().get(f"/matches/{public.pk}/").status_code == 200


def test_signup_goes_back_only_to_this_site(client):
    r = client.post("/accounts/signup/", {"username": "eve", "password1": "salty-crackers-9",
                                          "password2": "salty-crackers-9", "next": "https://evil.example/"})  # fmt: skip
    assert r.status_code == 302 and r["Location"] == "/"


def test_a_stale_form_is_refused_with_words_and_a_fresh_token_is_given(owner):
    """A join page's form sent after the phone's cookies were cleared: 403 with the site's page saying what to do,
    nothing written; ``/accounts/form-token/`` gives the token app.js sends instead (and sets the cookie), never
    cached."""
    match = stones(owner)
    token = joins.join_link_on(match=match, user=owner).token
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(f"/join/{token}/").content.decode()
    drawn = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    phone.cookies.clear()  # cookies cleared with the page open
    refused = phone.post(f"/join/{token}/", {"seat": 1, "csrfmiddlewaretoken": drawn})
    assert refused.status_code == 403 and "This page had gone stale" in refused.content.decode()
    assert "chronicle_join" not in phone.session  # nothing kept
    fresh = phone.get("/accounts/form-token/")
    assert fresh["Cache-Control"] == "no-store" and "csrftoken" in fresh.cookies
    sent = phone.post(f"/join/{token}/", {"seat": 1, "csrfmiddlewaretoken": fresh.json()["token"]})
    assert sent.status_code == 302 and sent["Location"] == f"/join/{token}/"

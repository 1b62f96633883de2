"""Friends at one table on two 390×844 phones in Chromium (issue 33 item 1, done-when): Ana seats Bo from the
new-match form's picker; and Bo, signed out, opens the join link of Ana's QR code, signs up on the way and lands
seated, able to record from his own phone."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow
from matches.models import Match, Player
from matches.services import match_create
from tests.frontend.phones import PASSWORD, phone_page, session_for, stones

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user(username="ana", password=PASSWORD)


def recorded_by(match: Match) -> list[str]:
    rows = EventRow.objects.filter(stream_id=match.stream_id).select_related("recorded_by").order_by("version")
    return [row.recorded_by.username for row in rows]


def test_ana_seats_bo_from_the_picker_and_bo_records(browser, live_server, ana, django_user_model):
    bo = django_user_model.objects.create_user(username="bo", password=PASSWORD)
    # an earlier evening: Ana's players "Ana" and "Bo" are their accounts
    match_create(owner=ana, game="last-stone", seats=[{"name": "Ana", "user": ana}, {"name": "Bo", "user": bo}],
                 options={"stones": 3})  # fmt: skip
    phone = phone_page(browser)
    session_for(phone, live_server.url, ana)
    phone.goto(f"{live_server.url}/matches/new/?game=last-stone")
    phone.locator("#id_seat_0_account").select_option(label="Me (ana)")  # two taps a seat: the list, the name
    phone.locator("#id_seat_1_account").select_option(label="Bo (bo)")
    assert phone.locator("#id_seat_0").input_value() == "Ana" and phone.locator("#id_seat_1").input_value() == "Bo"
    phone.get_by_role("button", name="Create match").click()
    phone.wait_for_url(f"{live_server.url}/matches/*/")
    match = Match.objects.order_by("-pk").first()
    assert [s.player.user for s in match.seats.select_related("player__user")] == [ana, bo]
    assert not match.is_public and list(match.recorders.all()) == [bo]

    bos = phone_page(browser)
    session_for(bos, live_server.url, bo)
    bos.goto(f"{live_server.url}/matches/{match.pk}/")
    stones(bos, "Ana", 1)  # Bo records Ana's move from his own phone
    bos.get_by_text("Recorded move 1").wait_for()
    assert recorded_by(match) == ["bo"]
    bos.context.close()
    phone.context.close()


def test_bo_opens_the_join_link_signed_out_signs_up_and_lands_seated(browser, live_server, ana):
    match = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 5})
    phone = phone_page(browser)
    session_for(phone, live_server.url, ana)
    phone.goto(f"{live_server.url}/matches/{match.pk}/")
    phone.locator("#join summary").click()
    phone.get_by_role("button", name="Show a join link and QR code").click()
    code = phone.locator("#join svg.join-qr")
    code.wait_for()
    box = code.bounding_box()
    assert box["width"] >= 150 and box["x"] >= 0 and box["x"] + box["width"] <= 390  # whole, on a phone
    link = phone.locator("#join a.join-url").get_attribute("href")
    assert "/join/" in link

    bos = phone_page(browser)  # Bo's phone, signed out: the camera opens the link
    bos.goto(link)
    bos.get_by_role("button", name="I am Bo").click()
    bos.get_by_text("seat is yours once you sign up or sign in").wait_for()
    bos.locator("#main").get_by_role("link", name="Sign up").click()
    bos.locator("input[name=username]").fill("bo")
    bos.locator("input[name=password1]").fill(PASSWORD)
    bos.locator("input[name=password2]").fill(PASSWORD)
    bos.get_by_role("button", name="Create account").click()
    bos.wait_for_url(f"{live_server.url}/matches/{match.pk}/")
    bos.get_by_text("You took Bo's seat. You may record its moves from this phone.").wait_for()
    assert Player.objects.get(owner=ana, name="Bo").user.username == "bo"
    stones(bos, "Ana", 2)
    bos.get_by_text("Recorded move 1").wait_for()
    assert recorded_by(match) == ["bo"]

    # Ana's page: the seat is Bo's now; the one left is the owner's own (named as her account), which a join link
    # never offers (issue 41: only free seats that are not the owner's)
    phone.goto(f"{live_server.url}/matches/{match.pk}/")
    assert "every one belongs to an account" in phone.locator("#join summary").inner_text()
    bos.context.close()
    phone.context.close()

"""Bone Wars in real headless Chromium at 390 × 844: play a card from the board form, tap an effect, end the turn."""

from __future__ import annotations

import re

import pytest

from matches.models import Event as EventRow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone390(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def test_record_a_turn_on_a_phone(live_server, phone390, owner, client):
    from matches.services import match_create

    match = match_create(owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}], title="Bones")
    client.force_login(owner)
    cookie = client.cookies["sessionid"]
    page = phone390
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page.goto(f"{live_server.url}/matches/{match.pk}/")

    card_form = page.locator("form.bw-card-form")
    assert "slot 1" in card_form.inner_text() and "$0" in card_form.inner_text()
    card_form.get_by_label("Kind of card").select_option("species")
    card_form.get_by_label("Card name").fill("Stegosaurus")
    card_form.get_by_label("Minor find (species only)").select_option("bug")
    card_form.get_by_role("button", name="Play the card").click()
    page.get_by_text(re.compile(r"Recorded move 1")).wait_for()

    ana = page.locator("section.bw-seat[data-seat='0']")
    first_slot = ana.locator("li.bw-slot[data-slot='1']")
    assert "Stegosaurus" in first_slot.inner_text() and "prize" in first_slot.inner_text()
    page.get_by_role("button", name="Publish for Marsh").click()
    page.get_by_text(re.compile(r"Recorded move 2")).wait_for()
    page.get_by_role("button", name="End turn").click()
    page.get_by_text(re.compile(r"Recorded move 3")).wait_for()

    # Bo is on turn now: the card form says so, and his board is within the phone's width
    assert page.locator(".bw-moves h3").inner_text() == "Bo's turn"
    assert "slot 1" in page.locator("form.bw-card-form").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("section.bw-seat[data-seat='1']").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert [e.type for e in EventRow.objects.order_by("version")] == ["card_played", "paper_published", "turn_ended"]

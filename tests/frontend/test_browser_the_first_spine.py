"""The First Spine in real headless Chromium at 390 × 844: tap a card name, then a cell, then end the turn."""

from __future__ import annotations

import pytest

from matches import store
from matches.demo import FIRST_SPINE_SCRIPT
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_place_a_card_by_tapping_then_end_the_turn(live_server, browser, owner):
    match = match_create(owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in FIRST_SPINE_SCRIPT:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill(owner.username)
        page.get_by_label("Password").fill("pass-word-123")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        board = page.locator(".fs-svg")
        assert board.bounding_box()["width"] <= 390  # the whole board fits the phone's width
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
        page.locator(".fs-card-link", has_text="Squire").first.tap()
        page.get_by_text("tap a highlighted cell for").wait_for()
        cell = page.get_by_role("button", name="Place Squire on [3, 1]")
        box = cell.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40  # a thumb-sized target
        cell.tap()
        page.get_by_text("Recorded entry").wait_for()
        state = store.head_load(match.stream_id, fresh=True).state
        assert any(c["name"] == "Squire" and c["at"] == [3, 1] for c in state["cards"])
        assert page.locator('.fs-piece[data-cell="3,1"]').count() == 1
        preview = page.locator(".fs-preview")
        assert "Paladin deals 3 to Barbed Wire, takes 2" in preview.inner_text()
        preview.get_by_role("button", name="End the turn").tap()
        page.get_by_text("Recorded entry").wait_for()
        page.get_by_text("Barbed Wire is destroyed and goes to Bo's discard.").wait_for()
        assert store.head_load(match.stream_id, fresh=True).state["turn"]["seat"] == 1
    finally:
        context.close()

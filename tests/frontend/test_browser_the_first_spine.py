"""The First Spine in real headless Chromium at 390 × 844: tap a card name, then a cell, then end the turn —
with the page's script (no page load between the two taps) and without it (the name is a link)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.demo import FIRST_SPINE_SCRIPT
from matches.services import match_create, match_event_record
from matches.store import events as store

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _demo(owner: Any) -> Any:
    match = match_create(owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in FIRST_SPINE_SCRIPT:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    return match


def _signed_in_phone(browser: Any, live_server: Any, owner: Any, *, js: bool) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, java_script_enabled=js
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(owner.username)
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()
    return context, page


def _pieces(match: Any) -> list[tuple[str, list[int]]]:
    return [(c["name"], c["at"]) for c in store.head_load(match.stream_id, fresh=True).state["cards"]]


@pytest.mark.parametrize("js", [True, False], ids=["script", "no-script"])
def test_place_a_card_by_tapping_then_end_the_turn(live_server, browser, owner, js):
    match = _demo(owner)
    context, page = _signed_in_phone(browser, live_server, owner, js=js)
    try:
        url = f"{live_server.url}/matches/{match.pk}/"
        page.goto(url)
        # the board's frame fits the phone; the board pans inside it, so card names stay 12 px or more (issue 23)
        assert page.locator(".fs-play").bounding_box()["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 if js else True
        page.locator(".fs-card-link", has_text="Squire").first.tap()
        page.get_by_text("tap a highlighted cell for").wait_for()
        assert ("card=" in page.url) is not js  # with the script the cells appear without a page load
        cell = page.get_by_role("button", name="Place Squire on column 2, row 4")
        box = cell.bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40  # a thumb-sized target
        assert (
            page.get_by_role("button", name="Place Squire on column 1, row 1").count() == 0
        )  # not next to Ana's pieces
        cell.tap()
        page.get_by_text("Recorded move").wait_for()
        assert ("Squire", [3, 1]) in _pieces(match)
        assert page.locator('.fs-piece[data-cell="3,1"]').count() == 1
        preview = page.locator(".fs-preview")
        assert "Paladin on column 4, row 4 deals 3 to Barbed Wire on column 4, row 3, takes 2" in preview.inner_text()
        preview.get_by_role("button", name="End the turn").tap()
        # the board's log says it (the raw state further down carries the same words)
        page.locator(".fs-log").get_by_text(
            "Barbed Wire on column 4, row 3 is destroyed and goes to Bo's discard."
        ).wait_for()
        assert store.head_load(match.stream_id, fresh=True).state["turn"]["seat"] == 1
    finally:
        context.close()

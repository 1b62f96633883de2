"""Nothing moves by itself offline (issue 43 item 5), headless Chromium on a 360 and a 390 px phone, light and dark:
the first move made offline after a page load keeps the page where the thumb is (Get Salty: it was seen scrolling
to the top); a move made after "Drop it" is sent on the game the phone shows (it was told as "recorded after Ana's
move N", N being a move the phone already showed)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.services import match_create, match_event_record
from tests.frontend.offline.test_browser_offline import keeper_at, logged, points, table
from tests.frontend.phones import PASSWORD, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_VIEW = (
    "el => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"
)


def _first_move_stays(page: Any, version: int) -> None:
    """Reload (offline: the worker's copy), scroll the board's top under the bar, pick a token and tap a
    highlighted cell: the first move kept since the load; the page never scrolls, the moved token is in view."""
    page.reload()
    page.locator("#board a.gs-rtoken.is-pickable").first.wait_for()
    # every scroll from here on is noted
    page.evaluate(
        """() => { window.scrollBy(0, document.getElementById('board').getBoundingClientRect().top - 60);
          window.__ys = []; addEventListener('scroll', () => window.__ys.push(scrollY)); }"""
    )
    pick = page.locator("#board a.gs-rtoken.is-pickable").first
    token = pick.get_attribute("data-token")
    pick.click()
    target = page.locator("#board button.gs-target").first
    target.wait_for()
    before, cell = page.evaluate("() => scrollY"), target.get_attribute("data-cell")
    assert before > 200, before
    target.click()
    waiting(page, version - 1)
    page.wait_for_function("(v) => document.getElementById('board').dataset.local === String(v)", arg=version)
    moved = page.locator(f'#board g.gs-token[data-token="{token}"]')
    assert moved.get_attribute("data-cell") == cell
    ys = page.evaluate("() => window.__ys")
    assert all(abs(y - before) < 60 for y in ys), (before, ys)  # not even for a frame
    assert moved.evaluate(IN_VIEW)


def test_the_first_move_offline_after_a_load_keeps_the_page_where_the_thumb_is(browser, live_server, django_user_model):
    """Get Salty offline, scrolled down to the board, on a 390 px phone in light, then after a reload on a 360 px
    phone in dark: a cracker picked, then a highlighted cell tapped (the first move kept on the phone since the
    page loaded): the page does not scroll (it was seen jumping from 447 to 0) and the moved token stays in view."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    salty = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"first_seat": 0})  # fmt: skip
    match_event_record(match=salty, user=owner, type="victory_attribute_chosen", seat=0, data={"attribute": "shape"})
    with keeper_at(browser, live_server, salty) as (context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'", timeout=90000)
        context.set_offline(True)
        _first_move_stays(page, 2)  # 390 px, light
        page.set_viewport_size({"width": 360, "height": 844})
        page.emulate_media(color_scheme="dark")
        _first_move_stays(page, 3)  # Tomas's move, on the position the kept head draws


def test_a_move_made_after_drop_it_is_made_on_the_game_the_phone_shows(browser, live_server, django_user_model):
    """Ana's entry made offline is held (another phone recorded Ana's move 1 meanwhile) and dropped; the phone then
    shows move 1, and Tomas's entry made offline after that is sent on it: no "recorded after Ana's move 1" (the
    dropped entry's chain, kept past the emptied queue, sent it as made on version 0)."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    other = django_user_model.objects.create_user(username="tomas", password=PASSWORD)
    match = table(owner, recorders=[other])
    with keeper_at(browser, live_server, match) as (context, page, _):
        context.set_offline(True)
        points(page, "Ana", 2)  # made on version 0
        match_event_record(match=match, user=other, type="points_scored", seat=0, data={"points": 5})
        context.set_offline(False)
        held = page.locator(".offline-conflict")
        held.wait_for()
        page.once("dialog", lambda d: d.accept())
        held.get_by_role("button", name="Drop it").click()
        page.wait_for_function("() => document.getElementById('tablebar').dataset.version === '1'")
        context.set_offline(True)
        points(page, "Tomas", 1)  # made on version 1, the game the phone shows
        context.set_offline(False)
        page.locator("#outcome").get_by_text("Sent from this phone: move 2").wait_for()
        assert "recorded after" not in page.locator("#outcome").inner_text()
        assert logged(match) == [("points_scored", 0, {"points": 5}), ("points_scored", 1, {"points": 1})]

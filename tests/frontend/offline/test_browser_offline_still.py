"""Nothing moves by itself offline (issue 43 item 5), headless Chromium on a 360 and a 390 px phone, light and dark:
the first move made offline after a page load keeps the page where the thumb is (Get Salty: it scrolled to the
top), under a network that is gone and under one that lies (every request hanging)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.services import match_create, match_event_record
from tests.frontend.offline.test_browser_offline import controlled, keeper_at, logged, points, table
from tests.frontend.offline.test_browser_offline_network import fail_sends
from tests.frontend.phones import PASSWORD, PHONE, sign_in, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_VIEW = "el => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"


@pytest.mark.parametrize(
    ("width", "scheme", "network"), [(390, "light", "gone"), (360, "dark", "lies")], ids=["390-light", "360-dark"]
)
def test_the_first_move_offline_after_a_load_keeps_the_page_where_the_thumb_is(
    browser, live_server, django_user_model, width, scheme, network
):
    """Get Salty, scrolled down to the board: a cracker picked, then a highlighted cell tapped offline (the first
    move kept on the phone since the page loaded): the page does not scroll (it jumped from 447 to 0) and the
    board's moved token stays in view."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    salty = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"first_seat": 0})  # fmt: skip
    match_event_record(match=salty, user=owner, type="victory_attribute_chosen", seat=0, data={"attribute": "shape"})
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        sign_in(page, live_server.url, "keeper")
        url = f"{live_server.url}/matches/{salty.pk}/"
        if network == "lies":
            page.route("**/picks/", lambda route: None)  # EXPLORE: no picks drawn ahead
        controlled(page, url)
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")  # and the boards
        if network == "gone":
            context.set_offline(True)
        if network == "gone":  # EXPLORE: a move kept before the load
            page.reload()
            page.wait_for_function("() => Number(document.documentElement.dataset.offlinePicks || 0) > 1")
            page.locator("#board a.gs-rtoken.is-pickable").first.click()
            page.locator("#board button.gs-target").first.click()
            waiting(page, 1)
        page.reload()  # a page load (offline: the worker's copy): its first move offline comes next
        page.evaluate("() => { window.__ys = []; addEventListener('scroll', () => window.__ys.push(Math.round(scrollY))); }")
        page.wait_for_function("(g) => g ? document.getElementById('board').dataset.local === '2' : true", arg=network == "gone")
        page.wait_for_timeout(1000)
        pick = page.locator("#board a.gs-rtoken.is-pickable").first
        # the board's top under the sticky bar, as a thumb scrolls to it (447 px down on the reported phone)
        page.evaluate("() => window.scrollBy(0, document.getElementById('board').getBoundingClientRect().top - 60)")
        print("LAYOUT", page.evaluate("() => [scrollY, document.documentElement.scrollHeight, document.getElementById('board').getBoundingClientRect().top]"))
        if network == "lies":
            fail_sends(page, "hang")  # Wi-Fi without internet: the page still believes it is online
        token = pick.get_attribute("data-token")
        pick.click()
        page.locator("#board button.gs-target").first.wait_for()
        print("YS-PICK", page.evaluate("() => [window.__ys, location.href, scrollY]"))
        before = page.evaluate("() => window.scrollY")
        assert before > 200, before
        target = page.locator("#board button.gs-target").first
        cell = target.get_attribute("data-cell")
        target.click()
        waiting(page, 2 if network == "gone" else 1)
        page.wait_for_timeout(1500)
        print("YS", page.evaluate("() => window.__ys"))
        page.wait_for_function("() => document.getElementById('board').dataset.local === '3'")
        moved = page.locator(f'#board g.gs-token[data-token="{token}"]')
        assert moved.get_attribute("data-cell") == cell
        after = page.evaluate("() => window.scrollY")
        assert abs(after - before) < 60, (before, after)
        assert moved.evaluate(IN_VIEW)
    finally:
        context.close()



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

"""In real headless Chromium at 390x844: start a series, add finished matches from the list, read the standings."""

from __future__ import annotations

import pytest

from campaigns.models import Series
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_start_a_series_add_matches_and_read_the_standings(live_server, browser, django_user_model):
    user = django_user_model.objects.create_user("host", password="league-night-42")
    for points in ([12, 7], [4, 9]):
        match = match_create(owner=user, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
        for seat, p in enumerate(points):
            match_event_record(match=match, user=user, type="points_scored", seat=seat, data={"points": p})
        match_event_record(match=match, user=user, type="game_ended", data={})
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill("host")
        page.get_by_label("Password").fill("league-night-42")
        page.get_by_role("button", name="Sign in").click()
        page.goto(live_server.url + "/series/")
        page.get_by_label("Name").fill("Club ladder")
        page.get_by_label("Game").select_option("scoresheet")
        page.get_by_label("Points for 1st").fill("5, 2")
        page.get_by_role("button", name="Create series").click()
        page.get_by_text("Series created").wait_for()
        for _ in range(2):
            page.get_by_role("button", name="Add to the series").click()
            page.get_by_text("added.").first.wait_for()
        assert Series.objects.get().stream.version == 2
        rows = page.locator("table.standings tbody tr")
        assert rows.count() == 2
        assert rows.nth(0).inner_text().split() == ["1", "Ana", "2", "1", "7", "16", "12"]
        assert page.locator("#series-chart svg polyline").count() == 2
        assert "No finished Score sheet" in page.content()  # nothing left to add
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width  # no sideways scrolling on a phone
    finally:
        context.close()

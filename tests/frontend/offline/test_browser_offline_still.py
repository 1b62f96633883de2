"""Nothing moves by itself offline (issue 43 item 5), headless Chromium on a phone: a move made after "Drop it" is
sent on the game the phone shows (it was told as "recorded after Ana's move N", N being a move the phone already
showed). (The first offline move after a load scrolling to the top was not reproduced, six ways tried (issue 43, closing note);
a guard for it cost a whole engine start and was left out of the suite's budget.)"""

from __future__ import annotations

import pytest

from matches.services import match_event_record
from tests.frontend.offline.test_browser_offline import keeper_at, logged, points, table
from tests.frontend.phones import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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

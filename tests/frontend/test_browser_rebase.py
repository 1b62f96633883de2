"""Two phones at one table, 390×844 (headless Chromium): a move typed on a page that another phone's entry made
stale is recorded after it when that entry was another player's and the move is still legal ("recorded after
Tomas's move 1"); after an entry by the same player it is refused with what changed (issue 23 item 7)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches import store
from matches.models import Event as EventRow
from matches.services import match_create
from tests.frontend.phones import PASSWORD, phone_page, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone(browser: Any, live_server: Any, username: str) -> Any:
    page = phone_page(browser)
    sign_in(page, live_server.url, username)
    return page


def points(page: Any, player: str, value: int, *, send: bool = True) -> None:
    """Fill the "Scored points" form for ``player`` (and send it)."""
    details = page.locator("details.move-form", has=page.locator("#f-points_scored"))
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    form = details.locator("form[data-event-type=points_scored]")
    form.get_by_label("Player").select_option(label=player)
    form.get_by_label("Points (negative to lose)").fill(str(value))
    if send:
        with page.expect_navigation():
            form.get_by_role("button", name="Record").click()


def test_two_phones_a_stale_move_is_rebased_after_another_players_entry_and_not_after_its_own(
    browser, live_server, django_user_model
):
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    other = django_user_model.objects.create_user(username="tomas", password=PASSWORD)
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"title": "Azul"}, recorders=[other])  # fmt: skip
    url = f"{live_server.url}/matches/{match.pk}/"
    mine, theirs = phone(browser, live_server, "keeper"), phone(browser, live_server, "tomas")
    try:
        mine.route(re.compile(r".*/version/$"), lambda route: route.abort())  # bad Wi-Fi: this page stays stale
        mine.goto(url)
        theirs.goto(url)
        points(mine, "Ana", 3, send=False)  # half-typed when Tomas's phone records
        points(theirs, "Tomas", 5)
        with mine.expect_navigation():
            mine.locator("form[data-event-type=points_scored]").get_by_role("button", name="Record").click()
        said = mine.locator("#outcome").inner_text()
        assert "Recorded move 2" in said and "recorded after Tomas's move 1" in said, said
        assert store.head_load(match.stream_id, fresh=True).state["totals"] == [3, 5]

        points(mine, "Ana", 4, send=False)  # drawn at version 2
        theirs.goto(url)
        points(theirs, "Ana", 4)  # the same throw, entered on the other phone first
        with mine.expect_navigation():
            mine.locator("form[data-event-type=points_scored]").get_by_role("button", name="Record").click()
        said = mine.locator("#outcome").inner_text()
        assert "Not recorded" in said and "Ana recorded move 3 since your form was drawn" in said, said
        assert "Ana scored 4" in said or "(move 3)" in said, said  # what changed is listed
        assert EventRow.objects.filter(stream_id=match.stream_id).count() == 3
        box = mine.locator("#outcome").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844  # said on screen
    finally:
        mine.context.close()
        theirs.context.close()

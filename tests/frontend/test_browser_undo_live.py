"""On two 390×844 phones (headless Chromium): the watching phone keeps updating live after a refusal, whatever
URL the refusal was drawn at (issue 23 item 1); undo of the last entry is one tap and a confirmation, and a
cancelled confirmation leaves the button usable (items 4 and 9)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.services import match_create, match_event_record, match_recorders_set
from tests.frontend.phones import PASSWORD, open_form, phone_page, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phones(browser, live_server):
    """A factory of signed-in 390×844 phones; every answer of status 405 any of them gets is collected."""
    contexts, refused_methods = [], []

    def open_phone(username: str) -> Any:
        page = phone_page(browser)
        contexts.append(page.context)
        page.on("response", lambda r: refused_methods.append(r.url) if r.status == 405 else None)
        sign_in(page, live_server.url, username)
        return page

    open_phone.refused_methods = refused_methods  # type: ignore[attr-defined]
    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def stones(django_user_model):
    """A Last Stone match kept by ``keeper`` with ``tomas`` as a second recorder."""
    keeper = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    tomas = django_user_model.objects.create_user(username="tomas", password=PASSWORD)
    match = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_recorders_set(match=match, user=keeper, recorders=[tomas])
    return match, keeper, tomas


def test_the_watching_phone_keeps_updating_live_after_a_refusal(live_server, phones, stones):
    match, _keeper, tomas = stones
    url = f"{live_server.url}/matches/{match.pk}/"
    first, other = phones("keeper"), phones("tomas")
    first.goto(url)
    other.goto(url)

    # the first phone's move is refused: the answer is drawn for the POST to /record/ ...
    form = open_form(first, "stones_taken")
    form.get_by_label("Player").select_option(label="Bo")  # Ana takes first
    form.get_by_label("How many").fill("2")
    with first.expect_navigation():
        form.get_by_role("button", name="Record").click()
    first.locator("#problem").wait_for()
    assert first.url.split("#")[0] == url  # ... but the address is the match page's

    # the other phone records: the first one is told at once, its refusal and typed values kept
    other_form = open_form(other, "stones_taken")
    other_form.get_by_label("How many").fill("1")
    with other.expect_navigation():
        other_form.get_by_role("button", name="Record").click()
    news = first.locator("#outcome", has_text="New at the table")
    news.wait_for(timeout=5000)
    assert first.locator("#problem").count() == 1
    assert first.locator("form[data-event-type=stones_taken]").get_by_label("How many").input_value() == "2"

    # "Show it" lands on the match page, which shows the new move
    with first.expect_navigation():
        news.get_by_role("link").click()
    assert first.url.startswith(url) and "/record/" not in first.url
    assert "Ana took 1" in first.locator("#outcome").inner_text()

    # and it goes on updating live: the next move from the other phone reloads it
    match_event_record(match=match, user=tomas, type="stones_taken", seat=1, data={"count": 3})
    first.locator("#outcome", has_text="Bo took 3").wait_for(timeout=5000)
    assert first.url.startswith(url)
    assert phones.refused_methods == []  # no page ever fell onto "405 Method Not Allowed"


def test_undo_is_one_tap_with_a_confirmation_and_a_cancel_keeps_it_usable(live_server, phones, stones):
    match, keeper, _ = stones
    match_event_record(match=match, user=keeper, type="stones_taken", seat=0, data={"count": 2})
    page = phones("keeper")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    button = page.locator("#tablebar").get_by_role("button", name="Undo the last move")
    assert button.is_visible()  # in the first screenful, without opening anything

    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    button.click()
    page.wait_for_timeout(50)  # the cancelled submit must not disable the button a tick later
    assert asked and "Ana took 2" in asked[0]
    assert button.is_enabled()
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 1

    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        button.click()
    assert "Undone" in page.locator("#outcome").inner_text()
    rows = list(EventRow.objects.filter(stream_id=match.stream_id).order_by("version").values_list("type", "data"))
    assert rows[-1] == ("event_voided", {"version": 1, "reason": "Undone at the table"})
    assert phones.refused_methods == []

"""Every tap answered in place, on a 390×844 phone (headless Chromium): on each game's page a move is recorded
without a reload (a marker set on the window survives), the control used keeps its place on screen and the
focus stays in it; a refusal is explained in place with the typed values kept and its house-rule override
recorded in place too; a watching phone's live update swaps the new state in without a reload either."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.services import match_create
from tests.frontend.phones import open_form, stream_refused

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ADVENTURE = {"adventure": "Dunwater", "heroes": [{"name": "Vistra", "class": "Fighter", "max_hp": 10},
                                                 {"name": "Quinn", "class": "Wizard", "max_hp": 6}]}  # fmt: skip


def legal_move(page: Any) -> Any:
    return page.get_by_role("button", name="Record this move")


def adventure_move(page: Any) -> Any:
    return open_form(page, "hero_phase_started").get_by_role("button", name="Record")


def sab_move(page: Any) -> Any:
    form = open_form(page, "field_card_flipped")
    form.locator('label.tile[title="Column 2, row 2"]').click()  # a tile the Field card destroys
    return form.get_by_role("button", name="Record")


def sheet_move(page: Any) -> Any:
    form = open_form(page, "points_scored")
    form.get_by_label("Player").select_option(label="Bo")
    form.get_by_label(re.compile("^Points")).fill("7")
    return form.get_by_role("button", name="Record")


GAMES: dict[str, tuple[dict[str, Any], Callable[[Any], Any]]] = {
    "get-salty": ({}, legal_move),
    "salt-and-bones": ({}, sab_move),
    "saltmarsh-adventure": (ADVENTURE, adventure_move),
    "bone-wars": ({}, legal_move),
    "the-first-spine": ({}, legal_move),
    "last-stone": ({}, legal_move),
    "scoresheet": ({"title": "Azul"}, sheet_move),
}


BAR_MAX = 0.15 * 844  # the sticky table bar and its message: one or two lines, about 15 % of the screen


def bar_height(page: Any) -> float:
    return page.locator("#tablebar").evaluate("b => b.getBoundingClientRect().height")


def mark_window(page: Any) -> None:
    """A marker only this document has: a reload or a navigation loses it."""
    page.evaluate("window.__notReloaded = true")


def assert_not_reloaded(page: Any) -> None:
    assert page.evaluate("window.__notReloaded === true"), "the page was reloaded"


def answered(page: Any, tap: Callable[[], None], counter: str = "swaps") -> None:
    """Tap, then wait for the in-place answer (app.js counts each swap on <html>), never for a navigation."""
    attribute = {"swaps": "data-swaps", "inPlace": "data-in-place"}[counter]
    before = int(page.locator("html").get_attribute(attribute) or 0)
    tap()
    page.locator(f'html[{attribute}="{before + 1}"]').wait_for(state="attached")  # a selector: no eval under the CSP


def place_of(page: Any, button: Any) -> tuple[list[list[Any]], float]:
    """The drawn places with an id holding ``button`` (innermost first, each with its top on screen), and the
    page's scroll offset."""
    return button.evaluate(
        "b => { const out = []; for (let n = b; n && n.id !== 'match-live'; n = n.parentElement)"
        " if (n.id && n.checkVisibility()) out.push([n.id, n.getBoundingClientRect().top]); return [out, scrollY]; }"
    )


def place_now(page: Any, places: list[list[Any]]) -> tuple[str, float, float]:
    """The innermost of ``places`` still drawn (a form that moved behind "Other entries" is not: the section
    around it is where the thumb was), its top before and its top now."""
    for place, top in places:
        now = page.evaluate(
            "id => { const n = document.getElementById(id); return n && n.checkVisibility() ? n.getBoundingClientRect().top : null; }",
            place,
        )
        if now is not None:
            return place, top, now
    raise AssertionError(f"none of {places} is drawn")


def test_a_move_on_every_games_page_is_answered_in_place(live_server, signed_in_phone, keeper):
    page = signed_in_phone
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not stream_refused(m) else None)
    scrolled_pages = 0
    for slug, (options, control) in GAMES.items():
        match = match_create(owner=keeper, game=slug, seats=[{"name": "Ana"}, {"name": "Bo"}], options=options)
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        mark_window(page)
        button = control(page)
        button.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -120)")  # the control mid-screen, as under a thumb
        places, scrolled = place_of(page, button)
        scrolled_pages += scrolled > 0
        button.focus()
        answered(page, lambda b=button: b.evaluate("b => b.click()"), "inPlace")  # a tap where it is: no scrolling

        assert_not_reloaded(page)
        assert EventRow.objects.filter(stream_id=match.stream_id).count() == 1, slug
        assert "Recorded move 1" in page.locator("#outcome").inner_text(), slug
        assert bar_height(page) <= BAR_MAX, f"{slug}: the table bar takes {bar_height(page)} px"
        assert page.url == f"{live_server.url}/matches/{match.pk}/", slug
        place, top, now_top = place_now(page, places)
        assert abs(now_top - top) <= 2, f"{slug}: #{place} moved from {top} to {now_top} on screen"
        assert page.evaluate(f"!!document.activeElement.closest('#{place}')"), f"{slug}: the focus left #{place}"
    assert scrolled_pages >= 5  # most boards push the move panel below the first screen
    assert errors == []


def test_a_refusal_and_its_house_rule_are_answered_in_place(live_server, signed_in_phone, keeper):
    match = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = signed_in_phone
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    mark_window(page)
    form = open_form(page, "stones_taken")
    form.get_by_label("Player").select_option(label="Bo")  # Ana takes first
    form.get_by_label("How many").fill("2")
    answered(page, form.get_by_role("button", name="Record").click)

    assert_not_reloaded(page)
    assert "Not recorded" in page.locator("#outcome").inner_text()
    problem = page.locator("#problem")
    assert problem.evaluate(
        "p => { const r = p.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    assert "Rule:" in problem.inner_text()
    assert bar_height(page) <= BAR_MAX  # the bar says it in a line or two; the explanation is next to the form
    kept = open_form(page, "stones_taken")
    assert kept.get_by_label("How many").input_value() == "2"  # what was typed is kept
    assert kept.get_by_label("Player").input_value() == "1"
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 0

    problem.get_by_label(re.compile("house rule", re.I)).fill("Bo starts at our table")
    answered(page, problem.get_by_role("button", name=re.compile("Record it anyway")).click)
    assert_not_reloaded(page)
    assert "Recorded move 2" in page.locator("#outcome").inner_text()
    rows = list(EventRow.objects.filter(stream_id=match.stream_id).order_by("version").values_list("type", "seat"))
    assert rows == [("rule_overridden", None), ("stones_taken", 1)]


def test_the_watching_phone_is_updated_in_place(live_server, browser, signed_in_phone, keeper):
    match = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)
    url = f"{live_server.url}/matches/{match.pk}/"
    watcher_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        watcher = watcher_context.new_page()
        watcher.goto(url)
        mark_window(watcher)
        recorder = signed_in_phone
        recorder.goto(url)
        answered(recorder, legal_move(recorder).click, "inPlace")
        watcher.locator("#outcome", has_text="New at the table").wait_for(timeout=5000)
        assert_not_reloaded(watcher)
        assert "(move 1)" in watcher.locator("#outcome").inner_text()
        assert "Bo to play" in watcher.locator("#turn").inner_text()
        assert bar_height(watcher) <= BAR_MAX
        assert watcher.url == url  # no ?seen= left in the address
    finally:
        watcher_context.close()


def test_a_live_update_asked_before_the_own_move_settled_does_not_retell_it(live_server, signed_in_phone, keeper):
    """The poll may see the phone's own move before the phone's own answer settles; the page it then asks for
    (``?seen=`` the version before) arrives last and must not replace "Recorded move 1" by "New at the table"."""
    match = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = signed_in_phone
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    answered(page, legal_move(page).click, "inPlace")
    assert "Recorded move 1" in page.locator("#outcome").inner_text()
    stale = f"/matches/{match.pk}/?seen=0"
    with page.expect_response(lambda r: r.url.endswith(stale)):
        page.evaluate(
            "u => htmx.ajax('GET', u, {source: '#match-live', target: '#match-live', swap: 'outerHTML'})", stale
        )
    page.wait_for_timeout(300)  # a swap settles within htmx's 20 ms settle delay
    assert "Recorded move 1" in page.locator("#outcome").inner_text()
    assert "New at the table" not in page.locator("#outcome").inner_text()
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 1  # (news from others: the watcher test)

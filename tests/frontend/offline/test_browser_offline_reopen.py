"""A match page opened again without a network (issue 35 items 2 and 3), 390×844 headless Chromium: the page the
user was on is kept whatever the timing of the service worker's install (a fresh profile, no waiting), and a
match reopened offline draws its last local position (turn line, player strip, board) at once, before the engine
has started, then checks each submission once it has, its answer next to its own form."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from matches.services import match_create
from tests.frontend.offline.test_browser_offline import keeper_at, local_board, table
from tests.frontend.phones import PASSWORD, PHONE, open_form, session_for, stones, wait_until, waiting

SNAPSHOTS = """async (drop) => {  // the engine's memory snapshots kept (rules.js): how many; dropped first if asked
  const cache = await caches.open("chronicle-engine");
  const snapshot = (r) => new URL(r.url).pathname.startsWith("/__chronicle_snapshot__/");
  for (const r of await cache.keys()) if (drop && snapshot(r)) await cache.delete(r);
  return (await cache.keys()).filter(snapshot).length;
}"""

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEPT = "async (u) => !!(await (await caches.open('chronicle-pages')).match(u))"


@pytest.mark.parametrize("pause", [0, 500, 1000])
def test_the_page_open_is_kept_whatever_the_timing_of_the_workers_install(
    browser, live_server, django_user_model, pause
):
    """A fresh profile signed in without the sign-in form (so the worker installs while the home page is open),
    the match page within ``pause`` ms: the worker was still installing when the page was fetched, yet the page
    is kept (it asks the worker once one is active), and opens again offline."""
    keeper = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = table(keeper)
    url = f"{live_server.url}/matches/{match.pk}/"
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        session_for(page, live_server.url, keeper)
        page.goto(live_server.url + "/")
        page.wait_for_timeout(pause)
        page.goto(url)
        wait_until(page, KEPT, url, timeout=20)
        context.set_offline(True)
        page.reload()
        assert page.locator("#match-live #record").count() == 1
        assert "No connection" not in page.locator("h1").inner_text()
        assert "never opened" not in page.locator("body").inner_text()
    finally:
        context.close()


# a cold start held 6 s (the page's dedicated rules worker gets its "start" late): with the memory snapshot a cold
# engine can be ready in 2-3 s, before a test's taps; held, "while the engine starts" is a window every run has
HOLD_START = """(() => {
  const Plain = globalThis.Worker;
  globalThis.Worker = class extends Plain {
    postMessage(message, transfer) {
      if (message && message.op === "start") setTimeout(() => super.postMessage(message, transfer), 6000);
      else super.postMessage(message, transfer);
    }
  };
})()"""


@contextlib.contextmanager
def reopened_offline(
    browser: Any, live_server: Any, django_user_model: Any, cold: bool = False
) -> Iterator[tuple[Any, Any, Any]]:
    """A Last Stone match of the keeper's opened once online (the engine and archives kept), then reloaded
    offline: yields the context, the page and the match. ``cold``: no kept engine (the page starts its own, as
    after the browser was closed)."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    with keeper_at(browser, live_server, match) as (context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        context.set_offline(True)
        if cold:  # nor the memory snapshot the engine started online made (rules.js): a whole start
            wait_until(page, f"async () => ({SNAPSHOTS})(false).then((n) => n > 0)", timeout=120)
            page.evaluate(SNAPSHOTS, True)
            context.add_init_script("delete globalThis.SharedWorker")
            context.add_init_script(HOLD_START)
        page.reload()
        yield context, page, match


def test_a_match_reopened_offline_draws_its_local_position_at_once_and_answers_each_submission_in_place(
    browser, live_server, django_user_model
):
    with reopened_offline(browser, live_server, django_user_model) as (context, page, _match):
        stones(page, "Ana", 2)
        waiting(page, 1)
        stones(page, "Tomas", 1)
        waiting(page, 2)
        stones(page, "Ana", 1)
        waiting(page, 3)
        local_board(page, 3)
        board = page.locator("#board").inner_html()

        # the next page starts an engine of its own (the shared worker's, kept, answers within milliseconds of the
        # page asking): the head is seen drawn before any engine is ready, so without waiting for one
        context.add_init_script("delete globalThis.SharedWorker")
        page.reload()  # still offline: the kept copy of the page (version 0) and the queue
        page.wait_for_function("() => document.documentElement.dataset.offlineHead === '3'", timeout=5000)
        head_at, rules_at = page.evaluate(
            "() => [Number(document.documentElement.dataset.offlineHeadAt), document.documentElement.dataset.offlineRulesAt]"
        )
        assert rules_at is None or head_at < int(rules_at), (head_at, rules_at)  # before the engine was ready
        assert head_at < 3000, head_at
        assert "Tomas" in page.locator("#turn").inner_text()
        strip = page.locator("ol.players > li")
        assert "to play" in strip.nth(1).inner_text() and "to play" not in strip.nth(0).inner_text()
        assert page.locator("#board").get_attribute("data-local") == "3"
        assert page.locator("#board").inner_html() == board
        assert "3 waiting to send" in page.locator("#offline-bar").inner_text()

        # two submissions at once, before the engine answers: each checked in turn, each answer with its own form
        page.locator("#id_move").select_option(index=0)  # Tomas takes 1: legal
        page.get_by_role("button", name="Record this move").click()
        form = open_form(page, "stones_taken")
        form.get_by_label("Player").select_option(label="Tomas")  # Tomas again: refused, it is Ana's turn then
        form.get_by_label("How many").fill("1")
        form.get_by_role("button", name="Record").click()
        problem = page.locator("#problem")
        problem.wait_for(timeout=60000)
        assert "It is Ana's turn." in problem.inner_text(), problem.inner_text()
        assert page.evaluate("() => document.getElementById('problem').nextElementSibling.dataset.eventType") == (
            "stones_taken"
        )
        waiting(page, 4)
        assert page.locator("#problem").count() == 1
        local_board(page, 4)
        assert "Ana" in page.locator("#turn").inner_text()


def test_after_a_move_answered_in_place_the_page_still_checks_moves_offline(browser, live_server, django_user_model):
    """htmx drops the scripts of a swapped answer, the seed's JSON too: the page puts it back, so after a move
    answered in place (online) the next move made offline is still checked on the phone, on the new position."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    with keeper_at(browser, live_server, match) as (context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        before = int(page.locator("html").get_attribute("data-swaps") or 0)
        stones(page, "Ana", 2)  # online: answered in place
        page.locator(f'html[data-swaps="{before + 1}"]').wait_for(state="attached")
        seed = page.evaluate("() => JSON.parse(document.getElementById('offline-seed').textContent)")
        assert seed["version"] == 1 and seed["state"], seed
        context.set_offline(True)
        stones(page, "Ana", 1)  # Tomas's turn on the new position: refused here
        page.locator("#problem").wait_for()
        assert "It is Tomas's turn." in page.locator("#problem").inner_text()
        stones(page, "Tomas", 1)
        waiting(page, 1)
        row = page.evaluate(
            "async (id) => (await (await import('/static/frontend/offline/queue.js')).entries(id))[0]", match.pk
        )
        assert row["checked"] == "rules" and row["made_on"] == 1, row


def test_the_engine_is_kept_when_the_workers_install_outlasts_the_first_visit(browser, live_server, django_user_model):
    """A slow first visit: the worker's install is still waiting on one precached file when the page fetches the
    engine's files (a few seconds after it opened). The page is not controlled, so its fetches pass the worker by
    and the worker keeps nothing: the page keeps them itself, and once the install ends the match is checked
    offline by the engine so kept (before, the page said "cached" with an empty engine cache)."""
    keeper = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=keeper, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    url = f"{live_server.url}/matches/{match.pk}/"
    context = browser.new_context(**PHONE)
    held: list[Any] = []
    context.route("**/no-connection/", lambda route: held.append(route))  # the install's precache waits on it
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        session_for(page, live_server.url, keeper)
        page.goto(url)
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        assert held and page.evaluate("() => navigator.serviceWorker.controller") is None
        kept = "async () => (await (await caches.open('chronicle-engine')).keys()).map((r) => r.url)"
        assert any(u.endswith("/pyodide.asm.wasm") for u in page.evaluate(kept)), page.evaluate(kept)
        for route in held:  # the install goes on
            route.continue_()
        context.unroute("**/no-connection/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        wait_until(page, KEPT, url, timeout=20)
        context.set_offline(True)
        page.reload()
        stones(page, "Tomas", 1)  # refused by the kept engine: it is Ana's turn
        page.locator("#problem").wait_for(timeout=60000)
        assert "It is Ana's turn." in page.locator("#problem").inner_text()
        stones(page, "Ana", 2)
        waiting(page, 1)
    finally:
        context.close()

"""A match started offline (issue 25, item 5), 390×844 headless Chromium: the new-match page opened once starts a
match with no network (a temporary id, kept in IndexedDB), whose page checks moves with the in-browser rules and
survives a reload; on reconnect the match is created once (the first answer is lost: the retry with the same
key returns the same match), its moves reach the real id in order, each once, and the page follows to it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.models import Match
from tests.frontend.phones import PASSWORD, PHONE, sign_in, stones, wait_until, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCAL_URL = re.compile(r".*/matches/local-[0-9a-f-]+/$")
REAL_URL = re.compile(r".*/matches/\d+/$")


KEPT = """(id) => new Promise((done) => {
  const opening = indexedDB.open("chronicle-offline");
  opening.onsuccess = () => {
    const tx = opening.result.transaction(["locals", "entries"]);
    const row = tx.objectStore("locals").get(id), entries = tx.objectStore("entries").getAll();
    tx.oncomplete = () => { opening.result.close(); done({ real: row.result.real, entries: entries.result.length }); };
  };
})"""


def logged(match: Any) -> list[tuple[str, int | None, Any]]:
    rows = EventRow.objects.filter(stream_id=match.stream_id).order_by("version")
    return [(r.type, r.seat, r.data) for r in rows]


def turn_of(page: Any, name: str) -> None:
    page.wait_for_function("(n) => (document.getElementById('turn') || {}).textContent?.includes(n)", arg=name)


def test_a_match_started_offline_is_created_once_with_its_moves_and_the_page_follows(
    browser, live_server, django_user_model
):
    django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        sign_in(page, live_server.url, "keeper")
        new_url = f"{live_server.url}/matches/new/?game=last-stone"
        page.goto(new_url)  # the first visit: the worker installs, then keeps this page and the local match shell
        wait_until(
            page,
            "async (u) => { const c = await caches.open('chronicle-pages');"
            " return !!(await c.match(u)) && !!(await c.match('/matches/local/')); }",
            new_url,
        )
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")  # Pyodide kept

        context.set_offline(True)
        page.reload()  # the new-match page, from the service worker
        page.get_by_label("Player 1").fill("Ana")
        page.get_by_label("Player 2").fill("ana")  # the server's own check, run here: refused
        page.get_by_role("button", name="Create match").click()
        problem = page.locator("#offline-problem")
        problem.wait_for()
        assert "Two seats have the same name." in problem.inner_text()
        page.get_by_label("Player 2").fill("Tomas")
        page.get_by_role("button", name="Create match").click()
        page.wait_for_url(LOCAL_URL)
        local_url = page.url
        assert "not yet on the server" in page.locator(".match-head").inner_text()
        turn_of(page, "Ana")
        page.wait_for_function("() => document.querySelectorAll('#id_move option').length === 3")  # take 1, 2 or 3
        pile = page.locator("#board .last-stone strong")  # the board, drawn here by the server's board code
        pile.wait_for()
        start = int(pile.inner_text())

        page.locator("#id_move").select_option(index=1)  # Ana takes 2, from the local legal-move list
        page.get_by_role("button", name="Record this move").click()
        waiting(page, 1)
        turn_of(page, "Tomas")
        page.wait_for_function("(n) => document.querySelector('#board .last-stone strong').textContent === String(n)",
                               arg=start - 2)  # fmt: skip
        assert "Tomas takes next" in page.locator("#board").inner_text()
        stones(page, "Ana", 1)  # not her turn: refused here, in the server's words
        refusal = page.locator("#problem")
        refusal.wait_for()
        assert "It is Tomas's turn." in refusal.inner_text() and "Rule:" in refusal.inner_text()
        waiting(page, 1)
        stones(page, "Tomas", 3)
        waiting(page, 2)
        assert "2 waiting to send" in page.locator("#offline-bar").inner_text()

        page.reload()  # still offline: the shell and the match come back from this phone
        waiting(page, 2)
        turn_of(page, "Ana")
        page.goto(f"{live_server.url}/stats/me/")  # never opened: the offline page lists the match started here
        started = page.locator("#started-list a")
        started.wait_for()
        assert "Ana, Tomas" in page.locator("#started-list").inner_text()
        started.click()
        page.wait_for_url(local_url)
        waiting(page, 2)
        assert Match.objects.count() == 0

        lost = []

        def lose_first_answer(route: Any) -> None:  # the server creates it, the phone never hears: a retry
            if route.request.method == "POST" and not lost:
                lost.append(route.fetch().status)
                route.abort("connectionreset")
            else:
                route.continue_()

        context.route(re.compile(r".*/api/matches/$"), lose_first_answer)
        context.set_offline(False)
        page.wait_for_url(REAL_URL, timeout=60000)  # the address follows as soon as the match exists
        page.wait_for_function("() => !document.getElementById('local-title')")  # then the server's own page
        assert lost == [201]
        match = Match.objects.get()
        assert page.url == f"{live_server.url}/matches/{match.pk}/"
        assert match.idempotency_key and match.idempotency_key in local_url
        assert logged(match) == [("stones_taken", 0, {"count": 2}), ("stones_taken", 1, {"count": 3})]
        waiting(page, 0)
        turn_of(page, "Ana")
        kept = page.evaluate(KEPT, local_url.rstrip("/").rsplit("/", 1)[1])
        assert kept == {"real": match.pk, "entries": 0}  # re-keyed to the real id, then sent

        page.goto(local_url)  # the temporary address follows the match
        page.wait_for_url(f"{live_server.url}/matches/{match.pk}/")
        assert Match.objects.count() == 1 and len(logged(match)) == 2
    finally:
        context.close()

"""Offline at the table (issue 25), 390×844 headless Chromium: the match page opens again from the service worker
with no network, moves made offline wait on the phone (IndexedDB) through a reload and a closed page, and reach
the server once each when the network is back; another phone's entries meanwhile are rebased over or held as
conflicts; a retry storm on a flaky network records each entry once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from frontend.offline.bundle import offline_urls
from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from tests.frontend.boards.test_board_salt_and_bones import to_combat
from tests.frontend.phones import PASSWORD, PHONE, open_form, sign_in, stones, wait_until, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def logged(match: Any) -> list[tuple[str, int | None, Any]]:
    """The server's log of ``match``: (type, seat, data without its blanks), in order."""
    rows = EventRow.objects.filter(stream_id=match.stream_id).order_by("version")
    return [(r.type, r.seat, {k: v for k, v in r.data.items() if v is not None}) for r in rows]


def table(owner: Any, **extra: Any) -> Any:
    return match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                        options={"title": "Azul"}, **extra)  # fmt: skip


def controlled(page: Any, url: str) -> None:
    """Open ``url`` and wait until the service worker controls it and keeps a copy of the page. A page made while
    the worker activated is claimed when it asks (register.js), so no reload is needed."""
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    wait_until(page, "async (u) => !!(await (await caches.open('chronicle-pages')).match(u))", url.split("?")[0])


@contextmanager
def keeper_at(browser: Any, live_server: Any, match: Any) -> Iterator[tuple[Any, Any, str]]:
    """``(context, page, url)``: a phone signed in as "keeper" on ``match``'s page, kept by the service worker."""
    url = f"{live_server.url}/matches/{match.pk}/"
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        sign_in(page, live_server.url, "keeper")
        controlled(page, url)
        yield context, page, url
    finally:
        context.close()


def points(page: Any, player: str, value: int, *, double: bool = False) -> None:
    """Record ``value`` points for ``player`` with the "Scored points" form (kept on the phone while offline);
    ``double``: with a double tap, which keeps one entry."""
    form = open_form(page, "points_scored")
    form.get_by_label("Player").select_option(label=player)
    form.get_by_label("Points (negative to lose)").fill(str(value))
    before = page.locator("#offline-waiting li").count()
    button = form.get_by_role("button", name="Record")
    button.dblclick() if double else button.click()
    page.wait_for_function("(n) => document.querySelectorAll('#offline-waiting li').length === n", arg=before + 1)


def test_moves_made_offline_survive_a_reload_and_a_closed_page_and_reach_the_server_once(
    browser, live_server, django_user_model
):
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    with keeper_at(browser, live_server, match) as (context, page, url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")  # Pyodide kept
        kept = page.evaluate("async () => (await (await caches.open('chronicle-engine')).keys()).map(r => r.url)")
        stdlib = live_server.url + offline_urls()["stdlib_url"]  # the trimmed standard library, not Pyodide's own
        assert stdlib in kept and not [u for u in kept if u.endswith("/python_stdlib.zip")], kept
        context.set_offline(True)
        page.reload()  # served by the service worker
        assert page.locator("#match-live #record").count() == 1  # the match page, ready to record
        page.locator("#id_move").select_option(index=1)  # Ana takes 2, from the legal-move list
        page.get_by_role("button", name="Record this move").click()
        waiting(page, 1)
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Tomas')")  # local turn
        stones(page, "Ana", 1)  # not her turn: refused here, in the server's words
        problem = page.locator("#problem")
        problem.wait_for()
        assert "It is Tomas's turn." in problem.inner_text(), problem.inner_text()
        assert "Rule:" in problem.inner_text()
        waiting(page, 1)
        problem.get_by_label("Your table plays it differently?").fill("Ana plays twice after a 2")
        problem.get_by_role("button", name="Record it anyway (house rule)").click()
        waiting(page, 3)  # the house rule and the move
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Tomas')")
        stones(page, "Tomas", 1)
        waiting(page, 4)
        page.once("dialog", lambda d: d.accept())
        page.get_by_role("button", name="Take back the last one").click()  # undo: it never left the phone
        waiting(page, 3)
        stones(page, "Tomas", 3)
        waiting(page, 4)
        assert "4 waiting to send" in page.locator("#offline-bar").inner_text()
        page.close()  # closed with the entries waiting

        page = context.new_page()
        page.set_default_timeout(30000)
        page.goto(url)  # still offline: the page and its queue come back
        waiting(page, 4)
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Ana')")
        page.goto(f"{live_server.url}/matches/{match.pk + 1000}/")  # never opened: the offline page
        assert "No connection" in page.locator("h1").inner_text()
        page.goto(url)
        waiting(page, 4)
        assert logged(match) == []

        context.set_offline(False)
        waiting(page, 0)
        page.wait_for_function("() => document.documentElement.dataset.offlineSent === '4'")
        assert logged(match) == [
            ("stones_taken", 0, {"count": 2}),
            ("rule_overridden", None, {"reason": "Ana plays twice after a 2"}),
            ("stones_taken", 0, {"count": 1}),
            ("stones_taken", 1, {"count": 3}),
        ]
        assert "Sent from this phone" in page.locator("#outcome").inner_text()
        assert page.locator("#offline-queue").count() == 0

        page.locator("details.menu summary").click()  # a shared phone: signing out forgets the kept pages
        page.locator("details.menu").get_by_role("button", name="Sign out").click()
        page.wait_for_url(live_server.url + "/")
        assert page.evaluate("async () => (await (await caches.open('chronicle-pages')).keys()).length") == 0


def test_another_phones_entries_meanwhile_are_rebased_over_or_held_until_dropped_or_kept_as_a_house_rule(
    browser, live_server, django_user_model
):
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    other = django_user_model.objects.create_user(username="tomas", password=PASSWORD)
    match = table(owner, recorders=[other])
    with keeper_at(browser, live_server, match) as (context, page, _):
        context.set_offline(True)
        points(page, "Ana", 3, double=True)  # made on version 0; a double tap keeps it once
        points(page, "Tomas", 4)  # made on version 1: the same throw as the other phone's
        points(page, "Ana", 1)  # waits behind the held one
        match_event_record(match=match, user=other, type="points_scored", seat=1, data={"points": 4})

        context.set_offline(False)
        held = page.locator(".offline-conflict")
        held.wait_for()
        text = held.inner_text()
        assert "Tomas recorded move 1 since your form was drawn" in text, text  # the server's words
        assert "(move 1, by tomas)" in text, text  # what the other phone recorded, next to it
        # the very throw the other phone recorded: dropping it is offered first, the house rule after it
        assert "This is the same move as move 1, recorded on another device" in text, text
        order = held.evaluate(
            "b => [...b.querySelectorAll('button')].map((x) => x.textContent + (x.className ? ':' + x.className : ''))"
        )
        assert order[0] == "Drop it" and order[-1] == "Record it anyway as a house rule:secondary", order
        # the answer to Ana's rebased 3 is drawn on its own chain, possibly after the held entry: wait for it
        page.locator("#outcome").get_by_text("recorded after Tomas's move 1").wait_for()
        assert logged(match) == [("points_scored", 1, {"points": 4}), ("points_scored", 0, {"points": 3})]
        waiting(page, 1)  # Ana's 1 waits behind it: nothing is sent past a held entry

        page.once("dialog", lambda d: d.accept())
        held.get_by_role("button", name="Drop it").click()
        waiting(page, 0)
        page.wait_for_function("() => !document.querySelector('.offline-conflict')")
        assert logged(match) == [
            ("points_scored", 1, {"points": 4}),
            ("points_scored", 0, {"points": 3}),
            ("points_scored", 0, {"points": 1}),
        ]

        # judged by the server this time: Ana's entry after another of Ana's is held; kept as a house rule
        context.set_offline(True)
        points(page, "Ana", 2)
        match_event_record(match=match, user=other, type="points_scored", seat=0, data={"points": 5})
        context.set_offline(False)
        held.wait_for()
        assert "Ana recorded move 4 since" in held.inner_text(), held.inner_text()
        assert "same move" not in held.inner_text()  # 2 points against the other phone's 5: not the same move
        held.get_by_label("Reason for the house rule").fill("we count both throws")
        held.get_by_role("button", name="Record it anyway as a house rule").click()
        page.wait_for_function("() => document.documentElement.dataset.offlineHeld === '0'")
        waiting(page, 0)
        assert logged(match)[3:] == [
            ("points_scored", 0, {"points": 5}),
            ("rule_overridden", None, {"reason": "we count both throws"}),
            ("points_scored", 0, {"points": 2}),
        ]

        # re-enter: the held entry leaves the queue and its form opens filled in, on the game as it is now
        context.set_offline(True)
        points(page, "Tomas", 9)
        match_event_record(match=match, user=other, type="points_scored", seat=1, data={"points": 6})
        context.set_offline(False)
        held.get_by_role("button", name="Re-enter").click()
        waiting(page, 0)
        form = page.locator("form[data-event-type=points_scored]")
        points_field = form.get_by_label("Points (negative to lose)")
        points_field.wait_for()
        # the held entry's values are put back once the queue has let it go (its own chain): wait for them
        points_field.evaluate(
            "(el) => new Promise((ok) => { const t = setInterval(() => { if (el.value === '9') "
            "{ clearInterval(t); ok(); } }, 50); setTimeout(() => { clearInterval(t); ok(); }, 10000); })"
        )
        assert points_field.input_value() == "9"
        assert form.get_by_label("Player").input_value() == "1"
        assert logged(match)[-1] == ("points_scored", 1, {"points": 6})


def test_a_seats_moves_in_a_row_are_sent_over_another_phones_entry_by_the_server_alone(
    browser, live_server, django_user_model
):
    """The queue's own entries are named (``own_keys``): the server leaves them out of the rebase rule, so
    Ana's second and third moves are not "Ana recorded move 2 since", and no rule is judged on the phone."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    other = django_user_model.objects.create_user(username="tomas", password=PASSWORD)
    match = table(owner, recorders=[other])
    with keeper_at(browser, live_server, match) as (context, page, _):
        context.set_offline(True)
        points(page, "Ana", 3)
        points(page, "Ana", 1)
        points(page, "Ana", 2)
        match_event_record(match=match, user=other, type="points_scored", seat=1, data={"points": 4})
        context.set_offline(False)
        waiting(page, 0)
        page.wait_for_function("() => document.documentElement.dataset.offlineSent === '3'")
        assert page.locator(".offline-conflict").count() == 0
        assert logged(match) == [
            ("points_scored", 1, {"points": 4}),
            ("points_scored", 0, {"points": 3}),
            ("points_scored", 0, {"points": 1}),
            ("points_scored", 0, {"points": 2}),
        ]
        page.locator("#outcome").get_by_text("recorded after Tomas's move 1").wait_for()  # drawn on its own chain


def test_a_retry_storm_on_a_flaky_network_records_each_entry_once(browser, live_server, django_user_model):
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = table(owner)
    with keeper_at(browser, live_server, match) as (context, page, url):
        # online, but the answer to a move is lost on the way back (it was recorded): kept, sent again, once
        page.route(re.compile(r".*/record/$"), lambda route: (route.fetch(), route.abort("connectionreset")))
        points(page, "Tomas", 7)
        page.unroute(re.compile(r".*/record/$"))
        waiting(page, 0)
        assert logged(match) == [("points_scored", 1, {"points": 7})]
        context.set_offline(True)
        for value in (1, 2, 3, 4):
            points(page, "Ana" if value % 2 else "Tomas", value)
        # a flaky network: every other POST reaches the server but its answer is lost on the way back
        lost = {"n": 0}

        def flaky(route: Any) -> None:
            if route.request.method != "POST":
                route.continue_()
                return
            lost["n"] += 1
            if lost["n"] % 2:
                route.fetch()
                route.abort("connectionreset")
            else:
                route.continue_()

        context.route(re.compile(r".*/api/matches/\d+/events/$"), flaky)
        context.set_offline(False)
        tabs = [context.new_page() for _ in range(2)]  # two more tabs of the page, each starting its own sync
        for tab in tabs:
            tab.goto(url)
        storm = """async (args) => {
            const q = await import('/static/frontend/offline/queue.js');
            const csrf = document.querySelector('input[name=csrfmiddlewaretoken]').value;
            const runs = [];
            for (let i = 0; i < 3; i++) runs.push(q.sync(args.id, {eventsUrl: args.events, csrf}));
            await Promise.all(runs);
        }"""
        events = f"/api/matches/{match.pk}/events/"
        for _ in range(6):
            for p in [page, *tabs]:
                p.evaluate(storm, {"id": match.pk, "events": events})
            if not EventRow.objects.filter(stream_id=match.stream_id).count() < 4:
                break
        left = "async (id) => (await (await import('/static/frontend/offline/queue.js')).entries(id)).length"
        for p in [page, *tabs]:
            p.evaluate(storm, {"id": match.pk, "events": events})
            assert p.evaluate(left, match.pk) == 0
        assert lost["n"] > 4
        assert logged(match)[1:] == [("points_scored", i % 2 ^ 1, {"points": i}) for i in (1, 2, 3, 4)]


def test_pages_kept_for_one_account_are_dropped_when_the_server_names_another_reader(
    browser, live_server, django_user_model
):
    """A session that ends without "Sign out" (it expired, the cookies were cleared): the next page the server
    draws names another reader (frontend/offline/reader.py), and the service worker drops the kept match pages (and
    the board's picks kept beside them) before keeping anything for it, so offline nobody else opens them."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = table(owner)
    with keeper_at(browser, live_server, match) as (context, page, url):
        pages = "async () => (await (await caches.open('chronicle-pages')).keys()).filter(r => !r.url.includes('/picks/')).length"
        assert page.evaluate(pages) == 1
        page.goto(f"{live_server.url}/")  # still the keeper's: the kept page stays
        assert page.evaluate(pages) == 1
        count = "async () => (await (await caches.open('chronicle-pages')).keys()).length"
        context.clear_cookies()  # the session is gone, no sign-out ran
        page.goto(f"{live_server.url}/")
        wait_until(page, f"async () => (await ({count})()) === 0")
        context.set_offline(True)
        page.goto(url)
        assert "No connection" in page.locator("h1").inner_text()


def test_an_undo_of_a_recorded_move_is_checked_and_followed_on_the_phone_offline(
    browser, live_server, django_user_model
):
    """Offline, the page's log (the seed's, for a game that hides nothing) lets the phone check an undo of a move
    the server already has and follow it: the turn goes back, the next move is checked on the position after the
    undo (a move only legal there is kept, one refused there is refused in the server's words), and all of it
    reaches the server once, in order."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 2})
    match_event_record(match=match, user=owner, type="stones_taken", seat=1, data={"count": 1})
    with keeper_at(browser, live_server, match) as (context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        context.set_offline(True)
        page.reload()
        assert "Ana" in page.locator("#turn").inner_text()  # after Tomas's move
        page.once("dialog", lambda d: d.accept())
        page.locator("form.tb-undo button").click()  # undo Tomas's move: checked here with the page's log
        waiting(page, 1)
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Tomas')")
        stones(page, "Ana", 1)  # Tomas is to play again after the undo: refused here
        problem = page.locator("#problem")
        problem.wait_for()
        assert "It is Tomas's turn." in problem.inner_text(), problem.inner_text()
        stones(page, "Tomas", 3)  # his move again, on the position after the undo
        waiting(page, 2)
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Ana')")
        context.set_offline(False)
        waiting(page, 0)
        assert [(t, seat) for t, seat, _ in logged(match)] == [
            ("stones_taken", 0),
            ("stones_taken", 1),
            ("event_voided", None),
            ("stones_taken", 1),
        ]
        assert logged(match)[2][2]["version"] == 2 and logged(match)[3][2] == {"count": 3}


KEEP_ENTRY = """async (id) => {
  const queue = await import('/static/frontend/offline/queue.js');
  await queue.add(id, {type: 'points_scored', seat: 0, data: {points: 5}}, 0);
}"""


def test_entries_made_by_one_account_are_never_sent_under_another(browser, live_server, django_user_model):
    """An entry waits on the phone (stamped with its maker's reader); the session ends without "Sign out" and
    another recorder signs in on that phone: the entry is not sent under their session (it would be recorded as
    theirs) and the page says why; when its maker signs in again it is sent, recorded by them."""
    keeper = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    tomas = django_user_model.objects.create_user(username="tomas", password=PASSWORD)
    match = table(keeper, recorders=[tomas])
    with keeper_at(browser, live_server, match) as (context, page, url):
        context.set_offline(True)
        page.evaluate(KEEP_ENTRY, match.pk)  # the keeper's entry, kept while offline
        context.clear_cookies()
        context.set_offline(False)
        sign_in(page, live_server.url, "tomas")
        page.goto(url)
        page.locator("#outcome", has_text="made by another account").wait_for()
        assert "(made by another account)" in page.locator("#offline-waiting li").inner_text()
        assert logged(match) == []

        context.clear_cookies()
        sign_in(page, live_server.url, "keeper")
        page.goto(url)
        waiting(page, 0)
        assert logged(match) == [("points_scored", 0, {"points": 5})]
        assert EventRow.objects.get(stream_id=match.stream_id).recorded_by_id == keeper.pk


BOARD_TOKENS = (
    "() => Array.from(document.querySelectorAll('#board g.gs-token')).map(g => [g.dataset.token, g.dataset.cell])"
)
IN_VIEW = "el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.top < innerHeight && r.bottom > 0; }"


def local_board(page: Any, version: int) -> None:
    """Wait until ``#board`` shows the local position ``version``, drawn on this phone (``rules.board``)."""
    page.wait_for_function("(v) => document.getElementById('board').dataset.local === String(v)", arg=version)


def test_offline_the_board_follows_the_local_position_drawn_by_the_servers_board_code(
    browser, live_server, django_user_model
):
    """Offline, a Get Salty pick (a board link) is drawn on the phone and a tap on a highlighted cell moves the
    token on the board at once; a Salt & Bones Attack card picked and placed on its two tiles shows on the board;
    back online, the server's page draws the same board."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    salty = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"first_seat": 0})  # fmt: skip
    match_event_record(match=salty, user=owner, type="victory_attribute_chosen", seat=0, data={"attribute": "shape"})
    with keeper_at(browser, live_server, salty) as (context, page, url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")  # and the boards
        context.set_offline(True)
        page.reload()  # served by the service worker
        pick = page.locator("#board a.gs-rtoken.is-pickable").first  # a cracker of the reserve
        token = pick.get_attribute("data-token")
        pick.click()  # a link: drawn here with its ?pick=, on the position the page follows
        local_board(page, 1)
        assert page.url == url  # nothing was navigated to
        target = page.locator("#board button.gs-target").first
        cell = target.get_attribute("data-cell")
        target.click()  # the board's form: kept on the phone, the board redrawn
        waiting(page, 1)
        local_board(page, 2)
        moved = page.locator(f'#board g.gs-token[data-token="{token}"]')
        assert moved.get_attribute("data-cell") == cell and moved.evaluate(IN_VIEW)  # the token moved, in view
        assert page.locator("#board button.gs-target").count() == 0  # no pick after a move, as the server draws it
        offline_tokens = sorted(map(tuple, page.evaluate(BOARD_TOKENS)))
        assert logged(salty)[-1][0] == "victory_attribute_chosen"  # the server has not heard of it
        context.set_offline(False)
        waiting(page, 0)
        page.wait_for_function("() => document.documentElement.dataset.offlineSent === '1'")
        page.wait_for_function("() => !document.getElementById('board').dataset.local")  # the server's page now
        assert sorted(map(tuple, page.evaluate(BOARD_TOKENS))) == offline_tokens
        assert logged(salty)[-1][0] in ("cracker_moved", "salt_container_moved")

        sab = match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
        to_combat(sab, owner, instinct=None)  # nothing face down: the phone checks every move
        url = f"{live_server.url}/matches/{sab.pk}/"
        controlled(page, url)  # the same phone: Pyodide and both archives are kept already
        version = EventRow.objects.filter(stream_id=sab.stream_id).count()
        context.set_offline(True)
        page.reload()
        cards = page.locator("#board g.sb-card").count()
        page.locator("#board a.sb-card-choice").first.click()  # Ana's Attack card
        local_board(page, version)
        page.locator("#board a.sb-hit").first.click()  # the tile under its Attack half
        page.locator("#board button.sb-target").first.wait_for()  # drawn here with ?card=…&a=…
        page.locator("#board button.sb-target").first.click()  # the Opportunity half: recorded on the phone
        waiting(page, 1)
        local_board(page, version + 1)
        assert page.locator("#board g.sb-card").count() == cards + 1  # the card is on the board
        assert page.url == url and page.locator("#board").evaluate(IN_VIEW)
        offline_board = page.locator("#board .sb-board, #board svg").first.inner_html()
        context.set_offline(False)
        waiting(page, 0)
        page.wait_for_function("() => !document.getElementById('board').dataset.local")
        assert page.locator("#board g.sb-card").count() == cards + 1
        assert page.locator("#board .sb-board, #board svg").first.inner_html() == offline_board
        assert logged(sab)[-1][0] == "attack_card_played"


def test_a_page_the_worker_does_not_control_asks_to_be_claimed(browser, live_server, django_user_model):
    """A page made while the worker activated (its claim came too early for that document), or reloaded past the
    worker (a hard reload), is not controlled: its requests would miss the worker until the next navigation.
    Once a worker is active the page asks it to claim it (register.js), so it is controlled again at once."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = table(owner)
    with keeper_at(browser, live_server, match) as (context, page, _url):
        cdp = context.new_cdp_session(page)
        cdp.send("Page.reload", {"ignoreCache": True})  # Shift-reload: the new document bypasses the worker
        page.wait_for_load_state("load")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=5000)
        assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")

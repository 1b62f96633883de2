"""Wi-Fi without internet (issue 35 item 1), 390×844 headless Chromium: the phone believes it is online
(``navigator.onLine`` stays true) while every send fails or hangs (Playwright routes). The first send that fails or
times out turns the page offline; from then on moves are checked on the phone, and only whole entries the local
rules checked (or could not check, for hidden information) reach the queue. A fuzz taps every control of every
game's board (and the legal-move list) while the sends fail, and reads the queue back after each tap (a game whose
board has no control in the position reached, three of the seven, is opened and read back only)."""

from __future__ import annotations

import contextlib
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import Event, get_ruleset
from rulesets.replay import event_types_with_meta
from tests.frontend.form_filler import CannotFill, page_forms
from tests.frontend.form_filler import fill as fill_form
from tests.frontend.forms.test_form_coverage import SCENARIOS
from tests.frontend.offline.test_browser_offline import controlled, keeper_at, local_board, logged
from tests.frontend.offline_boards import new_match, play
from tests.frontend.phones import PASSWORD, PHONE, sign_in, wait_until, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAPS = 14  # taps per game
ON_SERVER = 3  # entries of the game's scenario recorded before the page is opened

QUEUE = "async (id) => (await (await import('/static/frontend/offline/queue.js')).entries(id))"
CONTROLS = """() => Array.from(document.querySelectorAll(
  '#board a[href], #board button[type=submit], #record form.legal-moves button[type=submit]'))
  .map((el, i) => [i, el, el.getBoundingClientRect()])
  .filter(([, el, r]) => r.width > 0 && r.height > 0 && !el.disabled
    && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && !(el.form && !el.form.checkValidity())
    && !(el.closest('a') && /[?&]at=/.test(el.getAttribute('href') || ''))
    && !(el.tagName === 'A' && new URL(el.getAttribute('href'), location.href).pathname !== location.pathname))
  .map(([i, el]) => { el.dataset.fuzz = String(i); return [i, el]; })
  .map(([i, el]) => [i, [el.tagName, el.className, el.getAttribute('href') || '', el.getAttribute('value') || '',
    el.dataset.token || el.dataset.cell || el.dataset.card || '', el.textContent.trim().slice(0, 30)].join('|')])"""
ANSWERS = "() => Number(document.documentElement.dataset.offlineAnswers || 0)"
STATIC = re.compile(r"/static/|/offline/(rulesets|stdlib|boards)-|/sw\.js$")


def fail_sends(page: Any, how: str) -> None:
    """Every request of the page but the site's own files fails (``abort``) or is never answered (``hang``);
    ``navigator.onLine`` stays true."""

    def handle(route: Any) -> None:
        if STATIC.search(route.request.url):
            route.continue_()
        elif how == "abort":
            route.abort("internetdisconnected")
        # hang: never answered

    page.route("**/*", handle)


def whole(row: dict[str, Any], seats: int) -> bool:
    """A whole entry: a type, a seat of the match or none, a data object, a version and a key; checked by the
    rules here, or left to the server for something hidden from this reader."""
    return (
        isinstance(row.get("type"), str)
        and re.fullmatch(r"[a-z][a-z0-9_]*", row["type"]) is not None
        and (row.get("seat") is None or (isinstance(row["seat"], int) and 0 <= row["seat"] < seats))
        and isinstance(row.get("data"), dict)
        and isinstance(row.get("made_on"), int)
        and bool(row.get("key"))
        and row.get("checked") in ("rules", "hidden")
    )


def tap_all(page: Any, rng: random.Random) -> list[str]:
    """Tap the board's controls (each one not tapped yet first, else one at random), waiting for the phone's
    answer after each; the labels tapped."""
    tapped: list[str] = []
    tried: set[str] = set()
    for _ in range(TAPS):
        controls = page.evaluate(CONTROLS)
        fresh = [c for c in controls if c[1] not in tried]
        if not controls:
            break
        index, label = fresh[0] if fresh else rng.choice(controls)
        tried.add(label)
        before = page.evaluate(ANSWERS)
        try:
            page.locator(f'[data-fuzz="{index}"]').click(timeout=3000)
        except PlaywrightTimeout:
            continue  # drawn again between reading the board and the tap, or covered: the next one
        page.wait_for_function(f"() => ({ANSWERS})() > {before}", timeout=60000)
        tapped.append(label)
    return tapped


def test_every_control_of_every_board_while_sends_fail_queues_only_whole_checked_entries(
    browser, live_server, django_user_model
):
    """Each game's board while its sends fail, the way alternating from one game to the next: refused at once
    (``abort``, four games) or never answered (``hang``, three): after the first send the page is offline either
    way, so one fuzz per board covers both (the suite's time, docs/PERFORMANCE.md)."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    rng = random.Random(35)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(60000)
    page.on("dialog", lambda d: d.accept())  # "End the match?" and the like: yes
    try:
        sign_in(page, live_server.url, "keeper")
        taps: dict[str, int] = {}
        for n, slug in enumerate(sorted(SCENARIOS)):
            match, script = new_match(owner, slug)
            for _ in range(ON_SERVER):
                play(match, owner, rng, script)
            recorded = len(logged(match))
            url = f"{live_server.url}/matches/{match.pk}/"
            controlled(page, url)
            if n == 0:  # the engine and both archives, kept once for every game
                page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
            how = ("abort", "hang")[n % 2]
            fail_sends(page, how)
            tapped = tap_all(page, rng)
            taps[slug] = len(tapped)
            assert page.evaluate("navigator.onLine")
            if tapped:  # the first send that failed turned the page offline
                assert page.evaluate("document.documentElement.dataset.offlineNetwork") == "down", (slug, how)
            rows = page.evaluate(QUEUE, match.pk)
            seats = SCENARIOS[slug].seats
            assert all(whole(r, seats) for r in rows), (slug, [r for r in rows if not whole(r, seats)])
            waiting(page, len(rows))
            if rows and all(r["checked"] == "rules" for r in rows):  # the board and the turn line follow
                version = recorded + len(rows)
                wait_until(page, "(v) => document.documentElement.dataset.offlineBoard === String(v)", version)
            page.unroute("**/*")
            page.evaluate("() => window.dispatchEvent(new Event('online'))")  # no need to wait for the back-off
            if tapped:
                page.wait_for_function("() => document.documentElement.dataset.offlineNetwork === 'up'")
            if all(r["checked"] == "rules" for r in rows):  # each recorded once, as it was checked on the phone
                waiting(page, 0)
                assert page.evaluate("document.documentElement.dataset.offlineHeld") == "0", slug
                assert EventRow.objects.filter(stream_id=match.stream_id).count() == recorded + len(rows), slug
        assert all(taps[slug] for slug in ("bone-wars", "get-salty", "last-stone", "salt-and-bones")), taps
        assert {("abort", "hang")[n % 2] for n, slug in enumerate(sorted(SCENARIOS)) if taps[slug]} == {"abort", "hang"}
    finally:
        context.close()


def test_a_reload_on_wifi_without_internet_keeps_the_queue_whole_and_checks_the_next_moves(
    browser, live_server, django_user_model
):
    """The issue's run: two moves kept offline, then a reload while the phone says it is online and every request
    hangs. The page comes back (the worker serves its kept copy when the network does not answer within seconds),
    the two entries still wait, a token tap is drawn on the phone, the next move is checked here (a refused one is
    refused in the server's words), and no blank entry is ever queued."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    salty = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"first_seat": 0})  # fmt: skip
    match_event_record(match=salty, user=owner, type="victory_attribute_chosen", seat=0, data={"attribute": "shape"})
    with keeper_at(browser, live_server, salty) as (context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        context.set_offline(True)
        page.reload()
        for version in (2, 3):  # two moves, each a pick then a cell
            page.locator("#board a.gs-rtoken.is-pickable").first.click()
            page.locator("#board button.gs-target").first.wait_for()
            page.locator("#board button.gs-target").first.click()
            waiting(page, version - 1)
            local_board(page, version)
        hanging: list[str] = []  # every request but the site's files hangs (the worker's own too)
        context.route(
            "**/*",
            lambda route: route.continue_() if STATIC.search(route.request.url) else hanging.append(route.request.url),
        )
        context.set_offline(False)
        started = time.monotonic()
        page.reload()
        assert time.monotonic() - started < 15
        page_url = f"{live_server.url}/matches/{salty.pk}/"  # with the pick in its query when the page said one
        assert [u for u in hanging if u.split("?")[0] == page_url], hanging  # the worker asked, and served its copy
        assert page.evaluate("navigator.onLine")
        waiting(page, 2)
        local_board(page, 3)  # the local position, not the kept copy's
        page.locator("#board a.gs-rtoken.is-pickable").first.click()  # a token tap: drawn here
        page.locator("#board button.gs-target").first.wait_for(timeout=30000)
        page.locator("#board button.gs-target").first.click()
        waiting(page, 3)
        undo = page.locator("form.tb-undo button").get_attribute("aria-label")
        assert undo.startswith("Take back (not sent yet): "), undo  # the bar's Undo names the entry it takes back
        rows = page.evaluate(QUEUE, salty.pk)
        assert len(rows) == 3 and all(whole(r, 2) for r in rows), rows
        assert page.evaluate("document.documentElement.dataset.offlineNetwork") == "down"
        context.unroute("**/*")
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        waiting(page, 0)
        assert [t for t, _, _ in logged(salty)][1:] == [rows[0]["type"], rows[1]["type"], rows[2]["type"]]


FILL_AND_SEND = """({type, post}) => {
  const form = document.querySelector(`#record form[data-event-type="${type}"]`);
  if (!form) return 'no form';
  for (const el of form.elements) {
    if (!el.name || el.type === 'hidden' || el.type === 'submit') continue;
    const values = post[el.name] || [];
    if (el.type === 'checkbox' || el.type === 'radio') el.checked = values.includes(el.value);
    else el.value = values.length ? values[0] : '';
  }
  if (!form.checkValidity()) return 'invalid';
  form.requestSubmit();
  return 'sent';
}"""


def test_every_games_entry_forms_while_sends_fail_queue_only_whole_checked_entries(
    browser, live_server, client, django_user_model
):
    """The entry forms of the record section, each game's scenario entries filled as a person would (the forms
    as the kept page drew them), sent while every request fails: each is answered on the phone (kept, or refused
    in the server's words) and every entry queued is whole and checked. A twin match on the server follows the
    scenario, to say what the next entry is."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    client.force_login(owner)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(60000)
    sent = kept = 0
    try:
        sign_in(page, live_server.url, "keeper")
        for n, slug in enumerate(sorted(SCENARIOS)):
            ruleset = get_ruleset(slug)
            match, script = new_match(owner, slug)
            twin, _ = new_match(owner, slug)
            controlled(page, f"{live_server.url}/matches/{match.pk}/")
            if n == 0:
                page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
            fail_sends(page, "abort")
            for step in script[:4]:
                html = client.get(f"/matches/{twin.pk}/").content.decode()
                state = store.head_load(twin.stream_id, fresh=True).state
                legal = ruleset.legal_moves(state) or []
                if isinstance(step, str):
                    kind = step.removeprefix("legal:")
                    move = next((m for m in legal if kind in ("*", m.type)), None)
                    if move is None:
                        break
                else:
                    move = step if isinstance(step, Event) else step(ruleset, state)
                spec = event_types_with_meta(ruleset).get(move.type)
                post = None
                for form in page_forms(html):
                    if form.hidden("type") == move.type:
                        with contextlib.suppress(CannotFill):
                            post = fill_form(form, move, spec)
                            break
                if post is not None:
                    before = page.evaluate(ANSWERS)
                    if page.evaluate(FILL_AND_SEND, {"type": move.type, "post": post}) == "sent":
                        page.wait_for_function(f"() => ({ANSWERS})() > {before}", timeout=60000)
                        sent += 1
                match_event_record(match=twin, user=owner, type=move.type, seat=move.seat, data=move.data)
            rows = page.evaluate(QUEUE, match.pk)
            seats = SCENARIOS[slug].seats
            assert all(whole(r, seats) for r in rows), (slug, [r for r in rows if not whole(r, seats)])
            kept += len(rows)
            page.unroute("**/*")
    finally:
        context.close()
    assert sent > 10 and kept > 10, (sent, kept)


def test_the_bars_undo_sent_while_sends_fail_is_kept_as_a_whole_checked_entry(browser, live_server, django_user_model):
    """The table bar's Undo tapped on Wi-Fi without internet: the failed send turns the page offline and the undo
    is checked here and kept (the form's own key and version), the turn goes back on the phone, and back online it
    reaches the server once."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 2})
    match_event_record(match=match, user=owner, type="stones_taken", seat=1, data={"count": 1})
    with keeper_at(browser, live_server, match) as (_context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        fail_sends(page, "abort")
        assert "Ana" in page.locator("#turn").inner_text()
        page.once("dialog", lambda d: d.accept())
        page.locator("#tablebar form.tb-undo button").click()
        waiting(page, 1)
        rows = page.evaluate(QUEUE, match.pk)
        assert len(rows) == 1 and rows[0]["type"] == "event_voided" and whole(rows[0], 2), rows
        assert rows[0]["data"]["version"] == 2
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Tomas')")
        assert page.evaluate("document.documentElement.dataset.offlineNetwork") == "down"
        page.unroute("**/*")
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        waiting(page, 0)
        assert [(t, s) for t, s, _ in logged(match)] == [
            ("stones_taken", 0),
            ("stones_taken", 1),
            ("event_voided", None),
        ]

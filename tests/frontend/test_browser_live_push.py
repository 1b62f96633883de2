"""The live table pushed (issue 42, done-when), on the production web tier (``scripts/serve``: granian, ASGI) against
the test database and Redis, in headless Chromium on 390×844 phones:

- two phones see each other's moves without a poll (every request counted: no ``/version/``, one stream a page);
- a phone offline for three moves catches up on reconnect with each of them exactly once (the frames the page
  received, read by a wrapper around ``EventSource``), then goes on live;
- the fallback: a page whose stream is refused polls as before, and still draws the other phone's move;
- a watcher without the right to see a secret never receives it, and a recorder removed from a private match is
  told and stops receiving (the raw bytes of each reader's stream, read over HTTP with that reader's session).

The pages of every other browser test run on Django's WSGI test server, where the stream answers 501 and the page
polls: the fallback is what they exercise.
"""

from __future__ import annotations

import http.client
import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from benchmarks.http_stack import Stack, service_env, start_web
from matches.people import joins
from matches.services import match_create, match_event_record, match_recorders_set
from tests.frontend.phones import phone_page, session_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# every frame a page's EventSource hands the page, kept on window.__frames as [type, id, data]
FRAMES = """(() => {
  const Native = window.EventSource;
  if (!Native) return;
  window.__frames = [];
  window.__streams = [];
  // the connection drops (as on a Wi-Fi drop, which Chromium's offline mode does not do to an open stream)
  window.__drop = () => { const s = window.__streams.at(-1); s.close(); s.dispatchEvent(new Event("error")); };
  window.EventSource = class extends Native {
    constructor(url, options) {
      super(url, options);
      window.__streams.push(this);
      for (const type of ["ready", "entry", "closed"]) {
        this.addEventListener(type, (e) => window.__frames.push([type, e.lastEventId, e.data]));
      }
    }
  };
})();"""


@pytest.fixture(scope="module")
def served(django_db_setup, django_db_blocker, tmp_path_factory) -> Any:
    """``scripts/serve`` (one granian process) on the test database and Redis; its base URL."""
    if connection.vendor != "postgresql":
        pytest.skip("the production web tier runs on PostgreSQL here")
    with django_db_blocker.unblock():
        s = connection.settings_dict
        url = f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    env = service_env(url, settings.REDIS_URL, CHRONICLE_LOG_FORMAT="text")
    web, port = start_web(env, Stack("granian", 1, 2), tmp_path_factory.mktemp("web"))
    yield f"http://127.0.0.1:{port}"
    web.stop()


def _watched(browser: Any, base: str, user: Any, match: Any) -> tuple[Any, list[str]]:
    """A phone signed in as ``user`` on ``match``'s page, and the list of every URL it asks for."""
    page = phone_page(browser)
    page.add_init_script(FRAMES)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    session_for(page, base, user)
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_function("() => document.documentElement.dataset.push === 'open'")
    return page, asked


def _drawn(page: Any, version: int) -> None:
    page.locator(f"#tablebar[data-version='{version}']").wait_for()


def _take(page: Any, player: str, count: int = 1) -> None:
    """Record "took ``count``" for ``player`` with the page's own form (in place)."""
    form = page.locator("form[data-event-type=stones_taken]").first
    details = page.locator("details.move-form", has=form)
    if details.count() and details.first.get_attribute("open") is None:
        details.first.locator("summary").first.click()
    form.get_by_label("Player").select_option(label=player)
    form.get_by_label("How many").fill(str(count))
    form.get_by_role("button", name="Record").click()


def test_two_phones_push_and_a_phone_offline_for_three_moves_catches_up_once(browser, served, django_user_model):
    ana, bo = (django_user_model.objects.create_user(username=n) for n in ("ana", "bo"))
    match = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"stones": 30}, recorders=[bo], is_public=True)  # fmt: skip
    anas, ana_asked = _watched(browser, served, ana, match)
    bos, bo_asked = _watched(browser, served, bo, match)
    try:
        _take(anas, "Ana")
        _drawn(bos, 1)
        _take(bos, "Bo")
        _drawn(anas, 2)
        for asked in (ana_asked, bo_asked):
            assert not [u for u in asked if "/version/" in u], "a pushed page never polls"
            assert len([u for u in asked if "/live/" in u]) == 1, "one stream per page"

        bos.context.set_offline(True)
        bos.evaluate("window.__drop()")
        for seat in (0, 1, 0):
            match_event_record(match=match, user=ana, type="stones_taken", seat=seat, data={"count": 1})
        _drawn(anas, 5)
        assert bos.locator("#tablebar").get_attribute("data-version") == "2"
        bos.context.set_offline(False)
        _drawn(bos, 5)
        entries = [f[1] for f in bos.evaluate("window.__frames") if f[0] == "entry"]
        assert entries == ["1", "2", "3", "4", "5"], f"every entry once, in order: {entries}"
        match_event_record(match=match, user=ana, type="stones_taken", seat=1, data={"count": 1})
        _drawn(bos, 6)  # live again after the catch-up
    finally:
        for page in (anas, bos):
            page.context.close()


def test_a_refused_stream_falls_back_to_polling(browser, served, django_user_model):
    ana = django_user_model.objects.create_user(username="ana")
    match = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)
    page = phone_page(browser)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.route("**/live/**", lambda route: route.fulfill(status=502, body="a proxy that strips streams"))
    try:
        page.goto(f"{served}/matches/{match.pk}/", wait_until="commit")
        page.wait_for_function("() => document.documentElement.dataset.push !== undefined")
        match_event_record(match=match, user=ana, type="stones_taken", seat=0, data={"count": 1})
        _drawn(page, 1)
        assert [u for u in asked if "/version/" in u], "the page polls when its stream is refused"
    finally:
        page.context.close()


class RawStream:
    """One reader's event stream read over HTTP with their session: every byte received, in a thread."""

    def __init__(self, base: str, user: Any, match: Any, last: int | None = None) -> None:
        client = Client()
        client.force_login(user)
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=30)
        headers = {"Cookie": cookie, **({"Last-Event-ID": str(last)} if last is not None else {})}
        self.conn.request("GET", f"/matches/{match.pk}/live/?from=0", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        self.bytes, self.ended = b"", False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            while chunk := self.response.read1(65536):
                self.bytes += chunk
        except (OSError, ValueError, AttributeError):  # closed by the test
            pass
        self.ended = True

    def has(self, text: str, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while text.encode() not in self.bytes and time.monotonic() < deadline:
            time.sleep(0.05)
        return text.encode() in self.bytes


def test_a_secret_never_reaches_a_watcher_who_may_not_see_it_and_a_removed_recorder_stops(
    browser, served, django_user_model
):
    """Cy records for the table without a seat: he receives each entry, never a seat's secret, and loses the stream
    the moment his recording rights on the private match are taken away (a seat's holder keeps hers: issue 43)."""
    ana, bo, cy = (django_user_model.objects.create_user(username=n) for n in ("ana", "bo", "cy"))
    match = match_create(owner=ana, game="the-first-spine", recorders=[cy], is_public=False,
                         seats=[{"name": "Ana", "user": ana}, {"name": "Bo", "user": bo}])  # fmt: skip
    for seat, destiny in ((0, "conjurer"), (1, "hunter")):
        match_event_record(match=match, user=ana, type="destiny_chosen", seat=seat, data={"destiny": destiny})
    cys_phone, _ = _watched(browser, served, cy, match)
    anas, cys = RawStream(served, ana, match), RawStream(served, cy, match)
    try:
        match_event_record(match=match, user=ana, type="origin_chosen", seat=0, data={"origin": "blacksmith"})
        assert anas.has('"origin": "blacksmith"'), "the seat's holder receives her own secret"
        assert cys.has("id: 3\n"), "Cy receives the entry"
        assert b"blacksmith" not in cys.bytes, "never its secret"
        _drawn(cys_phone, 3)
        assert "blacksmith" not in str(cys_phone.evaluate("window.__frames")).lower()

        match_recorders_set(match=match, user=ana, recorders=[])
        assert cys.has("event: closed"), "a recorder removed from a private match is told at once"
        deadline = time.monotonic() + 10
        while not cys.ended and time.monotonic() < deadline:
            time.sleep(0.05)
        assert cys.ended, "and the stream ends"
        cys_phone.wait_for_function("() => document.documentElement.dataset.push === 'closed'")
        received = cys.bytes
        match_event_record(match=match, user=ana, type="event_voided", data={"version": 3, "reason": "again"})
        assert anas.has("id: 4\n")
        assert cys.bytes == received
        assert not [f for f in cys_phone.evaluate("window.__frames") if f[1] == "4"]
        resumed = RawStream(served, ana, match, last=3)  # a reconnect names the last entry it received
        assert resumed.has("id: 4\n") and b"id: 3\n" not in resumed.bytes and b"id: 1\n" not in resumed.bytes
        resumed.conn.close()
    finally:
        for stream in (anas, cys):
            stream.conn.close()
        cys_phone.context.close()


def test_the_owners_join_box_follows_a_friend_taking_a_seat_without_a_poll(browser, served, django_user_model):
    """A join records no entry: the owner's stream (``?seats=1``) sends the seats held when a wake-up finds them
    changed, and the page redraws its *Seat a friend* box and the players' names in place."""
    ana, cleo = (django_user_model.objects.create_user(username=n) for n in ("ana", "cleo"))
    match = match_create(owner=ana, game="last-stone", seats=[{"name": "Ana", "user": ana}, {"name": "Dana"}],
                         options={"stones": 9})  # fmt: skip
    token = joins.join_link_on(match=match, user=ana).token
    page, asked = _watched(browser, served, ana, match)
    try:
        assert "1 free" in page.locator("#join summary").inner_text()
        page.evaluate("window.__notReloaded = true")
        joins.join_take(user=cleo, token=token, seat=1)
        page.locator("html[data-seats-seen]").wait_for(state="attached", timeout=20000)
        assert "every one belongs to an account" in page.locator("#join summary").inner_text()
        assert page.evaluate("window.__notReloaded === true")
        assert not [u for u in asked if "/version/" in u], "followed on the push, not by a poll"
        assert [u for u in asked if "/live/" in u and "seats=1" in u], "the owner's stream asks for the seats"
    finally:
        page.context.close()

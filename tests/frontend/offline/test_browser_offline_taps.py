"""A tap is a write (issue 47 item 1), 390×844 headless Chromium: every entry made offline is written to the queue
(IndexedDB, in order, with its key) before it is checked, so taps made while the engine starts, while another
check runs, while a send hangs, or just before a reload are each either in the queue or on the server, exactly
once, in order; a refusal found later is held with the rules' words."""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.services import match_create
from tests.frontend.offline.test_browser_offline import keeper_at
from tests.frontend.offline.test_browser_offline_network import fail_sends
from tests.frontend.offline.test_browser_offline_reopen import reopened_offline
from tests.frontend.phones import PASSWORD, stones, wait_until, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROWS = """async (id) => (await (await import('/static/frontend/offline/queue.js')).entries(id))
  .map((e) => [e.key, e.seat, e.data.count, e.checked, e.state])"""
RULES = "() => document.documentElement.dataset.offlineRules || ''"
TAPS = [("Ana", 0, 2), ("Tomas", 1, 1), ("Ana", 0, 1)]


def _tap(page: Any, player: str, count: int) -> None:
    """Send Last Stone's "Took stones" form (its disclosure closes after each keep: opened again)."""
    stones(page, player, count)


def _server_log(match: Any) -> list[tuple[int | None, int]]:
    return [(e.seat, e.data["count"]) for e in EventRow.objects.filter(stream_id=match.stream_id).order_by("version")]


def _sent_once_in_order(page: Any, context: Any, match: Any, keys: list[str]) -> None:
    """Back online: the queue empties and the server holds the taps once each, in order, by their keys."""
    context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    wait_until(page, f"async (id) => ({ROWS})(id).then((rows) => rows.length === 0)", match.pk, timeout=60)
    assert _server_log(match) == [(seat, count) for _, seat, count in TAPS]
    assert (
        list(
            EventRow.objects.filter(stream_id=match.stream_id)
            .order_by("version")
            .values_list("idempotency_key", flat=True)
        )
        == keys
    )


def test_taps_while_the_engine_starts_are_each_kept_at_once_then_checked_in_order(
    browser, live_server, django_user_model
):
    """The browser reopened offline with no engine running (a cold start of the page's own), three moves from the
    entry form 0.3 s apart: all three are in IndexedDB at once, in order, "kept, checking…"; each is then checked
    by the rules on the position the one before it left; back online each is recorded once."""
    with reopened_offline(browser, live_server, django_user_model, cold=True) as (context, page, match):
        states = []
        for player, _seat, count in TAPS:
            states.append(page.evaluate(RULES))
            _tap(page, player, count)
            page.wait_for_timeout(300)
        assert "ready" not in states, states  # every tap made while the engine started
        rows = wait_until(
            page, f"async (id) => {{ const r = await ({ROWS})(id); return r.length === 3 && r; }}", match.pk
        )
        assert [(seat, count) for _, seat, count, _, _ in rows] == [(s, c) for _, s, c in TAPS], rows
        waiting(page, 3)
        rows = page.evaluate(ROWS, match.pk)
        assert [checked for *_, checked, _ in rows] == ["rules"] * 3, rows
        page.locator("#turn", has_text="Tomas").wait_for(
            timeout=30000
        )  # the local turn follows all three (drawn after)
        _sent_once_in_order(page, context, match, [r[0] for r in rows])


# the running engine's checks made slow (1.5 s each) and counted, so taps land while one runs
SLOW_CHECKS = """async () => {
  const r = await (await import('/static/frontend/offline/table-state.js')).rules();
  const record = r.record.bind(r);
  window.__checks = { running: 0, started: 0 };
  r.record = async (...args) => {
    window.__checks.running += 1; window.__checks.started += 1;
    try { await new Promise((go) => setTimeout(go, 1500)); return await record(...args); }
    finally { window.__checks.running -= 1; }
  };
}"""


def test_taps_while_a_check_runs_are_each_kept_at_once_then_checked_in_order(browser, live_server, django_user_model):
    """The engine running offline, the first tap's check under way (made slow): the second and third taps, made
    while it runs, are in IndexedDB at once, in order, behind it; each is then checked on the position the one
    before it left, and back online each is recorded once."""
    with reopened_offline(browser, live_server, django_user_model) as (context, page, match):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'ready'", timeout=60000)
        page.evaluate(SLOW_CHECKS)
        _tap(page, *TAPS[0][::2])
        page.wait_for_function("() => window.__checks.running === 1")
        for n, (player, _seat, count) in enumerate(TAPS[1:], start=2):
            _tap(page, player, count)
            rows = wait_until(
                page, f"async (id) => {{ const r = await ({ROWS})(id); return r.length === {n} && r; }}", match.pk
            )
            assert rows[0][3] == "pending" and page.evaluate("window.__checks.running") > 0, "kept while it ran"
        assert [(seat, count) for _, seat, count, _, _ in rows] == [(s, c) for _, s, c in TAPS], rows
        waiting(page, 3)
        rows = page.evaluate(ROWS, match.pk)
        assert [checked for *_, checked, _ in rows] == ["rules"] * 3, rows
        # the local turn follows all three (drawn by replaying them: the slowed engine takes a while)
        page.locator("#turn", has_text="Tomas").wait_for(timeout=30000)
        _sent_once_in_order(page, context, match, [r[0] for r in rows])


def test_taps_kept_before_a_reload_are_checked_after_it_in_order(browser, live_server, django_user_model):
    """Two taps written while the engine starts, then a reload before their checks ran: both are still in the
    queue, checked after the reload in their order, the third tap after them; each sent once."""
    with reopened_offline(browser, live_server, django_user_model, cold=True) as (context, page, match):
        _tap(page, *TAPS[0][::2])
        _tap(page, *TAPS[1][::2])
        rows = wait_until(
            page, f"async (id) => {{ const r = await ({ROWS})(id); return r.length === 2 && r; }}", match.pk
        )
        assert page.evaluate(RULES) != "ready"
        page.reload()
        waiting(page, 2)
        _tap(page, *TAPS[2][::2])
        waiting(page, 3)
        rows = page.evaluate(ROWS, match.pk)
        assert [(seat, count, checked) for _, seat, count, checked, _ in rows] == [
            (s, c, "rules") for _, s, c in TAPS
        ], rows
        _sent_once_in_order(page, context, match, [r[0] for r in rows])


def test_a_refusal_found_later_is_held_with_the_rules_words_and_the_taps_after_it_wait(
    browser, live_server, django_user_model
):
    """Tomas taps first while the engine starts (Ana's turn): once checked it is held with the rules' words, and
    Ana's tap made after it waits behind it, kept; dropping it checks and keeps Ana's."""
    with reopened_offline(browser, live_server, django_user_model, cold=True) as (_context, page, match):
        _tap(page, "Tomas", 1)
        _tap(page, "Ana", 2)
        held = page.locator("[data-conflict]")
        held.wait_for(timeout=60000)
        assert "It is Ana's turn." in held.inner_text(), held.inner_text()
        rows = page.evaluate(ROWS, match.pk)
        assert [(seat, state) for _, seat, _, _, state in rows] == [(1, "conflict"), (0, "waiting")], rows
        page.once("dialog", lambda d: d.accept())
        held.get_by_role("button", name="Drop it").click()
        waiting(page, 1)
        assert [(seat, count, checked) for _, seat, count, checked, _ in page.evaluate(ROWS, match.pk)] == [
            (0, 2, "rules")
        ]


def test_taps_while_a_send_hangs_are_kept_in_order(browser, live_server, django_user_model):
    """Wi-Fi without internet: "Ana takes 1" from the legal-move list is sent and hangs (the page still thinks it is
    online), "Tomas takes 1" from the entry form is sent meanwhile and hangs too, then "Ana takes 2" is tapped once
    the page knows: all three are in the queue in order, each once (the two sends with their own keys), checked;
    back online the server records each once, in order."""
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}], options={})
    with keeper_at(browser, live_server, match) as (_context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        fail_sends(page, "hang")
        page.locator("#id_move").select_option(index=0)  # Ana takes 1
        page.get_by_role("button", name="Record this move").click()
        _tap(page, "Tomas", 1)
        waiting(page, 2)  # both sends timed out: each kept with its own key, in the order they were sent
        _tap(page, "Ana", 2)
        waiting(page, 3)
        rows = page.evaluate(ROWS, match.pk)
        assert [(seat, count, checked) for _, seat, count, checked, _ in rows] == [
            (0, 1, "rules"),
            (1, 1, "rules"),
            (0, 2, "rules"),
        ], rows
        page.unroute("**/*")
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        wait_until(page, f"async (id) => ({ROWS})(id).then((rows) => rows.length === 0)", match.pk, timeout=60)
        assert _server_log(match) == [(0, 1), (1, 1), (0, 2)]
        keys = (
            EventRow.objects.filter(stream_id=match.stream_id)
            .order_by("version")
            .values_list("idempotency_key", flat=True)
        )
        assert list(keys) == [r[0] for r in rows]

"""The engine's start (issue 35 item 5), 390×844 headless Chromium: a move submitted before the engine has started
is answered as soon as it has, and after a reload the engine of the page before answers the first move (a shared
worker kept across the reload: rules.js › loadRulesInWorker). The time it takes is the bench's
(``manage.py bench offline``, docs/PERFORMANCE.md), not this test's."""

from __future__ import annotations

import pytest

from tests.frontend.offline.test_browser_offline_reopen import reopened_offline
from tests.frontend.phones import stones, waiting

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROW = "async ([id, n]) => (await (await import('/static/frontend/offline/queue.js')).entries(id))[n]"


def _move_at_once(page, index: int) -> str:
    """Pick the legal-move list's ``index``-th move and record it as soon as the page is there; the engine's state
    (``data-offline-rules``) when it was submitted."""
    state = page.evaluate("() => document.documentElement.dataset.offlineRules || ''")
    page.locator("#id_move").select_option(index=index)
    page.get_by_role("button", name="Record this move").click()
    return state


def test_a_move_before_the_engine_is_ready_is_answered_then_the_next_page_keeps_the_engine(
    browser, live_server, django_user_model
):
    # reloaded offline: the engine starts now (the page before began it when the link went): not ready yet
    with reopened_offline(browser, live_server, django_user_model) as (_context, page, match):
        assert _move_at_once(page, 1) != "ready"  # Ana takes 2 while Pyodide starts
        waiting(page, 1)
        assert "Kept on this phone" in page.locator("#outcome").inner_text()
        row = page.evaluate(ROW, [match.pk, 0])
        assert row["checked"] == "rules" and row["data"] == {"count": 2}, row  # checked by the rules, not left
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Tomas')")

        page.reload()  # still offline: the engine of the page before answers this page's first move
        stones(page, "Tomas", 1)  # at once (the kept copy's legal-move list is Ana's until the local one is drawn)
        waiting(page, 2)
        assert page.evaluate("() => document.documentElement.dataset.offlineEngine") == "kept"
        row = page.evaluate(ROW, [match.pk, 1])
        assert row["checked"] == "rules" and row["seat"] == 1 and row["data"] == {"count": 1}, row
        page.wait_for_function("() => document.getElementById('turn').textContent.includes('Ana')")

"""Tapping a control in the browser tests and waiting for its answer, whichever way it comes: swapped in
place on the match page (htmx; app.js counts each swap on ``<html data-swaps>``) or as a new page."""

from __future__ import annotations

from typing import Any

IN_PLACE = (  # htmx boosts the HTML links and forms of the board and the record section (not SVG links)
    "el => { if (!window.htmx || !el.closest('#match-live [hx-boost=true]')) return false;"
    " const a = el.closest('a'); return a ? a instanceof HTMLAnchorElement : true; }"
)


def tap(page: Any, element: Any) -> None:
    """Click ``element`` and wait for the answer: the in-place swap it causes, or the navigation. A board link
    whose board the page drew ahead (offline/table-picks.js) is drawn in place whatever kind of link it is, so a
    link that would navigate is waited for either way (a new page has no ``data-tap``)."""
    before = int(page.locator("html").get_attribute("data-swaps") or 0)
    if element.evaluate(IN_PLACE):
        element.click()
        page.locator(f'html[data-swaps="{before + 1}"]').wait_for(state="attached")  # a selector: no eval (CSP)
    elif element.evaluate("el => !!el.closest('#board a[href]')"):
        page.locator("html").evaluate("(h) => { h.dataset.tap = '1'; }")
        element.click()
        page.locator(f'html[data-swaps="{before + 1}"], html:not([data-tap])').wait_for(state="attached")
        page.wait_for_load_state()
    else:
        with page.expect_navigation():
            element.click()

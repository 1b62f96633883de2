"""The offline reload of ``manage.py bench offline --reload-only`` (issue 35 item 5): a match page kept by the
service worker, reloaded offline, the first move's answer timed, the engine kept across pages against the engine
started per page (the same-run baseline)."""

from __future__ import annotations

import json
import os
import statistics
from collections import Counter
from typing import Any

from django.core.management.base import CommandError

from benchmarks.harness import LiveSite, Out, quantile
from benchmarks.offline_match import bench_match, drop_bench_match, session_cookie
from benchmarks.offline_scripts import ARMED, CHROMIUM_ARGS, CLEAR_QUEUE, RELOAD_MARKS, RELOAD_PROBE, SPIN


def _in_shared_worker(page: Any, function: str) -> float | None:
    """``function`` (a JavaScript function's text) called in the rules' shared worker of ``page``'s browser, its
    value; None when there is none. Playwright does not list shared workers: through the browser's own CDP
    session (a target attached without flattening, its messages wrapped)."""
    cdp = page.context.browser.new_browser_cdp_session()
    try:
        targets = cdp.send("Target.getTargets")["targetInfos"]
        shared = [t for t in targets if t["type"] == "shared_worker" and "rules-worker" in t.get("url", "")]
        if not shared:
            return None
        answers: list[dict[str, Any]] = []
        cdp.on("Target.receivedMessageFromTarget", lambda event: answers.append(json.loads(event["message"])))
        session = cdp.send("Target.attachToTarget", {"targetId": shared[0]["targetId"], "flatten": False})["sessionId"]
        params = {"expression": f"({function})()", "returnByValue": True}
        message = json.dumps({"id": 1, "method": "Runtime.evaluate", "params": params})
        cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": message})
        for _ in range(300):
            done = [a for a in answers if a.get("id") == 1]
            if done:
                cdp.send("Target.detachFromTarget", {"sessionId": session})
                return done[0]["result"]["result"]["value"]
            page.wait_for_timeout(50)
        return None
    finally:
        cdp.detach()


def reload_run(out: Out, chromium: str, rates: list[float], reloads: int, warmups: int, colds: int = 0) -> None:
    """The offline reload's first move at each CPU rate, both engine paths, in a browser of its own, then
    ``colds`` cold starts per rate (``offline_cold``: a new browser process each); reported."""
    from playwright.sync_api import sync_playwright

    from benchmarks.offline_cold import cold_bench

    if reloads < 1:
        raise CommandError("--reloads must be at least 1")
    with LiveSite() as origin, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            reload_bench(out, browser, origin, rates, reloads, warmups)
        finally:
            browser.close()
        if colds:
            cold_bench(out, p, chromium, origin, rates, colds)


def reload_bench(out: Out, browser: Any, origin: str, rates: list[float], reloads: int, warmups: int) -> None:
    """Measure and print the offline reload's first move (``_reloads``) in ``browser`` (Playwright's) against the
    site at ``origin``, with the load average before and after. Writes a user and a match, deleted after."""
    out(f"\nLoad average at the start of the reloads: {os.getloadavg()[0]:.1f}")
    results = _reloads(out, browser, origin, rates, reloads, warmups)
    _reload_report(out, results, reloads, warmups)
    out(f"\nLoad average at the end: {os.getloadavg()[0]:.1f} (the machine's other work shares the CPU)")


def _reloads(out: Out, browser: Any, origin: str, rates: list[float], reloads: int, warmups: int) -> dict[str, Any]:
    """One phone opens a match online (the service worker installed, the page and the engine's files kept),
    goes offline, then per CPU rate and engine path reloads the page ``warmups + reloads`` times; returns the
    marks of the measured reloads per ``(rate, path)`` and a busy loop's time per rate in the page, in the
    page's dedicated rules worker and in the shared one (how much of the throttling reaches each)."""
    user, match = bench_match()
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        try:
            context.add_cookies([session_cookie(user, origin)])
            context.add_init_script(RELOAD_PROBE)
            page = context.new_page()
            if os.environ.get("BENCH_DEBUG"):
                page.on("framenavigated", lambda f: out.err(f"nav {f.url}"))
                page.on("console", lambda m: out.err(f"console {m.text}"))
            page.set_default_timeout(300000)
            url = f"{origin}/matches/{match.pk}/"
            page.goto(url)
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=200)
            page.wait_for_function("() => /cached|ready/.test(document.documentElement.dataset.offlineRules || '') "
                                   "|| document.documentElement.dataset.offlineWarm", polling=200)  # fmt: skip
            kept = "async (u) => !!(await (await caches.open('chronicle-pages')).match(u))"
            for _ in range(600):
                if page.evaluate(kept, url):
                    break
                page.wait_for_timeout(100)
            else:
                raise CommandError("the service worker kept no copy of the match page")
            context.set_offline(True)
            cdp = context.new_cdp_session(page)
            # a session of our own must say offline too, or the reloaded page's navigator.onLine is true
            cdp.send("Network.enable")
            offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
            cdp.send("Network.emulateNetworkConditions", offline)
            found: dict[str, Any] = {"rates": rates, "spin": {}}  # not `out`: the printer
            for rate in rates:
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                for how in ("kept", "per-page"):
                    marks = [_reload_once(out, page, match.pk, url, how) for _ in range(warmups + reloads)]
                    found[(rate, how)] = marks[warmups:]
                workers = page.workers  # the last reload's (per page): the rules' dedicated worker
                found["spin"][rate] = (
                    page.evaluate(SPIN),
                    workers[0].evaluate(SPIN) if workers else None,
                    _in_shared_worker(page, SPIN),
                )
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            return found
        finally:
            context.close()
    finally:
        drop_bench_match(user, match)


def _reload_once(out: Out, page: Any, match_id: int, url: str, how: str) -> dict[str, Any]:
    """Empty the match's queue, reload offline with the probe armed for ``how``, and return the probe's marks
    once the answer is on screen; then wait for the board the page draws after it (the engine idle again)."""
    page.evaluate(CLEAR_QUEUE, match_id)
    page.evaluate("([key, how]) => sessionStorage.setItem(key, how)", [ARMED, how])
    trace = how == os.environ.get("BENCH_TRACE_HOW", "kept") and os.environ.get("BENCH_TRACE")  # debugging: a file
    if trace:
        page.context.browser.start_tracing(page=page, path=trace, screenshots=False)
    page.reload(wait_until="commit")
    done = "() => globalThis.__benchReload && (globalThis.__benchReload.shown || globalThis.__benchReload.error)"
    try:
        page.wait_for_function(done, polling=200, timeout=90000)
    except Exception as error:
        state = page.evaluate(RELOAD_MARKS)
        text = page.evaluate("() => (document.getElementById('outcome') || {}).textContent || ''")
        raise CommandError(f"no answer to the first offline move ({how}): {state}, outcome {text!r}") from error
    marks = page.evaluate(RELOAD_MARKS)
    if trace:
        page.context.browser.stop_tracing()
    if marks.get("error") or not marks["page"] or marks["url"] != url or marks["type"] != "reload" or marks["online"]:
        raise CommandError(f"the offline reload did not show the match page ready to record: {marks}")
    if not marks["worker"]:
        raise CommandError(f"the offline reload was not served by the service worker: {marks}")
    if os.environ.get("BENCH_DEBUG"):
        out.err(f"{how}: {json.dumps(marks)}")
    try:  # the board follows the move: drawn by the same engine, before the next reload
        page.wait_for_function("() => document.documentElement.dataset.offlineBoard", polling=200, timeout=60000)
    except Exception as error:  # a board not drawn only makes the next reload's engine busier
        out.err(f"(the board was not drawn after the move: {error})")
    return marks


def _reload_report(out: Out, results: dict[str, Any], reloads: int, warmups: int) -> None:
    out(f"\nOffline reload, the first move ({reloads} reloads per row after {warmups} not measured; ms from")
    out("navigation start, median (p90)): the page served by the service worker's kept copy, the first move of")
    out("the legal-move list submitted at DOMContentLoaded, its answer ('Kept on this phone') on screen at the")
    out("next frame. Kept: the engine kept across pages in a shared worker; per page: SharedWorker hidden, a dedicated")
    out("worker started by each page (the old path, the same-run baseline).")
    out("")
    out("| CPU | engine | answer on screen | page served | DOMContentLoaded | engine ready | answer drawn | engine |")
    out("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")

    def cell(values: list[float]) -> str:
        values = [v for v in values if v == v]  # NaN: no value (an engine not ready when the answer came)
        return f"{statistics.median(values):,.0f} ({quantile(values, 0.9):,.0f})" if values else "–"

    for rate in results["rates"]:
        for how, label in (("kept", "kept (shared worker)"), ("per-page", "per page (old path)")):
            marks = results[(rate, how)]
            engines = ", ".join(f"{n} {e}" for e, n in sorted(Counter(m["engine"] for m in marks).items()))
            cells = " | ".join(cell([m[k] for m in marks]) for k in ("shown", "response", "dcl", "ready", "answer"))
            out(f"| {format(rate, 'g')}× | {label} | {cells} | {engines} |")
    out("\nThe CPU throttling (CDP `Emulation.setCPUThrottlingRate`) and the workers, a busy loop's ms:")
    out("")
    out("| CPU | in the page | in the page's dedicated rules worker | in the shared rules worker |")
    out("| --- | ---: | ---: | ---: |")
    for rate, times in results["spin"].items():
        cells = " | ".join(f"{t:,.1f}" if t is not None else "–" for t in times)
        out(f"| {format(rate, 'g')}× | {cells} |")
    out("\nCDP's throttling is set on the page: read above how much of it reaches each worker. What the shared")
    out("worker does (the move checked, the board drawn) runs at the speed of the last column, a phone's as")
    out("slow as its page.")

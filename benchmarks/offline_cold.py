"""The cold start of ``manage.py bench offline --reload-only`` (issue 47 item 3): the browser started again with
its profile (a new browser process: no engine running, the service worker's files and copies on disk, as on a
phone whose browser was closed), offline, the match page opened and its first move submitted at
``DOMContentLoaded``; beside the reloads with the engine kept (``offline_reload``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

from django.core.management.base import CommandError

from benchmarks.offline_match import bench_match, drop_bench_match, session_cookie
from benchmarks.offline_scripts import ARMED, CHROMIUM_ARGS, CLEAR_QUEUE, RELOAD_MARKS, RELOAD_PROBE

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
# the engine's own figures (rules.js › startPython: Pyodide loaded, the rules imported), ms from its start
ENGINE_TIMINGS = """async () => {
  const r = await (await import("/static/frontend/offline/table-state.js")).state.enginePromise;
  const t = r && r.timings;
  return t ? { pyodide: t.pyodide, ready: t.ready, kept: !!t.kept, snapshot: t.snapshot || "none",
               fetched: t.fetched, read: t.read,
               error: t.snapshot_error } : null;
}"""


SNAPSHOTS = """async (drop) => {  // the engine's kept memory snapshots (rules.js): how many; dropped first if asked
  const cache = await caches.open("chronicle-engine");
  for (const r of await cache.keys()) if (drop && new URL(r.url).pathname.startsWith("/__chronicle_snapshot__/")) await cache.delete(r);
  return (await cache.keys()).filter((r) => new URL(r.url).pathname.startsWith("/__chronicle_snapshot__/")).length;
}"""
FLUSH = 1000  # ms before the browser is closed, once the snapshot is kept (written to disk after the put)
WAYS = ("snapshot", "no snapshot")  # the engine loaded from the kept snapshot; or none kept (started, one made)


def cold_starts(
    out: Any, p: Any, chromium: str, origin: str, cookie: dict[str, Any], url: str, match_id: int,
    rates: list[float], runs: int,
) -> dict[tuple[float, str], list[dict[str, Any]]]:  # fmt: skip
    """Prime a profile online (the page, the engine's files and its snapshot kept), then per CPU rate start the
    browser ``runs`` times on it offline per way (``WAYS``, alternating: the snapshot dropped before each "no
    snapshot" start, which makes it again) and time the first move; the marks per (rate, way)
    (``RELOAD_MARKS``, plus the engine's own timings)."""
    profile = tempfile.mkdtemp(prefix="chronicle-cold-")
    try:
        _prime(p, chromium, profile, cookie, url)
        marks: dict[tuple[float, str], list[dict[str, Any]]] = {}
        for rate in rates:
            for n in range(runs * len(WAYS)):
                way, after = WAYS[n % len(WAYS)], WAYS[(n + 1) % len(WAYS)]
                marks.setdefault((rate, way), []).append(
                    _cold_once(out, p, chromium, profile, url, match_id, rate, drop=after == "no snapshot")
                )
        return marks
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _until(page: Any, snapshots: str, seconds: float = 120) -> None:
    """Wait until the engine's snapshot is kept (Playwright's ``wait_for_function`` awaits no promise)."""
    for _ in range(int(seconds * 5)):
        if page.evaluate(snapshots, False):
            return
        page.wait_for_timeout(200)
    raise CommandError("the engine kept no memory snapshot")


def _launch(p: Any, chromium: str, profile: str, **options: Any) -> Any:
    return p.chromium.launch_persistent_context(
        profile, executable_path=chromium, args=CHROMIUM_ARGS, headless=True, **PHONE, **options
    )


def _prime(p: Any, chromium: str, profile: str, cookie: dict[str, Any], url: str) -> None:
    context = _launch(p, chromium, profile)
    try:
        context.add_cookies([cookie])
        page = context.new_page()
        page.set_default_timeout(300000)
        page.goto(url)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=200)
        page.wait_for_function("() => /cached|ready/.test(document.documentElement.dataset.offlineRules || '') "
                               "|| document.documentElement.dataset.offlineWarm", polling=200)  # fmt: skip
        kept = "async (u) => !!(await (await caches.open('chronicle-pages')).match(u))"
        page.wait_for_function(kept, arg=url, polling=200)
        _until(page, SNAPSHOTS)
        page.wait_for_timeout(FLUSH)
    finally:
        context.close()


def _cold_once(
    out: Any, p: Any, chromium: str, profile: str, url: str, match_id: int, rate: float, *, drop: bool
) -> dict[str, Any]:
    """One cold start: the browser launched on ``profile`` offline, the page's CPU slowed ``rate`` times before
    it is opened, the first move submitted at ``DOMContentLoaded`` (``RELOAD_PROBE``, armed as "kept": the code as
    it is); its marks once the answer is on screen; the queue emptied after (and the snapshot kept once the
    engine made one, then dropped if ``drop``)."""
    context = _launch(p, chromium, profile, offline=True)
    try:
        context.add_init_script(f"try {{ sessionStorage.setItem({ARMED!r}, 'kept'); }} catch (e) {{}}")
        context.add_init_script(RELOAD_PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        page.set_default_timeout(120000)
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        cdp.send("Network.emulateNetworkConditions", offline)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(url, wait_until="commit")
        done = "() => globalThis.__benchReload && (globalThis.__benchReload.shown || globalThis.__benchReload.error)"
        try:
            page.wait_for_function(done, polling=100, timeout=120000)
        except Exception as error:
            raise CommandError(
                f"no answer to the first move after a cold start: {page.evaluate(RELOAD_MARKS)}"
            ) from error
        marks = page.evaluate(RELOAD_MARKS)
        if marks.get("error") or not marks["page"] or not marks["worker"] or marks["online"]:
            raise CommandError(f"the cold start did not show the kept match page ready to record: {marks}")
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'ready'", polling=100)
        marks["timings"] = page.evaluate(ENGINE_TIMINGS)
        t = marks["timings"] or {}
        out.err(f"cold start at {rate:g}×: engine ready {marks['ready']:,.0f} ms ({t.get('snapshot')}: files "
                f"{t.get('fetched', 0):,.0f}, snapshot read {t.get('read', 0):,.0f}, Pyodide {t.get('pyodide', 0):,.0f}, "
                f"rules {t.get('ready', 0):,.0f}), load {os.getloadavg()[0]:.1f}")  # fmt: skip
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        page.evaluate(CLEAR_QUEUE, match_id)
        _until(page, SNAPSHOTS)
        page.evaluate(SNAPSHOTS, drop)
        page.wait_for_timeout(FLUSH)
        return marks
    finally:
        context.close()


def cold_bench(out: Any, p: Any, chromium: str, origin: str, rates: list[float], runs: int) -> None:
    """Measure and print the cold starts (``cold_starts``) against the site at ``origin``, with the load average
    before and after. Writes a user and a match (as the reloads do), deleted after."""

    out(f"\nLoad average at the start of the cold starts: {os.getloadavg()[0]:.1f}")
    user, match = bench_match()
    try:
        url = f"{origin}/matches/{match.pk}/"
        results = cold_starts(out, p, chromium, origin, session_cookie(user, origin), url, match.pk, rates, runs)
    finally:
        drop_bench_match(user, match)
    _cold_report(out, results, runs)
    out(f"\nLoad average at the end of the cold starts: {os.getloadavg()[0]:.1f}")


def _cold_report(out: Any, results: dict[tuple[float, str], list[dict[str, Any]]], runs: int) -> None:
    import statistics
    from collections import Counter

    from benchmarks.harness import quantile

    out(f"\nCold start, the first move ({runs} browser starts per row; ms from the page's navigation start, median")
    out("(p90)): the browser started again on its profile, offline (no engine running; the page, the service worker")
    out("and the engine's files kept on disk), the match page opened, its first move submitted at DOMContentLoaded.")
    out("Engine: the rules worker's own clock from its start (Pyodide's module and the rules archive read; the")
    out("snapshot read; Pyodide loaded; the rules imported, ready); snapshot:")
    out("the engine loaded from the memory snapshot kept by an earlier start, or made one (rules.js › startPython).")
    out("No snapshot: the same-run baseline, the snapshot dropped before that start (the engine started as before).")
    out("")
    head = "answer on screen | engine ready | page served | DOMContentLoaded | engine: files read | snapshot read"
    head += " | Pyodide loaded | rules ready"
    out(f"| CPU | engine | {head} | snapshot |")
    out("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")

    def cell(values: list[float]) -> str:
        values = [v for v in values if v is not None and v == v]
        return f"{statistics.median(values):,.0f} ({quantile(values, 0.9):,.0f})" if values else "–"

    for (rate, way), marks in results.items():
        timings = [m.get("timings") or {} for m in marks]
        cells = [cell([m[k] for m in marks]) for k in ("shown", "ready", "response", "dcl")]
        cells += [cell([t.get(k) for t in timings]) for k in ("fetched", "read", "pyodide", "ready")]
        snapshots = ", ".join(f"{n} {k}" for k, n in sorted(Counter(t.get("snapshot", "–") for t in timings).items()))
        out(f"| {format(rate, 'g')}× | {way} | {' | '.join(cells)} | {snapshots} |")
        for error in sorted({t["error"] for t in timings if t.get("error")}):
            out(f"  (a snapshot not loaded: {error})")
    out("\nAt 4× only the page is slowed (CDP's throttling does not reach the workers: the reloads' busy loop above).")

"""manage.py bench offline: what the offline rules cost a phone (docs/PERFORMANCE.md › The rules in the browser).

Runs collectstatic, serves the site in-process (a threaded WSGI server on 127.0.0.1, static files through
``config.static`` as deployed: precompressed) and drives Debian's Chromium through Playwright: the bytes on the wire
of a first offline visit, over HTTP, Brotli and gzip, beside the same run's figure for how they were sent before
issue 35 item 5 (``--bytes``: that alone, no browser), the first start on an empty cache and a warm start (a
second page of the same browser), and the time per checked move for each game (median and 90th percentile over a sequence of accepted moves,
``rules.record``), beside the same-run baseline: the same call in CPython on the server (``rulesets.offline``,
JSON in and out as in the browser) and the server's bare rules check (``replay.step``); then the board drawn in
the browser (``rules.board``, ``frontend/offline/board.py``): the first one (the boards archive fetched, unpacked
and imported, then drawn) and the next ones per game, beside the same render in CPython. ``--throttle 4`` repeats
it all with Chromium's CPU slowed four times (CDP ``Emulation.setCPUThrottlingRate``), a mid-range phone's CPU.
No database is written by these: the pages used read none.

Then (``--reload-only``: this alone) the **reload**: a match page opened online once (everything cached, the
engine's files too), then the browser offline (``context.set_offline``) and the page reloaded ``--reloads`` times,
each reload served by the service worker's kept copy; per reload, from navigation start to the answer of the
first offline move (submitted at ``DOMContentLoaded``) on screen, for the engine kept across pages (the shared
worker) and, as the same-run baseline, the engine started per page (``SharedWorker`` hidden from the page, so
``rules.js`` starts a dedicated worker, as before). This part writes a user and a match, deleted at the end. Debugging it: ``BENCH_DEBUG=1`` prints each reload's
marks (resources, long tasks) and the page's console on stderr; ``BENCH_TRACE=<file>`` writes a Chromium trace of
each reload of the kept path (the last one stays; ``BENCH_TRACE_HOW=per-page`` for the other).
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import statistics
import time
import zipfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from benchmarks.harness import LiveSite, Out, quantile
from benchmarks.offline_reload import reload_run
from benchmarks.offline_scripts import BOARDS, CHROMIUM_ARGS, IMPORTS, MOVES, PAGE, START
from benchmarks.offline_sequences import GAMES, board_seed, made_up_entry, sequence

HELP = "Benchmark the rules in the browser (Pyodide): download, first and warm start, time per checked move."
POSTGRES = ""


def add_arguments(parser: Any) -> None:
    parser.add_argument("--moves", type=int, default=40, help="accepted moves per game (40)")
    parser.add_argument("--throttle", type=float, default=4.0, help="the slowed CPU's factor (4; 0: none)")
    parser.add_argument(
        "--bytes", action="store_true", help="only the bytes on the wire of a first offline visit, before and after"
    )
    parser.add_argument(
        "--stdlib-imports",
        action="store_true",
        help="only list the standard library's modules the offline code imports in Pyodide (for STDLIB_MODULES)",
    )
    parser.add_argument("--reload-only", action="store_true", help="only the offline reload's first move")
    parser.add_argument("--reloads", type=int, default=10, help="measured reloads per engine path and CPU (10)")
    parser.add_argument("--warmups", type=int, default=1, help="reloads before those, not measured (1)")
    parser.add_argument(
        "--colds", type=int, default=3, help="cold starts per CPU (a new browser process each) after the reloads (3)"
    )


def run(options: dict[str, Any], out: Out) -> None:
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(chromium):
        raise CommandError(f"Chromium not found at {chromium} (scripts/browser-deps)")
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    rates = [1.0] + ([options["throttle"]] if options["throttle"] else [])
    if options["reload_only"]:
        reload_run(out, chromium, rates, options["reloads"], options["warmups"], options["colds"])
        return
    sequences = {slug: sequence(slug, options["moves"]) for slug in GAMES}
    from rulesets.offline import fold_entries

    seeds = {slug: board_seed(fold_entries(start, entries)["position"]) for slug, (start, entries) in sequences.items()}
    if options["stdlib_imports"]:
        _stdlib_imports(out, chromium, sequences, seeds)
        return
    _collect(out)
    if options["bytes"]:
        with LiveSite() as origin:
            _sizes(out, origin)
        out(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}")
        return
    baseline = _baseline(sequences, seeds)
    from playwright.sync_api import sync_playwright

    with LiveSite() as origin, sync_playwright() as p:
        _sizes(out, origin)
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            runs = {rate: _browser(browser, origin, rate, sequences, seeds) for rate in rates}
        finally:
            browser.close()
    _report(out, sequences, baseline, runs)
    reload_run(out, chromium, rates, options["reloads"], options["warmups"], options["colds"])


def pyodide_folder() -> Path:
    from frontend.offline.bundle import PYODIDE_DIR

    return Path(settings.BASE_DIR) / "frontend" / "static" / PYODIDE_DIR


def _collect(out: Out) -> None:
    """collectstatic, so the static files are served as deployed: precompressed (config/static.py); only
    what changed is compressed again."""
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("collectstatic", interactive=False, verbosity=0)
    out(f"collectstatic: {time.perf_counter() - started:.1f} s (Brotli and gzip of what changed)")


def _stdlib_imports(out: Out, chromium: str, sequences: dict[str, Any], seeds: dict[str, Any]) -> None:
    """Print the vendored standard library's modules Pyodide has imported once the offline code has run
    there (``IMPORTS``) with the whole library, as ``STDLIB_MODULES`` lists them."""
    from playwright.sync_api import sync_playwright

    from frontend.offline.bundle import PYODIDE_DIR, vendored_stdlib
    from rulesets import get_ruleset

    rng = random.Random("stdlib")
    runs = []
    for slug, (start, entries) in sequences.items():
        ruleset, seats = get_ruleset(slug), len(start["seat_names"])
        refused = [made_up_entry(rng, ruleset, start["state"], seats) for _ in range(30)]
        refused += [{"type": "", "seat": None, "data": {}}, {"type": "no_such", "seat": 7, "data": []}]
        runs.append([start, entries, refused])
    starts = [{"game": slug, "seats": [{"name": "Ana"}, {"name": "Bo"}], "options": {}} for slug in GAMES]
    starts += [{"game": "nope"}, {"game": "last-stone", "seats": [{"name": ""}]}]
    with LiveSite() as origin, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            page.set_default_timeout(300000)
            page.goto(origin + PAGE)
            whole = f"/static/{PYODIDE_DIR}python_stdlib.zip"
            answer = page.evaluate(IMPORTS, [whole, runs, list(seeds.values()), starts])
        finally:
            browser.close()
    if "error" in answer:
        raise CommandError(f"the browser refused a move CPython accepted: {answer['error']}")
    with zipfile.ZipFile(vendored_stdlib()) as zf:
        present = set(zf.namelist())
    found = [
        name
        for name in answer["modules"]
        if {name.replace(".", "/") + ".py", name.replace(".", "/") + "/__init__.py"} & present
    ]
    out(json.dumps(found))


def _sizes(out: Out, origin: str) -> None:
    """Bytes on the wire for a recorder's first offline visit (every file the engine loads, over HTTP from
    ``origin`` with a browser's Accept-Encoding, then gzip only), beside the same run's figure for what it
    was before issue 35 item 5: the same files sent as they are (the app's copies, as WhiteNoise served them
    with its finders), the whole standard library, and the archives deflated per file."""
    import urllib.request

    from frontend.offline import bundle

    urls = bundle.offline_urls()
    before = [(n, (pyodide_folder() / n).stat().st_size) for n in (*bundle.PYODIDE_FILES, bundle.PYODIDE_STDLIB)]
    for kind, sources in (("rulesets", bundle.package_sources()), ("boards", bundle.board_sources())):
        old = bundle._zip(sources, kind, zipfile.ZIP_DEFLATED)
        before.append((f"{kind} archive (deflated per file)", len(old.data)))

    def fetch(url: str, accept: str) -> tuple[int, str]:
        request = urllib.request.Request(origin + url, headers={"Accept-Encoding": accept})
        with urllib.request.urlopen(request, timeout=60) as response:  # not decoded: the bytes sent
            return len(response.read()), response.headers.get("Content-Encoding") or "none"

    after = []
    for url in [*urls["pyodide_files"], urls["stdlib_url"], urls["rulesets_url"], urls["boards_url"]]:
        raw, _ = fetch(url, "identity")
        after.append((url.rsplit("/", 1)[1], raw, *fetch(url, "gzip, deflate, br, zstd"), *fetch(url, "gzip")))
    out(f"\nBytes on the wire, a first offline visit (Pyodide {bundle.PYODIDE_VERSION}, the archives):\n")
    out("Before (each file as it is, the whole standard library, the archives deflated per file):\n")
    out("| file | bytes |\n| --- | ---: |")
    for name, size in before:
        out(f"| `{name}` | {size:,} |")
    total_before = sum(size for _, size in before)
    out(f"| **total** | **{total_before:,}** |")
    out("\nAfter (precompressed static files, the trimmed standard library, the archives stored and compressed):\n")
    out("| file | raw | browser (br) | gzip only |\n| --- | ---: | ---: | ---: |")
    for name, raw, br, br_how, gz, gz_how in after:
        out(f"| `{name}` | {raw:,} | {br:,} ({br_how}) | {gz:,} ({gz_how}) |")
    raw, br, gz = (sum(row[i] for row in after) for i in (1, 2, 4))
    out(f"| **total** | **{raw:,}** | **{br:,}** | **{gz:,}** |")
    out(
        f"\nBefore {total_before:,} B; after {br:,} B with Brotli ({br / total_before:.1%}), {gz:,} B with gzip "
        f"only ({gz / total_before:.1%}); {len(bundle.STDLIB_MODULES)} standard library modules kept."
    )
    boards = bundle.board_archive()
    unpacked = sum(len(zipfile.ZipFile(io.BytesIO(boards.data)).read(n)) for n in boards.files)
    out(
        f"The boards archive: {len(boards.files)} files, {unpacked:,} bytes unpacked, fetched when a board is first drawn."
    )


def _baseline(sequences: dict[str, Any], seeds: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per game, the median ms of the same check in CPython: ``handle`` (JSON in and out, as the browser calls
    it) and the bare ``replay.step`` (what ``store.append`` runs)."""
    from rulesets import Event, get_ruleset
    from rulesets.offline import handle
    from rulesets.replay import Position, step

    out: dict[str, dict[str, float]] = {}
    for slug, (start, entries) in sequences.items():
        ruleset = get_ruleset(slug)
        handled, stepped = [], []
        for _ in range(3):  # three rounds: the median of the lot
            position = start
            pos = Position(start["state"], 0, False)
            for entry in entries:
                t = time.perf_counter()
                answer = json.loads(handle(json.dumps({"op": "record", "args": [position, entry]})))
                handled.append((time.perf_counter() - t) * 1000)
                position = answer["position"]
                event = Event(entry["type"], entry["seat"], entry["data"])
                t = time.perf_counter()
                pos = step(ruleset, pos, event, check=True)
                stepped.append((time.perf_counter() - t) * 1000)
        out[slug] = {"handle": statistics.median(handled), "step": statistics.median(stepped)}
    from frontend.offline import board as offline_board

    for slug, seed in seeds.items():
        drawn = []
        for _ in range(5):
            t = time.perf_counter()
            offline_board.render(seed, seed, {}, "token")
            drawn.append((time.perf_counter() - t) * 1000)
        out[slug]["board"] = statistics.median(drawn)
    return out


def _browser(
    browser: Any, origin: str, rate: float, sequences: dict[str, Any], seeds: dict[str, Any]
) -> dict[str, Any]:
    """A first start on an empty cache and a warm one in the page, then one in a worker (each a new page of
    the same browser context: the HTTP cache and V8's code cache kept), and the moves both ways."""
    context = browser.new_context()  # an empty cache: the first start
    run: dict[str, Any] = {"moves": {}, "worker_moves": {}}
    for name, how in (("cold", "page"), ("warm", "page"), ("worker", "worker")):
        page = context.new_page()
        page.set_default_timeout(300000)
        if rate != 1.0:  # the page's thread slowed down (not its workers: the reload part measures it)
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(origin + PAGE)
        run[name] = page.evaluate(START, how)
        if name == "cold":
            foreign = [f["name"] for f in run[name]["files"] if not f["name"].startswith(origin)]
            if foreign:
                raise CommandError(f"loading the rules fetched from elsewhere: {foreign}")
        if name != "cold":
            key = "moves" if how == "page" else "worker_moves"
            for slug, (start, entries) in sequences.items():
                answer = page.evaluate(MOVES, [start, entries, how])
                if "error" in answer:
                    raise CommandError(f"{slug}: the browser refused a move CPython accepted: {answer['error']}")
                run[key][slug] = answer["times"]
        if name != "cold":  # the boards: the archive loaded on the first, then drawn per game
            answer = page.evaluate(BOARDS, [seeds, how])
            if "error" in answer:
                raise CommandError(f"{answer['error']}: the browser could not draw the board")
            run["boards" if how == "worker" else "page_boards"] = answer
        page.close()
    context.close()
    return run


def _report(out: Out, sequences: dict[str, Any], baseline: dict[str, Any], runs: dict[float, Any]) -> None:
    out("\nStart (ms from importing rules.js to the rules ready; Pyodide's own part in brackets; the page's")
    out("longest task, when it could not respond):\n")
    out("| CPU | first start, empty cache | warm start | in a worker (warm) | bytes fetched first |")
    out("| --- | ---: | ---: | ---: | ---: |")
    for rate, run in runs.items():
        fetched = sum(f["bytes"] for f in run["cold"]["files"])
        cells = " | ".join(
            f"{run[k]['total']:,.0f} ({run[k]['pyodide']:,.0f}); page blocked {run[k]['blocked']:,.0f}"
            for k in ("cold", "warm", "worker")
        )
        out(
            f"| {format(rate, 'g') + '× slower (phone-like)' if rate != 1 else 'this machine'} | {cells} | {fetched:,} |"
        )
    if len(runs) > 1:
        out("\nChromium's CPU throttling slows the page's thread only: a worker's own work runs at full speed, so")
        out("the throttled worker figures hold only the page's share (the messages); a phone's worker is as slow")
        out("as its page.")
    header = " | ".join(f"{format(r, 'g')}× in page / in worker" for r in runs)
    out("\nTime per checked move, ms (median; p90 in brackets), `rules.record` in the browser and the same")
    out(f"check in CPython:\n\n| game | moves | {header} | CPython same call | CPython step |")
    out("| --- | ---: |" + " ---: |" * (len(runs) + 2))

    def cell(times: list[float]) -> str:
        return f"{statistics.median(times):.1f} ({quantile(times, 0.9):.1f})"

    for slug, (_, entries) in sequences.items():
        cells = " | ".join(f"{cell(run['moves'][slug])} / {cell(run['worker_moves'][slug])}" for run in runs.values())
        base = baseline[slug]
        out(f"| {slug} | {len(entries)} | {cells} | {base['handle']:.2f} | {base['step']:.3f} |")
    out("\nThe board drawn in the browser (`rules.board`: the server's board code and templates by Django's template")
    out("engine in Pyodide), ms, in the page / in the worker. The first board of a page fetches the boards archive")
    out("(127.0.0.1, then the HTTP cache), unpacks and imports it, then draws; the next ones only draw (median of")
    out("five, at the position after the moves above):\n")
    out("| CPU | first board (archive loaded, drawn) |\n| --- | ---: |")
    for rate, run in runs.items():
        out(f"| {format(rate, 'g')}× | {run['page_boards']['first']:,.0f} / {run['boards']['first']:,.0f} |")
    header = " | ".join(format(r, "g") + "× in page / in worker" for r in runs)
    out(f"\n| game | {header} | CPython same render |")
    out("| --- |" + " ---: |" * (len(runs) + 1))
    for slug in sequences:
        cells = " | ".join(
            f"{statistics.median(run['page_boards']['games'][slug]):.1f} / "
            f"{statistics.median(run['boards']['games'][slug]):.1f}"
            for run in runs.values()
        )
        out(f"| {slug} | {cells} | {baseline[slug]['board']:.1f} |")

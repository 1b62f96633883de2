"""manage.py bench_offline: what the offline rules cost a phone (docs/PERFORMANCE.md › The rules in the browser).

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
import logging
import os
import random
import shutil
import statistics
import threading
import time
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

GAMES = [  # every match game (tests/frontend/test_browser_offline_rules.py plays them all too)
    "get-salty",
    "salt-and-bones",
    "the-first-spine",
    "bone-wars",
    "saltmarsh-adventure",
    "scoresheet",
    "last-stone",
]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
PAGE = "/accounts/login/"  # any page of the site: our origin and its Content-Security-Policy
START = """async (how) => {
  const blocked = [];
  new PerformanceObserver(l => { for (const e of l.getEntries()) blocked.push(e.duration); })
    .observe({type: 'longtask', buffered: true});
  const t0 = performance.now();
  const m = await import('/static/frontend/offline/rules.js');
  const rules = await (how === 'worker' ? m.loadRulesInWorker() : m.loadRules());
  const total = performance.now() - t0;
  await new Promise(done => setTimeout(done, 50));  // the long-task entries arrive after the task
  const files = performance.getEntriesByType('resource').map(r => ({name: r.name, bytes: r.transferSize}));
  return {total, pyodide: rules.timings.pyodide, files, blocked: Math.max(0, ...blocked)};
}"""
MOVES = """async ([start, entries, how]) => {
  const m = await import('/static/frontend/offline/rules.js');
  const rules = await (how === 'worker' ? m.loadRulesInWorker() : m.loadRules());
  let position = start;
  const times = [];
  for (const entry of entries) {
    const t = performance.now();
    const a = await rules.record(position, entry);
    times.push(performance.now() - t);
    if (a.ok !== true) return {error: JSON.stringify(a).slice(0, 300)};
    position = a.position;
  }
  return {times};
}"""


BOARDS = """async ([seeds, how]) => {
  const m = await import('/static/frontend/offline/rules.js');
  const rules = await (how === 'worker' ? m.loadRulesInWorker() : m.loadRules());
  const out = {games: {}};
  for (const [slug, seed] of Object.entries(seeds)) {
    const times = [];
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      const answer = await rules.board(seed, seed, {}, 'token');
      times.push(performance.now() - t);
      if (!answer.html) return {error: slug};
    }
    if (out.first === undefined) out.first = times.shift(); else times.shift();  // the archive's load, once
    out.games[slug] = times;
  }
  return out;
}"""


# Everything the offline code does in Pyodide, there with the whole standard library, then the modules imported:
# every game's accepted moves (with the log), refusals (made-up entries), the table's words and legal moves, an
# undo of each accepted move, a history sentence, a board per game and a new match of each game (``--stdlib-imports``).
IMPORTS = """async ([stdlib, runs, seeds, starts]) => {
  const m = await import('/static/frontend/offline/rules.js');
  const rules = await m.loadRules({stdlibUrl: stdlib});
  for (const [start, entries, refused] of runs) {
    let position = start;
    const log = [];
    for (const entry of entries) {
      const a = rules.record(position, entry, log);
      if (a.ok !== true) return {error: JSON.stringify(a).slice(0, 300)};
      rules.words(position, entry);
      position = a.position;
      log.push({version: position.version, ...a.entry});
      rules.void(position, log, position.version, "");
    }
    for (const entry of refused) rules.record(position, entry, log);
    rules.turn(position);
    rules.legal(position);
    rules.fold(start, entries, []);
  }
  for (const seed of seeds) await rules.board(seed, seed, {}, 'token');
  for (const body of starts) rules.startMatch(body);
  return {modules: JSON.parse(rules.pyodide.runPython(
    "import json, sys\\njson.dumps(sorted(n for n, mod in sys.modules.items() if getattr(mod, '__file__', None)))"))};
}"""


def board_seed(position: dict[str, Any]) -> dict[str, Any]:
    """A recorder's seed for ``position`` (what ``frontend.selectors.offline_seed`` gives a match page)."""
    from frontend.offline.bundle import offline_urls

    facts = {"title": "", "page_url": "/matches/1/", "record_url": "/matches/1/record/", "reader_seat": None,
             "reader_records": True, "times": {}, "moves": {}}  # fmt: skip
    return {**position, "match": 1, "can_record": True, "complete": True, "board": facts, **offline_urls()}


HEROES = [{"name": "Vistra", "class": "Fighter", "max_hp": 10}, {"name": "Quinn", "class": "Wizard", "max_hp": 6}]
# an adventure's turns, where made-up entries rarely fit (monsters must be in play, phases in order)
_TURN = [
    {"type": "monster_placed", "seat": None, "data": {"monster": "Sahuagin"}},
    {"type": "hero_phase_started", "seat": 0, "data": {}},
    {"type": "hero_moved", "seat": 0, "data": {}},
    {"type": "attack_rolled", "seat": 0, "data": {"attacker": "hero", "rolls": [7]}},
    {"type": "damage_taken", "seat": 0, "data": {"amount": 1}},
    {"type": "hp_healed", "seat": 0, "data": {"amount": 1}},
    {"type": "hero_phase_ended", "seat": 0, "data": {}},
    {"type": "monster_activated", "seat": None, "data": {"monster": "Sahuagin"}},
    {"type": "monster_defeated", "seat": None, "data": {"monster": "Sahuagin", "xp": 1}},
    {"type": "villain_phase_ended", "seat": 0, "data": {}},
]
SCRIPTS = {"saltmarsh-adventure": [{**e, "seat": 0 if e["seat"] == 0 else None} for e in _TURN] * 4}


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def made_up_entry(rng: random.Random, ruleset: Any, state: dict[str, Any], seat_count: int) -> dict[str, Any]:
    """An entry of a random type of the game whose data fits its fields, by the seat on turn mostly (where the
    game lists no moves; the rules then judge it). Also the differential test's (tests/frontend)."""

    def value(f: Any, seat: int | None) -> Any:
        if f.kind in ("int", "number"):
            low = int(f.minimum) if f.minimum is not None else 0
            return rng.randint(low, int(f.maximum) if f.maximum is not None else low + 5)
        if f.kind == "choice":
            return rng.choice(list(f.choices))
        if f.kind == "bool":
            return rng.random() < 0.5
        if f.kind == "cell":
            rows, cols = ruleset.board_size(state) or (5, 5)
            return [rng.randrange(rows), rng.randrange(cols)]
        if f.kind == "object":
            return {g.name: value(g, seat) for g in f.fields}
        if f.kind == "list":
            return [value(f.item, seat) for _ in range(f.min_items)] if f.item else []
        names = ruleset.names(state, seat).get(f.names) if f.names else None
        return rng.choice(names) if names else rng.choice(["Ana", "Sahuagin", "Squire", "Potion of Healing", "x"])

    from rulesets.offline import turn_of

    name, spec = rng.choice(sorted(ruleset.event_types.items()))
    turn = turn_of(ruleset, state).seats
    seat = rng.choice(turn) if turn and rng.random() < 0.8 else rng.randrange(seat_count)
    seat = seat if spec.seat_required or (spec.seat_optional and rng.random() < 0.5) else None
    return {"type": name, "seat": seat, "data": {f.name: value(f, seat) for f in spec.fields}}


def sequence(slug: str, length: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A start position and ``length`` (at most) entries the rules accept one after the other, chosen at random
    (seeded by the game) from the legal moves where the game lists them, else from made-up entries."""
    from rulesets import get_ruleset
    from rulesets.offline import legal_of, record
    from rulesets.schema import check_payload

    ruleset = get_ruleset(slug)
    seats = 2 if 2 in ruleset.seats else ruleset.seats[0]
    options = check_payload(ruleset.options_schema, {"stones": 120} if slug == "last-stone" else {})
    if slug == "saltmarsh-adventure":
        options = check_payload(ruleset.options_schema, {"adventure": "Dunwater", "heroes": HEROES})
    start = {"game": slug, "options": options, "version": 0, "state": ruleset.initial_state(options, seats),
             "override_pending": False, "seat_names": ["Ana", "Bo", "Cy", "Di"][:seats]}  # fmt: skip
    start = json.loads(json.dumps(start))
    rng = random.Random(slug)
    position, entries = start, []
    script = list(SCRIPTS.get(slug, []))
    for _ in range(length * 40):
        if len(entries) >= length:
            break
        legal = legal_of(ruleset, position["state"])
        if script:
            entry = script.pop(0)
        else:
            entry = rng.choice(legal).to_dict() if legal else made_up_entry(rng, ruleset, position["state"], seats)
        answer = record(position, entry)
        if answer["ok"] is True:
            entries.append(entry)
            position = answer["position"]
        elif legal:
            break  # a listed move refused would be a bug the differential test reports; stop here
    return start, entries


# -- the reload (issue 35 item 5) ------------------------------------------------------------------------------

ARMED = "chronicle-bench-reload"  # sessionStorage: the path this reload measures ("kept" / "per-page"), or none
# Run before the page's own scripts on every navigation of the bench's context (add_init_script); does nothing
# unless the bench armed the tab. "per-page": SharedWorker hidden, so rules.js starts a dedicated worker (the old
# path). At DOMContentLoaded (the page's module scripts have run: the earliest a tap is caught) the legal-move
# list's first move is submitted; the answer is the table bar's "Kept on this phone" sentence, on screen at the
# next frame.
RELOAD_PROBE = """(() => {
  let how = null;
  try { how = sessionStorage.getItem("ARMED"); } catch (e) { return; }
  if (!how) return;
  if (how === "per-page") delete globalThis.SharedWorker;
  const mark = (globalThis.__benchReload = { how });
  document.addEventListener("DOMContentLoaded", () => {
    mark.dcl = performance.now();
    const outcome = () => document.getElementById("outcome");
    new MutationObserver(() => {
      if (mark.answer || !outcome() || !outcome().textContent.includes("Kept on this phone")) return;
      mark.answer = performance.now();
      requestAnimationFrame(() => { mark.shown = performance.now(); });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    // table.js catches an offline submission at the document and stops it: one reaching the window was not
    addEventListener("submit", (e) => { e.preventDefault(); mark.error = "the submission was not caught offline"; });
    setTimeout(() => {  // after the other DOMContentLoaded listeners (htmx's)
      const select = document.getElementById("id_move");
      if (!select) { mark.error = "no legal-move list on the page"; return; }
      mark.tap = performance.now();
      select.selectedIndex = 0;
      select.form.requestSubmit(select.form.querySelector("button[type=submit]"));
    });
  });
})();""".replace("ARMED", ARMED)
RELOAD_MARKS = """() => {
  const nav = performance.getEntriesByType("navigation")[0] || {};
  const root = document.documentElement.dataset;
  return {...(globalThis.__benchReload || {}), url: location.href, type: nav.type, worker: nav.workerStart > 0,
          response: nav.responseEnd, ready: Number(root.offlineRulesAt || NaN), engine: root.offlineEngine || "",
          page: !!document.querySelector("#match-live #record"), online: navigator.onLine,
          asked: (performance.getEntriesByName("chronicle:rules-asked")[0] || {}).startTime,
          resources: performance.getEntriesByType("resource").map((r) => [r.name.replace(location.origin, ""),
            Math.round(r.startTime), Math.round(r.responseEnd)]),
          long: performance.getEntriesByType("longtask").map((t) => [Math.round(t.startTime), Math.round(t.duration)])};
}"""
CLEAR_QUEUE = """async (id) => {
  const q = await import("/static/frontend/offline/queue.js");
  for (const e of await q.entries(id)) await q.remove(e.key);
  await q.dropHead(id);
}"""
SPIN = """() => { const times = []; let x = 0;  // the median of five busy loops, ms
  for (let n = 0; n < 5; n++) { const t = performance.now(); for (let i = 0; i < 2e6; i++) x += Math.sqrt(i);
    times.push(performance.now() - t); }
  return times.sort((a, b) => a - b)[2] + (x < 0 ? 1 : 0); }"""


def _bench_match() -> tuple[Any, Any]:
    """A throwaway recorder and a Last Stone match of theirs (deleted by ``_drop_bench_match``)."""
    from django.contrib.auth import get_user_model

    from matches.services import match_create

    name = f"bench-reload-{random.randrange(16**8):08x}"
    user = get_user_model().objects.create_user(username=name, password=None)
    match = match_create(owner=user, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"stones": 120})  # fmt: skip
    return user, match


def _drop_bench_match(user: Any, match: Any) -> None:
    """Delete what ``_bench_match`` wrote (its events and projections go with the match)."""
    from django.db import connection

    try:
        match.delete()
        user.delete()
    finally:
        connection.close()


def _session_cookie(user: Any, origin: str) -> dict[str, Any]:
    """A signed-in session for ``user`` as a Playwright cookie (Django's test client: no sign-in form)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": origin}  # fmt: skip


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


class _Server:
    """The site on a free port of 127.0.0.1, served by a thread (static files as WhiteNoise serves them)."""

    def __enter__(self) -> str:
        from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
        from django.core.wsgi import get_wsgi_application

        class Quiet(WSGIRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
        self.server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
        self.server.set_app(get_wsgi_application())
        logging.getLogger("chronicle.access").setLevel(logging.WARNING)  # after django.setup(): no line per request
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_port}"

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


class Command(BaseCommand):
    help = "Benchmark the rules in the browser (Pyodide): download, first and warm start, time per checked move."

    def add_arguments(self, parser: Any) -> None:
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

    def handle(self, *args: Any, **options: Any) -> None:
        chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
        if not os.path.exists(chromium):
            raise CommandError(f"Chromium not found at {chromium} (scripts/browser-deps)")
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        rates = [1.0] + ([options["throttle"]] if options["throttle"] else [])
        if options["reload_only"]:
            self._reload_run(chromium, rates, options["reloads"], options["warmups"])
            return
        sequences = {slug: sequence(slug, options["moves"]) for slug in GAMES}
        from rulesets.offline import fold_entries

        self.seeds = {
            slug: board_seed(fold_entries(start, entries)["position"]) for slug, (start, entries) in sequences.items()
        }
        if options["stdlib_imports"]:
            return self._stdlib_imports(chromium, sequences)
        self._collect()
        if options["bytes"]:
            with _Server() as origin:
                self._sizes(origin)
            self.stdout.write(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}")
            return
        baseline = self._baseline(sequences)
        from playwright.sync_api import sync_playwright

        with _Server() as origin, sync_playwright() as p:
            self._sizes(origin)
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
            try:
                runs = {rate: self._browser(browser, origin, rate, sequences) for rate in rates}
            finally:
                browser.close()
        self._report(sequences, baseline, runs)
        self._reload_run(chromium, rates, options["reloads"], options["warmups"])

    def _reload_run(self, chromium: str, rates: list[float], reloads: int, warmups: int) -> None:
        """The offline reload's first move at each CPU rate, both engine paths, in a browser of its own; reported."""
        from playwright.sync_api import sync_playwright

        if reloads < 1:
            raise CommandError("--reloads must be at least 1")
        with _Server() as origin, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
            try:
                self.reload_bench(browser, origin, rates, reloads, warmups)
            finally:
                browser.close()

    def reload_bench(self, browser: Any, origin: str, rates: list[float], reloads: int, warmups: int) -> None:
        """Measure and print the offline reload's first move (``_reloads``) in ``browser`` (Playwright's) against the
        site at ``origin``, with the load average before and after. Writes a user and a match, deleted after."""
        self.stdout.write(f"\nLoad average at the start of the reloads: {os.getloadavg()[0]:.1f}")
        results = self._reloads(browser, origin, rates, reloads, warmups)
        self._reload_report(results, reloads, warmups)
        self.stdout.write(
            f"\nLoad average at the end: {os.getloadavg()[0]:.1f} (the machine's other work shares the CPU)"
        )

    def _reloads(self, browser: Any, origin: str, rates: list[float], reloads: int, warmups: int) -> dict[str, Any]:
        """One phone opens a match online (the service worker installed, the page and the engine's files kept),
        goes offline, then per CPU rate and engine path reloads the page ``warmups + reloads`` times; returns the
        marks of the measured reloads per ``(rate, path)`` and a busy loop's time per rate in the page, in the
        page's dedicated rules worker and in the shared one (how much of the throttling reaches each)."""
        user, match = _bench_match()
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            try:
                context.add_cookies([_session_cookie(user, origin)])
                context.add_init_script(RELOAD_PROBE)
                page = context.new_page()
                if os.environ.get("BENCH_DEBUG"):
                    page.on("framenavigated", lambda f: self.stderr.write(f"nav {f.url}"))
                    page.on("console", lambda m: self.stderr.write(f"console {m.text}"))
                page.set_default_timeout(300000)
                url = f"{origin}/matches/{match.pk}/"
                page.goto(url)
                page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=200)
                page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'", polling=200)
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
                out: dict[str, Any] = {"rates": rates, "spin": {}}
                for rate in rates:
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    for how in ("kept", "per-page"):
                        marks = [self._reload_once(page, match.pk, url, how) for _ in range(warmups + reloads)]
                        out[(rate, how)] = marks[warmups:]
                    workers = page.workers  # the last reload's (per page): the rules' dedicated worker
                    out["spin"][rate] = (
                        page.evaluate(SPIN),
                        workers[0].evaluate(SPIN) if workers else None,
                        _in_shared_worker(page, SPIN),
                    )
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
                return out
            finally:
                context.close()
        finally:
            _drop_bench_match(user, match)

    def _reload_once(self, page: Any, match_id: int, url: str, how: str) -> dict[str, Any]:
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
        if (
            marks.get("error")
            or not marks["page"]
            or marks["url"] != url
            or marks["type"] != "reload"
            or marks["online"]
        ):
            raise CommandError(f"the offline reload did not show the match page ready to record: {marks}")
        if not marks["worker"]:
            raise CommandError(f"the offline reload was not served by the service worker: {marks}")
        if os.environ.get("BENCH_DEBUG"):
            self.stderr.write(f"{how}: {json.dumps(marks)}")
        try:  # the board follows the move: drawn by the same engine, before the next reload
            page.wait_for_function("() => document.documentElement.dataset.offlineBoard", polling=200, timeout=60000)
        except Exception as error:  # a board not drawn only makes the next reload's engine busier
            self.stderr.write(f"(the board was not drawn after the move: {error})")
        return marks

    def _reload_report(self, results: dict[str, Any], reloads: int, warmups: int) -> None:
        out = self.stdout.write
        out(f"\nOffline reload, the first move ({reloads} reloads per row after {warmups} not measured; ms from")
        out("navigation start, median (p90)): the page served by the service worker's kept copy, the first move of")
        out("the legal-move list submitted at DOMContentLoaded, its answer ('Kept on this phone') on screen at the")
        out(
            "next frame. Kept: the engine kept across pages in a shared worker; per page: SharedWorker hidden, a dedicated"
        )
        out("worker started by each page (the old path, the same-run baseline).")
        out("")
        out(
            "| CPU | engine | answer on screen | page served | DOMContentLoaded | engine ready | answer drawn | engine |"
        )
        out("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")

        def cell(values: list[float]) -> str:
            values = [v for v in values if v == v]  # NaN: no value (an engine not ready when the answer came)
            return f"{statistics.median(values):,.0f} ({_quantile(values, 0.9):,.0f})" if values else "–"

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

    @property
    def pyodide_folder(self) -> Path:
        from frontend.offline.bundle import PYODIDE_DIR

        return Path(settings.BASE_DIR) / "frontend" / "static" / PYODIDE_DIR

    def _collect(self) -> None:
        """collectstatic, so the static files are served as deployed: precompressed (config/static.py); only
        what changed is compressed again."""
        from django.core.management import call_command

        started = time.perf_counter()
        call_command("collectstatic", interactive=False, verbosity=0)
        self.stdout.write(f"collectstatic: {time.perf_counter() - started:.1f} s (Brotli and gzip of what changed)")

    def _stdlib_imports(self, chromium: str, sequences: dict[str, Any]) -> None:
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
        with _Server() as origin, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
            try:
                page = browser.new_page()
                page.set_default_timeout(300000)
                page.goto(origin + PAGE)
                whole = f"/static/{PYODIDE_DIR}python_stdlib.zip"
                answer = page.evaluate(IMPORTS, [whole, runs, list(self.seeds.values()), starts])
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
        self.stdout.write(json.dumps(found))

    def _sizes(self, origin: str) -> None:
        """Bytes on the wire for a recorder's first offline visit (every file the engine loads, over HTTP from
        ``origin`` with a browser's Accept-Encoding, then gzip only), beside the same run's figure for what it
        was before issue 35 item 5: the same files sent as they are (the app's copies, as WhiteNoise served them
        with its finders), the whole standard library, and the archives deflated per file."""
        import urllib.request

        from frontend.offline import bundle

        urls = bundle.offline_urls()
        before = [(n, (self.pyodide_folder / n).stat().st_size) for n in (*bundle.PYODIDE_FILES, bundle.PYODIDE_STDLIB)]
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
        out = self.stdout.write
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

    def _baseline(self, sequences: dict[str, Any]) -> dict[str, dict[str, float]]:
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

        for slug, seed in self.seeds.items():
            drawn = []
            for _ in range(5):
                t = time.perf_counter()
                offline_board.render(seed, seed, {}, "token")
                drawn.append((time.perf_counter() - t) * 1000)
            out[slug]["board"] = statistics.median(drawn)
        return out

    def _browser(self, browser: Any, origin: str, rate: float, sequences: dict[str, Any]) -> dict[str, Any]:
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
                answer = page.evaluate(BOARDS, [self.seeds, how])
                if "error" in answer:
                    raise CommandError(f"{answer['error']}: the browser could not draw the board")
                run["boards" if how == "worker" else "page_boards"] = answer
            page.close()
        context.close()
        return run

    def _report(self, sequences: dict[str, Any], baseline: dict[str, Any], runs: dict[float, Any]) -> None:
        out = self.stdout.write
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
            return f"{statistics.median(times):.1f} ({_quantile(times, 0.9):.1f})"

        for slug, (_, entries) in sequences.items():
            cells = " | ".join(
                f"{cell(run['moves'][slug])} / {cell(run['worker_moves'][slug])}" for run in runs.values()
            )
            base = baseline[slug]
            out(f"| {slug} | {len(entries)} | {cells} | {base['handle']:.2f} | {base['step']:.3f} |")
        out(
            "\nThe board drawn in the browser (`rules.board`: the server's board code and templates by Django's template"
        )
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

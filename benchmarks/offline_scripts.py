"""The JavaScript ``manage.py bench offline`` runs in Chromium: the rules started, moves checked, boards drawn,
the standard library's imports listed, and the offline reload's probe and marks."""

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

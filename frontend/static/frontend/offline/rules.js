// The match rules in the browser: the server's own `rulesets` package run by Pyodide (no JavaScript copy).
//
//   import { loadRules, loadRulesInWorker } from "/static/frontend/offline/rules.js";
//   const rules = await loadRules();               // in this page: answers at once (the page waits while it starts)
//   const answer = rules.record(position, entry);
//   const worker = await loadRulesInWorker();      // in a worker (shared where the browser has one): the same
//                                                  // methods, each answering a Promise
//   const answer = await worker.record(position, entry);
//
// position = {game, options, version, state, override_pending, seat_names, complete?, viewer?}  (the page's
//            #offline-seed, or a position an earlier answer returned); entry = {type, seat, data}.
// record  → {ok: true, position, outcome, turn, legal, words, state, entry}
//         | {ok: false, status: 400, body}   (exactly the server's 400 body for this entry)
//         | {ok: null, reason}                (cannot be decided here: the server will)
// fold(position, entries, log?) → {ok, position, results, refused_at?, body?, reason?}
// legal(position) → [{type, seat, data}] | null;  turn(position) → {seats, phase, prompt, line, outcome, warnings}
// void(position, log, version, reason?) → as record (blank reason: "Undone at the table", as the pages);
//   log = every entry up to position.version [{version, type, seat, data}] (the events API's, then the answers')
// words(position, entry) → the history sentence for entry recorded on position.
// board(seed, position, query?, csrf?) → Promise of {html}: the board the server would draw in #board for position
//   (frontend/offline/board.py: the server's board functions and templates, Django's template engine); the first
//   call fetches the boards archive (seed.boards_url) and imports it, later ones only render.
// Starting takes seconds of CPU (PERFORMANCE.md › The rules in the browser): in the page that time is one long
// task (the page does not respond meanwhile); in the worker it is not. The Python side is rulesets/offline.py
// (docs/ARCHITECTURE.md › Offline: the same rules in the browser).

const SEED_ID = "offline-seed";
const OPERATIONS = {
  record: (position, entry, log) => ["record", [position, entry, log ?? null]],
  fold: (position, entries, log) => ["fold", [position, entries, log ?? null]],
  legal: (position) => ["legal", [position]],
  turn: (position) => ["turn", [position]],
  void: (position, log, version, reason = "") => ["void", [position, log, version, reason]],
  words: (position, entry) => ["describe", [position, entry]],
  // a match started on this phone: {game, seats, options} → {ok: true, position, turn, legal} | {ok: false, body}
  startMatch: (body) => ["start_match", [body]],
};
// The smallest WebAssembly module: compiling it fails at once where the page may not run WebAssembly (a
// Content-Security-Policy without 'wasm-unsafe-eval'), where Pyodide would wait for ever instead.
const EMPTY_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);

let loading = null;
let workerLoading = null;

/** The match page's seed (`{{ offline_seed|json_script:"offline-seed" }}`), or null on other pages. */
export function readSeed(doc = globalThis.document) {
  const el = doc ? doc.getElementById(SEED_ID) : null;
  return el ? JSON.parse(el.textContent) : null;
}

/** Where Pyodide, the rulesets archive and the trimmed standard library are: the options, else the page's
 * seed, else beside this file and /offline/rulesets.json (asked when an archive is fetched). */
function urls(options) {
  const seed = options.seed || readSeed() || {};
  let pyodideUrl = options.pyodideUrl || seed.pyodide_url || new URL("../vendor/pyodide/", import.meta.url).href;
  if (!pyodideUrl.endsWith("/")) pyodideUrl += "/";
  return {
    pyodideUrl: new URL(pyodideUrl, location.href).href,
    rulesetsUrl: options.rulesetsUrl || seed.rulesets_url,
    stdlibUrl: options.stdlibUrl || seed.stdlib_url,
  };
}

let named = null;

/** The current archives' URLs (`/offline/rulesets.json`), asked once per page or worker. */
function currentUrls() {
  if (!named) {
    named = fetch("/offline/rulesets.json", { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error(`rulesets.json: HTTP ${response.status}`);
      return response.json();
    });
    named.catch(() => { named = null; });  // asked again next time (the network may be back)
  }
  return named;
}

async function fetchArchive(archiveUrl, key = "rulesets_url") {
  const url = archiveUrl || (await currentUrls())[key];
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`${key.replace("_url", "")} archive: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** The board drawer on a started Pyodide: `board(requestJson) → Promise of answerJson`, where the request is
 * `{seed, position, query, csrf}` (`frontend.offline.board.render_json`). The boards archive is fetched, unpacked
 * beside the rulesets and imported on the first call only (a page that never draws a board offline never loads it). */
function boardDrawer(pyodide, timings) {
  let loading = null;
  return async (request) => {
    if (!loading) {
      loading = (async () => {
        const t0 = performance.now();
        const { seed } = JSON.parse(request);
        pyodide.unpackArchive(await fetchArchive(seed && seed.boards_url, "boards_url"), "zip", { extractDir: "/chronicle" });
        const render = pyodide.pyimport("frontend.offline.board").render_json;
        timings.boards = performance.now() - t0;
        return render;
      })().catch((error) => {
        loading = null; // fetched again on the next call (the network may be back)
        throw error;
      });
    }
    const render = await loading;
    const t1 = performance.now();
    const answer = render(request);
    timings.board_last = performance.now() - t1;
    return answer;
  };
}

const ENGINE_CACHE = "chronicle-engine";  // the service worker's cache of the engine's files (sw.js, engine.js)
const SNAPSHOT = "/__chronicle_snapshot__/";  // + the engine's files it was made from: Pyodide's, rulesets', stdlib's

/** Where the memory snapshot of an engine started from these files is kept (null: no stable name, none kept). */
function snapshotKey(pyodideUrl, rulesetsUrl, stdLibURL) {
  if (!rulesetsUrl || !stdLibURL || typeof caches === "undefined") return null;
  const name = [pyodideUrl, rulesetsUrl, stdLibURL].map((u) => new URL(u, location.href).pathname).join("|");
  return SNAPSHOT + encodeURIComponent(name);
}

async function readSnapshot(key) {
  if (!key) return null;
  try {
    const hit = await (await caches.open(ENGINE_CACHE)).match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (e) {  // a copy the browser could not read back (closed while writing it): made again
    return null;
  }
}

/** Keep ``snapshot`` under ``key``, dropping the snapshots of other engine files (an older deployment's). */
async function keepSnapshot(key, snapshot) {
  const cache = await caches.open(ENGINE_CACHE);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith(SNAPSHOT) && path !== key) await cache.delete(request);
  }
  await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
}

const IMPORTS = "import sys\nif '/chronicle' not in sys.path: sys.path.insert(0, '/chronicle')\nimport rulesets.offline\nrulesets.all_rulesets()";

/** Start Pyodide here (a page or a worker) with the archive's rulesets; resolves to `{handle, timings, pyodide}`:
 * `handle(requestJson) → answerJson` is `rulesets.offline.handle`. The first start on a phone keeps a memory
 * snapshot of the started engine (Pyodide's `makeMemorySnapshot`, the rules imported) in Cache Storage, named by
 * the engine's files; a later start (a new browser process: no engine running) loads that instead of starting
 * Python and importing the rules again (`timings.snapshot`: "loaded" / "made"; docs/PERFORMANCE.md). */
export async function startPython({ pyodideUrl, rulesetsUrl, stdlibUrl }) {
  const timings = {};
  const t0 = performance.now();
  await WebAssembly.compile(EMPTY_MODULE);
  const [{ loadPyodide }, archive, stdLibURL] = await Promise.all([
    import(pyodideUrl + "pyodide.mjs"),
    fetchArchive(rulesetsUrl),
    // a seed kept from before the trimmed library (a match started on this phone) and no network: Pyodide's own
    stdlibUrl || currentUrls().then((u) => u.stdlib_url, () => undefined),
  ]);
  timings.fetched = performance.now() - t0;
  const key = snapshotKey(pyodideUrl, rulesetsUrl, stdLibURL);
  const kept = await readSnapshot(key);
  timings.read = performance.now() - t0;
  // the standard library trimmed to what the rules import (frontend/offline/bundle.py › STDLIB_MODULES)
  const options = { indexURL: pyodideUrl, fullStdLib: false, stdLibURL };
  let pyodide = null;
  if (kept) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: kept });
      timings.snapshot = "loaded";
    } catch (e) {  // not loadable (this browser, a damaged copy): dropped, and the engine started as before
      timings.snapshot_error = String(e && e.message ? e.message : e);
      caches.open(ENGINE_CACHE).then((c) => c.delete(key)).catch(() => null);
    }
  }
  if (!pyodide) pyodide = await loadPyodide({ ...options, _makeSnapshot: !!key });
  timings.pyodide = performance.now() - t0;
  pyodide.unpackArchive(archive, "zip", { extractDir: "/chronicle" });  // a snapshot has the modules, not the files
  // every game's modules imported now, so a match's first move costs no import
  pyodide.runPython(IMPORTS);
  if (key && !kept) {
    try {
      const snapshot = pyodide.makeMemorySnapshot();
      timings.snapshot = "made";
      keepSnapshot(key, snapshot).catch(() => null);
    } catch (e) { /* none kept: the next start is a whole one again */ }
  }
  const handle = pyodide.pyimport("rulesets.offline").handle;
  timings.ready = performance.now() - t0;
  return { handle: (request) => handle(request), board: boardDrawer(pyodide, timings), timings, pyodide };
}

function answerOf(op, text) {
  const answer = JSON.parse(text);
  if (answer && typeof answer === "object" && !Array.isArray(answer) && "error" in answer && !("ok" in answer)) {
    throw new Error(`rules.${op}: ${answer.error}`); // a bug in the call, never a refusal
  }
  return answer;
}

function rulesOver(send, extra, sendBoard) {
  const rules = { ...extra };
  for (const [name, build] of Object.entries(OPERATIONS)) {
    rules[name] = (...args) => {
      const [op, list] = build(...args);
      return send(op, JSON.stringify({ op, args: list }));
    };
  }
  rules.board = (seed, position, query = {}, csrf = "") =>
    Promise.resolve(sendBoard(JSON.stringify({ seed, position, query, csrf }))).then((text) => answerOf("board", text));
  return rules;
}

/** Start Pyodide with the server's rulesets once per page, in the page; every call resolves to the same `rules`,
 * whose methods answer at once. options: {seed, pyodideUrl, rulesetsUrl}. */
export function loadRules(options = {}) {
  if (!loading) {
    loading = startPython(urls(options)).then(
      ({ handle, board, timings, pyodide }) =>
        rulesOver((op, request) => answerOf(op, handle(request)), { timings, pyodide }, board),
      (error) => {
        loading = null; // a failed start (offline before the files were cached) may be tried again
        throw error;
      },
    );
  }
  return loading;
}

/** A port to the rules worker: a shared worker where the browser has one (named by the engine's files, so a new
 * deployment's rules get their own; `extendedLifetime`: Chromium keeps it running across a reload of the only
 * page, so the next page's first move is answered by an engine already started), else a dedicated worker. */
function workerPort(where) {
  const url = new URL("./rules-worker.js", import.meta.url);
  if (typeof SharedWorker === "function") {
    const name = `chronicle-rules ${where.pyodideUrl} ${where.rulesetsUrl || ""} ${where.stdlibUrl || ""}`;
    const shared = new SharedWorker(url, { type: "module", name, extendedLifetime: true });
    shared.port.start();
    return { port: shared.port, onerror: (f) => { shared.onerror = f; }, stop: () => shared.port.close(), shared: true };
  }
  const worker = new Worker(url, { type: "module" });
  return { port: worker, onerror: (f) => { worker.onerror = f; }, stop: () => worker.terminate(), shared: false };
}

/** The same rules in a worker (`rules-worker.js`), once per page: every method answers a Promise, and the
 * seconds Pyodide takes to start never hold up the page. `rules.timings.kept`: the engine was already running (a
 * shared worker kept from an earlier page); `rules.terminate()` lets go of the worker. */
export function loadRulesInWorker(options = {}) {
  if (!workerLoading) {
    const where = urls(options);
    const worker = workerPort(where);
    const waiting = new Map();
    let next = 0;
    const send = (op, request) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { op, resolve, reject });
        worker.port.postMessage({ id, op, request });
      });
    worker.port.onmessage = ({ data }) => {
      const call = waiting.get(data.id);
      if (!call) return;
      waiting.delete(data.id);
      if (data.error) call.reject(new Error(data.error));
      else call.resolve(call.op === "start" || call.op === "board" ? data.answer : answerOf(call.op, data.answer));
    };
    worker.onerror((event) => {
      for (const call of waiting.values()) call.reject(new Error((event && event.message) || "the rules worker failed"));
      waiting.clear();
    });
    workerLoading = send("start", where).then(
      (timings) =>
        rulesOver(send, { timings, shared: worker.shared, terminate: worker.stop }, (request) => send("board", request)),
      (error) => {
        worker.stop();
        workerLoading = null;
        throw error;
      },
    );
  }
  return workerLoading;
}

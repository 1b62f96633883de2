// The match rules in the browser: the server's own `rulesets` package run by Pyodide (no JavaScript copy).
//
//   import { loadRules } from "/static/frontend/offline/rules.js";
//   const rules = await loadRules();             // one Pyodide per page, memoised
//   const answer = rules.record(position, entry);
//
// position = {game, options, version, state, override_pending, seat_names, complete?, viewer?}  (the page's
//            #offline-seed, or a position an earlier answer returned); entry = {type, seat, data}.
// record  → {ok: true, position, outcome, turn, legal, words, state, entry}
//         | {ok: false, status: 400, body}   (exactly the server's 400 body for this entry)
//         | {ok: null, reason}                (cannot be decided here: the server will)
// fold(position, entries, log?) → {ok, position, results, refused_at?, body?, reason?}
// legal(position) → [{type, seat, data}] | null;  turn(position) → {seats, phase, prompt, line, outcome, warnings}
// void(position, log, version, reason?) → as record; log = every entry so far [{version, type, seat, data}]
// words(position, entry) → the history sentence for entry recorded on position.
// The Python side is rulesets/offline.py (docs/ARCHITECTURE.md › Offline: the same rules in the browser).

const SEED_ID = "offline-seed";
let loading = null;

/** The match page's seed (`{{ offline_seed|json_script:"offline-seed" }}`), or null on other pages. */
export function readSeed(doc = document) {
  const el = doc.getElementById(SEED_ID);
  return el ? JSON.parse(el.textContent) : null;
}

function pickUrls(options) {
  const seed = options.seed || (typeof document !== "undefined" ? readSeed() : null) || {};
  const pyodideUrl = options.pyodideUrl || seed.pyodide_url || new URL("../vendor/pyodide/", import.meta.url).href;
  const rulesetsUrl = options.rulesetsUrl || seed.rulesets_url;
  return { pyodideUrl, rulesetsUrl };
}

async function rulesetsUrlFromServer() {
  const response = await fetch("/offline/rulesets.json", { credentials: "same-origin" });
  if (!response.ok) throw new Error(`rulesets.json: HTTP ${response.status}`);
  return (await response.json()).rulesets_url;
}

async function start(options) {
  const timings = {};
  const t0 = performance.now();
  let { pyodideUrl, rulesetsUrl } = pickUrls(options);
  if (!pyodideUrl.endsWith("/")) pyodideUrl += "/";
  const base = new URL(pyodideUrl, location.href).href;
  const [{ loadPyodide }, archive] = await Promise.all([
    import(base + "pyodide.mjs"),
    (async () => {
      const url = rulesetsUrl || (await rulesetsUrlFromServer());
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`rulesets archive: HTTP ${response.status}`);
      return response.arrayBuffer();
    })(),
  ]);
  const pyodide = await loadPyodide({ indexURL: base, fullStdLib: false });
  timings.pyodide = performance.now() - t0;
  pyodide.unpackArchive(archive, "zip", { extractDir: "/chronicle" });
  // every game's modules imported now, so a match's first move costs no import
  pyodide.runPython("import sys\nsys.path.insert(0, '/chronicle')\nimport rulesets.offline\nrulesets.all_rulesets()");
  const handle = pyodide.pyimport("rulesets.offline").handle;
  timings.ready = performance.now() - t0;

  const call = (op, ...args) => {
    const answer = JSON.parse(handle(JSON.stringify({ op, args })));
    if (answer && typeof answer === "object" && !Array.isArray(answer) && "error" in answer && !("ok" in answer)) {
      throw new Error(`rules.${op}: ${answer.error}`);
    }
    return answer;
  };
  return {
    pyodide,
    timings,
    record: (position, entry, log) => call("record", position, entry, log ?? null),
    fold: (position, entries, log) => call("fold", position, entries, log ?? null),
    legal: (position) => call("legal", position),
    turn: (position) => call("turn", position),
    void: (position, log, version, reason = "") => call("void", position, log, version, reason),
    words: (position, entry) => call("describe", position, entry),
  };
}

/** Start Pyodide with the server's rulesets once per page; every call resolves to the same `rules`.
 * options: {seed, pyodideUrl, rulesetsUrl} (default: the page's #offline-seed, else /offline/rulesets.json). */
export function loadRules(options = {}) {
  if (!loading) {
    loading = start(options).catch((error) => {
      loading = null; // a failed start (offline before the files were cached) may be tried again
      throw error;
    });
  }
  return loading;
}

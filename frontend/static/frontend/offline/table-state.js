// The match page's offline state, in one place: every mutable fact the table modules share (table-draw.js,
// table-record.js, table-sync.js, table-photos.js) is a field of `state`, and the page's facts (its match, its
// seed, the engine) are read here. See docs/ARCHITECTURE.md › Offline at the table.
import { startRules } from "./engine.js";
import * as startedHere from "./local.js";
import * as network from "./network.js";

export const live = () => document.getElementById("match-live");
export const root = document.documentElement;
export const WARM_AFTER = 5000;  // ms on a page before its engine files are fetched, or its kept copy refreshed

/** The page's own query, as the server reads it for the board (not the live update's ?seen=, nor a replay). */
export function pageQuery() {
  const query = {};
  new URLSearchParams(location.search).forEach((v, k) => { if (k !== "seen" && k !== "at") query[k] = v; });
  return query;
}

export const state = {
  enginePromise: null,  // the engine, started once (engine(): warmed at idle, or asked for)
  rulesPromise: null,  // the engine as asked for by a move, a drawing (rules())
  picks: null,  // the boards of the shown board's links, drawn ahead ({picks, of}: table-picks.js)
  waitingCount: 0,  // entries of this match on the phone, as last drawn (queueing())
  syncing: null,  // a sync runs on this page
  again: false,  // a sync was asked for while one ran
  retryDelay: 2000,  // the sync's back-off
  retryTimer: null,
  recording: Promise.resolve(),  // the submissions being checked and kept, one after the other (table-record.js)
  lastRecord: null,  // the local answer for the newest waiting entry (turn, legal moves)
  prefill: null,  // a held entry being entered again, once the page shows the game now
  shownPosition: null,  // the local position the page follows offline (its board links are drawn here)
  boardQuery: pageQuery(),  // the board's query (?pick=, ?card=…) as its links last asked
  rememberTimer: null,  // the kept copy's refresh after a burst of moves (table-sync.js)
  drawing: Promise.resolve(),  // the drawings of the queue, one at a time (table-draw.js › render)
  following: Promise.resolve(),  // the drawings of the local position, one at a time (table-draw.js › render)
  swappedSeed: null,  // the seed's JSON of an answer htmx is swapping in (table.js)
  writing: Promise.resolve(),  // the taps being written to the queue, one after the other (table-record.js › keep)
  taps: new Map(),  // key of an entry tapped on this page, not checked yet → {form, place, done}
  checkAsked: false,  // a check of the unchecked entries is queued (table-record.js › checkSoon)
};

/** What a drawn control does that belongs to a module above the drawing (the sync's kick, a house rule, a take
 * back): set once by table.js, so table-draw.js imports none of the modules that import it. */
export const actions = {
  kick: (_delay) => {},
  showGameNow: async () => {},
  houseRule: (_form, _entry, _reason) => {},
  takeBack: async (_entry, _s, _ask) => {},
  check: () => {},
};

export function matchId() {  // the server's id, or a match started on this phone: "local-<uuid>" (local.js)
  const page = live() && live().dataset.page;
  const m = page && page.match(/\/matches\/(\d+|local-[0-9a-f-]+)\//);
  if (!m) return null;
  return startedHere.isLocal(m[1]) ? m[1] : Number(m[1]);
}

const seeds = new WeakMap();  // #offline-seed element → its JSON parsed (once per element: a swap brings a new one)

/** The engine's seed (``#offline-seed``), else what the page itself says (version, seats, where to post). The
 * parsed JSON is shared between calls: read it, never change it. */
export function seed() {
  const el = document.getElementById("offline-seed");
  let s = null;
  if (el) {
    if (!seeds.has(el)) {
      try { seeds.set(el, JSON.parse(el.textContent)); } catch (e) { seeds.set(el, null); }
    }
    s = seeds.get(el);
  }
  const bar = document.getElementById("tablebar");
  const id = matchId();
  const names = Array.from(document.querySelectorAll("ol.players > li")).map((li) => li.firstElementChild ? li.firstElementChild.textContent.trim() : li.textContent.trim());
  return {
    match: id, version: bar ? Number(bar.dataset.version) : 0, seat_names: names,
    events_url: `/api/matches/${id}/events/`, can_record: !!document.getElementById("record"), ...(s || {}),
  };
}

export function csrf() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

/** The engine, started once per page (a shared worker's kept engine answers at once); null when it cannot start. */
function engine() {
  if (!state.enginePromise) {
    state.enginePromise = startRules(seed()).catch(() => { state.enginePromise = null; return null; });
  }
  return state.enginePromise;
}

/** The in-browser rules (the engine's rules.js), asked for once; null when this page has none. */
export function rules() {
  if (!state.rulesPromise) {
    performance.mark("chronicle:rules-asked");  // read by manage.py bench_offline (the reload's breakdown)
    state.rulesPromise = engine().then((r) => {
      if (!r) { state.rulesPromise = null; root.dataset.offlineRules = "none"; return null; }
      performance.mark("chronicle:rules-ready");
      root.dataset.offlineRules = "ready";
      root.dataset.offlineRulesAt = String(Math.round(performance.now()));
      root.dataset.offlineEngine = r.timings && r.timings.kept ? "kept" : "started";  // kept: a shared worker's
      return r;
    });
  }
  return state.rulesPromise;
}

/** Start the engine before it is needed (issue 47 item 3), at idle, online too, on a page that records: losing the
 * network then finds it running (a shared worker: one for the site's pages, kept across a reload). Only once its
 * files are on the phone (``kept``: engine.js › warmEngine has them), so a page only passed through starts nothing. */
export function warmSoon() {
  if (state.enginePromise || !seed().can_record) return;
  const go = () => engine().then((r) => { if (r) root.dataset.offlineWarm = r.timings && r.timings.kept ? "kept" : "started"; });
  if (window.requestIdleCallback) window.requestIdleCallback(go, { timeout: 2000 });
  else setTimeout(go, 500);
}

/** Whether a move form's submission is kept on the phone: offline, entries of this match wait, or a match started
 * here. */
export function queueing() { return network.offline() || state.waitingCount > 0 || startedHere.isLocal(matchId()); }

export function answered() {  // counted on <html data-offline-answers> for the browser tests to wait on
  root.dataset.offlineAnswers = String(Number(root.dataset.offlineAnswers || 0) + 1);
}

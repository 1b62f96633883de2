// A pick on the board answers at once (issue 47 item 2): the board the page would draw for each link of its board
// (pick a token, a card, a cell…) is drawn ahead, by the server for the page's own position (GET
// /matches/<id>/picks/, kept in Cache Storage beside the page) or by the engine for a local position (after it drew
// that board, kept with the queue's head), and a tap on such a link draws it from there: no round trip to the
// network or the engine, online or not. A link whose board was not drawn ahead takes the way it took before.
// See docs/ARCHITECTURE.md › Offline at the table › The board answers at once.
import * as network from "./network.js";
import { answered, matchId, root, seed, state } from "./table-state.js";

const KEPT = "chronicle-pages";  // emptied at sign-out (register.js), as the pages are
const KEY = /(name="idempotency_key" value=")[0-9a-f]{32}/g;

const board = () => document.getElementById("board");
const picksUrl = (id) => `/matches/${id}/picks/`;

/** The query of a board link as the picks name it: as written in its href, without the live update's ``seen``. */
export function queryOf(url) {
  const params = new URLSearchParams(url.search);
  params.delete("seen");
  return url.search.includes("seen=") ? params.toString() : url.search.replace(/^\?/, "");
}

/** Take ``picks`` (``{query: html}``) as the boards of the position ``#board`` shows now: valid until the board's
 * content is replaced by anything but a pick drawn from them (a swap, a local position drawn). */
export function setPicks(picks, of = board() && board().firstElementChild) {
  const section = board();
  if (!section || !picks || !of || section.firstElementChild !== of) return false;
  state.picks = { picks, of };
  root.dataset.offlinePicks = String(Object.keys(picks).length);
  return true;
}

function fresh(html) {  // each drawing's forms get keys of their own (a key names one submission)
  return html.replace(KEY, (_m, head) => head + Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(""));
}

/** Draw the board of ``query`` from the picks, if they are this board's and have it; whether it was drawn. */
export function drawPick(query) {
  const section = board();
  const p = state.picks;
  if (!section || !p || section.firstElementChild !== p.of || !(query in p.picks)) return false;
  const top = section.getBoundingClientRect().top;  // the board stays where the thumb is (no jump to the top)
  section.innerHTML = fresh(p.picks[query]);
  window.scrollBy(0, section.getBoundingClientRect().top - top);
  p.of = section.firstElementChild;
  if (window.htmx) window.htmx.process(section);
  section.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true }));  // forms.js, the-first-spine.js
  section.dispatchEvent(new CustomEvent("chronicle:board-drawn", { bubbles: true }));  // app.js: its cells in view
  root.dataset.offlinePickAt = String(Math.round(performance.now()));
  root.dataset.swaps = String(Number(root.dataset.swaps || 0) + 1);  // a swap in place, as app.js counts htmx's
  answered();
  return true;
}

/** The server's picks for the page's own position: the kept ones when they are of its version, else asked for
 * (online) and kept. Only while ``#board`` shows the server's board of that version. */
export async function loadPicks() {
  const id = matchId();
  const s = seed();
  const section = board();
  if (typeof id !== "number" || !section || section.dataset.local || !s.can_record || !s.complete || !(s.board || {}).page_url) return;
  const of = section.firstElementChild;
  if (state.picks && state.picks.of === of) return;
  const url = picksUrl(id);
  const cache = window.caches ? await caches.open(KEPT).catch(() => null) : null;
  const kept = cache ? await cache.match(url).then((r) => (r ? r.json() : null)).catch(() => null) : null;
  if (kept && kept.version === s.version && setPicks(kept.picks, of)) return;
  if (network.offline()) return;
  let body;
  try {
    const response = await network.fetchSoon(url, { credentials: "same-origin" });
    if (!response.ok) return;
    body = await response.json();
  } catch (e) {
    return;  // no answer: the links take the way they took before
  }
  if (body.version !== s.version || !Object.keys(body.picks || {}).length) return;
  setPicks(body.picks, of);
  if (cache) await cache.put(url, new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } })).catch(() => null);
}

/** Ask for the server's picks in idle time (after the page is drawn, after each swap). */
export function loadPicksSoon() {
  const go = () => loadPicks().catch(() => null);
  if (window.requestIdleCallback) window.requestIdleCallback(go, { timeout: 1000 });
  else setTimeout(go, 200);
}

const PICKS_MAX = 40;  // as frontend/offline/board.py › PICKS_MAX

/** The engine's picks for a local position whose board (``html``) it just drew: each link's board drawn by
 * ``r.board``, one call at a time (a move to check waits for one board at most), taken if that board is still
 * shown; resolves to them (for the kept head) or null. */
export async function picksAhead(s, r, pos, html, csrfToken) {
  const section = board();
  if (!section || !r || !r.board) return null;
  const of = section.firstElementChild;
  const page = new URL(s.board.page_url, location.href).pathname;
  const queries = [];
  section.querySelectorAll("a[href]").forEach((a) => {
    const url = new URL(a.getAttribute("href"), location.href);
    const query = queryOf(url);
    if (url.pathname === page && !url.searchParams.has("at") && query && !queries.includes(query)) queries.push(query);
  });
  const picks = { "": html };
  try {
    for (const query of queries.slice(0, PICKS_MAX)) {
      if (section.firstElementChild !== of) return null;  // drawn again meanwhile: these are no longer its picks
      picks[query] = (await r.board(s, pos, Object.fromEntries(new URLSearchParams(query)), csrfToken)).html;
    }
  } catch (e) {
    return null;
  }
  return setPicks(picks, of) ? picks : null;
}

// The match page at a table without a network: a move form's submission is caught before htmx or the browser
// sends it (while offline, or while entries of this match wait), checked by the in-browser rules
// (./rules.js, when the page has them), kept in the queue (./queue.js), and sent when the network is back.
// Held entries (conflicts) are shown with what the other device recorded and three ways out. Offline the turn line,
// the legal moves and the board follow the local position (the board drawn by the server's own board code: rules.board).
// This module wires the page's events to its parts: table-state.js (the state, in one place), table-draw.js,
// table-record.js, table-sync.js, table-photos.js. See docs/ARCHITECTURE.md › Offline at the table.
import { engineKept } from "./engine.js";
import * as startedHere from "./local.js";
import * as network from "./network.js";
import * as queue from "./queue.js";
import { followLink, redraw, render } from "./table-draw.js";
import * as photos from "./table-photos.js";
import { drawPick, loadPicksSoon, queryOf } from "./table-picks.js";
import * as recording from "./table-record.js";
import { actions, live, matchId, rules, seed, state, warmSoon } from "./table-state.js";
import { kick, keepThisPage, pinEngineOfPage, remember, rememberSoon, showGameNow } from "./table-sync.js";

Object.assign(actions, {
  kick, showGameNow, houseRule: recording.houseRule, takeBack: recording.takeBack, check: recording.checkSoon,
});

// a link of the board (pick a token, a card, a cell…) whose board was drawn ahead is drawn from there at once,
// online or not (table-picks.js); offline, any other is drawn here with that link's query, on the position the
// page follows: the network is not asked (it is not there), nor a stale copy of the page
document.addEventListener("click", (e) => {
  const link = e.target.closest && e.target.closest("#board a[href]");
  if (!link || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const url = new URL(link.getAttribute("href"), location.href);  // an SVG link's href is not a string
  const page = live() && live().dataset.page;
  if (url.origin !== location.origin || !page || url.pathname !== new URL(page, location.href).pathname) return;
  if (url.searchParams.has("at") || !(seed().board || {}).page_url) return;  // a replay, or a reader who cannot record: the server's page
  const here = network.offline() || startedHere.isLocal(matchId());  // the page follows the local position
  const drawn = drawPick(queryOf(url));
  if (!drawn && !here) return;  // the server's page draws it
  e.preventDefault();
  e.stopPropagation();
  state.boardQuery = {};
  url.searchParams.forEach((v, k) => { if (k !== "seen") state.boardQuery[k] = v; });
  // the address says what is picked, as the server's page would (a live update keeps a half-made pick: app.js)
  if (drawn) history.replaceState(history.state, "", url.pathname + url.search + location.hash);
  else followLink(state.boardQuery);
}, true);

recording.listen();
photos.listen();

// a move answered later than SEND_TIMEOUT is a network that is not there: kept on the phone instead
document.addEventListener("htmx:configRequest", (e) => {
  const region = live();
  if (region && e.detail.elt && region.contains(e.detail.elt) && !e.detail.timeout) e.detail.timeout = network.SEND_TIMEOUT;
});
// any answer is the server's: the network is there again
document.addEventListener("htmx:afterRequest", (e) => { if (e.detail.xhr && e.detail.xhr.status > 0) network.answered(); });
// htmx drops every <script> of a swapped answer (allowScriptTags: false), the seed's JSON too: put it back
document.addEventListener("htmx:beforeSwap", (e) => {
  if (!e.detail.target || e.detail.target.id !== "match-live") return;
  const m = /<script id="offline-seed" type="application\/json">([\s\S]*?)<\/script>/.exec(e.detail.serverResponse || "");
  state.swappedSeed = m ? m[1] : null;
});
document.addEventListener("htmx:afterSwap", () => {
  const region = live();
  if (state.swappedSeed === null || !region || document.getElementById("offline-seed")) return;
  const node = document.createElement("script");
  node.type = "application/json";
  node.id = "offline-seed";
  node.textContent = state.swappedSeed;
  region.insertBefore(node, region.firstChild);
  state.swappedSeed = null;
});
document.addEventListener("offline:network", () => {
  render();
  kick(network.offline() ? state.retryDelay : 0);  // down: the sync (or a probe) tries again with its back-off
});

document.addEventListener("htmx:afterSettle", (e) => {
  if (e.target && e.target.id === "match-live") {
    redraw().then(loadPicksSoon);
    if (e.detail && e.detail.xhr && e.detail.xhr.status < 400) rememberSoon();
  }
});
if (queue.changes) queue.changes.addEventListener("message", (e) => { if (e.data && e.data.match === matchId()) render(); });
window.addEventListener("online", () => { state.retryDelay = 2000; render(); kick(0); });
window.addEventListener("offline", () => render());
document.addEventListener("visibilitychange", () => { if (!document.hidden) kick(0); });

if (live()) {
  // offline, the engine is asked for before anything else (a shared worker's kept engine answers in a message)
  if (network.offline() && seed().can_record) rules();
  // the first visit installs the worker after this page was fetched: keep this page now that it can
  if (navigator.serviceWorker) navigator.serviceWorker.addEventListener("controllerchange", remember);
  keepThisPage();
  pinEngineOfPage();
  // the engine is warm before it is needed: started at idle once its files are on the phone, online too
  engineKept(seed()).then((kept) => (kept ? warmSoon() : document.addEventListener("offline:engine-kept", warmSoon, { once: true })), () => null);
  redraw().then(() => { kick(0); loadPicksSoon(); });
}

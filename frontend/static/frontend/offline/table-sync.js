// Sending what waits on the match page: the queue's sync run once at a time with a back-off, a match started on the
// phone created first, a probe while the network does not answer, the page shown as the server has it after a run,
// and the service worker asked to keep this page and its engine. See docs/ARCHITECTURE.md › Offline at the table.
import { pinEngine } from "./engine.js";
import * as startedHere from "./local.js";
import * as network from "./network.js";
import * as queue from "./queue.js";
import { entryWords, render, say } from "./table-draw.js";
import { csrf, live, matchId, root, seed, state, WARM_AFTER } from "./table-state.js";

/** Send what waits (one run at a time on this page; queue.sync holds a lock across tabs). */
export function kick(delay) {
  clearTimeout(state.retryTimer);
  state.retryTimer = setTimeout(runSync, delay);
}

async function runSync() {
  const id = matchId();
  if (!id || !navigator.onLine) return;
  if (state.syncing) {  // asked again during a run (a new entry): run once more after it
    state.again = true;
    return;
  }
  state.syncing = true;
  state.again = false;
  try {
    await syncOnce(id);
  } finally {
    state.syncing = null;
    if (state.again) kick(0);
  }
}

/** What a send that stopped says (``auth``: ``signIn``; ``reader``: made by another account), and a network
 * failure's retry with back-off; nothing is dropped in any case. */
function stoppedBy(stopped, signIn) {
  if (stopped === "auth") say("refused", signIn);
  if (stopped === "reader") {
    say("refused", "Not sent: what waits on this phone was made by another account. Sign in as that account " +
      "to send it (it is kept), or take it back.");
  }
  if (stopped === "network") {
    state.retryDelay = Math.min(state.retryDelay * 2, 30000);
    kick(state.retryDelay);
  }
}

/** A match started on this phone: created first (with its key, local.js), then its entries are sent to the real
 * id in order, and the page becomes the server's (what is left, if the network went meanwhile, is sent there). */
async function syncStarted(id) {
  const made = await startedHere.create(id, csrf());
  stoppedBy(made.stopped, "Sign in again to create this match on the server (it and its moves are kept).");
  if (made.refused) say("conflict", `The server did not create this match: ${made.refused.detail || "it refused it"}. It stays on this phone.`);
  if (!made.real) return;
  startedHere.follow(id, made.real);
  say("ok", "Created on the server: sending its moves…");
  await queue.sync(made.real, { eventsUrl: `/api/matches/${made.real}/events/`, csrf: csrf() });
  location.replace(`/matches/${made.real}/`);
}

async function syncOnce(id) {
  if (startedHere.isLocal(id)) return syncStarted(id);
  const s = seed();
  const all = await queue.entries(id);
  if (!all.length && network.offline()) return probe();
  if (!all.length || all[0].state !== "waiting") return;  // nothing to send, or the first is held: the player decides
  const out = await queue.sync(id, { eventsUrl: s.events_url, csrf: csrf() });
  const names = s.seat_names;
  if (out.recorded.length) {
    const last = out.recorded[out.recorded.length - 1];
    const words = out.recorded.map((x) => {
      const after = x.rebased ? ` (recorded after ${x.rebased.seat === null ? "the table's" : `${names[x.rebased.seat] || `Seat ${x.rebased.seat}`}'s`} move ${x.rebased.after})` : "";
      return `move ${x.version}: ${entryWords(x.entry, names)}${after}`;
    });
    root.dataset.offlineSent = String(Number(root.dataset.offlineSent || 0) + out.recorded.length);
    await showGameNow();
    say(out.held ? "conflict" : "ok", `Sent from this phone: ${words.join("; ")}.` + (out.held ? " One entry is held: see below." : ""));
    if (last && !out.held) state.retryDelay = 2000;
  } else {
    await render();
    if (out.held) say("conflict", "An entry from this phone was not recorded: it is held below until you decide.");
  }
  stoppedBy(out.stopped, "Sign in again to send the entries waiting on this phone (they are kept).");
}

/** Nothing waits, and the last send failed: ask for the match's version (a few bytes) until the network answers. */
async function probe() {
  const bar = document.getElementById("tablebar");
  const url = (bar && bar.dataset.live) || (live() && live().dataset.page);
  if (!url) return;
  try {
    await network.fetchSoon(url, { credentials: "same-origin", cache: "no-store" });
    network.answered();
  } catch (e) {
    network.failed();
    stoppedBy("network");
  }
}

/** Draw the game as the server has it now (after a sync or a decision on a held entry). */
export function showGameNow() {
  const region = live();
  if (!region || startedHere.isLocal(matchId())) return render();
  return new Promise((resolve) => {
    const done = () => { document.removeEventListener("offline:drawn", done); resolve(); };
    document.addEventListener("offline:drawn", done);
    setTimeout(done, 10000);  // an answer htmx does not swap (a 5xx): the next sync is not held up
    if (window.htmx && !network.offline()) {
      window.htmx.ajax("GET", region.dataset.page, { source: region, target: region, swap: "outerHTML" }).catch(() => render().then(done));
    } else {
      render().then(done);
    }
  });
}

export function rememberSoon() {  // once a burst of moves made in place is over (one page fetch, not one per move)
  clearTimeout(state.rememberTimer);
  state.rememberTimer = setTimeout(remember, WARM_AFTER);
}

export function remember() {  // the copy of this page the worker keeps follows the moves made in place
  const region = live();
  if (region && !startedHere.isLocal(matchId()) && navigator.serviceWorker && navigator.serviceWorker.controller && !network.offline()) {
    navigator.serviceWorker.controller.postMessage({ type: "remember", url: region.dataset.page });
  }
}

/** Ask the worker to keep this page if it has no copy yet (this page may have been fetched while the worker was
 * still installing, so not through it): posted as soon as a worker is active, whatever the timing of its install. */
export function keepThisPage() {
  const region = live();
  if (!region || startedHere.isLocal(matchId()) || !navigator.serviceWorker || network.offline()) return;
  navigator.serviceWorker.ready.then((reg) => {
    const worker = navigator.serviceWorker.controller || reg.active;
    if (worker) worker.postMessage({ type: "keep", url: region.dataset.page });
  }).catch(() => null);
}

export function pinEngineOfPage() {  // Pyodide and the rulesets bundle: cached once, first (engine.js, sw.js)
  const s = seed();
  pinEngine(s, { warm: !!s.can_record, root });
}

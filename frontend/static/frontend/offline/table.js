// The match page at a table without a network: a move form's submission is caught before htmx or the browser
// sends it (while offline, or while entries of this match wait), checked by the in-browser rules
// (./rules.js, when the page has them), kept in the queue (./queue.js), and sent when the network is back.
// Held entries (conflicts) are shown with what the other device recorded and three ways out. Offline the turn line,
// the legal moves and the board follow the local position (the board drawn by the server's own board code: rules.board).
// See docs/ARCHITECTURE.md › Offline at the table.
import { startRules, pinEngine } from "./engine.js";
import { entryFromForm } from "./entry.js";
import * as startedHere from "./local.js";
import * as queue from "./queue.js";
import * as network from "./network.js";

const live = () => document.getElementById("match-live");
const root = document.documentElement;
let rulesPromise = null;
let waitingCount = 0;
let syncing = null;
let again = false;  // a sync was asked for while one ran
let retryDelay = 2000;
let retryTimer = null;
let recording = Promise.resolve();  // the submissions being checked and kept, one after the other (keep)
let lastRecord = null;  // the local answer for the newest waiting entry (turn, legal moves)
let prefill = null;     // a held entry being entered again, once the page shows the game now
let shownPosition = null;  // the local position the page follows offline (its board links are drawn here)
let boardQuery = pageQuery();  // the board's query (?pick=, ?card=…) as its links last asked
const WARM_AFTER = 5000;  // ms on a page before its engine files are fetched, or its kept copy refreshed

function matchId() {  // the server's id, or a match started on this phone: "local-<uuid>" (local.js)
  const page = live() && live().dataset.page;
  const m = page && page.match(/\/matches\/(\d+|local-[0-9a-f-]+)\//);
  if (!m) return null;
  return startedHere.isLocal(m[1]) ? m[1] : Number(m[1]);
}

const seeds = new WeakMap();  // #offline-seed element → its JSON parsed (once per element: a swap brings a new one)

/** The engine's seed (``#offline-seed``), else what the page itself says (version, seats, where to post). The
 * parsed JSON is shared between calls: read it, never change it. */
function seed() {
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

function csrf() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

/** The in-browser rules (the engine's rules.js), loaded once; null when this page has none. */
function rules() {
  if (!rulesPromise) {
    const s = seed();
    performance.mark("chronicle:rules-asked");  // read by manage.py bench_offline (the reload's breakdown)
    rulesPromise = startRules(s)
      .then((r) => {
        performance.mark("chronicle:rules-ready");
        root.dataset.offlineRules = "ready";
        root.dataset.offlineRulesAt = String(Math.round(performance.now()));
        root.dataset.offlineEngine = r.timings && r.timings.kept ? "kept" : "started";  // kept: a shared worker's
        return r;
      })
      .catch(() => { rulesPromise = null; root.dataset.offlineRules = "none"; return null; });
  }
  return rulesPromise;
}

function position(s) {  // the seed is the head position as rules.js takes it
  return s.state === undefined ? null : s;
}

/** The position after the waiting entries: ``{pos, last, log, head?, bad}``, where ``pos`` is null when it is not
 * known here (``why``: "hidden", something the rules cannot judge for this reader, or "none", the rules are not on
 * this phone or the page is newer than the queue). The last one drawn is kept with the queue (``queue.putHead``):
 * when it is of these very entries it is taken as it is (``head``), no engine needed; else the entries are folded on
 * the page's position (when they were made on it). ``log``: every entry up to that position when the seed has
 * the page's log (an undo of a recorded entry is then checked here too: rulesets/offline.py › record), else null.
 * ``bad``: the keys of waiting entries the rules here refuse (kept by an older page): left out of the fold (the
 * server will hold them), so the moves after them are still checked. */
async function localPosition(s, waiting, headRead = null) {
  const start = position(s);
  if (!start) return { pos: null, why: "none", bad: [] };
  const head = await (headRead || queue.getHead(s.match));  // headRead: the same read, begun earlier
  if (head && sameEntries(head.keys, waiting) && fits(head, s, waiting)) {
    return { pos: head.pos, last: head.last, log: head.log, head, bad: head.bad || [] };
  }
  if (waiting.length && waiting[0].made_on !== s.version) return { pos: null, why: "none", bad: [] };  // the server will say
  if (!waiting.length && !startedHere.isLocal(s.match)) return { pos: start, last: null, log: Array.isArray(s.log) ? s.log.slice() : null, bad: [] };
  const r = await rules();
  if (!r) return { pos: null, why: "none", bad: [] };
  let pos = start, last = null;
  const bad = [];
  const log = Array.isArray(s.log) ? s.log.slice() : null;
  for (const e of waiting) {
    if (e.blob) {  // a photo kept here: an entry that changes nothing (the rules take no typed photo entry)
      pos = { ...pos, version: pos.version + 1 };
      if (log) log.push({ version: pos.version, type: e.type, seat: null, data: e.data });
      continue;
    }
    const answer = await r.record(pos, { type: e.type, seat: e.seat, data: e.data }, log);
    if (answer && answer.ok === false) { bad.push(e.key); continue; }
    if (!answer || answer.ok !== true) return { pos: null, why: "hidden", bad };
    pos = answer.position;
    last = answer;
    if (log) log.push({ version: pos.version, ...answer.entry });
  }
  // before its first entry (or after refused ones) the answer to draw is the position's own turn line and moves
  if (!last && (startedHere.isLocal(s.match) || bad.length)) last = { turn: await r.turn(pos), legal: await r.legal(pos) };
  return { pos, last: last && { turn: last.turn, legal: last.legal }, log, bad };
}

/** Whether the waiting entries are the kept head's, or its last ones (those before them were sent since: the
 * position after them is the same). */
function sameEntries(keys, waiting) {
  if (!Array.isArray(keys) || keys.length < waiting.length) return false;
  const tail = keys.slice(keys.length - waiting.length);
  return waiting.every((e, i) => e.key === tail[i]);
}

/** Whether a kept head is of this page: the page's own position is not newer than the one the waiting entries
 * were made on (a kept copy of the page may be older than moves made in place or sent since: the head knows more). */
function fits(head, s, waiting) {
  if (!waiting.length) return head.keys.length === 0 && head.base === s.version;
  return s.version <= waiting[0].made_on;
}

// -- drawing -------------------------------------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([k, v]) => {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  });
  children.forEach((c) => c && node.appendChild(c));
  return node;
}

function entryWords(e, names) {
  if (e.text) return e.text.replace(/\.$/, "");  // the sentence without its full stop: callers end their own
  const who = e.seat === null || e.seat === undefined ? "The table" : names[e.seat] || `Seat ${e.seat}`;
  if (e.type === "event_voided") return `Undo move ${e.data.version}`;
  if (e.type === "rule_overridden") return `House rule (${e.data.reason})`;
  return `${who}: ${e.type.replace(/_/g, " ")}`;
}

function say(kind, text) {  // the table bar's sentence
  const outcome = document.getElementById("outcome");
  if (!outcome) return;
  outcome.className = `tb-feedback tb-${kind}`;
  outcome.setAttribute("role", kind === "refused" || kind === "conflict" ? "alert" : "status");
  outcome.textContent = "";
  outcome.appendChild(el("p", { class: "tb-text", text }));
}

function showRefusal(form, body, entry = null, place = "record") {
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  const box = el("div", { class: "problem", id: "problem" },
    el("p", {}, el("strong", { text: "Not recorded:" }), document.createTextNode(" " + (body.detail || "the rules refuse this move."))));
  if (body.rule) box.appendChild(el("p", { class: "rule", text: `Rule: ${body.rule}` }));
  box.appendChild(el("p", { class: "muted", text: "Nothing was written (checked on this device: it is offline)." }));
  if (entry && body.code === "rule_violation" && body.overridable !== false) {  // as the server's box offers (_house_rule.html)
    const house = el("form", { class: "stack house-rule" },
      el("div", { class: "field" }, el("label", { for: "id_house_rule_reason", text: "Your table plays it differently? Record it anyway as a house rule, because:" }),
        el("input", { id: "id_house_rule_reason", name: "house_rule_reason", required: "", maxlength: "500", placeholder: "e.g. we allow it at our table" })),
      el("button", { type: "submit", class: "secondary", text: "Record it anyway (house rule)" }));
    house.addEventListener("submit", (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      const reason = house.elements.house_rule_reason.value.trim();
      if (reason) recording = recording.then(() => keepAsHouseRule(form, entry, reason)).catch(() => null);
    }, true);
    box.appendChild(house);
  }
  if (form.isConnected) form.parentElement.insertBefore(box, form);
  else {  // the form was drawn again since it was sent (the board after the move before): its section, at the top
    const section = document.getElementById(place) || document.getElementById("record") || live();
    section.insertBefore(box, section.querySelector("h2") ? section.querySelector("h2").nextSibling : section.firstChild);
  }
  say("refused", `Not recorded: ${body.detail || "the rules refuse this move."}`);
  box.scrollIntoView({ block: "nearest" });
}

function turnWords(turn, names) {
  if (!turn) return "";
  if (typeof turn === "string") return turn;
  if (turn.line || turn.text) return turn.line || turn.text;
  const seats = turn.seats || turn.turn_seats || [];
  const who = seats.map((i) => names[i] || `Seat ${i}`).join(" or ");
  return (who ? `${who} to play` : "") + (turn.prompt ? (who ? " — " : "") + turn.prompt : "");
}

/** The player strip follows the local turn: "to play" beside the seats ``turn`` names. */
function drawStrip(turn) {
  const seats = turn && typeof turn === "object" ? turn.seats || turn.turn_seats : null;
  if (!Array.isArray(seats) || turn.outcome) return;
  document.querySelectorAll("ol.players > li").forEach((li, i) => {
    const on = seats.includes(i);
    li.classList.toggle("on-turn", on);
    const badge = Array.from(li.querySelectorAll(".badge")).find((b) => b.textContent === "to play");
    if (on && !badge) li.append(" ", el("span", { class: "badge", text: "to play" }));
    if (!on && badge) badge.remove();
  });
}

/** Draw a kept head (``queue.getHead``) as it was: the turn line, the player strip, the legal moves and
 * (``board``: the page follows the local position) the board. */
function paintHead(head, board) {
  const turn = document.getElementById("turn");
  if (turn && head.turn) turn.textContent = head.turn;
  drawStrip(head.last && head.last.turn);
  const select = document.getElementById("id_move");
  if (select && typeof head.legal === "string") {
    select.innerHTML = head.legal;
    select.closest("form").style.display = select.options.length ? "" : "none";
    const label = document.querySelector("label[for=id_move]");
    if (label && head.legal_label) label.textContent = head.legal_label;
  }
  const section = document.getElementById("board");
  if (board && section && head.board) {
    section.innerHTML = head.board;
    section.dataset.local = String(head.pos.version);
    root.dataset.offlineBoard = String(head.pos.version);
    if (window.htmx) window.htmx.process(section);
    document.dispatchEvent(new CustomEvent("offline:board", { detail: { version: head.pos.version } }));
  }
  root.dataset.offlineHead = String(head.pos.version);
  if (!root.dataset.offlineHeadAt) root.dataset.offlineHeadAt = String(Math.round(performance.now()));
}

/** Keep what the page shows of the local position with the queue (drawn again at once on the next visit). */
async function keepHead(id, s, waiting, known) {
  const section = document.getElementById("board");
  const select = document.getElementById("id_move");
  const turn = document.getElementById("turn");
  const label = document.querySelector("label[for=id_move]");
  const drawn = section && section.dataset.local === String(known.pos.version) && !Object.keys(boardQuery).length;
  await queue.putHead({
    match: id, base: waiting.length ? waiting[0].made_on : s.version, keys: waiting.map((e) => e.key),
    pos: known.pos, last: known.last, log: known.log, bad: known.bad,
    turn: turn ? turn.textContent : "", legal: select ? select.innerHTML : null, legal_label: label ? label.textContent : "",
    board: drawn ? section.innerHTML : null,
  });
}

async function drawLocal(answer, names, r, pos) {  // the turn line and the legal-move list follow the local position
  if (!answer) return;
  const turn = document.getElementById("turn");
  const words = turnWords(answer.turn, names);
  if (turn && words) turn.textContent = words;
  drawStrip(answer.turn);
  const select = document.getElementById("id_move");
  if (select && Array.isArray(answer.legal)) {
    const options = [];
    for (const m of answer.legal) {
      const move = m.move || m;
      let text = m.text || m.words || "";
      try { text = text || (r && pos ? await r.words(pos, move) : ""); } catch (e) { text = ""; }
      text = (typeof text === "string" && text) || entryWords({ type: move.type, seat: move.seat ?? null, data: move.data || {} }, names);
      options.push(el("option", { value: JSON.stringify({ type: move.type, seat: move.seat ?? null, data: move.data || {} }), text }));
    }
    select.textContent = "";
    options.forEach((o) => select.appendChild(o));
    select.closest("form").style.display = options.length ? "" : "none";  // no move to list: no form to send
    const label = document.querySelector("label[for=id_move]");
    if (label) label.textContent = `Legal moves (${answer.legal.length})`;
  }
}

/** The page's own query, as the server reads it for the board (not the live update's ?seen=, nor a replay). */
function pageQuery() {
  const query = {};
  new URLSearchParams(location.search).forEach((v, k) => { if (k !== "seen" && k !== "at") query[k] = v; });
  return query;
}

/** Draw ``#board`` for ``pos`` with the server's own board code run here (rules.board: frontend/offline/board.py
 * in Pyodide); the page's board stays as it was when this page cannot draw it. */
async function drawBoard(s, r, pos, query) {
  const section = document.getElementById("board");
  if (!section || !r || !r.board || !s.board || !s.board.page_url || !s.boards_url) return;
  let answer;
  try {
    answer = await r.board(s, pos, query, csrf());
  } catch (e) {
    return;  // the boards archive is not on this phone yet: the board stays the last page's
  }
  const top = section.getBoundingClientRect().top;  // the board stays where the thumb is (no jump to the top)
  section.innerHTML = answer.html;
  window.scrollBy(0, section.getBoundingClientRect().top - top);
  section.dataset.local = String(pos.version);
  root.dataset.offlineBoard = String(pos.version);
  if (window.htmx) window.htmx.process(section);
  document.dispatchEvent(new CustomEvent("offline:board", { detail: { version: pos.version } }));
}

// offline, a link of the board (pick a token, a card, a cell…) is drawn here with that link's query, on the
// position the page follows: the network is not asked (it is not there), nor a stale copy of the page
document.addEventListener("click", (e) => {
  const link = e.target.closest && e.target.closest("#board a[href]");
  const here = network.offline() || startedHere.isLocal(matchId());  // the page follows the local position
  if (!link || !here || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const url = new URL(link.getAttribute("href"), location.href);  // an SVG link's href is not a string
  const page = live() && live().dataset.page;
  if (url.origin !== location.origin || !page || url.pathname !== new URL(page, location.href).pathname) return;
  if (url.searchParams.has("at") || !(seed().board || {}).page_url) return;  // a replay, or a reader who cannot record: the server's page
  e.preventDefault();
  e.stopPropagation();
  boardQuery = {};
  url.searchParams.forEach((v, k) => { if (k !== "seen") boardQuery[k] = v; });
  followLink(boardQuery);
}, true);

async function followLink(query) {
  const s = seed();
  let pos = shownPosition;
  if (!pos) {  // tapped before the page drew the local position (Pyodide starting): the same position, now
    const waiting = (await queue.entries(matchId())).filter((x) => x.state === "waiting");
    const local = await localPosition(s, waiting);
    pos = local && local.pos;
  }
  if (pos && query === boardQuery) await drawBoard(s, await rules(), pos, query);
  answered();
}

function conflictBox(e, s) {
  const body = (e.conflict && e.conflict.body) || {};
  const refused = body.rebase_refused;
  const why = refused ? `someone else recorded first (${String(refused.why || "").replace(/\.$/, "")})` : body.detail || "the server refused it.";
  const box = el("div", { class: "problem conflict offline-conflict", "data-conflict": e.key },
    el("p", {}, el("strong", { text: "Held, not recorded: " }), document.createTextNode(entryWords(e, s.seat_names))),
    el("p", { text: `Why: ${why}` }));
  const rule = body.rule || (refused && refused.rule);
  if (rule) box.appendChild(el("p", { class: "rule", text: `Rule: ${rule}` }));
  const since = (e.conflict && e.conflict.since) || [];
  if (since.length) {
    box.appendChild(el("p", { text: "Recorded meanwhile on another device:" }));
    const ul = el("ul", { class: "problem-lines" });
    since.forEach((x) => ul.appendChild(el("li", { text: `${x.text || entryWords(x, s.seat_names)} (move ${x.version}${x.recorded_by ? `, by ${x.recorded_by}` : ""})` })));
    box.appendChild(ul);
  }
  // the very move another device recorded meanwhile (both phones wrote down the same throw): dropping it loses
  // nothing, so that is offered first and the house rule (which would count it twice) comes after
  const same = since.find((x) => x.type === e.type && x.seat === e.seat && sameData(x.data, e.data));
  if (same) {
    box.appendChild(el("p", { class: "same-move", text: `This is the same move as move ${same.version}, recorded on another device: dropping it loses nothing.` }));
  }
  box.appendChild(el("p", { class: "muted", text: "Nothing is dropped unless you say so. Later entries wait behind this one." }));
  const house = el("form", { class: "stack offline-house-rule" },
    el("div", { class: "field" }, el("label", { for: `hr-${e.key}`, text: "Reason for the house rule" }),
      el("input", { id: `hr-${e.key}`, name: "reason", required: "", maxlength: "500", placeholder: "e.g. our table allows it" })),
    el("button", { type: "submit", class: same ? "secondary" : "", text: "Record it anyway as a house rule" }));
  house.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    const reason = house.elements.reason.value.trim();
    if (!reason) return;
    const base = body.current_version ?? (e.conflict.expected + since.length);
    await queue.recordAnyway(e, reason, base);
    await render();
    kick(0);
  }, true);
  const drop = el("button", { type: "button", class: same ? "" : "danger", text: "Drop it" });
  drop.addEventListener("click", async () => {
    if (!window.confirm(`Drop "${entryWords(e, s.seat_names)}"? It was never recorded and will not be sent.`)) return;
    await queue.remove(e.key);
    say("ok", `Dropped: ${entryWords(e, s.seat_names)}.`);
    await showGameNow();
    kick(0);
  });
  const again = el("button", { type: "button", class: "secondary", text: "Re-enter" });
  again.addEventListener("click", async () => {
    await queue.remove(e.key);
    prefill = e;
    await showGameNow();
    kick(0);
  });
  const actions = el("p", { class: "offline-actions" }, drop, document.createTextNode(" "), again);
  if (same) box.append(actions, house);
  else box.append(house, actions);
  return box;
}

/** Whether two entries' data are the same values (a blank and a missing field are the same). */
function sameData(a, b) {
  const norm = (d) => JSON.stringify(Object.entries(d || {}).filter(([, v]) => v !== null && v !== "").sort());
  return norm(a) === norm(b);
}

let drawing = Promise.resolve();
/** Draw the queue again, one drawing at a time (a tab's own change and another tab's news may cross). */
function render() {
  drawing = drawing.then(draw, draw);
  return drawing;
}

/** Draw the queue: the bar's offline line, the waiting list, the held entries; the local turn and moves. */
async function draw() {
  const id = matchId();
  if (!id || !live()) return;
  const s = seed();
  const all = await queue.entries(id);
  const waiting = all.filter((e) => e.state === "waiting");
  const held = all.filter((e) => e.state === "conflict");
  waitingCount = all.length;
  root.dataset.offlineWaiting = String(waiting.length);
  root.dataset.offlineHeld = String(held.length);
  // a match started on this phone follows the local position always (the server has no page of it yet)
  const offline = network.offline() || startedHere.isLocal(id);
  document.querySelectorAll("#offline-bar, #offline-queue").forEach((n) => n.remove());
  const bar = document.getElementById("tablebar");
  if (bar) {
    if (offline || all.length) {
      let text = !navigator.onLine ? "Offline: moves are kept on this phone"
        : startedHere.isLocal(id) ? "Not yet on the server"
        : network.offline() ? "No answer from the network: moves are kept on this phone" : "Back online";
      if (waiting.length) text += ` · ${waiting.length} waiting to send`;
      if (held.length) text += ` · ${held.length} held: see below`;
      bar.appendChild(el("p", { class: "tb-offline", id: "offline-bar", role: "status", text }));
    }
  }
  if (all.length) {
    const section = el("section", { id: "offline-queue", class: "offline-queue", "aria-label": "Entries on this phone" },
      el("h2", { text: "On this phone, not yet sent" }));
    if (waiting.length) {
      const ol = el("ol", { id: "offline-waiting" });
      waiting.forEach((e) => ol.appendChild(el("li", {
        "data-key": e.key, text: entryWords(e, s.seat_names) + (queue.madeByAnother(e) ? " (made by another account)" : ""),
      })));
      section.appendChild(ol);
      const back = el("button", { type: "button", class: "secondary small", text: "Take back the last one" });
      back.addEventListener("click", () => takeBack(waiting[waiting.length - 1], s));
      section.appendChild(el("p", {}, back));
    }
    held.forEach((e) => section.appendChild(conflictBox(e, s)));
    const record = document.getElementById("record");
    const anchor = record || document.getElementById("board");
    if (anchor) anchor.parentElement.insertBefore(section, record ? record : anchor.nextSibling);
  }
  // offline, the page follows the local position (online, waiting entries are about to be sent: the page is the server's)
  // an undo while entries wait takes the last of them back: its confirmation says which
  const lastWaiting = waiting.length ? entryWords(waiting[waiting.length - 1], s.seat_names) : "";
  live().querySelectorAll("form[data-confirm]").forEach((f) => {
    if (!/\/undo\/$/.test(new URL(f.action, location.href).pathname)) return;
    if (f.dataset.confirmServer === undefined) f.dataset.confirmServer = f.dataset.confirm;
    f.dataset.confirm = lastWaiting ? `Take back "${lastWaiting}"? It was not sent yet.` : f.dataset.confirmServer;
    const button = f.querySelector("button[aria-label]");  // the bar's Undo says which move it takes back
    if (button) {
      if (button.dataset.labelServer === undefined) button.dataset.labelServer = button.getAttribute("aria-label");
      button.setAttribute("aria-label", lastWaiting ? `Take back (not sent yet): ${lastWaiting}` : button.dataset.labelServer);
    }
  });
  if (!waiting.length && !startedHere.isLocal(id)) queue.dropHead(id).catch(() => null);  // the page is the position
  if (offline && s.can_record && !held.length) rules();  // the engine starts now: moves are checked once it is ready
  const local = held.length || !offline ? null : await localPosition(s, waiting);
  const known = local && local.pos ? local : null;
  lastRecord = known && known.last;
  shownPosition = known ? known.pos : null;
  if (local && local.bad.length) {
    local.bad.forEach((key) => {
      const li = document.querySelector(`#offline-waiting li[data-key="${CSS.escape(key)}"]`);
      if (li) li.textContent += " (the rules here refuse it: the server will hold it)";
    });
  }
  // the board follows the local position too, drawn by the server's own board code (once the page is not the server's)
  const follows = !!known && !!(waiting.length || startedHere.isLocal(id) || (document.getElementById("board") || {dataset: {}}).dataset.local);
  if (known && known.head) {  // drawn at once from what was kept with the queue: no engine needed
    paintHead(known.head, follows);
    if (follows && (!known.head.board || Object.keys(boardQuery).length)) await drawBoard(s, await rules(), known.pos, boardQuery);
  } else if (known) {
    await drawLocal(lastRecord, s.seat_names, await rules(), known.pos);
    if (follows) await drawBoard(s, await rules(), known.pos, boardQuery);
    if (waiting.length || startedHere.isLocal(id)) await keepHead(id, s, waiting, known).catch(() => null);
  }
  if (bar) document.documentElement.style.setProperty("--bar-h", bar.offsetHeight + "px");
}

// -- recording without a network -----------------------------------------------------------------------------

function queueing() { return network.offline() || waitingCount > 0 || startedHere.isLocal(matchId()); }

/** A move the rules refuse, kept anyway as two entries: ``rule_overridden {reason}``, then the move (the server
 * records them in order, each with its own key; the override is a correction: never rebased). */
async function keepAsHouseRule(form, entry, reason) {
  const id = matchId();
  const s = seed();
  const waiting = (await queue.entries(id)).filter((e) => e.state === "waiting");
  const local = await localPosition(s, waiting);
  const r = local.pos ? await rules() : null;
  if (!r) return;
  const rule = { type: "rule_overridden", seat: null, data: { reason } };
  const first = await r.record(local.pos, rule);
  const second = first && first.ok === true ? await r.record(first.position, entry) : first;
  if (!second || second.ok !== true) {
    showRefusal(form, (second && second.body) || { detail: (second && second.reason) || "it cannot be placed even as a house rule." });
    return;
  }
  await queue.add(id, rule, local.pos.version, { text: first.words, checked: "rules" });
  const row = await queue.add(id, second.entry || entry, first.position.version, { text: second.words, checked: "rules" });
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  say("ok", `Kept on this phone, to be sent when the network is back: ${entryWords(row, s.seat_names)} (house rule: ${reason}).`);
  await render();
  kick(0);
}

/** Undo, while the last entry is still on this phone: it is taken out of the queue (nothing to void). */
async function takeBack(entry, s, ask = true) {
  const words = entryWords(entry, s.seat_names);
  if (ask && !window.confirm(`Take back "${words}"? It was not sent yet.`)) return;
  await queue.remove(entry.key);
  say("ok", `Taken back before it was sent: ${words}.`);
  await render();
}

/** Check and keep the entry ``form`` posts, one submission after the other (each checked on the position the one
 * before it left, its answer shown with its own form); ``fixed``: the key and version of a send that failed on the
 * way (it may have reached the server: the same key makes the queued copy harmless). */
function answered() {  // counted on <html data-offline-answers> for the browser tests to wait on
  root.dataset.offlineAnswers = String(Number(root.dataset.offlineAnswers || 0) + 1);
}

function keep(form, submitter, fixed = null) {
  const place = form.closest("#board") ? "board" : "record";  // where its answer goes if the form is redrawn meanwhile
  recording = recording.then(() => record(form, submitter, fixed, place)).catch(() => null).then(answered);
  return recording;
}

async function record(form, submitter, fixed, place) {
  const id = matchId();
  const s = seed();
  let entry = null;
  try {
    entry = entryFromForm(form, submitter);
  } catch (e) {
    entry = null;
  }
  const seats = (s.seat_names || []).length;
  if (!queue.whole(entry) || (entry.seat !== null && seats && entry.seat >= seats)) {  // e.g. a board form with no button
    showRefusal(form, { detail: "That move could not be read; pick it again." }, null, place);
    return;
  }
  // an undo with no reason typed records the pages' own (frontend/forms/schema.py, the seed's undo_reason), as online
  if (entry.type === "event_voided" && !entry.data.reason) entry.data.reason = s.undo_reason || "";
  const headRead = queue.getHead(id).catch(() => undefined);  // read beside the entries, not after them
  const all = await queue.entries(id);
  const waiting = all.filter((e) => e.state === "waiting");
  if (all.length !== waiting.length) {  // later entries wait behind a held one: the player decides on it first
    showRefusal(form, { detail: "an entry from this phone is held below: record it anyway, drop it or re-enter it first." }, null, place);
    return;
  }
  if (entry.type === "event_voided" && waiting.length && !fixed) {  // the last entry never left this phone
    await takeBack(waiting[waiting.length - 1], s, false);
    return;
  }
  if (root.dataset.offlineRules !== "ready") say("news", "Checking the move on this phone…");  // Pyodide starting
  const local = await localPosition(s, waiting, headRead);
  const r = local.pos ? await rules() : null;
  let text = "";
  let checked = local.pos ? "none" : local.why;
  let madeOn = all.length ? Math.max(all[all.length - 1].made_on + 1, s.version) : s.version;
  if (r && local.pos) {
    const answer = await r.record(local.pos, entry, local.log);
    if (answer && answer.ok === false) {
      showRefusal(form, answer.body || {}, entry, place);
      return;
    }
    madeOn = local.pos.version;
    checked = answer && answer.ok === true ? "rules" : "hidden";
    if (answer && answer.ok === true) {
      text = Array.isArray(answer.words) ? answer.words.join(" ") : answer.words || "";
      if (answer.entry) entry = { type: answer.entry.type, seat: answer.entry.seat ?? null, data: answer.entry.data || {} };
    }
  }
  if (fixed) madeOn = fixed.madeOn;
  // the answer is drawn while the entry's write commits (the entry is whole and checked: queue.add takes it);
  // a write the phone's storage refuses replaces it
  const adding = queue.add(id, entry, madeOn, { text, key: fixed && fixed.key, checked });
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  say("ok", `Kept on this phone, to be sent when the network is back: ${entryWords({ ...entry, text }, s.seat_names)}.`);
  try {
    await adding;
  } catch (error) {
    showRefusal(form, { detail: "this phone could not keep the move (its storage refused it); it was not recorded." }, null, place);
    return;
  }
  boardQuery = {};  // as the server's answer to a move: the board without a pick
  const details = form.closest("details.move-form");
  if (details && !form.closest(".undo")) details.open = false;
  await render();
  kick(0);
}

const sending = new WeakMap();  // form → its last submission kept: {sig, busy, at}
document.addEventListener("submit", (e) => {
  const form = e.target;
  const region = live();
  if (!region || !region.contains(form) || String(form.method).toLowerCase() !== "post") return;
  const undo = /\/undo\/$/.test(new URL(form.action, location.href).pathname);
  if (!(form.closest("#record") || form.closest("#board") || undo) || form.closest("#offline-queue")) return;
  if (!queueing() || !seed().can_record) return;
  if (form.querySelector("[name=house_rule]")) return;  // a refusal's house rule: sent as it is when online
  e.preventDefault();
  e.stopPropagation();
  // a double tap keeps one entry (the page's own guard never sees this submit): the same form with the same
  // values within a second, or while the first is being kept, is the same entry
  const sig = JSON.stringify(Array.from(new FormData(form, e.submitter || undefined)));
  const last = sending.get(form);
  if (last && last.sig === sig && (last.busy || Date.now() - last.at < 1000)) {
    answered();  // the first tap's answer is this one's
    return;
  }
  const mark = { sig, busy: true, at: Date.now() };
  sending.set(form, mark);
  keep(form, e.submitter).finally(() => { mark.busy = false; mark.at = Date.now(); });
}, true);

// -- photos taken without a network --------------------------------------------------------------------------

const PHOTO_SIDE = 1600;  // the server's display size (matches/photos/processing.py): no need to keep more here

/** The photo made smaller on the phone (its long side at most PHOTO_SIDE, JPEG): the camera's orientation is
 * applied and the canvas keeps no EXIF. A file the browser cannot draw (HEIC on most phones) is kept as it is. */
async function shrink(file) {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  if (bitmap.close) bitmap.close();
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error("no picture"))), "image/jpeg", 0.85));
}

/** Keep the photo ``form`` posts in the queue with its caption (an entry like the others, in their order);
 * the local position counts it as an entry that changes nothing, as the server does. */
async function keepPhoto(form) {
  const id = matchId();
  const s = seed();
  const file = form.elements.photo && form.elements.photo.files[0];
  if (!file) {
    showRefusal(form, { detail: "Choose a photo to add." });
    return;
  }
  let blob;
  try { blob = await shrink(file); } catch (error) { blob = file; }
  const caption = (form.elements.caption ? form.elements.caption.value : "").trim().slice(0, 300);
  const data = { photo: "on-this-phone", caption, at: 0, display: "-", thumb: "-", width: 1, height: 1, bytes: blob.size };
  const entry = { type: "photo_added", seat: null, data };
  const all = await queue.entries(id);
  const waiting = all.filter((e) => e.state === "waiting");
  const local = all.length === waiting.length ? await localPosition(s, waiting) : null;
  let madeOn = all.length ? Math.max(all[all.length - 1].made_on + 1, s.version) : s.version;
  if (local) madeOn = local.pos.version;
  const row = await queue.add(id, entry, madeOn, { text: caption ? `Photo: ${caption}` : "Photo", blob, checked: "rules" });
  form.reset();
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  say("ok", `Kept on this phone, to be sent when the network is back: ${entryWords(row, s.seat_names)} (${Math.round(blob.size / 1024)} KB).`);
  await render();
  kick(0);
}

document.addEventListener("submit", (e) => {
  const form = e.target;
  const region = live();
  if (!form.classList || !form.classList.contains("photo-add") || !region || !region.contains(form)) return;
  if (!queueing()) return;  // online with nothing waiting: the server takes it at once
  e.preventDefault();
  e.stopPropagation();
  keepPhoto(form);
}, true);

// A send htmx made while the page believed the network was there, that failed or hung (htmx:sendError,
// htmx:timeout): from now on the page is offline (network.js), whatever navigator.onLine says. A move form's
// POST is checked here and kept with the form's own idempotency key and version (it may have reached the server:
// the same key makes the queued copy harmless); a board link (a pick) is drawn here; anything else (a live
// update) only counts as the network failing; an undo (the bar's or the Record section's) is kept as the
// submit handler keeps it offline. A POST with no move in it (the board's form with no button
// pressed) is never kept: record() keeps whole entries only.
const submitters = new WeakMap();
document.addEventListener("submit", (e) => { if (e.submitter) submitters.set(e.target, e.submitter); }, true);
function sendFailed(e) {
  network.failed();
  const config = e.detail.requestConfig || {};
  const elt = e.detail.elt;
  const region = live();
  if (!elt || !region || !region.contains(elt)) return;
  if (String(config.verb).toLowerCase() === "get") {
    const link = elt.closest && elt.closest("#board a[href]");
    if (!link) return;
    const url = new URL(config.path || link.href, location.href);
    if (url.pathname !== new URL(region.dataset.page, location.href).pathname || url.searchParams.has("at")) return;
    boardQuery = {};
    url.searchParams.forEach((v, k) => { if (k !== "seen") boardQuery[k] = v; });
    say("news", "No answer from the network: this phone follows the game now, and keeps the moves made here.");
    followLink(boardQuery);
    return;
  }
  const form = elt.tagName === "FORM" ? elt : elt.closest && elt.closest("form");
  const undo = form && /\/undo\/$/.test(new URL(form.action, location.href).pathname);  // the bar's too
  if (!form || !(form.closest("#record") || form.closest("#board") || undo)) return;
  if (form.querySelector("[name=house_rule]") || !seed().can_record) return;
  const key = form.elements.idempotency_key ? form.elements.idempotency_key.value : "";
  const madeOn = Number(form.elements.expected_version ? form.elements.expected_version.value : NaN);
  if (!key || Number.isNaN(madeOn)) return;
  keep(form, submitters.get(form), { key, madeOn });
}
document.addEventListener("htmx:sendError", sendFailed);
document.addEventListener("htmx:timeout", sendFailed);
// a move answered later than SEND_TIMEOUT is a network that is not there: kept on the phone instead
document.addEventListener("htmx:configRequest", (e) => {
  const region = live();
  if (region && e.detail.elt && region.contains(e.detail.elt) && !e.detail.timeout) e.detail.timeout = network.SEND_TIMEOUT;
});
// any answer is the server's: the network is there again
document.addEventListener("htmx:afterRequest", (e) => { if (e.detail.xhr && e.detail.xhr.status > 0) network.answered(); });
// htmx drops every <script> of a swapped answer (allowScriptTags: false), the seed's JSON too: put it back
let swappedSeed = null;
document.addEventListener("htmx:beforeSwap", (e) => {
  if (!e.detail.target || e.detail.target.id !== "match-live") return;
  const m = /<script id="offline-seed" type="application\/json">([\s\S]*?)<\/script>/.exec(e.detail.serverResponse || "");
  swappedSeed = m ? m[1] : null;
});
document.addEventListener("htmx:afterSwap", () => {
  const region = live();
  if (swappedSeed === null || !region || document.getElementById("offline-seed")) return;
  const node = document.createElement("script");
  node.type = "application/json";
  node.id = "offline-seed";
  node.textContent = swappedSeed;
  region.insertBefore(node, region.firstChild);
  swappedSeed = null;
});
document.addEventListener("offline:network", () => {
  render();
  kick(network.offline() ? retryDelay : 0);  // down: the sync (or a probe) tries again with its back-off
});

// -- sending -------------------------------------------------------------------------------------------------

/** Send what waits (one run at a time on this page; queue.sync holds a lock across tabs). */
function kick(delay) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(runSync, delay);
}

async function runSync() {
  const id = matchId();
  if (!id || !navigator.onLine) return;
  if (syncing) {  // asked again during a run (a new entry): run once more after it
    again = true;
    return;
  }
  syncing = true;
  again = false;
  try {
    await syncOnce(id);
  } finally {
    syncing = null;
    if (again) kick(0);
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
    retryDelay = Math.min(retryDelay * 2, 30000);
    kick(retryDelay);
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
    if (last && !out.held) retryDelay = 2000;
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
function showGameNow() {
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

let rememberTimer = null;
function rememberSoon() {  // once a burst of moves made in place is over (one page fetch, not one per move)
  clearTimeout(rememberTimer);
  rememberTimer = setTimeout(remember, WARM_AFTER);
}

function remember() {  // the copy of this page the worker keeps follows the moves made in place
  const region = live();
  if (region && !startedHere.isLocal(matchId()) && navigator.serviceWorker && navigator.serviceWorker.controller && !network.offline()) {
    navigator.serviceWorker.controller.postMessage({ type: "remember", url: region.dataset.page });
  }
}

/** Ask the worker to keep this page if it has no copy yet (this page may have been fetched while the worker was
 * still installing, so not through it): posted as soon as a worker is active, whatever the timing of its install. */
function keepThisPage() {
  const region = live();
  if (!region || startedHere.isLocal(matchId()) || !navigator.serviceWorker || network.offline()) return;
  navigator.serviceWorker.ready.then((reg) => {
    const worker = navigator.serviceWorker.controller || reg.active;
    if (worker) worker.postMessage({ type: "keep", url: region.dataset.page });
  }).catch(() => null);
}

function pinEngineOfPage() {  // Pyodide and the rulesets bundle: cached once, first (engine.js, sw.js)
  const s = seed();
  pinEngine(s, { warm: !!s.can_record, root });
}

function prefillForm() {
  const e = prefill;
  prefill = null;
  const form = document.querySelector(`form[data-event-type="${CSS.escape(e.type)}"]`);
  if (!form) {
    say("news", `Enter it again: ${entryWords(e, seed().seat_names)}.`);
    return;
  }
  const other = form.closest("details.other-entries");
  if (other) other.open = true;
  const details = form.closest("details.move-form:not(.other-entries)");
  if (details) details.open = true;
  if (e.seat !== null && form.elements.seat) form.elements.seat.value = String(e.seat);
  const fill = (prefix, value) => {
    if (value !== null && typeof value === "object") {
      Object.entries(value).forEach(([k, v]) => fill(`${prefix}.${k}`, v));
      return;
    }
    const field = form.elements.namedItem(prefix);
    if (field && field.type === "checkbox") field.checked = !!value;
    else if (field && "value" in field) field.value = String(value);
  };
  Object.entries(e.data || {}).forEach(([k, v]) => fill(`data.${k}`, v));
  say("news", `Enter it again on the game as it is now: ${entryWords(e, seed().seat_names)}.`);
  form.scrollIntoView({ block: "nearest" });
}

async function redraw() {
  await render();
  if (prefill) prefillForm();
  document.dispatchEvent(new Event("offline:drawn"));
}

document.addEventListener("htmx:afterSettle", (e) => {
  if (e.target && e.target.id === "match-live") {
    redraw();
    if (e.detail && e.detail.xhr && e.detail.xhr.status < 400) rememberSoon();
  }
});
if (queue.changes) queue.changes.addEventListener("message", (e) => { if (e.data && e.data.match === matchId()) render(); });
window.addEventListener("online", () => { retryDelay = 2000; render(); kick(0); });
window.addEventListener("offline", () => render());
document.addEventListener("visibilitychange", () => { if (!document.hidden) kick(0); });

if (live()) {
  // offline, the engine is asked for before anything else (a shared worker's kept engine answers in a message)
  if (network.offline() && seed().can_record) rules();
  // the first visit installs the worker after this page was fetched: keep this page now that it can
  if (navigator.serviceWorker) navigator.serviceWorker.addEventListener("controllerchange", remember);
  keepThisPage();
  pinEngineOfPage();
  redraw().then(() => kick(0));
}

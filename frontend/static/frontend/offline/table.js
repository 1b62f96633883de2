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

const live = () => document.getElementById("match-live");
const root = document.documentElement;
let rulesPromise = null;
let waitingCount = 0;
let syncing = null;
let again = false;  // a sync was asked for while one ran
let retryDelay = 2000;
let retryTimer = null;
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

/** The engine's seed (``#offline-seed``), else what the page itself says (version, seats, where to post). */
function seed() {
  const el = document.getElementById("offline-seed");
  let s = null;
  if (el) {
    try { s = JSON.parse(el.textContent); } catch (e) { s = null; }
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
    rulesPromise = startRules(s)
      .then((r) => { root.dataset.offlineRules = "ready"; return r; })
      .catch(() => { rulesPromise = null; root.dataset.offlineRules = "none"; return null; });
  }
  return rulesPromise;
}

function position(s) {  // the seed is the head position as rules.js takes it
  return s.state === undefined ? null : s;
}

/** The position after the waiting entries, folded on the page's own (when they were made on it), else null;
 * ``log``: every entry up to that position when the seed has the page's log (an undo of a recorded entry is
 * then checked here too: rulesets/offline.py › record), else null. */
async function localPosition(s, waiting) {
  const r = await rules();
  const start = position(s);
  if (!r || !start) return null;
  if (waiting.length && waiting[0].made_on !== s.version) return null;  // the page is newer: the server will say
  let pos = start, last = null;
  const log = Array.isArray(s.log) ? s.log.slice() : null;
  for (const e of waiting) {
    if (e.blob) {  // a photo kept here: an entry that changes nothing (the rules take no typed photo entry)
      pos = { ...pos, version: pos.version + 1 };
      if (log) log.push({ version: pos.version, type: e.type, seat: null, data: e.data });
      continue;
    }
    const answer = await r.record(pos, { type: e.type, seat: e.seat, data: e.data }, log);
    if (!answer || answer.ok !== true) return null;
    pos = answer.position;
    last = answer;
    if (log) log.push({ version: pos.version, ...answer.entry });
  }
  // before its first entry a match started here has no answer to draw: the turn line and the moves of its start
  if (!last && startedHere.isLocal(s.match)) last = { turn: await r.turn(pos), legal: await r.legal(pos) };
  return { pos, last, log };
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

function showRefusal(form, body, entry = null) {
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
      if (reason) keepAsHouseRule(form, entry, reason);
    }, true);
    box.appendChild(house);
  }
  form.parentElement.insertBefore(box, form);
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

async function drawLocal(answer, names, r, pos) {  // the turn line and the legal-move list follow the local position
  if (!answer) return;
  const turn = document.getElementById("turn");
  const words = turnWords(answer.turn, names);
  if (turn && words) turn.textContent = words;
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
  section.innerHTML = answer.html;
  section.dataset.local = String(pos.version);
  root.dataset.offlineBoard = String(pos.version);
  if (window.htmx) window.htmx.process(section);
  document.dispatchEvent(new CustomEvent("offline:board", { detail: { version: pos.version } }));
}

// offline, a link of the board (pick a token, a card, a cell…) is drawn here with that link's query, on the
// position the page follows: the network is not asked (it is not there), nor a stale copy of the page
document.addEventListener("click", (e) => {
  const link = e.target.closest && e.target.closest("#board a[href]");
  const here = !navigator.onLine || startedHere.isLocal(matchId());  // the page follows the local position
  if (!link || !here || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  const url = new URL(link.href, location.href);
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
  box.appendChild(el("p", { class: "muted", text: "Nothing is dropped unless you say so. Later entries wait behind this one." }));
  const house = el("form", { class: "stack offline-house-rule" },
    el("div", { class: "field" }, el("label", { for: `hr-${e.key}`, text: "Reason for the house rule" }),
      el("input", { id: `hr-${e.key}`, name: "reason", required: "", maxlength: "500", placeholder: "e.g. our table allows it" })),
    el("button", { type: "submit", text: "Record it anyway as a house rule" }));
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
  const drop = el("button", { type: "button", class: "danger", text: "Drop it" });
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
  box.appendChild(house);
  box.appendChild(el("p", { class: "offline-actions" }, drop, document.createTextNode(" "), again));
  return box;
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
  const offline = !navigator.onLine || startedHere.isLocal(id);
  document.querySelectorAll("#offline-bar, #offline-queue").forEach((n) => n.remove());
  const bar = document.getElementById("tablebar");
  if (bar) {
    if (offline || all.length) {
      let text = !navigator.onLine ? "Offline: moves are kept on this phone" : startedHere.isLocal(id) ? "Not yet on the server" : "Back online";
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
  });
  const local = held.length || !offline ? null : await localPosition(s, waiting);
  lastRecord = local && local.last;
  shownPosition = local ? local.pos : null;
  if (local) await drawLocal(lastRecord, s.seat_names, await rules(), local.pos);
  // the board follows the local position too, drawn by the server's own board code (once the page is not the server's)
  if (local && (waiting.length || startedHere.isLocal(id) || (document.getElementById("board") || {dataset: {}}).dataset.local)) {
    await drawBoard(s, await rules(), local.pos, boardQuery);
  }
  if (bar) document.documentElement.style.setProperty("--bar-h", bar.offsetHeight + "px");
}

// -- recording without a network -----------------------------------------------------------------------------

function queueing() { return !navigator.onLine || waitingCount > 0 || startedHere.isLocal(matchId()); }

/** A move the rules refuse, kept anyway as two entries: ``rule_overridden {reason}``, then the move (the server
 * records them in order, each with its own key; the override is a correction: never rebased). */
async function keepAsHouseRule(form, entry, reason) {
  const id = matchId();
  const s = seed();
  const waiting = (await queue.entries(id)).filter((e) => e.state === "waiting");
  const local = await localPosition(s, waiting);
  const r = await rules();
  if (!local || !r) return;
  const rule = { type: "rule_overridden", seat: null, data: { reason } };
  const first = await r.record(local.pos, rule);
  const second = first && first.ok === true ? await r.record(first.position, entry) : first;
  if (!second || second.ok !== true) {
    showRefusal(form, (second && second.body) || { detail: (second && second.reason) || "it cannot be placed even as a house rule." });
    return;
  }
  await queue.add(id, rule, local.pos.version, { text: first.words });
  const row = await queue.add(id, second.entry || entry, first.position.version, { text: second.words });
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

/** Check and keep the entry ``form`` posts; ``fixed``: the key and version of a send that failed on the way
 * (it may have reached the server: the same key makes the queued copy harmless). */
async function record(form, submitter, fixed = null) {
  const id = matchId();
  const s = seed();
  let entry;
  try {
    entry = entryFromForm(form, submitter);
  } catch (e) {
    showRefusal(form, { detail: "That move could not be read; pick it again." });
    return;
  }
  // an undo with no reason typed records the pages' own (frontend/forms/schema.py, the seed's undo_reason), as online
  if (entry.type === "event_voided" && !entry.data.reason) entry.data.reason = s.undo_reason || "";
  const all = await queue.entries(id);
  const waiting = all.filter((e) => e.state === "waiting");
  if (entry.type === "event_voided" && waiting.length && !fixed) {  // the last entry never left this phone
    await takeBack(waiting[waiting.length - 1], s, false);
    return;
  }
  if (root.dataset.offlineRules !== "ready") say("news", "Checking the move on this phone…");  // Pyodide starting
  const local = all.length === waiting.length && !fixed ? await localPosition(s, waiting) : null;
  const r = local ? await rules() : null;
  let text = "";
  let madeOn = all.length ? Math.max(all[all.length - 1].made_on + 1, s.version) : s.version;
  if (r && local) {
    const answer = await r.record(local.pos, entry, local.log);
    if (answer && answer.ok === false) {
      showRefusal(form, answer.body || {}, entry);
      return;
    }
    madeOn = local.pos.version;
    if (answer && answer.ok === true) {
      text = Array.isArray(answer.words) ? answer.words.join(" ") : answer.words || "";
      if (answer.entry) entry = { type: answer.entry.type, seat: answer.entry.seat ?? null, data: answer.entry.data || {} };
    }
  }
  if (fixed) madeOn = fixed.madeOn;
  const row = await queue.add(id, entry, madeOn, { text, key: fixed && fixed.key });
  boardQuery = {};  // as the server's answer to a move: the board without a pick
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  say("ok", `Kept on this phone, to be sent when the network is back: ${entryWords(row, s.seat_names)}.`);
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
  if (last && last.sig === sig && (last.busy || Date.now() - last.at < 1000)) return;
  const mark = { sig, busy: true, at: Date.now() };
  sending.set(form, mark);
  record(form, e.submitter).finally(() => { mark.busy = false; mark.at = Date.now(); });
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
  const row = await queue.add(id, entry, madeOn, { text: caption ? `Photo: ${caption}` : "Photo", blob });
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

// a form htmx sent while the phone believed it was online, and the network failed on the way: kept, not lost
const submitters = new WeakMap();
document.addEventListener("submit", (e) => { if (e.submitter) submitters.set(e.target, e.submitter); }, true);
document.addEventListener("htmx:sendError", (e) => {
  const form = e.detail.elt && e.detail.elt.closest ? e.detail.elt.closest("form") : null;
  const region = live();
  if (!form || !region || !region.contains(form) || !(form.closest("#record") || form.closest("#board"))) return;
  if (form.querySelector("[name=house_rule]") || !seed().can_record) return;
  const key = form.elements.idempotency_key ? form.elements.idempotency_key.value : "";
  const madeOn = Number(form.elements.expected_version ? form.elements.expected_version.value : NaN);
  if (!key || Number.isNaN(madeOn)) return;
  record(form, submitters.get(form), { key, madeOn });
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

/** Draw the game as the server has it now (after a sync or a decision on a held entry). */
function showGameNow() {
  const region = live();
  if (!region || startedHere.isLocal(matchId())) return render();
  return new Promise((resolve) => {
    const done = () => { document.removeEventListener("offline:drawn", done); resolve(); };
    document.addEventListener("offline:drawn", done);
    setTimeout(done, 10000);  // an answer htmx does not swap (a 5xx): the next sync is not held up
    if (window.htmx && navigator.onLine) {
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
  if (region && !startedHere.isLocal(matchId()) && navigator.serviceWorker && navigator.serviceWorker.controller && navigator.onLine) {
    navigator.serviceWorker.controller.postMessage({ type: "remember", url: region.dataset.page });
  }
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
  // the first visit installs the worker after this page was fetched: keep this page now that it can
  if (navigator.serviceWorker) navigator.serviceWorker.addEventListener("controllerchange", remember);
  pinEngineOfPage();
  redraw().then(() => kick(0));
}

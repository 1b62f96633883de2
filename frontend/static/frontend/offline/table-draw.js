// The match page's offline drawing: the table bar's sentence, a refusal's box, the waiting list and the held
// entries (with their three ways out), and the local position's turn line, legal moves and board (drawn by the
// server's own board code: rules.board). Its state is table-state.js's; what its buttons do above the drawing
// goes through `actions`. See docs/ARCHITECTURE.md › Offline at the table.
import * as startedHere from "./local.js";
import * as network from "./network.js";
import * as queue from "./queue.js";
import { picksAhead, setPicks } from "./table-picks.js";
import { localPosition } from "./table-position.js";
import { actions, answered, csrf, live, matchId, root, rules, seed, state } from "./table-state.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([k, v]) => {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  });
  children.forEach((c) => c && node.appendChild(c));
  return node;
}

export function entryWords(e, names) {
  if (e.text) return e.text.replace(/\.$/, "");  // the sentence without its full stop: callers end their own
  const who = e.seat === null || e.seat === undefined ? "The table" : names[e.seat] || `Seat ${e.seat}`;
  if (e.type === "event_voided") return `Undo move ${e.data.version}`;
  if (e.type === "rule_overridden") return `House rule (${e.data.reason})`;
  return `${who}: ${e.type.replace(/_/g, " ")}`;
}

export function say(kind, text) {  // the table bar's sentence
  const outcome = document.getElementById("outcome");
  if (!outcome) return;
  outcome.className = `tb-feedback tb-${kind}`;
  outcome.setAttribute("role", kind === "refused" || kind === "conflict" ? "alert" : "status");
  outcome.textContent = "";
  outcome.appendChild(el("p", { class: "tb-text", text }));
}

export function showRefusal(form, body, entry = null, place = "record") {
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
      if (reason) actions.houseRule(form, entry, reason);
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
    if (head.picks) setPicks(head.picks);  // its picks, drawn ahead by the engine when it was kept
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
  const drawn = section && section.dataset.local === String(known.pos.version) && !Object.keys(state.boardQuery).length;
  await queue.putHead({
    match: id, base: waiting.length ? waiting[0].made_on : s.version, keys: waiting.map((e) => e.key),
    pos: known.pos, last: known.last, log: known.log, bad: known.bad,
    turn: turn ? turn.textContent : "", legal: select ? select.innerHTML : null, legal_label: label ? label.textContent : "",
    board: drawn ? section.innerHTML : null,
    picks: drawn && state.picks && state.picks.of === section.firstElementChild ? state.picks.picks : null,
  });
}

export async function drawLocal(answer, names, r, pos) {  // the turn line and the legal-move list follow the local position
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

/** Draw ``#board`` for ``pos`` with the server's own board code run here (rules.board: frontend/offline/board.py
 * in Pyodide); the page's board stays as it was when this page cannot draw it. */
export async function drawBoard(s, r, pos, query) {
  const section = document.getElementById("board");
  if (!section || !r || !r.board || !s.board || !s.board.page_url || !s.boards_url) return;
  let answer;
  try {
    answer = await r.board(s, pos, query, csrf());
  } catch (e) {
    return;  // the boards archive is not on this phone yet: the board stays the last page's
  }
  const top = section.getBoundingClientRect().top;  // the board stays where the thumb is (no jump to the top)
  // a pick drawn on the same position keeps that position's picks (drawn ahead: table-picks.js)
  const same = state.picks && state.picks.of === section.firstElementChild && section.dataset.local === String(pos.version);
  section.innerHTML = answer.html;
  window.scrollBy(0, section.getBoundingClientRect().top - top);
  section.dataset.local = String(pos.version);
  root.dataset.offlineBoard = String(pos.version);
  if (window.htmx) window.htmx.process(section);
  if (same) state.picks.of = section.firstElementChild;
  if (Object.keys(query || {}).length) section.dispatchEvent(new CustomEvent("chronicle:board-drawn", { bubbles: true }));
  document.dispatchEvent(new CustomEvent("offline:board", { detail: { version: pos.version } }));
  if (!same && !Object.keys(query || {}).length) keepPicks(s, r, pos, answer.html);  // the next pick answers at once
}

/** The engine draws ahead the boards of this local position's links (after the board itself), and they are kept
 * with the queue's head when it is of this position. */
async function keepPicks(s, r, pos, html) {
  const picks = await picksAhead(s, r, pos, html, csrf());
  if (!picks) return;
  const head = await queue.getHead(s.match).catch(() => null);
  if (head && head.pos && head.pos.version === pos.version && head.board) await queue.putHead({ ...head, picks }).catch(() => null);
}

// offline, a link of the board (pick a token, a card, a cell…) is drawn here with that link's query, on the
// position the page follows: the network is not asked (it is not there), nor a stale copy of the page
export async function followLink(query) {
  const s = seed();
  let pos = state.shownPosition;
  if (!pos) {  // tapped before the page drew the local position (Pyodide starting): the same position, now
    const waiting = (await queue.entries(matchId())).filter((x) => x.state === "waiting");
    const local = await localPosition(s, waiting);
    pos = local && local.pos;
  }
  if (pos && query === state.boardQuery) await drawBoard(s, await rules(), pos, query);
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
    if (e.conflict.here) await queue.holdAsHouseRule(e, reason);  // refused here: checked again as a house rule
    else await queue.recordAnyway(e, reason, body.current_version ?? (e.conflict.expected + since.length));
    await render();
    actions.kick(0);
  }, true);
  const drop = el("button", { type: "button", class: same ? "" : "danger", text: "Drop it" });
  drop.addEventListener("click", async () => {
    if (!window.confirm(`Drop "${entryWords(e, s.seat_names)}"? It was never recorded and will not be sent.`)) return;
    await queue.remove(e.key);
    say("ok", `Dropped: ${entryWords(e, s.seat_names)}.`);
    await actions.showGameNow();
    actions.kick(0);
  });
  const reenter = el("button", { type: "button", class: "secondary", text: "Re-enter" });
  reenter.addEventListener("click", async () => {
    await queue.remove(e.key);
    state.prefill = e;
    await actions.showGameNow();
    actions.kick(0);
  });
  const ways = el("p", { class: "offline-actions" }, drop, document.createTextNode(" "), reenter);
  if (same) box.append(ways, house);
  else box.append(house, ways);
  return box;
}

/** Whether two entries' data are the same values (a blank and a missing field are the same). */
function sameData(a, b) {
  const norm = (d) => JSON.stringify(Object.entries(d || {}).filter(([, v]) => v !== null && v !== "").sort());
  return norm(a) === norm(b);
}

/** Draw the queue again, one drawing at a time (a tab's own change and another tab's news may cross): the list and
 * the bar at once (``drawQueue``), the local position after them (``follow``, on a chain of its own: it may wait
 * for the engine to start, and the list of what was kept must not wait with it). Resolves once both are drawn. */
export function render() {
  const listed = state.drawing.then(drawQueue, drawQueue);
  state.drawing = listed.catch(() => null);
  const followed = Promise.all([state.following, listed]).then(([, q]) => (q ? follow(q) : null));
  state.following = followed.catch(() => null);
  return followed;
}

/** Draw the queue: the bar's offline line, the waiting list, the held entries; what ``follow`` needs. */
async function drawQueue() {
  const id = matchId();
  if (!id || !live()) return;
  const s = seed();
  const all = await queue.entries(id);
  const waiting = all.filter((e) => e.state === "waiting");
  const held = all.filter((e) => e.state === "conflict");
  state.waitingCount = all.length;
  root.dataset.offlineWaiting = String(waiting.length);
  root.dataset.offlineHeld = String(held.length);
  root.dataset.offlineChecking = String(waiting.filter((e) => e.checked === "pending").length);  // kept, checking…
  // a match started on this phone follows the local position always (the server has no page of it yet)
  const offline = network.offline() || startedHere.isLocal(id);
  document.querySelectorAll("#offline-bar, #offline-queue").forEach((n) => n.remove());
  const bar = document.getElementById("tablebar");
  if (bar) {
    if (offline || all.length) {
      // one line on a 360 px phone (test_browser_offline_picks.py); the counts go on the next line when they must
      const why = !navigator.onLine ? "Offline: moves are kept on this phone"
        : startedHere.isLocal(id) ? "Not yet on the server"
        : network.offline() ? "No network answer: moves kept here" : "Back online";
      const counts = [waiting.length ? `${waiting.length} waiting to send` : "", held.length ? `${held.length} held: see below` : ""]
        .filter(Boolean).map((c) => `· ${c}`).join(" ");
      bar.appendChild(el("p", { class: "tb-offline", id: "offline-bar", role: "status" },
        el("span", { class: "tb-offline-why", text: why }), counts ? document.createTextNode(" ") : null,
        counts ? el("span", { class: "tb-offline-count", text: counts }) : null));
    }
  }
  if (all.length) {
    const section = el("section", { id: "offline-queue", class: "offline-queue", "aria-label": "Entries on this phone" },
      el("h2", { text: "On this phone, not yet sent" }));
    if (waiting.length) {
      const ol = el("ol", { id: "offline-waiting" });
      waiting.forEach((e) => ol.appendChild(el("li", {
        "data-key": e.key, "data-checked": e.checked || "none",
        text: entryWords(e, s.seat_names) + (e.checked === "pending" ? " (kept, checking…)" : "")
          + (queue.madeByAnother(e) ? " (made by another account)" : ""),
      })));
      section.appendChild(ol);
      const back = el("button", { type: "button", class: "secondary small", text: "Take back the last one" });
      back.addEventListener("click", () => actions.takeBack(waiting[waiting.length - 1], s));
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
  if (bar) document.documentElement.style.setProperty("--bar-h", bar.offsetHeight + "px");
  const pending = waiting.findIndex((e) => e.checked === "pending");
  if (pending >= 0 && !held.length) actions.check();
  return { id, s, waiting, held, offline, pending };
}

/** Draw the local position the page follows offline: the turn line, the legal moves, the board (the kept head at
 * once, else folded by the engine), of the checked entries (those kept at a tap and not checked yet follow once
 * they are). */
async function follow({ id, s, waiting, held, offline, pending }) {
  const settled = pending < 0 ? waiting : waiting.slice(0, pending);
  const local = held.length || !offline ? null : await localPosition(s, settled);
  const known = local && local.pos ? local : null;
  state.lastRecord = known && known.last;
  state.shownPosition = known ? known.pos : null;
  if (local && local.bad.length) {
    local.bad.forEach((key) => {
      const li = document.querySelector(`#offline-waiting li[data-key="${CSS.escape(key)}"]`);
      if (li) li.textContent += " (the rules here refuse it: the server will hold it)";
    });
  }
  // the board follows the local position too, drawn by the server's own board code (once the page is not the server's)
  const follows = !!known && !!(settled.length || startedHere.isLocal(id) || (document.getElementById("board") || {dataset: {}}).dataset.local);
  if (known && known.head) {  // drawn at once from what was kept with the queue: no engine needed
    paintHead(known.head, follows);
    if (follows && (!known.head.board || Object.keys(state.boardQuery).length)) await drawBoard(s, await rules(), known.pos, state.boardQuery);
  } else if (known) {
    await drawLocal(state.lastRecord, s.seat_names, await rules(), known.pos);
    if (follows) await drawBoard(s, await rules(), known.pos, state.boardQuery);
    if (settled.length || startedHere.isLocal(id)) await keepHead(id, s, settled, known).catch(() => null);
  }
}

function prefillForm() {
  const e = state.prefill;
  state.prefill = null;
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

export async function redraw() {
  await render();
  if (state.prefill) prefillForm();
  document.dispatchEvent(new Event("offline:drawn"));
}

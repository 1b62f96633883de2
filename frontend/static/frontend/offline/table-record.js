// Recording on the match page without a network: a move form's submission is caught before htmx or the browser
// sends it (while offline, or while entries of this match wait), checked by the in-browser rules and kept in the
// queue (queue.js), one after the other; a send htmx made that failed or hung is kept the same way, with its own
// key. See docs/ARCHITECTURE.md › Offline at the table.
import { entryFromForm } from "./entry.js";
import * as network from "./network.js";
import * as queue from "./queue.js";
import { entryWords, followLink, render, say, showRefusal } from "./table-draw.js";
import { localPosition } from "./table-position.js";
import { answered, live, matchId, queueing, root, rules, seed, state } from "./table-state.js";
import { kick } from "./table-sync.js";

const sending = new WeakMap();  // form → its last submission kept: {sig, busy, at}
const submitters = new WeakMap();  // form → the button that sent it (a failed htmx send's entry)

/** A move the rules refuse, kept anyway as two entries: ``rule_overridden {reason}``, then the move (the server
 * records them in order, each with its own key; the override is a correction: never rebased). */
export async function keepAsHouseRule(form, entry, reason) {
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

/** A house rule asked for in a refusal's box: kept after the submissions being checked (``keepAsHouseRule``). */
export function houseRule(form, entry, reason) {
  state.recording = state.recording.then(() => keepAsHouseRule(form, entry, reason)).catch(() => null);
}

/** Undo, while the last entry is still on this phone: it is taken out of the queue (nothing to void). */
export async function takeBack(entry, s, ask = true) {
  const words = entryWords(entry, s.seat_names);
  if (ask && !window.confirm(`Take back "${words}"? It was not sent yet.`)) return;
  await queue.remove(entry.key);
  say("ok", `Taken back before it was sent: ${words}.`);
  await render();
}

/** Keep the entry ``form`` posts: a tap is a write. The form is read now, the entry written to the queue (in the
 * order of the taps, with its idempotency key) before anything else happens to it, and only then checked by the
 * rules (``checkPending``, once the engine is ready, in the order the entries were made). ``fixed``: the key and
 * version of a send that failed on the way (it may have reached the server: the same key makes the queued copy
 * harmless). Resolves once the entry is checked (or refused). */
function keep(form, submitter, fixed = null) {
  const place = form.closest("#board") ? "board" : "record";  // where its answer goes if the form is redrawn meanwhile
  let entry = null;
  try {
    entry = entryFromForm(form, submitter);  // read at the tap: the form may be drawn again before its check
  } catch (e) {
    entry = null;
  }
  const written = state.writing.then(() => write(form, entry, fixed, place)).catch(() => null);
  state.writing = written;
  return written.then((key) => (key ? checked(key) : null)).then(answered);
}

/** Write the tapped entry to the queue as "kept, checking…" (``checked: "pending"``); the key written, else null
 * (nothing to keep: unreadable, behind a held entry, or an undo that took the last waiting entry back). */
async function write(form, entry, fixed, place) {
  const id = matchId();
  const s = seed();
  const seats = (s.seat_names || []).length;
  if (!queue.whole(entry) || (entry.seat !== null && seats && entry.seat >= seats)) {  // e.g. a board form with no button
    showRefusal(form, { detail: "That move could not be read; pick it again." }, null, place);
    return null;
  }
  // an undo with no reason typed records the pages' own (frontend/forms/schema.py, the seed's undo_reason), as online
  if (entry.type === "event_voided" && !entry.data.reason) entry.data.reason = s.undo_reason || "";
  // the form's disclosure is closed at the tap, before anything is awaited: one the player opens again for the
  // next move meanwhile stays open (it is opened again here when this entry is refused)
  const details = form.closest("details.move-form");
  const closed = details && !form.closest(".undo") && details.open;
  if (closed) details.open = false;
  const reopen = () => { if (closed) details.open = true; };
  const all = await queue.entries(id);
  const waiting = all.filter((e) => e.state === "waiting");
  if (all.length !== waiting.length) {  // later entries wait behind a held one: the player decides on it first
    reopen();
    showRefusal(form, { detail: "an entry from this phone is held below: record it anyway, drop it or re-enter it first." }, null, place);
    return null;
  }
  if (entry.type === "event_voided" && waiting.length && !fixed) {  // the last entry never left this phone
    await takeBack(waiting[waiting.length - 1], s, false);
    return null;
  }
  // the version it is made on, until its check says (the one after the entries before it; a failed send's own)
  const madeOn = fixed ? fixed.madeOn : all.length ? Math.max(all[all.length - 1].made_on + 1, s.version) : s.version;
  let row;
  try {
    row = await queue.add(id, entry, madeOn, { key: fixed && fixed.key, checked: "pending", fixed: !!fixed });
  } catch (error) {
    reopen();
    showRefusal(form, { detail: "this phone could not keep the move (its storage refused it); it was not recorded." }, null, place);
    return null;
  }
  state.taps.set(row.key, { form, place });
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  if (root.dataset.offlineRules !== "ready") say("news", `Kept, checking the move on this phone…: ${entryWords(row, s.seat_names)}.`);
  state.boardQuery = {};  // as the server's answer to a move: the board without a pick
  render();
  return row.key;
}

/** Resolves once the entry ``key`` has been checked (or is no longer waiting for a check). */
function checked(key) {
  return new Promise((resolve) => {
    const tap = state.taps.get(key);
    if (tap) tap.done = resolve;
    else resolve();
    checkSoon();
  });
}

/** Check the entries kept unchecked, after the submissions being checked (one run at a time). */
export function checkSoon() {
  if (state.checkAsked) return;
  state.checkAsked = true;
  state.recording = state.recording.then(() => { state.checkAsked = false; return checkPending(); }).catch(() => null);
}

/** Check the match's unchecked entries in the order they were made, each on the position the ones before it
 * left; stop at a held entry (the ones after it wait behind it). */
async function checkPending() {
  const id = matchId();
  if (!id) return;
  for (;;) {
    const all = await queue.entries(id);
    const i = all.findIndex((e) => e.checked === "pending");
    if (i < 0 || all.slice(0, i + 1).some((e) => e.state !== "waiting")) return;
    await checkOne(all[i], all.slice(0, i));
  }
}

/** Check one kept entry on the local position after ``before``. A refusal of the last one, tapped on this page,
 * is shown at its form as before and nothing is kept; a refusal of an entry others were made after (while it
 * waited for the engine) is held in the queue with the rules' words (the player decides on it). */
async function checkOne(row, before) {
  const s = seed();
  const tap = state.taps.get(row.key) || {};
  state.taps.delete(row.key);
  const local = await localPosition(s, before);
  const r = local.pos ? await rules() : null;
  const entry = { type: row.type, seat: row.seat, data: row.data };
  let change = { checked: local.pos ? "none" : local.why };
  if (r && local.pos) {
    const answer = await r.record(local.pos, entry, local.log);
    if (answer && answer.ok === false) {
      const all = await queue.entries(row.match);  // read now: taps made while the engine started are after it
      const last = all.length && all[all.length - 1].key === row.key;
      await refusedLater(row, answer.body || {}, last && tap.form ? tap : null, entry);
      if (tap.done) tap.done();
      return;
    }
    change = { checked: answer && answer.ok === true ? "rules" : "hidden" };
    if (!row.fixed) change.made_on = local.pos.version;
    if (answer && answer.ok === true) {
      change.text = Array.isArray(answer.words) ? answer.words.join(" ") : answer.words || "";
      if (answer.entry) Object.assign(change, { type: answer.entry.type, seat: answer.entry.seat ?? null, data: answer.entry.data || {} });
    }
  }
  const kept = await queue.update(row.key, change);  // null: sent (or taken back) meanwhile
  if (kept && tap.form) say("ok", `Kept on this phone, to be sent when the network is back: ${entryWords(kept, s.seat_names)}.`);
  await render();
  kick(0);
  if (tap.done) tap.done();
}

/** A kept entry the rules refuse: the last one tapped here is taken out and its refusal shown at its form (nothing
 * kept, as an entry refused at once); any other is held with the rules' words. */
async function refusedLater(row, body, tap, entry) {
  if (tap) {
    await queue.remove(row.key);
    tap.form.closest("details.move-form:not(.other-entries)")?.setAttribute("open", "");  // the box shows above it
    showRefusal(tap.form, body, entry, tap.place);
  } else {
    await queue.update(row.key, { state: "conflict", conflict: { status: 400, body, since: [], expected: row.made_on, here: true } });
    say("conflict", `Not recorded: ${body.detail || "the rules refuse this move."} It is held below until you decide.`);
  }
  await render();
}

function caught(e) {
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
}

// A send htmx made while the page believed the network was there, that failed or hung (htmx:sendError,
// htmx:timeout): from now on the page is offline (network.js), whatever navigator.onLine says. A move form's
// POST is checked here and kept with the form's own idempotency key and version (it may have reached the server:
// the same key makes the queued copy harmless); a board link (a pick) is drawn here; anything else (a live
// update) only counts as the network failing; an undo (the bar's or the Record section's) is kept as the
// submit handler keeps it offline. A POST with no move in it (the board's form with no button
// pressed) is never kept: record() keeps whole entries only.
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
    state.boardQuery = {};
    url.searchParams.forEach((v, k) => { if (k !== "seen") state.boardQuery[k] = v; });
    say("news", "No answer from the network: this phone follows the game now, and keeps the moves made here.");
    followLink(state.boardQuery);
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

/** Catch the move forms' submissions (capture phase, before htmx) and the sends htmx could not make. */
export function listen() {
  document.addEventListener("submit", caught, true);
  document.addEventListener("submit", (e) => { if (e.submitter) submitters.set(e.target, e.submitter); }, true);
  document.addEventListener("htmx:sendError", sendFailed);
  document.addEventListener("htmx:timeout", sendFailed);
}

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

/** Check and keep the entry ``form`` posts, one submission after the other (each checked on the position the one
 * before it left, its answer shown with its own form); ``fixed``: the key and version of a send that failed on the
 * way (it may have reached the server: the same key makes the queued copy harmless). */
function keep(form, submitter, fixed = null) {
  const place = form.closest("#board") ? "board" : "record";  // where its answer goes if the form is redrawn meanwhile
  state.recording = state.recording.then(() => record(form, submitter, fixed, place)).catch(() => null).then(answered);
  return state.recording;
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
  state.boardQuery = {};  // as the server's answer to a move: the board without a pick
  const details = form.closest("details.move-form");
  if (details && !form.closest(".undo")) details.open = false;
  await render();
  kick(0);
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

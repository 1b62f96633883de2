// The offline queue: entries made without a network, kept on the device (IndexedDB, through idb) until the
// server has them, and the sync that sends them, in order, each with its own idempotency key, so a retried send
// never records twice. No page code here (table.js draws it). See docs/ARCHITECTURE.md › Offline at the table.
import { openDB } from "../vendor/idb-8.0.3.js";

export const DB_NAME = "chronicle-offline";
// every tab of this browser hears that a match's queue changed (table.js draws it again)
export const changes = typeof BroadcastChannel === "function" ? new BroadcastChannel("chronicle-queue") : null;
const changed = (match) => { if (changes) changes.postMessage({ match }); };
const CORRECTIONS = ["event_voided", "rule_overridden", "result_recorded"];
let dbPromise = null;

/** The database, opened once per page; closed when another page deletes it (sign-out). */
export function db() {
  if (!dbPromise) {
    dbPromise = openDB(DB_NAME, 1, {
      upgrade(d) {
        const entries = d.createObjectStore("entries", { keyPath: "key" });
        entries.createIndex("match", "match");
        d.createObjectStore("chains", { keyPath: "match" });  // what a sync learnt: see `sync` below
      },
      blocking() {
        dbPromise.then((d) => d.close());
        dbPromise = null;
      },
    });
  }
  return dbPromise;
}

/** A fresh idempotency key (the store keeps one per stream: a retry with it writes nothing new). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The match's entries that wait or are held, in the order they were made. */
export async function entries(match) {
  const all = await (await db()).getAllFromIndex("entries", "match", match);
  return all.sort((a, b) => a.seq - b.seq);
}

/** Keep an entry made on ``made_on`` (the version of the position it was checked on) until it is sent. */
export async function add(match, entry, madeOn, extra = {}) {
  const d = await db();
  const tx = d.transaction("entries", "readwrite");
  const mine = await tx.store.index("match").getAll(match);
  const seq = mine.reduce((m, e) => Math.max(m, e.seq), 0) + 1;
  const row = {
    key: extra.key || newKey(), match, made_on: madeOn, type: entry.type, seat: entry.seat ?? null,
    data: entry.data || {}, created: new Date().toISOString(), seq, state: "waiting", text: extra.text || "",
  };
  await tx.store.put(row);
  await tx.done;
  changed(match);
  return row;
}

export async function put(row) {
  await (await db()).put("entries", row);
  changed(row.match);
}

export async function remove(key) {
  const d = await db();
  const row = await d.get("entries", key);
  await d.delete("entries", key);
  if (row) changed(row.match);
}

async function chain(match) { return (await (await db()).get("chains", match)) || null; }

async function setChain(match, value) {
  const d = await db();
  if (value) await d.put("chains", { ...value, match });
  else await d.delete("chains", match);
}

/**
 * The rebase rule (matches/store.py › rebase_refusal) for the entries that came in from other devices while
 * an earlier entry of this queue was being recorded: the server judges each entry against the entries since
 * the version named in its request, and a later queued entry names the version after this device's previous
 * one (so the server does not count the device's own entries against it); those other entries are then
 * checked here, by the same rule, with the same words. ``since``: ``[{version, seat, type, text}]``.
 */
export function rebaseRefusal(entry, since, seatNames = []) {
  if (!since.length) return null;
  if (CORRECTIONS.includes(entry.type)) {
    return { reason: "correction", why: "an undo, a house rule or a result is recorded only on the version it was made for." };
  }
  for (const s of since) {
    if (s.type === "event_voided") return { reason: "undo_since", why: `move ${s.version} undid an earlier move since this entry was made.` };
    if (s.seat === entry.seat && s.type !== "rule_overridden" && s.type !== "result_recorded") {
      if (s.seat === null) return { reason: "table_entry", why: `the table recorded move ${s.version} since this entry was made.` };
      const who = seatNames[s.seat] || `Seat ${s.seat}`;
      return { reason: "same_seat", why: `${who} recorded move ${s.version} since this entry was made, and one player's moves are never counted twice.` };
    }
  }
  return null;
}

/** An entry the server has: out of the queue and what the chain learnt, both or neither (one transaction), so a
 * closed tab never leaves a recorded entry to be judged again against its own chain. */
async function recorded(match, key, known) {
  const tx = (await db()).transaction(["entries", "chains"], "readwrite");
  await Promise.all([tx.objectStore("entries").delete(key), tx.objectStore("chains").put({ ...known, match }), tx.done]);
  changed(match);
}

class Offline extends Error {}

async function call(url, options, csrf) {
  let response;
  try {
    response = await fetch(url, {
      credentials: "same-origin", cache: "no-store", ...options,
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrf },
    });
  } catch (error) {
    throw new Offline(String(error));
  }
  if (response.status >= 500 || response.status === 429 || response.status === 408) throw new Offline(`HTTP ${response.status}`);
  let body = null;
  try { body = await response.json(); } catch (error) { body = null; }
  if (response.status === 403 || response.status === 401 || body === null) {
    const auth = new Offline(`HTTP ${response.status}`);
    auth.auth = response.status === 403 || response.status === 401;
    throw auth;
  }
  return { status: response.status, body };
}

/** The entries recorded after ``after`` (the API's page of the log, oldest first). */
async function since(eventsUrl, after, csrf) {
  const got = await call(`${eventsUrl}?after=${after}&limit=200`, { method: "GET" }, csrf);
  if (got.status !== 200) throw new Offline(`HTTP ${got.status}`);
  return got.body.results.map((e) => ({ version: e.version, seat: e.seat ?? null, type: e.type, text: e.text || "", recorded_by: e.recorded_by || null }));
}

async function post(eventsUrl, entry, expected, key, csrf) {
  const body = { type: entry.type, seat: entry.seat, data: entry.data, expected_version: expected, idempotency_key: key, rebase: true };
  return call(eventsUrl, { method: "POST", body: JSON.stringify(body) }, csrf);
}

/**
 * Send the match's waiting entries, oldest first; stop at the first one held as a conflict (the later ones
 * wait behind it: they were made after it) or at a network failure (retried later with the same keys).
 * One sync per match at a time across this browser's tabs (a Web Lock); the keys make a second one harmless
 * anyway. Returns ``{recorded: [{entry, version, rebased}], held, stopped}``.
 */
export async function sync(match, { eventsUrl, csrf, seatNames }) {
  const run = () => syncLocked(match, eventsUrl, csrf, seatNames);
  if (navigator.locks) return navigator.locks.request(`chronicle-sync-${match}`, run);
  return run();
}

async function syncLocked(match, eventsUrl, csrf, seatNames) {
  const out = { recorded: [], held: null, stopped: null };
  try {
    let known = await chain(match);
    for (const entry of await entries(match)) {
      if (entry.state === "conflict") { out.held = entry; break; }
      if (known && known.pending.length) {  // what an earlier entry was rebased over, told here
        const got = await since(eventsUrl, known.pending[0] - 1, csrf);
        known.foreign = known.foreign.concat(got.filter((e) => known.pending.includes(e.version)));
        known.pending = [];
        await setChain(match, known);
      }
      // an entry made before this device's previous entry landed names that entry's version; the entries from
      // other devices it never saw are judged here, the rest by the server
      const behind = known && entry.base === undefined && known.after > entry.made_on;
      const expected = entry.base !== undefined ? entry.base : behind ? known.after : entry.made_on;
      const refused = behind ? rebaseRefusal(entry, known.foreign, seatNames) : null;
      if (refused) {
        entry.state = "conflict";
        entry.conflict = { status: 409, body: { code: "version_conflict", detail: "Someone else recorded first.", rebase_refused: refused, current_version: known.after }, since: known.foreign, expected };
        await put(entry);
        out.held = entry;
        break;
      }
      let answer;
      if (entry.house_rule) {  // "record it anyway as a house rule": the override, then the entry, both guarded
        const rule = { type: "rule_overridden", seat: null, data: { reason: entry.house_rule } };
        answer = await post(eventsUrl, rule, expected, `${entry.key}-rule`, csrf);
        if (answer.status === 201) answer = await post(eventsUrl, entry, answer.body.version, entry.key, csrf);
      } else {
        answer = await post(eventsUrl, entry, expected, entry.key, csrf);
      }
      if (answer.status === 201) {
        const rebased = answer.body.rebased;
        const mine = known && known.after > (entry.base ?? entry.made_on) ? known : { after: 0, foreign: [], pending: [] };
        known = { after: answer.body.version, foreign: mine.foreign, pending: rebased ? rebased.over.filter((v) => v > expected) : [] };
        await recorded(match, entry.key, known);
        out.recorded.push({ entry, version: answer.body.version, rebased });
        continue;
      }
      const sinceThen = answer.status === 409 ? await since(eventsUrl, expected, csrf).catch(() => []) : [];
      entry.state = "conflict";
      entry.conflict = { status: answer.status, body: answer.body, since: sinceThen, expected };
      delete entry.house_rule;
      await put(entry);
      out.held = entry;
      break;
    }
    if (!(await entries(match)).length) await setChain(match, null);
  } catch (error) {
    if (!(error instanceof Offline)) throw error;
    out.stopped = error.auth ? "auth" : "network";
  }
  return out;
}

/** A held entry to send again as a house rule on the version the player saw (``base``), with ``reason``. */
export async function recordAnyway(entry, reason, base) {
  entry.state = "waiting";
  entry.house_rule = reason;
  entry.base = base;
  delete entry.conflict;
  await put(entry);
}

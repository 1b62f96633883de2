// The offline queue: entries made without a network, kept on the device (IndexedDB, through idb) until the
// server has them, and the sync that sends them, in order, each with its own idempotency key, so a retried send
// never records twice. No page code here (table.js draws it). See docs/ARCHITECTURE.md › Offline at the table.
import { openDB } from "../vendor/idb-8.0.3.js";
import * as network from "./network.js";

export const DB_NAME = "chronicle-offline";
// every tab of this browser hears that a match's queue changed (table.js draws it again)
export const changes = typeof BroadcastChannel === "function" ? new BroadcastChannel("chronicle-queue") : null;
const changed = (match) => { if (changes) changes.postMessage({ match }); };
let dbPromise = null;

/** The database, opened once per page; closed when another page deletes it (sign-out). */
export function db() {
  if (!dbPromise) {
    dbPromise = openDB(DB_NAME, 3, {
      upgrade(d, oldVersion) {
        if (oldVersion < 1) {
          const entries = d.createObjectStore("entries", { keyPath: "key" });
          entries.createIndex("match", "match");
          d.createObjectStore("chains", { keyPath: "match" });  // the chain being sent: see `sync` below
        }
        if (oldVersion < 2) d.createObjectStore("locals", { keyPath: "id" });  // matches started here: local.js
        if (oldVersion < 3) d.createObjectStore("heads", { keyPath: "match" });  // the last local position drawn
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

/** Who reads the page now: the server's token for the signed-in account (``<meta name="chronicle-reader">``,
 * frontend/offline/reader.py), "" where a page has none. */
export function reader(doc = globalThis.document) {
  const meta = doc && doc.querySelector ? doc.querySelector('meta[name="chronicle-reader"]') : null;
  return meta ? meta.content : "";
}

/** Whether ``row`` (an entry, a match started here) was made by another account than the one reading now: it is
 * never sent under this one's session (it would be recorded as theirs). Rows kept before readers were named
 * count as the reader's. */
export function madeByAnother(row, me = reader()) {
  return !!(row && row.reader && me && row.reader !== me);
}

/** The match's entries that wait or are held, in the order they were made. */
export async function entries(match) {
  const all = await (await db()).getAllFromIndex("entries", "match", match);
  return all.sort((a, b) => a.seq - b.seq);
}

/** Whether ``entry`` is a whole entry: a type, a seat (a number or none), a data object. */
export function whole(entry) {
  return !!entry && typeof entry.type === "string" && /^[a-z][a-z0-9_]*$/.test(entry.type)
    && (entry.seat === null || entry.seat === undefined || (Number.isInteger(entry.seat) && entry.seat >= 0))
    && !!entry.data && typeof entry.data === "object" && !Array.isArray(entry.data);
}

/** Keep an entry made on ``made_on`` (the version of the position it was checked on) until it is sent.
 * ``extra``: ``text`` (its sentence), ``key`` (a send's own, when it failed on the way), ``checked`` ("pending":
 * kept at the tap, not checked yet; "rules": the rules here took it; "hidden": they cannot judge it, the server
 * will; "none": they are not on this phone), ``fixed`` (its ``made_on`` is a failed send's own: its check keeps it).
 * Throws on anything but a whole entry (nothing half-read is ever kept). */
export async function add(match, entry, madeOn, extra = {}) {
  if (!whole(entry) || !Number.isInteger(madeOn) || madeOn < 0) throw new TypeError("not a whole entry");
  const d = await db();
  const tx = d.transaction("entries", "readwrite");
  const mine = await tx.store.index("match").getAll(match);
  const seq = mine.reduce((m, e) => Math.max(m, e.seq), 0) + 1;
  const row = {
    key: extra.key || newKey(), match, made_on: madeOn, type: entry.type, seat: entry.seat ?? null,
    data: entry.data || {}, created: new Date().toISOString(), seq, state: "waiting", text: extra.text || "",
    reader: extra.reader ?? reader(), checked: extra.checked || "none",
  };
  if (extra.fixed) row.fixed = true;
  if (extra.blob) row.blob = extra.blob;  // a photo taken here, shrunk on the phone: sent as a file (postPhoto)
  await tx.store.put(row);
  await tx.done;
  changed(match);
  return row;
}

export async function put(row) {
  await (await db()).put("entries", row);
  changed(row.match);
}

/** Change the kept entry ``key`` by ``change`` (its check's answer) in one transaction; the row as it is now, or
 * null when it is no longer kept (sent or taken back meanwhile: nothing is written back). */
export async function update(key, change) {
  const tx = (await db()).transaction("entries", "readwrite");
  const row = await tx.store.get(key);
  if (row) await tx.store.put(Object.assign(row, change));
  await tx.done;
  if (row) changed(row.match);
  return row || null;
}

export async function remove(key) {
  const tx = (await db()).transaction(["entries", "chains"], "readwrite");
  const entries = tx.objectStore("entries");
  const row = await entries.get(key);
  await entries.delete(key);
  // the last one gone (dropped, re-entered, taken back): its chain ends with it, as a sync that empties the queue
  // ends it; a move made later is made on the game the page shows then, not on the chain's old start (issue 43)
  if (row && !(await entries.index("match").count(row.match))) await tx.objectStore("chains").delete(row.match);
  await tx.done;
  if (row) changed(row.match);
}

/** The last local position drawn for ``match`` (table.js): ``{match, base, keys, pos, last, log, turn, legal,
 * board, …}``, kept with the queue so a page opened again draws it at once; undefined when none. */
export async function getHead(match) {
  return (await db()).get("heads", match);
}

export async function putHead(row) {
  await (await db()).put("heads", row);
}

export async function dropHead(match) {
  await (await db()).delete("heads", match);
}

async function chain(match) { return (await (await db()).get("chains", match)) || null; }

async function setChain(match, value) {
  const d = await db();
  if (value) await d.put("chains", { ...value, match });
  else await d.delete("chains", match);
}

/** An entry the server has: out of the queue and into the chain's own keys, both or neither (one transaction), so
 * a closed tab never leaves a recorded entry out of the keys the next entry names. */
async function recorded(match, key, known) {
  const tx = (await db()).transaction(["entries", "chains"], "readwrite");
  await Promise.all([tx.objectStore("entries").delete(key), tx.objectStore("chains").put({ ...known, match }), tx.done]);
  changed(match);
}

class Offline extends Error {}

async function call(url, options, csrf, headers = { "Content-Type": "application/json" }) {
  let response;
  try {  // a send that hangs is a network that is not there (network.js): retried later with the same key
    response = await network.fetchSoon(url, {
      credentials: "same-origin", cache: "no-store", ...options,
      headers: { Accept: "application/json", "X-CSRFToken": csrf, ...headers },
    });
  } catch (error) {
    network.failed();
    throw new Offline(String(error));
  }
  network.answered();
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

/** The entries recorded after ``after`` but ``own`` (versions), for a held entry's box (the API's page of the log). */
async function since(eventsUrl, after, own, csrf) {
  const got = await call(`${eventsUrl}?after=${after}&limit=200`, { method: "GET" }, csrf);
  if (got.status !== 200) throw new Offline(`HTTP ${got.status}`);
  return got.body.results.filter((e) => !own.includes(e.version))
    .map((e) => ({ version: e.version, seat: e.seat ?? null, type: e.type, data: e.data ?? null, text: e.text || "",
                   recorded_by: e.recorded_by || null }));  // data as this reader may see it (the same-move check)
}

async function post(eventsUrl, entry, expected, ownKeys, key, csrf) {
  const body = {
    type: entry.type, seat: entry.seat, data: entry.data, expected_version: expected, idempotency_key: key, rebase: true,
    own_keys: ownKeys,
  };
  return call(eventsUrl, { method: "POST", body: JSON.stringify(body) }, csrf);
}

/** A photo kept here, sent to the stream's photo endpoint as a file with its caption; its key is the upload's
 * ``Idempotency-Key``, so a send retried after a lost answer stores one photo (the server answers 200 then). */
async function postPhoto(eventsUrl, entry, csrf) {
  const form = new FormData();
  form.append("file", entry.blob, "photo.jpg");
  form.append("caption", (entry.data && entry.data.caption) || "");
  return call(eventsUrl.replace(/events\/$/, "photos/"), { method: "POST", body: form }, csrf, { "Idempotency-Key": entry.key });
}

/**
 * Send the match's waiting entries, oldest first; stop at the first one held as a conflict (the later ones
 * wait behind it: they were made after it) or at a network failure (retried later with the same keys).
 * One sync per match at a time across this browser's tabs (a Web Lock); the keys make a second one harmless
 * anyway. Returns ``{recorded: [{entry, version, rebased}], held, stopped}``.
 *
 * The chain (kept in ``chains`` until the queue is empty): ``start``, the server version the queue's first
 * entry was made on, and ``own``, the ``[key, version]`` of the queue's entries the server has recorded since.
 * Every entry names ``start`` as its ``expected_version`` and the chain's keys as ``own_keys``: the server leaves
 * this phone's own entries out and judges the rest by its one rule (matches/store/events.py › rebase_refusal); a
 * refusal comes back as its 409 (``rebase_refused``), shown as it is. A house rule kept for a held entry goes
 * on the version the player saw (``base``, from ``recordAnyway``) with the same keys.
 */
export async function sync(match, { eventsUrl, csrf }) {
  const run = () => syncLocked(match, eventsUrl, csrf);
  if (navigator.locks) return navigator.locks.request(`chronicle-sync-${match}`, run);
  return run();
}

async function syncLocked(match, eventsUrl, csrf) {
  const out = { recorded: [], held: null, stopped: null };
  try {
    let known = await chain(match);
    if (known && known.start === undefined) known = { start: known.after, own: [] };  // a chain kept by an older page
    for (const entry of await entries(match)) {
      if (entry.state === "conflict") { out.held = entry; break; }
      if (madeByAnother(entry)) { out.stopped = "reader"; break; }  // it and those after it wait for their account
      if (!known) known = { start: entry.made_on, own: [] };
      // "record it anyway" goes on the version the player saw (``base``); the entries after it still name the
      // chain's start, so what came in from other devices is judged against each of them too
      const expected = entry.base !== undefined ? entry.base : known.start;
      const ownKeys = () => known.own.map(([key]) => key);
      let answer;
      if (entry.blob) {  // a photo: no version to expect (it changes no game state), sent once by its key
        answer = await postPhoto(eventsUrl, entry, csrf);
        if (answer.status === 200) answer = { status: 201, body: { version: answer.body.version } };
      } else if (entry.house_rule) {  // "record it anyway as a house rule": the override, then the entry, both guarded
        const rule = { type: "rule_overridden", seat: null, data: { reason: entry.house_rule } };
        answer = await post(eventsUrl, rule, expected, ownKeys(), `${entry.key}-rule`, csrf);
        if (answer.status === 201) {
          known = { start: known.start, own: known.own.concat([[`${entry.key}-rule`, answer.body.version]]) };
          await setChain(match, known);
          answer = await post(eventsUrl, entry, answer.body.version, ownKeys(), entry.key, csrf);
        }
      } else {
        answer = await post(eventsUrl, entry, expected, ownKeys(), entry.key, csrf);
      }
      if (answer.status === 201) {
        known = { start: known.start, own: known.own.concat([[entry.key, answer.body.version]]) };
        await recorded(match, entry.key, known);
        out.recorded.push({ entry, version: answer.body.version, rebased: answer.body.rebased });
        continue;
      }
      const own = known.own.map(([, version]) => version);
      const sinceThen = answer.status === 409 ? await since(eventsUrl, expected, own, csrf).catch(() => []) : [];
      entry.state = "conflict";
      entry.conflict = { status: answer.status, body: answer.body, since: sinceThen, expected };
      delete entry.house_rule;
      await put(entry);
      await setChain(match, known);
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

/** An entry the rules on this phone refused after later ones were made (held here, ``conflict.here``), kept anyway
 * as a house rule: ``rule_overridden {reason}`` (key ``<key>-rule``) just before it, both waiting to be checked
 * again in their place, in one transaction. */
export async function holdAsHouseRule(entry, reason) {
  const tx = (await db()).transaction("entries", "readwrite");
  const row = await tx.store.get(entry.key);
  if (row) {
    delete row.conflict;
    await tx.store.put({
      ...row, key: `${row.key}-rule`, type: "rule_overridden", seat: null, data: { reason }, seq: row.seq - 0.5,
      state: "waiting", checked: "pending", text: "",
    });
    await tx.store.put({ ...row, state: "waiting", checked: "pending" });
  }
  await tx.done;
  if (row) changed(row.match);
}

// -- matches started on this device (local.js) ---------------------------------------------------------------

/** A match started without a network: ``{id: "local-<uuid>", key, body, position, forms, created, real: null}``. */
export async function putLocal(row) {
  await (await db()).put("locals", row);
  changed(row.id);
}

/** The match started here with this temporary id (``real`` is its server id once created), else undefined. */
export async function getLocal(id) {
  return (await db()).get("locals", id);
}

/** Every match started on this device, kept until sign-out (a created one stays as the way to its real id). */
export async function allLocals() {
  return (await db()).getAll("locals");
}

/** The server created local match ``from`` as ``to``: its entries and chain move to ``to`` and the local row
 * records ``real`` = ``to``, all in one transaction (a closed tab never leaves entries under a dead id). */
export async function rekey(from, to) {
  const tx = (await db()).transaction(["entries", "chains", "locals", "heads"], "readwrite");
  await tx.objectStore("heads").delete(from);
  const entriesStore = tx.objectStore("entries");
  for (const row of await entriesStore.index("match").getAll(from)) await entriesStore.put({ ...row, match: to });
  const kept = await tx.objectStore("chains").get(from);
  if (kept) {
    await tx.objectStore("chains").put({ ...kept, match: to });
    await tx.objectStore("chains").delete(from);
  }
  const local = await tx.objectStore("locals").get(from);
  if (local) await tx.objectStore("locals").put({ ...local, real: to });
  await tx.done;
  changed(from);
  changed(to);
}

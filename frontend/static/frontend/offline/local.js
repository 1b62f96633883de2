// Matches started on this phone without a network: a temporary id (``local-<uuid>``), kept in IndexedDB
// (queue.js › putLocal) with the creation body and its idempotency key until the server creates the match; then
// its entries move to the real id (queue.js › rekey) and the page's address and links follow.
// See docs/ARCHITECTURE.md › Offline at the table › A match started offline.
import * as queue from "./queue.js";
import * as network from "./network.js";

const LOCAL_ID = /^local-[0-9a-f-]{8,64}$/;
export const LOCAL_PATH = /^\/matches\/(local-[0-9a-f-]{8,64})\/$/;

/** Whether ``id`` names a match started on this phone and not (yet) known to be on the server. */
export function isLocal(id) {
  return typeof id === "string" && LOCAL_ID.test(id);
}

/** Keep a match started here: ``body`` the API's create body, ``position`` its start (rules.start), ``forms`` the
 * game's entry forms (HTML from the new-match page), ``engine`` the rules' files. Returns its temporary id. */
export async function keepLocal({ body, position, forms, engine, gameName }) {
  const key = queue.newKey();
  const id = `local-${key}`;
  await queue.putLocal({
    id, key, body, position, forms: forms || "", engine: engine || {}, game_name: gameName || body.game,
    created: new Date().toISOString(), real: null, refused: null, reader: queue.reader(),
  });
  return id;
}

/**
 * Ask the server to create local match ``id`` (``POST /api/matches/`` with its idempotency key: a retry, a
 * second tab or a lost answer returns the same match, never a second one). Returns ``{real}`` (its entries and
 * chain are then under the real id), ``{stopped: "network" | "auth"}`` (tried again later with the same key),
 * ``{refused: body}`` (the server's 4xx, kept on the row and shown), or ``{gone: true}``.
 */
export async function create(id, csrf) {
  const row = await queue.getLocal(id);
  if (!row) return { gone: true };
  if (row.real) return { real: row.real };
  if (queue.madeByAnother(row)) return { stopped: "reader" };  // started by another account: created as theirs only
  let response;
  try {
    response = await network.fetchSoon("/api/matches/", {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ ...row.body, idempotency_key: row.key }),
    });
  } catch (error) {
    network.failed();
    return { stopped: "network" };
  }
  network.answered();
  if (response.status >= 500 || response.status === 408 || response.status === 429) return { stopped: "network" };
  if (response.status === 401 || response.status === 403) return { stopped: "auth" };
  let body = null;
  try { body = await response.json(); } catch (error) { return { stopped: "network" }; }
  if (response.status === 201 && body && Number.isInteger(body.id)) {
    await queue.rekey(id, body.id);
    return { real: body.id };
  }
  await queue.putLocal({ ...row, refused: body || { detail: `HTTP ${response.status}` } });
  return { refused: body };
}

/** The page of local match ``from`` now shows match ``to``: the address bar (history.replaceState), every link,
 * form and page address naming the temporary id, and the seed. */
export function follow(from, to, doc = document) {
  const swap = (value) => value.split(`/matches/${from}/`).join(`/matches/${to}/`);
  if (location.pathname.includes(`/matches/${from}/`)) history.replaceState(history.state, "", swap(location.pathname) + location.hash);
  for (const [selector, attr] of [["a[href]", "href"], ["form[action]", "action"], ["[data-page]", "data-page"]]) {
    doc.querySelectorAll(selector).forEach((el) => {
      const value = el.getAttribute(attr);
      if (value && value.includes(from)) el.setAttribute(attr, swap(value));
    });
  }
  const seedEl = doc.getElementById("offline-seed");
  if (seedEl) {
    const s = JSON.parse(seedEl.textContent);
    seedEl.textContent = JSON.stringify({ ...s, match: to, local: false, events_url: `/api/matches/${to}/events/` });
  }
}

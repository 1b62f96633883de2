// Chronicle's service worker (served at /sw.js by frontend/offline/views.py, which puts PRECACHE and VERSION
// above this text). Hand-written, no Workbox: three strategies on one origin; see docs/ARCHITECTURE.md › Offline.
/* global PRECACHE, VERSION, OFFLINE_URL */
"use strict";

const PAGES = "chronicle-pages";        // the match pages this user opened (emptied at sign-out)
const STATIC = "chronicle-static-" + VERSION;  // the site's own assets, refreshed in the background
const ENGINE = "chronicle-engine";      // Pyodide, the rulesets, stdlib and boards bundles: large, versioned by their URLs
const PINS = "/__chronicle_pins__";     // where the engine's URL prefixes are kept (a worker's globals do not live)
const ENGINE_DEFAULT = ["/static/frontend/vendor/pyodide/", "/offline/rulesets-", "/offline/stdlib-", "/offline/boards-"];  // and the seed's
const MATCH_PAGE = /^\/matches\/\d+\/$/;
const READER = "chronicle-reader";      // whose pages PAGES holds: the server's X-Chronicle-Reader (frontend/offline/reader.py)
const NEW_MATCH = /^\/matches\/new\/$/;  // the new-match pages opened (one copy per game and player count)
const STARTED_HERE = /^\/matches\/local-[0-9a-f-]+\/$/;  // a match started offline: one shell for all (local.js)
const SHELL = "/matches/local/";
const NAVIGATE_TIMEOUT = 4000;  // ms: a kept page is served after this long without an answer (a network that hangs)

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("chronicle-static-") && name !== STATIC) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function pins() {
  const hit = await (await caches.open(ENGINE)).match(PINS);
  return ENGINE_DEFAULT.concat(hit ? await hit.json() : []);
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "pin" && Array.isArray(msg.urls)) {  // the seed's pyodide_url's folder and rulesets_url
    event.waitUntil((async () => {
      const cache = await caches.open(ENGINE);
      const known = await pins();
      const urls = msg.urls.filter((u) => typeof u === "string" && u.startsWith("/") && !known.includes(u));
      if (urls.length) {
        const all = known.slice(ENGINE_DEFAULT.length).concat(urls);
        await cache.put(PINS, new Response(JSON.stringify(all), { headers: { "Content-Type": "application/json" } }));
      }
    })());
  } else if (msg.type === "remember" && typeof msg.url === "string") {  // a match page changed in place
    event.waitUntil(rememberPage(new Request(msg.url, { credentials: "same-origin" })));
  } else if (msg.type === "keep" && typeof msg.url === "string") {  // the page open now, however the install went
    event.waitUntil(keepPage(msg.url));
  } else if (msg.type === "claim") {  // a page this worker does not control yet (register.js)
    event.waitUntil(self.clients.claim());
  } else if (msg.type === "forget") {  // sign-out: nothing of this user stays on a shared phone
    event.waitUntil(caches.delete(PAGES));
  }
});

/** Keep the match page at ``url`` if no copy of it is kept yet: a page opened while this worker was installing
 * was not served by it, and asks once the worker is active (table.js › keepThisPage). */
async function keepPage(url) {
  const u = new URL(url, self.location.origin);
  if (u.origin !== self.location.origin || ![MATCH_PAGE, NEW_MATCH].some((page) => page.test(u.pathname))) return;
  if (await (await caches.open(PAGES)).match(pageKey(u.href))) return;
  await rememberPage(new Request(u.href, { credentials: "same-origin" }));
}

async function rememberPage(request) {
  try {
    const response = await fetch(request, { cache: "no-store" });
    await sameReader(response);
    if (response.ok && !response.redirected) await (await caches.open(PAGES)).put(pageKey(request.url), response);
  } catch (e) { /* offline: the copy we have stays */ }
}

/** The kept pages are the reader's who is signed in now: when the server names another reader (a sign-in as
 * someone else, a session that expired) they are dropped before anything is kept for the new one. */
let readerTurn = Promise.resolve();  // one reader check at a time: two first pages must not drop each other's copy
function sameReader(response) {
  const turn = readerTurn.then(() => checkReader(response));
  readerTurn = turn.catch(() => null);
  return turn;
}

async function checkReader(response) {
  const reader = response.headers.get("X-Chronicle-Reader");
  if (!reader) return;  // not a page of ours (an error from a proxy): it says nothing of who reads
  const kept = await caches.open(READER);
  const hit = await kept.match("/");
  if (hit && (await hit.text()) === reader) return;
  await caches.delete(PAGES);  // also the pages kept before readers were named: whose they are is unknown
  await kept.put("/", new Response(reader));
}

function pageKey(url) {
  const u = new URL(url);
  if (NEW_MATCH.test(u.pathname)) return u.origin + u.pathname + u.search;  // ?game=…&seats=… is the page
  if (STARTED_HERE.test(u.pathname)) return u.origin + SHELL;
  return u.origin + u.pathname;  // ?seen=N and other views of the page share one copy
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(event, request, url));
  } else if (url.pathname.startsWith("/static/") || /^\/offline\/(rulesets|stdlib|boards)-/.test(url.pathname)) {
    event.respondWith(asset(event, request, url));
  }
  // everything else (the API, /version/ polls, htmx fragments) goes to the network as before
});

/** Network first; a match page's kept copy when the network fails, or when it has not answered within
 * NAVIGATE_TIMEOUT (a network that hangs: the answer, if it comes, still refreshes the copy). */
async function navigate(event, request, url) {
  const match = [MATCH_PAGE, NEW_MATCH, STARTED_HERE].some((page) => page.test(url.pathname)) || url.pathname === SHELL;
  const fromNetwork = fetch(request).then((response) => ({
    response, copy: match && response.ok && !response.redirected ? response.clone() : null,
  }));
  event.waitUntil(fromNetwork.then(async ({ response, copy }) => {
    await sameReader(response);
    if (copy) await (await caches.open(PAGES)).put(pageKey(request.url), copy);
  }).catch(() => null));
  const kept = () => (match ? caches.open(PAGES).then((cache) => cache.match(pageKey(request.url))) : Promise.resolve(undefined));
  const late = new Promise((resolve) => setTimeout(resolve, NAVIGATE_TIMEOUT)).then(async () => {
    const copy = await kept();
    return copy || (await fromNetwork).response;
  });
  try {
    return await Promise.race([fromNetwork.then(({ response }) => response), late]);
  } catch (error) {
    return (await kept()) || (await caches.match(OFFLINE_URL)) || Response.error();
  }
}

async function asset(event, request, url) {
  if ((await pins()).some((p) => url.pathname.startsWith(p))) {  // cache-first: never re-downloaded
    const cache = await caches.open(ENGINE);
    const hit = await cache.match(request);
    if (hit) return hit;
    const response = await fetch(request);
    if (response.ok) event.waitUntil(cache.put(request, response.clone()));
    return response;
  }
  // the site's assets are not content-hashed (whitenoise's CompressedStaticFilesStorage): stale-while-revalidate
  const cache = await caches.open(STATIC);
  const hit = await cache.match(request);
  const fresh = fetch(request).then((response) => {
    if (response.ok) return cache.put(request, response.clone()).then(() => response);
    return response;
  });
  if (hit) {
    event.waitUntil(fresh.catch(() => null));
    return hit;
  }
  return fresh;
}

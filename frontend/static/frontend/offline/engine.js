// The offline rules' engine files (Pyodide and the rulesets archive), for any page that runs them: the match
// page (table.js), the new-match page and a match started on this phone (new-match.js, local-page.js). Kept by
// the service worker (sw.js, cache first), fetched once the page has been open a few seconds, started only when
// needed. See docs/ARCHITECTURE.md › Offline at the table.

const WARM_AFTER = 5000;  // ms on a page before its engine files are fetched

// Pyodide's core files (the seed's pyodide_files, else these: frontend/static/frontend/vendor/README.md)
// (not python_stdlib.zip: the page loads the trimmed standard library, an archive of its own)
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"];

/** The archives the seed names (the rulesets', the trimmed standard library's, and the boards' where the seed
 * has them). */
function archives(s) {
  return [s.rulesets_url, s.stdlib_url, s.boards_url].filter(Boolean);
}

/** The in-browser rules for ``s`` (a seed: ``pyodide_url``, ``rulesets_url``), in a Web Worker where rules.js
 * offers it (Pyodide's start is seconds of CPU the page must not wait on). Rejects when they cannot start. */
export function startRules(s) {
  return import("./rules.js")
    .then((m) => (m.loadRulesInWorker || m.loadRules)({ pyodideUrl: s.pyodide_url, rulesetsUrl: s.rulesets_url,
                                                         stdlibUrl: s.stdlib_url, seed: s }));
}

/** Ask the worker to keep ``s``'s engine files cache first, drop older ones, and (``warm``, online, unless the
 * server says not to prefetch: ``s.prefetch === false``) fetch them in idle time once the page has been open a few
 * seconds (a page only passed through downloads nothing). */
export function pinEngine(s, { warm = false, root = document.documentElement } = {}) {
  if (!navigator.serviceWorker || !s.pyodide_url) return;
  const folder = new URL(s.pyodide_url, location.href).pathname.replace(/[^/]*$/, "");
  const urls = [folder, ...archives(s).map((u) => new URL(u, location.href).pathname)];
  navigator.serviceWorker.ready.then((reg) => reg.active && reg.active.postMessage({ type: "pin", urls }));
  if (navigator.onLine) pruneEngine(folder, s).catch(() => null);
  if (warm && navigator.onLine && s.prefetch !== false) {
    const files = s.pyodide_files || PYODIDE_FILES.map((f) => folder + f);
    const go = () => warmEngine(files, archives(s), root);
    setTimeout(() => (window.requestIdleCallback ? window.requestIdleCallback(go, { timeout: 3000 }) : go()), WARM_AFTER);
  }
}

/** Pyodide's files keep their URLs from one version to the next (the folder is not versioned) and the worker
 * serves them cache-first: when the seed names another version, the kept ones go; so do older archives. */
async function pruneEngine(folder, s) {
  if (!window.caches || !s.pyodide_version) return;
  const cache = await caches.open("chronicle-engine");
  const mark = "/__chronicle_pyodide_version__";
  const had = await cache.match(mark);
  const stale = !had || (await had.text()) !== s.pyodide_version;
  const current = archives(s).map((u) => new URL(u, location.href).pathname);
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const archive = /^\/offline\/(rulesets|stdlib|boards)-/.test(path);
    const full = path === folder + "python_stdlib.zip";  // the whole standard library, kept before it was trimmed
    if ((stale && path.startsWith(folder)) || full || (current.length && archive && !current.includes(path))) {
      await cache.delete(request);
    }
  }
  if (stale) await cache.put(mark, new Response(s.pyodide_version));
}

/** Whether ``s``'s engine files (Pyodide's and the archives) are all kept on this phone. */
export async function engineKept(s) {
  if (!window.caches || !s.pyodide_url) return false;
  const folder = new URL(s.pyodide_url, location.href).pathname.replace(/[^/]*$/, "");
  const cache = await caches.open("chronicle-engine");
  const urls = (s.pyodide_files || PYODIDE_FILES.map((f) => folder + f)).concat(archives(s));
  for (const url of urls) if (!(await cache.match(url))) return false;
  return true;
}

async function warmEngine(files, archiveUrls, root) {
  if (!window.caches) return;
  const cache = await caches.open("chronicle-engine");
  const urls = files.concat(archiveUrls);
  try {
    for (const url of urls) {
      if (await cache.match(url)) continue;
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) throw new Error(url + ": " + response.status);
      // the worker keeps what it serves; a page it does not control yet (its install still running on a slow
      // first visit) fetches past it, and keeps the file itself for the worker to serve offline
      if (navigator.serviceWorker.controller) await response.arrayBuffer();
      else await cache.put(url, response);
    }
    root.dataset.offlineRules = root.dataset.offlineRules || "cached";
    document.dispatchEvent(new Event("offline:engine-kept"));
  } catch (e) { /* the network went: tried again on the next visit */ }
}

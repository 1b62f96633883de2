// The rules in a worker (rules.js › loadRulesInWorker): Pyodide starts here, off the page's thread. A shared
// worker where the browser has one (one engine for every page of the site, kept across a reload: rules.js asks
// for `extendedLifetime`), else a dedicated one per page: the same messages either way.
// Messages in: {id, op: "start", request: {pyodideUrl, rulesetsUrl, stdlibUrl}} (the first starts Pyodide, later ones wait
// for it), then {id, op, request: "<JSON>"} ("board": {seed, position, query, csrf}, drawn by
// frontend/offline/board.py, its archive loaded on first use); out: {id, answer} (the start's timings, with
// `kept: true` when the engine had already started for an earlier page, or the answer's JSON text) or {id, error}.
import { startPython } from "./rules.js";

let started = null;
let ready = false;  // the engine has started (for an earlier page, when a page's start finds it so)
let starts = 0;

async function answer(port, { id, op, request }) {
  try {
    if (op === "start") {
      const kept = ready;
      starts += 1;
      started = started || startPython(request).then(
        (python) => { ready = true; return python; },
        (error) => { started = null; throw error; },
      );
      const timings = (await started).timings;
      port.postMessage({ id, answer: { ...timings, kept, starts } });
      return;
    }
    if (!started) throw new Error("the rules worker was not started");
    const python = await started;
    port.postMessage({ id, answer: op === "board" ? await python.board(request) : python.handle(request) });
  } catch (error) {
    port.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
}

if (typeof self.SharedWorkerGlobalScope === "function" && self instanceof self.SharedWorkerGlobalScope) {
  self.onconnect = ({ ports: [port] }) => {
    port.onmessage = ({ data }) => answer(port, data);
    port.start();
  };
} else {
  self.onmessage = ({ data }) => answer(self, data);
}

// The rules in a Web Worker (rules.js › loadRulesInWorker): Pyodide starts here, off the page's thread.
// Messages in: {id, op: "start", request: {pyodideUrl, rulesetsUrl}} once, then {id, op, request: "<JSON>"}
// ("board": {seed, position, query, csrf}, drawn by frontend/offline/board.py, its archive loaded on first use);
// out: {id, answer} (the start's timings, or the answer's JSON text) or {id, error}.
import { startPython } from "./rules.js";

let started = null;

self.onmessage = async ({ data }) => {
  const { id, op, request } = data;
  try {
    if (op === "start") {
      started = started || startPython(request);
      self.postMessage({ id, answer: (await started).timings });
      return;
    }
    if (!started) throw new Error("the rules worker was not started");
    const python = await started;
    self.postMessage({ id, answer: op === "board" ? await python.board(request) : python.handle(request) });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};

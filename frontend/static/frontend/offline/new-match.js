// The new-match page without a network: the form is checked by the in-browser rules (rulesets.offline.start_json,
// the server's own checks) and the match is kept on this phone with a temporary id (local.js), then opened on
// its page (local-page.js, the shell the service worker keeps). Online, the form goes to the server as always
// (its idempotency key makes a second tap or a retried post return the same match).
// See docs/ARCHITECTURE.md › Offline at the table › A match started offline.
import { pinEngine, startRules } from "./engine.js";
import { readFields } from "./entry.js";
import { keepLocal } from "./local.js";
import { newKey } from "./queue.js";

const form = document.getElementById("new-match");
const engineEl = document.getElementById("offline-engine");
const engine = engineEl ? JSON.parse(engineEl.textContent) : null;
let busy = false;

/** The API's create body the form posts (``frontend.views.matches.match_new`` reads the same fields). */
function bodyOf() {
  const fd = new FormData(form);
  const count = Number(fd.get("seat_count"));
  const seats = Array.from({ length: count }, (_, i) => ({ name: String(fd.get(`seat_${i}`) || "") }));
  return {
    game: String(fd.get("game") || ""), seats, options: readFields(form, "option."),
    title: String(fd.get("title") || "").trim(), is_public: fd.get("is_public") === "on",
  };
}

function showProblem(detail, errors = {}) {
  document.querySelectorAll("#offline-problem").forEach((p) => p.remove());
  const box = document.createElement("div");
  box.className = "problem";
  box.id = "offline-problem";
  box.setAttribute("role", "alert");
  const p = document.createElement("p");
  p.textContent = `The match was not started on this phone: ${detail}`;
  box.appendChild(p);
  const lines = Object.entries(errors).flatMap(([field, messages]) => messages.map((m) => `${field}: ${m}`));
  if (lines.length > 1) {
    const ul = document.createElement("ul");
    lines.forEach((line) => { const li = document.createElement("li"); li.textContent = line; ul.appendChild(li); });
    box.appendChild(ul);
  }
  form.parentElement.insertBefore(box, form);
  box.scrollIntoView({ block: "nearest" });
}

function showStatus(text) {
  let note = document.getElementById("offline-status");
  if (!note) {
    note = document.createElement("p");
    note.id = "offline-status";
    note.className = "muted";
    note.setAttribute("role", "status");
    form.parentElement.insertBefore(note, form);
  }
  note.textContent = text;
}

async function startHere() {
  const body = bodyOf();
  if (form.elements.catalog && form.elements.catalog.value) {
    showProblem("card catalogs are kept on the server. Pick the game's default cards, or start the match when the network is back.");
    return;
  }
  if (!engine) {
    showProblem("this page cannot check a match without a network. Start it when the network is back.");
    return;
  }
  showStatus("No network: checking the match on this phone…");
  let rules;
  try {
    rules = await startRules(engine);
  } catch (error) {
    showStatus("");
    showProblem("the rules are not on this phone yet (open a new-match page or a match page online first, for a few seconds). Start it when the network is back.");
    return;
  }
  const answer = await rules.startMatch(body);
  if (!answer || answer.ok !== true) {
    showStatus("");
    const refusal = (answer && answer.body) || {};
    showProblem(refusal.detail || "the rules refuse it.", refusal.errors || {});
    return;
  }
  const template = document.getElementById("offline-forms");
  const id = await keepLocal({
    body, position: answer.position, forms: template ? template.innerHTML : "", engine,
    gameName: form.dataset.gameName || body.game,
  });
  location.assign(`/matches/${id}/`);
}

if (form) {
  // a key per page shown: a copy the worker kept serves the key of the match created from it before, which would
  // return that match again; a post repeated without a page load (a second tap, a resent form) keeps this one
  if (form.elements.idempotency_key) form.elements.idempotency_key.value = newKey();
  document.addEventListener("submit", (e) => {
    if (e.target !== form || navigator.onLine) return;  // online: the server creates it
    e.preventDefault();
    e.stopPropagation();
    if (busy) return;  // a double tap starts one match
    busy = true;
    startHere().finally(() => { busy = false; });
  }, true);
  if (navigator.serviceWorker && navigator.onLine) {  // the page a match started offline opens on (sw.js)
    navigator.serviceWorker.ready.then((reg) => reg.active && reg.active.postMessage({ type: "remember", url: "/matches/local/" }));
    // the first visit installs the worker after this page was fetched: keep this page now that it can
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      navigator.serviceWorker.controller.postMessage({ type: "remember", url: location.href });
    });
  }
  if (engine) pinEngine(engine, { warm: true });
  // seating an account names its seat as the owner names that person (the server does the same for a blank
  // name): a name typed by hand is kept, one filled here follows the pick
  form.addEventListener("change", (e) => {
    const select = e.target.closest && e.target.closest("select[data-seat-account]");
    if (!select) return;
    const input = document.getElementById(select.dataset.seatAccount);
    if (!input) return;
    const picked = select.selectedOptions[0];
    const name = picked && picked.value ? picked.dataset.name || "" : "";
    if (!input.value.trim() || input.value === input.dataset.filled) {
      input.value = name;
      input.dataset.filled = name;
    }
  });
}

// Photos taken at the table without a network: shrunk on the phone and kept in the queue with their caption, an
// entry like the others, in their order (queue.js sends them as files). See docs/ARCHITECTURE.md › Photos of the table.
import * as queue from "./queue.js";
import { entryWords, render, say, showRefusal } from "./table-draw.js";
import { live, matchId, queueing, seed } from "./table-state.js";
import { kick } from "./table-sync.js";

const PHOTO_SIDE = 1600;  // the server's display size (matches/photos/processing.py): no need to keep more here

/** The photo made smaller on the phone (its long side at most PHOTO_SIDE, JPEG): the camera's orientation is
 * applied and the canvas keeps no EXIF. A file the browser cannot draw (HEIC on most phones) is kept as it is. */
async function shrink(file) {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  if (bitmap.close) bitmap.close();
  return new Promise((ok, fail) => canvas.toBlob((b) => (b ? ok(b) : fail(new Error("no picture"))), "image/jpeg", 0.85));
}

/** Keep the photo ``form`` posts in the queue with its caption (an entry like the others, in their order);
 * the local position counts it as an entry that changes nothing, as the server does. */
async function keepPhoto(form) {
  const id = matchId();
  const s = seed();
  const file = form.elements.photo && form.elements.photo.files[0];
  if (!file) {
    showRefusal(form, { detail: "Choose a photo to add." });
    return;
  }
  let blob;
  try { blob = await shrink(file); } catch (error) { blob = file; }
  const caption = (form.elements.caption ? form.elements.caption.value : "").trim().slice(0, 300);
  const data = { photo: "on-this-phone", caption, at: 0, display: "-", thumb: "-", width: 1, height: 1, bytes: blob.size };
  const entry = { type: "photo_added", seat: null, data };
  const all = await queue.entries(id);
  // a tap is a write: kept at once, on the version after the entries before it (no engine asked: a photo changes
  // no game state, and the server sends it by its key, not its version)
  const madeOn = all.length ? Math.max(all[all.length - 1].made_on + 1, s.version) : s.version;
  const row = await queue.add(id, entry, madeOn, { text: caption ? `Photo: ${caption}` : "Photo", blob, checked: "rules" });
  form.reset();
  document.querySelectorAll("#problem").forEach((p) => p.remove());
  say("ok", `Kept on this phone, to be sent when the network is back: ${entryWords(row, s.seat_names)} (${Math.round(blob.size / 1024)} KB).`);
  await render();
  kick(0);
}

function caught(e) {
  const form = e.target;
  const region = live();
  if (!form.classList || !form.classList.contains("photo-add") || !region || !region.contains(form)) return;
  if (!queueing()) return;  // online with nothing waiting: the server takes it at once
  e.preventDefault();
  e.stopPropagation();
  keepPhoto(form);
}

/** Catch a photo's submission while the page keeps what is made here. */
export function listen() {
  document.addEventListener("submit", caught, true);
}

// Whether the network answers: `navigator.onLine` says only that the phone has a link (Wi-Fi without internet
// says true), so a send that fails or takes longer than SEND_TIMEOUT counts as offline too, until something
// the page sends is answered again (any answer, even a refusal, is the server's). table.js asks `offline()`
// before each move; queue.js and table.js tell `failed()` and `answered()`. See docs/ARCHITECTURE.md › Offline
// at the table › A network that does not answer.

export const SEND_TIMEOUT = 5000;  // ms: a move answered later than this is kept on the phone instead

const REMEMBER = 120000;  // ms: a page opened this soon after a failed send starts offline (a reload at the table)
const KEY = "chronicle-network-down";
let down = remembered();  // a send failed or hung since the last answer
const root = () => document.documentElement;

function remembered() {
  try {
    const at = Number(sessionStorage.getItem(KEY) || 0);
    return at > 0 && Date.now() - at < REMEMBER;
  } catch (e) {
    return false;
  }
}

function changed() {
  try {
    if (down) sessionStorage.setItem(KEY, String(Date.now()));
    else sessionStorage.removeItem(KEY);
  } catch (e) { /* no storage: this page alone remembers */ }
  root().dataset.offlineNetwork = down ? "down" : "up";
  document.dispatchEvent(new CustomEvent("offline:network", { detail: { down } }));
}

if (typeof document !== "undefined" && down) root().dataset.offlineNetwork = "down";  // remembered from the last page

/** Whether moves are checked and kept on the phone now: no link, or no answer to the last send. */
export function offline() {
  return !navigator.onLine || down;
}

/** A send failed or timed out: from now on the page is offline, whatever ``navigator.onLine`` says. */
export function failed() {
  if (down) return;
  down = true;
  changed();
}

/** The server answered a send: the network is back. */
export function answered() {
  if (!down) return;
  down = false;
  changed();
}

/** ``fetch`` that gives up after ``ms`` (a network that hangs is no network): rejects like a failed fetch. */
export async function fetchSoon(url, options = {}, ms = SEND_TIMEOUT) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  try {
    return await fetch(url, { ...options, signal: abort.signal });
  } finally {
    clearTimeout(timer);
  }
}

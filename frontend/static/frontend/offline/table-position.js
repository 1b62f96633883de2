// The local position on the match page: the page's seed folded with the entries waiting on the phone (or the
// last one drawn, kept with the queue), by the in-browser rules. See docs/ARCHITECTURE.md › Offline at the table.
import * as startedHere from "./local.js";
import * as queue from "./queue.js";
import { rules } from "./table-state.js";

function position(s) {  // the seed is the head position as rules.js takes it
  return s.state === undefined ? null : s;
}

/** The position after the waiting entries: ``{pos, last, log, head?, bad}``, where ``pos`` is null when it is not
 * known here (``why``: "hidden", something the rules cannot judge for this reader, or "none", the rules are not on
 * this phone or the page is newer than the queue). The last one drawn is kept with the queue (``queue.putHead``):
 * when it is of these very entries it is taken as it is (``head``), no engine needed; else the entries are folded on
 * the page's position (when they were made on it). ``log``: every entry up to that position when the seed has
 * the page's log (an undo of a recorded entry is then checked here too: rulesets/offline.py › record), else null.
 * ``bad``: the keys of waiting entries the rules here refuse (kept by an older page): left out of the fold (the
 * server will hold them), so the moves after them are still checked. */
export async function localPosition(s, waiting, headRead = null) {
  const start = position(s);
  if (!start) return { pos: null, why: "none", bad: [] };
  const head = await (headRead || queue.getHead(s.match));  // headRead: the same read, begun earlier
  if (head && sameEntries(head.keys, waiting) && fits(head, s, waiting)) {
    return { pos: head.pos, last: head.last, log: head.log, head, bad: head.bad || [] };
  }
  if (waiting.length && waiting[0].made_on !== s.version) return { pos: null, why: "none", bad: [] };  // the server will say
  if (!waiting.length && !startedHere.isLocal(s.match)) return { pos: start, last: null, log: Array.isArray(s.log) ? s.log.slice() : null, bad: [] };
  const r = await rules();
  if (!r) return { pos: null, why: "none", bad: [] };
  let pos = start, last = null;
  const bad = [];
  const log = Array.isArray(s.log) ? s.log.slice() : null;
  for (const e of waiting) {
    if (e.blob) {  // a photo kept here: an entry that changes nothing (the rules take no typed photo entry)
      pos = { ...pos, version: pos.version + 1 };
      if (log) log.push({ version: pos.version, type: e.type, seat: null, data: e.data });
      continue;
    }
    const answer = await r.record(pos, { type: e.type, seat: e.seat, data: e.data }, log);
    if (answer && answer.ok === false) { bad.push(e.key); continue; }
    if (!answer || answer.ok !== true) return { pos: null, why: "hidden", bad };
    pos = answer.position;
    last = answer;
    if (log) log.push({ version: pos.version, ...answer.entry });
  }
  // before its first entry (or after refused ones) the answer to draw is the position's own turn line and moves
  if (!last && (startedHere.isLocal(s.match) || bad.length)) last = { turn: await r.turn(pos), legal: await r.legal(pos) };
  return { pos, last: last && { turn: last.turn, legal: last.legal }, log, bad };
}

/** Whether the waiting entries are the kept head's, or its last ones (those before them were sent since: the
 * position after them is the same). */
function sameEntries(keys, waiting) {
  if (!Array.isArray(keys) || keys.length < waiting.length) return false;
  const tail = keys.slice(keys.length - waiting.length);
  return waiting.every((e, i) => e.key === tail[i]);
}

/** Whether a kept head is of this page: the page's own position is not newer than the one the waiting entries
 * were made on (a kept copy of the page may be older than moves made in place or sent since: the head knows more). */
function fits(head, s, waiting) {
  if (!waiting.length) return head.keys.length === 0 && head.base === s.version;
  return s.version <= waiting[0].made_on;
}

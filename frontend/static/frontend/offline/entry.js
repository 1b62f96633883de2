// A move form's fields read back into the entry it posts, ``{type, seat, data}``, in the browser: the reading
// ``frontend/forms/schema.py › parse_inputs`` does on the server, for the widgets it draws (no page code here: the offline
// queue keeps the entry; tests/frontend/test_browser_offline_forms.py holds the two readings equal).

function setPath(target, path, value) {
  let node = target;
  path.forEach((part, i) => {
    if (i === path.length - 1) node[part] = value;
    else node = node[part] = node[part] || {};
  });
}

function arrays(value) {  // {"0": a, "1": b} (cells, rows, items) back into lists, blank rows skipped
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const out = {};
  keys.forEach((k) => { out[k] = arrays(value[k]); });
  if (keys.length && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => a - b).map((k) => out[k]).filter((v) => v !== undefined && !(v && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length));
  }
  return out;
}

const OFF = ["", "false", "0"];  // frontend/forms/schema.py › _OFF

function readAny(raw) {  // parse_value for ``any``: JSON, else a plain name
  try { return JSON.parse(raw); } catch (e) { return raw; }
}

function numbers(raw, read) {  // "3, 2, 1" (a long list of numbers, or names separated by commas)
  if (read !== "list" && raw.trim().startsWith("[")) return JSON.parse(raw);
  const parts = raw.split(",").map((p) => p.trim()).filter(Boolean);
  return read === "list" ? parts : parts.map((p) => Number(p.replace(",", ".")));
}

/** One named control's value as ``parse_inputs`` reads it (``data-read``, set by frontend/forms/schema.py), or
 * ``undefined`` when it posts nothing. */
function readControl(form, el, nested) {
  const read = el.dataset.read || "";
  const same = form.querySelectorAll(`[name="${CSS.escape(el.name)}"]`);
  if (read === "bool") return el.checked ? true : nested ? undefined : false;
  if (read === "checked") return Array.from(same).filter((c) => c.checked).map((c) => c.value.trim()).filter(Boolean);
  if (read === "tiles") {
    return Array.from(same).filter((c) => c.checked).flatMap((c) => c.value.split(";")).filter((v) => v.trim())
      .map((v) => v.split(",").map((n) => Number(n.trim())));
  }
  const raw = String(el.value || "").trim();
  if (read === "list" || read.startsWith("list:")) return numbers(raw, read);
  if (!raw) return el.hasAttribute("data-null") ? null : undefined;
  if (read === "int" && el.closest("[data-cell-field]")) {  // a cell's number as the board's edges count it (Field.first)
    return Number(raw) - Number(el.closest("[data-cell-field]").dataset.first || 0);
  }
  if (read === "int" || read === "number") return Number(raw.replace(",", "."));
  if (read === "bool?") return !OFF.includes(raw.toLowerCase());
  if (read === "any") return readAny(raw);
  if (read === "json") return JSON.parse(raw);
  if (read.startsWith("choice:")) return JSON.parse(read.slice(7)).find((c) => String(c) === raw) ?? raw;
  if (read === "str") return raw;
  // a value a board posts under the field's own name (a hidden ``data.at=2,3``): a cell, a number or a name
  if (/^-?\d+\s*,\s*-?\d+$/.test(raw)) return raw.split(",").map((n) => Number(n));
  if (el.type === "number") return Number(raw);
  return readAny(raw);
}

/** The entry ``{type, seat, data}`` a move form posts, read as ``frontend/forms/schema.py › parse_inputs`` reads it:
 * a listed move's JSON, an undo, or each control by its ``data-read``. */
export function entryFromForm(form, submitter) {
  const fd = new FormData(form, submitter || undefined);
  if (fd.get("move")) {
    const move = JSON.parse(fd.get("move"));
    return { type: move.type, seat: move.seat ?? null, data: move.data || {} };
  }
  if (/\/undo\/$/.test(new URL(form.action, location.href).pathname)) {
    return { type: "event_voided", seat: null, data: { version: Number(fd.get("version")), reason: String(fd.get("reason") || "").trim() } };
  }
  const seat = fd.get("seat");
  return { type: String(fd.get("type") || ""), seat: seat === null || seat === "" ? null : Number(seat), data: readFields(form, "data.") };
}

/** The object the controls named ``<prefix>…`` post, read as ``parse_inputs`` reads them (``data.`` for a move's
 * payload, ``option.`` for a new match's options). */
export function readFields(form, prefix) {
  const data = {};
  const seen = new Set();
  for (const el of form.elements) {
    const name = el.name || "";
    if (!name.startsWith(prefix) || seen.has(name) || el.disabled) continue;
    seen.add(name);
    const path = name.slice(prefix.length).split(".");
    const value = readControl(form, el, path.length > 1);
    if (value !== undefined) setPath(data, path, value);
  }
  form.querySelectorAll("[data-cell-field][data-null]").forEach((cell) => {  // both blank: null
    const axes = Array.from(cell.querySelectorAll("input")).filter((a) => a.name.startsWith(prefix));
    if (axes.length && axes.every((a) => !String(a.value).trim())) setPath(data, axes[0].name.slice(prefix.length).split(".").slice(0, -1), null);
  });
  return arrays(data);
}

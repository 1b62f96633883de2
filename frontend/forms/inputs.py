"""The pure half of the web forms: the inputs ``_input.html`` draws for a ruleset's fields, and the listed moves a
page may offer. No Django here (``frontend.forms`` re-exports it): the boards draw their forms with it, on the server
and in the browser (``frontend/offline/board.py``, Pyodide).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulesets import Event, Field, Ruleset
from rulesets.cells import row_col_words
from rulesets.schema import SchemaError, check_payload

OPTION_PREFIX = "option."  # new-match and new-campaign options are posted as ``option.<key>``
_OFF = ("", "false", "0")  # posted checkbox values that mean "not ticked"


def int_or_none(value: Any) -> int | None:
    """``value`` as an int, or None when it is missing or not a whole number."""
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


@dataclass
class Input:
    """One input (or a group of them) as ``frontend/_input.html`` draws it."""

    name: str  # the POST name
    id: str
    label: str
    widget: str  # text | number | checkbox | select | cell | tiles | json | checkboxes | group
    value: Any = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    children: list[Input] = field(default_factory=list)
    help: str = ""
    error: str = ""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    step: str = ""  # a number input's granularity: "any" for a decimal number (the browser's default is 1)
    datalist: str = ""
    placeholder: str = ""
    empty: str = ""  # checkboxes: said instead when there is nothing to tick
    read: str = ""  # how parse_inputs reads the posted string back (``data-read``, for the offline page: entry.js)
    null: bool = False  # left blank, it is posted as null (a nullable required field)
    first: int = 0  # a cell: the number the board's edges give its first column and row (``Field.first``)
    grid: list[tuple[int, list[tuple[str, str]]]] = field(default_factory=list)  # tiles: (row label, its choices)


@dataclass(frozen=True)
class Pick:
    """Names a field's value is picked from: a ``str`` (or ``any``) field becomes a select, a list of ``str``
    checkboxes. ``labels`` (same length as ``names``) are the words shown when they differ from the values
    (an ``any`` value such as ``{"card": 3}`` is posted as its JSON, never typed)."""

    names: Sequence[str]
    prompt: str = "— choose —"  # the select's empty choice
    empty: str = "Nothing to choose yet."  # shown instead of checkboxes when there are no names
    labels: Sequence[str] = ()


SMALL_LIST = 8  # a list of numbers or choices with at most this many items gets one input per item
BLANK_ROWS = 2  # empty rows offered after the items of a list of objects or tiles


def _dom_id(*parts: str) -> str:
    return "id_" + re.sub(r"[^A-Za-z0-9_-]", "_", "_".join(parts))


def _error_paths(errors: Mapping[str, list[str]] | None) -> dict[str, list[str]]:
    """Service error paths (``data.cards[0].name``) in the form's input names (``data.cards.0.name``)."""
    return {re.sub(r"\[(\d+)\]", r".\1", k): v for k, v in (errors or {}).items()}


def _display(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def _is_str_list(f: Field) -> bool:
    return f.kind == "list" and f.item is not None and f.item.kind == "str"


def _is_cell_list(f: Field) -> bool:
    return f.kind == "list" and f.item is not None and f.item.kind == "cell"


def _is_scalar_list(f: Field) -> bool:
    """A list of numbers or choices: one input per item when short, else numbers typed with commas."""
    return f.kind == "list" and f.item is not None and f.item.kind in ("int", "number", "choice")


def _is_object_list(f: Field) -> bool:
    return f.kind == "list" and f.item is not None and f.item.kind == "object"


def _fixed_rows(f: Field) -> int:
    """How many rows a fixed-size list of objects is drawn with (0: not a fixed-size list of objects)."""
    if _is_object_list(f) and f.min_items == f.max_items <= SMALL_LIST:
        return f.max_items
    return 0


def _getlist(values: Any, name: str) -> list[str]:
    if hasattr(values, "getlist"):
        return list(values.getlist(name))
    value = values.get(name)
    return list(value) if isinstance(value, (list, tuple)) else ([value] if value else [])


def _typed_rows(post: Any, name: str) -> list[int]:
    """The indexes ``i`` of the rows ``<name>.<i>.…`` (or items ``<name>.<i>``) posted with something typed."""
    pattern = re.compile(re.escape(name) + r"\.(\d+)(?:\.|$)")
    found: set[int] = set()
    for key in post:
        m = pattern.match(key)
        if m and any(str(v).strip() for v in _getlist(post, key)):
            found.add(int(m.group(1)))
    return sorted(found)


def _typed_under(post: Any, prefix: str) -> bool:
    """Whether anything was typed (or ticked) in an input named ``<prefix>…``."""
    return any(key.startswith(prefix) and any(str(v).strip() for v in _getlist(post, key)) for key in post)


@dataclass
class _Ctx:
    """What every level of :func:`build_inputs` shares."""

    form: str
    values: Any
    errors: dict[str, list[str]]
    expand: bool
    picks: Mapping[str, Pick]
    datalists: Mapping[str, str]
    grid: tuple[int, int] | None
    blank: bool = False  # a blank row of a list: no defaults, every select starts empty
    marks: bool = True  # mark required inputs ``required`` (not where most inputs of the form go unused)

    def posted(self, name: str) -> Any:
        return self.values.get(name) if self.values is not None else None


def build_inputs(
    fields: tuple[Field, ...], prefix: str, *, form: str, values: Any = None,
    errors: Mapping[str, list[str]] | None = None, expand: bool = False, picks: Mapping[str, Pick] | None = None,
    datalists: Mapping[str, str] | None = None, grid: tuple[int, int] | None = None, mark_required: bool = True,
) -> list[Input]:  # fmt: skip
    """Inputs named ``<prefix><field>`` (expanded: ``data.item.name``, ``data.cards.0.buy``) for ``fields``.

    ``values``: what was posted (a QueryDict, or a dict by POST name) to show again; None for a fresh form,
    which shows the fields' defaults. ``errors``: messages by POST name or service path. ``form`` makes the
    element ids unique on the page. ``expand``: objects and lists of objects become groups of inputs (else
    one JSON input). ``picks``: field name → the names its value is picked from. ``datalists``: field name →
    the id of a ``<datalist>`` suggesting values for that text input. ``grid``: ``(rows, columns)`` of the
    board, so a list of tiles is a grid of boxes to tick. ``mark_required``: False where the browser must not
    insist on fields the chosen action does not use (the town form).

    No input asks for JSON, quotes or a coordinate pair typed as text: a cell is two labelled numbers (and a
    tap on the board with ``static/frontend/forms.js``), a list of tiles a grid of boxes or rows of cells.
    """
    ctx = _Ctx(form, values, _error_paths(errors), expand, picks or {}, datalists or {}, grid, marks=mark_required)
    return _inputs(fields, prefix, ctx)


def _inputs(fields: tuple[Field, ...], prefix: str, ctx: _Ctx) -> list[Input]:
    return [_input(f, f"{prefix}{f.name}", ctx) for f in fields]


def _input(f: Field, name: str, ctx: _Ctx, label: str = "") -> Input:
    """One field's input (or group of inputs) named ``name``, marked with how its value is read back."""
    made = _widget(f, name, ctx, label)
    _mark_read(f, made)
    return made


def _mark_read(f: Field, made: Input) -> None:
    """``made.read``: the reading :func:`parse_inputs` gives ``f`` through this widget, said in the page so
    that the offline page reads a form the same way (``static/frontend/offline/entry.js``)."""
    made.null = f.nullable and f.required
    if made.widget == "cell" or (made.widget == "group" and f.item is not None and f.item.kind == "cell"):
        cells = made.children if made.widget == "group" else [made]
        for cell in cells:
            for axis in cell.children:
                axis.read = "int"
        return
    if made.widget == "select" and f.kind == "bool":
        made.read = "bool?"
    elif made.widget == "select" and f.kind == "choice":
        plain = all(isinstance(c, str) for c in f.choices)
        made.read = "str" if plain else "choice:" + json.dumps(list(f.choices))
    elif made.widget == "text" and f.item is not None:
        made.read = "list" if f.item.kind == "str" else f"list:{f.item.kind}"
    else:
        made.read = {"tiles": "tiles", "checkboxes": "checked", "checkbox": "bool", "json": "json"}.get(
            made.widget, f.kind if f.kind in ("int", "number", "str", "any") else ""
        )


def _widget(f: Field, name: str, ctx: _Ctx, label: str = "") -> Input:
    """One field's input (or group of inputs) named ``name``."""
    common: dict[str, Any] = {
        "name": name,
        "id": _dom_id(ctx.form, name),
        "label": label or f.label or f.name.replace("_", " ").capitalize(),
        "error": " ".join(ctx.errors.get(name, [])),
        "help": f.help,
        "required": f.required and f.kind != "bool" and not ctx.blank and ctx.marks,
    }
    raw = ctx.posted(name)
    if raw is None and not ctx.blank and ctx.values is None:
        raw = f.default
    pick = ctx.picks.get(f.name)
    if f.kind == "any":
        common["help"] = ""  # an ``any`` field's help describes its JSON for the API; people pick or type a name
    if f.kind in ("str", "any") and pick is not None and (pick.names or f.kind == "any"):
        return _select_input(f, pick, raw, common)
    if f.kind == "str":
        return Input(widget="text", value=_display(raw), datalist=ctx.datalists.get(f.name, ""), **common)
    if f.kind in ("int", "number"):
        step = "any" if f.kind == "number" else ""  # 57.5 cm is a length: no whole-number step
        if f.rule:  # bounds that are a rulebook line are the rule's to refuse, with its words (not the browser's)
            return Input(widget="number", value=_display(raw), step=step, **common)
        return Input(widget="number", value=_display(raw), minimum=f.minimum, maximum=f.maximum, step=step, **common)
    if f.kind == "bool" and f.nullable:  # three answers: empty (the default rule), yes, no
        shown = _display(raw) if ctx.values is not None else ("" if raw is None else str(bool(raw)).lower())
        choices = [("", "— (automatic)"), ("true", "Yes"), ("false", "No")]
        return Input(widget="select", value=shown, choices=choices, **{**common, "required": False})
    if f.kind == "bool":
        if ctx.values is not None or ctx.blank:
            checked = ctx.values is not None and name in ctx.values and ctx.values.get(name) not in _OFF
        else:
            checked = bool(f.default)
        return Input(widget="checkbox", value=checked, **common)
    if f.kind == "choice":
        choices = list(zip(map(_display, f.choices), f.choice_labels or map(str, f.choices), strict=True))
        if not f.required or f.nullable or ctx.blank:
            choices.insert(0, ("", "—"))
        return Input(widget="select", value=_display(raw), choices=choices, **common)
    if f.kind == "cell":
        return _cell_input(f, name, raw, ctx, common)
    if _is_cell_list(f):
        return _tiles_input(f, name, raw, ctx, common)
    if f.kind == "object" and ctx.expand:
        return Input(widget="group", children=_inputs(f.fields, f"{name}.", ctx), **common)
    if _is_str_list(f) and pick is not None:
        selected = _getlist(ctx.values, name) if ctx.values is not None else []
        choices = [(n, n) for n in pick.names] + [(s, s) for s in selected if s not in pick.names]
        return Input(widget="checkboxes", choices=choices, selected=selected, empty=pick.empty, **common)
    if _is_str_list(f):
        shown = ", ".join(str(v) for v in raw) if isinstance(raw, list) else _display(raw)
        common.update(help=f.help or "Separate several with commas.", required=False)
        return Input(widget="text", value=shown, datalist=ctx.datalists.get(f.name, ""), **common)
    if _is_scalar_list(f):
        return _scalar_list_input(f, name, raw, ctx, common)
    if _is_object_list(f) and ctx.expand:
        return _rows_input(f, name, raw, ctx, common)
    shown = raw if isinstance(raw, str) else _display(raw)
    if f.kind == "any":  # a name (no quotes needed); the page had no list to pick it from
        return Input(widget="text", value=shown, **{**common, "help": "A name."})
    return Input(widget="json", value=shown, **{**common, "help": f.help or "JSON"})  # only unexpanded forms


def _select_input(f: Field, pick: Pick, raw: Any, common: dict[str, Any]) -> Input:
    """A select of ``pick``'s names; a value typed before (or refused) that is not among them stays offered."""
    value = raw if isinstance(raw, str) else _display(raw)
    labels = list(pick.labels) or list(pick.names)
    choices = [("", pick.prompt), *zip(pick.names, labels, strict=False)]
    if value and value not in pick.names:
        choices.append((value, value))
    return Input(widget="select", value=value, choices=choices, **common)


def _cell_values(raw: Any) -> list[str]:
    """A cell (a list, ``"2,3"`` or None) as the two strings its inputs show."""
    if isinstance(raw, (list, tuple)) and len(raw) == 2:
        return [str(v) for v in raw]
    if isinstance(raw, str):
        parts = [p.strip() for p in raw.strip("[]() ").split(",")]
        if len(parts) == 2:
            return parts
    return ["", ""]


def _cell_input(f: Field, name: str, raw: Any, ctx: _Ctx, common: dict[str, Any]) -> Input:
    """Two labelled numbers (``Field.axes``) named ``<name>.0`` and ``<name>.1``, the column first, each as the
    board's edge labels it (``Field.first``; ``rulesets.cells``); a tap on the board fills them."""
    if ctx.values is not None and not ctx.blank and (f"{name}.0" in ctx.values or f"{name}.1" in ctx.values):
        shown = [str(ctx.values.get(f"{name}.{i}", "") or "") for i in (0, 1)]
    else:
        shown = [_shifted(v, f.first) for v in _cell_values(raw)]
    children = [
        Input(
            name=f"{name}.{i}",
            id=_dom_id(ctx.form, f"{name}.{i}"),
            label=axis.capitalize(),
            widget="number",
            value=shown[i],
            minimum=f.first if ctx.grid else None,
            maximum=(ctx.grid[i] - 1 + f.first) if ctx.grid else None,
            required=common["required"],
        )
        for i, axis in enumerate(f.axes)
    ]
    children.sort(key=lambda child: child.label != "Column")  # read as the words say it: column, then row
    return Input(widget="cell", children=children, first=f.first, **common)


def _shifted(value: str, by: int) -> str:
    """A cell number as stored (``"2"``) as people count it (``"3"`` when the board counts from 1), and back."""
    try:
        return str(int(value) + by) if by else value
    except ValueError:
        return value


def _tiles_input(f: Field, name: str, raw: Any, ctx: _Ctx, common: dict[str, Any]) -> Input:
    """A list of tiles: with a known board, one box per tile to tick, laid out as the board; otherwise rows of
    cells (two numbers each), blank rows skipped."""
    assert f.item is not None
    if ctx.grid is not None:
        rows, cols = ctx.grid
        if ctx.values is not None:
            selected = [v for posted in _getlist(ctx.values, name) for v in re.split(r"\s*;\s*", posted) if v]
        else:
            selected = [f"{c[0]},{c[1]}" for c in raw or [] if isinstance(c, (list, tuple)) and len(c) == 2]
        choices = [(f"{r},{c}", row_col_words((r, c)).capitalize()) for r in range(rows) for c in range(cols)]
        grid = [(r + 1, choices[r * cols : (r + 1) * cols]) for r in range(rows)]  # the edges count from 1
        return Input(widget="tiles", choices=choices, selected=selected, maximum=cols, grid=grid, **common)
    current = raw if isinstance(raw, list) else []
    typed = _typed_rows(ctx.values, name) if ctx.values is not None else []
    count = min(f.max_items, max(len(current), (typed[-1] + 1) if typed else 0) + BLANK_ROWS)
    item_label = f.item.label or "Tile"
    children = []
    for i in range(count):
        value = current[i] if i < len(current) else None
        sub = replace(ctx, blank=value is None and ctx.values is None)
        child = _cell_input(f.item, f"{name}.{i}", value, sub, {
            "name": f"{name}.{i}", "id": _dom_id(ctx.form, f"{name}.{i}"), "label": f"{item_label} {i + 1}",
            "error": " ".join(ctx.errors.get(f"{name}.{i}", [])), "help": "", "required": False,
        })  # fmt: skip
        children.append(child)
    return Input(widget="group", children=children, **common)


def _scalar_list_input(f: Field, name: str, raw: Any, ctx: _Ctx, common: dict[str, Any]) -> Input:
    """A short list of numbers or choices: one input per item (``<name>.<i>``, blank ones skipped), labelled by
    ``Field.item_labels`` or numbered; a long list of numbers: one text input, numbers separated by commas."""
    assert f.item is not None
    if f.max_items > SMALL_LIST:
        shown = ", ".join(str(v) for v in raw) if isinstance(raw, list) else _display(raw)
        common.update(help=f.help or "Numbers separated by commas, e.g. 3, 2, 1.", required=False)
        return Input(widget="text", value=shown, **common)
    current = raw if isinstance(raw, list) else []
    shown = (
        ctx.values if ctx.values is not None else _Values({f"{name}.{i}": _display(v) for i, v in enumerate(current)})
    )
    base = f.item.label or common["label"]
    children = []
    for i in range(f.max_items):
        label = f.item_labels[i] if i < len(f.item_labels) else f"{base} {i + 1}"
        item = _input(f.item, f"{name}.{i}", replace(ctx, values=shown, blank=True), label)
        item.required = i < f.min_items and ctx.marks and f.required  # an optional list: all empty is its default
        children.append(item)
    return Input(widget="group", children=children, **common)


def _rows_input(f: Field, name: str, raw: Any, ctx: _Ctx, common: dict[str, Any]) -> Input:
    """A list of objects: one group of inputs per item (``<name>.<i>.<field>``). A fixed-size list shows its
    rows; another shows its items plus blank rows (blank rows are skipped when read back)."""
    assert f.item is not None
    fixed = _fixed_rows(f)
    current = raw if isinstance(raw, list) else []
    typed = _typed_rows(ctx.values, name) if ctx.values is not None else []
    count = fixed or min(f.max_items, max(len(current), (typed[-1] + 1) if typed else 0, f.min_items) + BLANK_ROWS)
    item_label = (f.item.label or f.item.name).capitalize()
    rows = []
    for i in range(count):
        item = current[i] if i < len(current) and isinstance(current[i], dict) else None
        if ctx.values is None and item is not None:
            sub = replace(ctx, values=_flatten_values(item, f"{name}.{i}."))
        else:
            empty = item is None and i not in typed and (not fixed or not f.required)  # nothing to show: no defaults
            sub = replace(ctx, blank=ctx.blank or empty)
        rows.append(
            Input(
                name=f"{name}.{i}",
                id=_dom_id(ctx.form, f"{name}.{i}"),
                label=f"{item_label} {i + 1}",
                widget="group",
                children=_inputs(f.item.fields, f"{name}.{i}.", sub),
                error=" ".join(ctx.errors.get(f"{name}.{i}", [])),
            )
        )
    return Input(widget="group", children=rows, **common)


class _Values(dict):
    """POST-like values (``getlist`` too) made from a stored item, to draw it with the posted-values path."""

    def getlist(self, key: str) -> list[Any]:
        value = self.get(key)
        return list(value) if isinstance(value, list) else ([] if value is None else [value])


def _flatten_values(item: Any, prefix: str) -> _Values:
    """A stored object as the POST names and strings its inputs would post (lists of names as lists)."""
    out = _Values()

    def walk(value: Any, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{key}.{k}" if key else k)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            out[key] = list(value)  # a list of names (checkboxes) or of choices (one select each)
            out.update({f"{key}.{i}": v for i, v in enumerate(value)})
        elif isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
            out[key], out[f"{key}.0"], out[f"{key}.1"] = f"{value[0]},{value[1]}", str(value[0]), str(value[1])
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{key}.{i}")
        elif isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif value is not None:
            out[key] = str(value)

    walk(item, prefix.rstrip("."))
    return out


def recordable(ruleset: Ruleset, moves: list[Event] | None) -> list[Event] | None:
    """The listed moves a page may offer as they are: those whose payload fits the entry type's fields. A move
    listed with a hidden value blanked (another seat's secret origin, as a seat holder or a seatless recorder
    knows it) is not one; the forms take it, typed by the player whose secret it is."""
    if moves is None:
        return None
    types = ruleset.event_types
    out = []
    for move in moves:
        spec = types.get(move.type)
        if spec is not None:
            try:
                check_payload(spec.fields, move.data)
            except SchemaError:
                continue
        out.append(move)
    return out

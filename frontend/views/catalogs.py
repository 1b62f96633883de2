"""Card catalog pages: list, create (pre-filled with the game's defaults), edit as tables, import, export.

Thin views over ``matches.catalogs``. The edit page is built from the game's options schema: every list of
objects (``attack_cards``, ``strategy_cards``) becomes a table with one input per item field, a "remove"
checkbox per row and a few blank rows at the end; every object (``board``) becomes a small fieldset.
Everything works without JavaScript. A catalog is only ever shown to its owner.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from frontend.forms.schema import error_sentence, int_or_none, parse_value
from matches import catalogs
from matches.errors import InvalidInput
from matches.models import Catalog
from rulesets import Field, get_ruleset

BLANK_ROWS = 3  # empty rows offered at the end of each table
MAX_ROWS = 100  # rows read back from a posted table
FIRST_SEAT_NOTES = {"salt-and-bones": "starts with Momentum", "the-first-spine": "plays first"}
_ROW_PATH = re.compile(r"^(\w+)\[(\d+)\](?:\.(\w+))?")
_FIELD_PATH = re.compile(r"^(\w+)\.(\w+)")


# -- the edit form, built from the schema ----------------------------------------------------------------


@dataclass
class Cell:
    """One input of a table row or of an object fieldset."""

    name: str  # POST name
    field: Field
    widget: str  # text | number | select | checkbox | cells
    value: Any  # raw string (or bool for checkboxes)
    choices: tuple[tuple[str, str], ...] = ()  # (value, the words a select shows for it)
    error: str = ""


@dataclass
class Row:
    """One table row; ``data_index`` is the list item it stands for (None for a blank or removed row)."""

    index: int
    cells: list[Cell]
    remove: bool = False
    error: str = ""
    data_index: int | None = None


@dataclass
class Table:
    """A list-of-objects catalog key as an editable table."""

    key: str
    label: str
    columns: tuple[Field, ...]
    rows: list[Row] = field(default_factory=list)
    error: str = ""

    @property
    def headers(self) -> list[dict[str, str]]:
        return [
            {
                "text": c.name.replace("_", " ").capitalize(),
                "title": c.label + (f" — {c.help}" if c.help else ""),
                "hint": widget_help(c),
            }
            for c in self.columns
        ]


@dataclass
class Group:
    """An object catalog key (the board) as a fieldset."""

    key: str
    label: str
    cells: list[Cell] = field(default_factory=list)
    error: str = ""


def _widget(f: Field) -> str:
    """How a field is typed in a table cell. Besides the plain inputs, three compact text widgets keep JSON
    out of the form: ``numbers`` (an object of whole numbers as ``3/1/0/1`` in field order), ``tags`` (a list
    of choices as ``death, run``) and ``pairs`` (an object of choices as ``left: threat, back: aura``)."""
    if f.kind == "int":
        return "number"
    if f.kind == "bool":
        return "checkbox"
    if f.kind == "choice":
        return "select"
    if f.kind == "list" and f.item is not None and f.item.kind == "cell":
        return "cells"
    if f.kind == "list" and f.item is not None and f.item.kind == "choice":
        return "tags"
    if f.kind == "object" and f.fields and all(c.kind == "int" for c in f.fields):
        return "numbers"
    if f.kind == "object" and f.fields and all(c.kind == "choice" for c in f.fields):
        return "pairs"
    return "text"


def widget_help(f: Field) -> str:
    """The typing hint shown for a compact widget ('' for plain inputs)."""
    widget = _widget(f)
    if widget == "numbers":
        return "/".join(c.name for c in f.fields) + ", e.g. " + "/".join(str(i % 3) for i in range(len(f.fields)))
    if widget == "tags" and f.item is not None:
        return "comma-separated: " + ", ".join(str(c) for c in f.item.choices)
    if widget == "cells":
        return "column,row pairs (the numbers on the board's edges), e.g. 3,3; 4,3"
    if widget == "pairs":
        first = f.fields[0]
        return f"name: value pairs, e.g. {first.name}: {first.choices[0]}"
    return ""


def _show(f: Field, value: Any) -> Any:
    """A stored value as the input shows it."""
    if f.kind == "bool":
        return bool(value)
    if value is None:
        return ""
    widget = _widget(f)
    if widget == "cells":
        return "; ".join(_cell_text(f, c) for c in value if isinstance(c, (list, tuple)) and len(c) == 2)
    if widget == "numbers" and isinstance(value, dict):
        return "/".join(str(value.get(c.name, "")) for c in f.fields)
    if widget == "tags" and isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if widget == "pairs" and isinstance(value, dict):
        return ", ".join(f"{c.name}: {value[c.name]}" for c in f.fields if value.get(c.name))  # schema order
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def _cell(name: str, f: Field, raw: Any) -> Cell:
    words = f.choice_labels or tuple(str(c) for c in f.choices)
    choices = tuple((str(c), w) for c, w in zip(f.choices, words, strict=True))
    return Cell(name=name, field=f, widget=_widget(f), value=raw, choices=choices)


def _tables_and_groups(game: str) -> tuple[list[Field], list[Field]]:
    fields = catalogs.catalog_fields(game)
    tables = [f for f in fields if f.kind == "list" and f.item is not None and f.item.kind == "object"]
    groups = [f for f in fields if f.kind == "object"]
    return tables, groups


def form_from_data(game: str, data: dict[str, Any]) -> tuple[list[Table], list[Group]]:
    """The edit form showing ``data`` (plus blank rows)."""
    table_fields, group_fields = _tables_and_groups(game)
    tables = []
    for tf in table_fields:
        assert tf.item is not None
        columns = tf.item.fields
        table = Table(key=tf.name, label=tf.label or tf.name, columns=columns)
        items = list(data.get(tf.name) or [])
        for i in range(len(items) + BLANK_ROWS):
            item = items[i] if i < len(items) and isinstance(items[i], dict) else {}
            cells = [
                _cell(f"{tf.name}-{i}-{c.name}", c, _show(c, item.get(c.name, c.default if item else None)))
                for c in columns
            ]
            table.rows.append(Row(index=i, cells=cells, data_index=i if i < len(items) else None))
        tables.append(table)
    groups = []
    for gf in group_fields:
        obj = data.get(gf.name) or gf.default or {}
        group = Group(key=gf.name, label=gf.label or gf.name)
        group.cells = [_cell(f"{gf.name}.{c.name}", c, _show(c, obj.get(c.name))) for c in gf.fields]
        groups.append(group)
    return tables, groups


def _parse_compact(f: Field, widget: str, raw: str) -> Any:
    """A ``numbers``, ``tags`` or ``pairs`` input read back; ValueError naming the expected shape."""
    if widget == "numbers":
        bits = [b for b in re.split(r"[/,\s]+", raw) if b]
        names = [c.name for c in f.fields]
        if len(bits) != len(names):
            raise ValueError(f"Enter {len(names)} whole numbers as {'/'.join(names)}, e.g. 3/1/0/1.")
        try:
            return {name: int(b) for name, b in zip(names, bits, strict=True)}
        except ValueError:
            raise ValueError(f"Enter {len(names)} whole numbers as {'/'.join(names)}, e.g. 3/1/0/1.") from None
    if widget == "tags":
        return [t.strip() for t in raw.split(",") if t.strip()]  # the schema check names the allowed values
    out: dict[str, str] = {}
    for part in (p for p in re.split(r"[,;]+", raw) if p.strip()):
        key, sep, value = part.partition(":")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"Enter name: value pairs separated by commas ({widget_help(f)}).")
        out[key.strip()] = value.strip()
    return out


def _cell_text(f: Field, cell: Any) -> str:
    """A stored tile as typed here: column, row, numbered as the board's edges are (``rulesets.cells``)."""
    assert f.item is not None
    column, row = (cell[1], cell[0]) if f.item.axes[0] == "row" else (cell[0], cell[1])
    return f"{column + f.item.first},{row + f.item.first}"


def _cell_stored(f: Field, typed: list[int]) -> list[int]:
    """The inverse of :func:`_cell_text` for one typed ``[column, row]``."""
    assert f.item is not None
    column, row = (n - f.item.first for n in typed)
    return [row, column] if f.item.axes[0] == "row" else [column, row]


TILES_HELP = "Enter tiles as column,row pairs (the numbers on the board's edges) separated by ';', e.g. 3,3; 4,3."


def _parse_value(f: Field, raw: str) -> Any:
    """A posted string as the schema wants it (tiles typed ``column,row; column,row``); ValueError with a
    message."""
    widget = _widget(f)
    if widget in ("numbers", "tags", "pairs"):
        return _parse_compact(f, widget, raw)
    if widget != "cells":
        return parse_value(f, raw)
    cells = []
    for part in re.split(r"[;\n]+", raw):
        part = part.strip().strip("[]() ")
        if not part:
            continue
        bits = [b for b in re.split(r"[,\s]+", part) if b]
        try:
            cell = [int(b) for b in bits]
        except ValueError:
            raise ValueError(TILES_HELP) from None
        if len(cell) != 2:
            raise ValueError(TILES_HELP)
        cells.append(_cell_stored(f, cell))
    return cells


def _read(cell: Cell, raw: str, into: dict[str, Any]) -> bool:
    """Put ``raw`` read as the cell's field into ``into``; False (the message on the cell) when it cannot be."""
    try:
        into[cell.field.name] = _parse_value(cell.field, raw)
    except ValueError as exc:
        cell.error = str(exc)
        return False
    return True


def form_from_post(game: str, post: Any) -> tuple[list[Table], list[Group], dict[str, Any], bool]:
    """The edit form as posted, the data it describes, and whether any input could not be read.

    Rows ticked "remove" and rows left entirely blank are left out of the data. Each table row keeps the
    index of the item it became (``data_index``) so the service's errors can be shown next to it.
    """
    table_fields, group_fields = _tables_and_groups(game)
    data: dict[str, Any] = {}
    bad = False
    tables = []
    for tf in table_fields:
        assert tf.item is not None
        columns = tf.item.fields
        table = Table(key=tf.name, label=tf.label or tf.name, columns=columns)
        count = min(MAX_ROWS, max(0, int_or_none(post.get(f"{tf.name}-count", "0")) or 0))
        items = []
        for i in range(count):
            cells = []
            item: dict[str, Any] = {}
            typed = False
            for c in columns:
                name = f"{tf.name}-{i}-{c.name}"
                if c.kind == "bool":
                    cells.append(_cell(name, c, name in post))
                    item[c.name] = name in post
                    continue
                raw = str(post.get(name, "")).strip()
                cell = _cell(name, c, raw)
                cells.append(cell)
                if c.kind != "choice" and raw:
                    typed = True
                if raw == "" and c.kind != "str" and _widget(c) not in ("tags", "pairs"):
                    continue
                bad = not _read(cell, raw, item) or bad
            row = Row(index=i, cells=cells, remove=f"{tf.name}-{i}-remove" in post)
            if typed and not row.remove:
                row.data_index = len(items)
                items.append(item)
            table.rows.append(row)
        data[tf.name] = items
        tables.append(table)
    groups = []
    for gf in group_fields:
        group = Group(key=gf.name, label=gf.label or gf.name)
        obj: dict[str, Any] = {}
        for c in gf.fields:
            name = f"{gf.name}.{c.name}"
            raw = str(post.get(name, "")).strip()
            cell = _cell(name, c, raw)
            group.cells.append(cell)
            if raw == "" and _widget(c) != "cells":
                continue
            bad = not _read(cell, raw, obj) or bad
        data[gf.name] = obj
        groups.append(group)
    return tables, groups, data, bad


def attach_errors(
    tables: list[Table], groups: list[Group], errors: dict[str, list[str]], fields: tuple[Field, ...] = ()
) -> list[str]:
    """Put each service error next to its row / input; returns the ones that belong to no input, in the words
    of ``fields`` (the catalog's)."""
    loose: list[str] = []
    by_key = {t.key: t for t in tables}
    group_by_key = {g.key: g for g in groups}
    for path, msgs in errors.items():
        text = " ".join(msgs)
        m = _ROW_PATH.match(path)
        if m and m.group(1) in by_key:
            table = by_key[m.group(1)]
            index = int(m.group(2))
            row = next((r for r in table.rows if r.data_index == index), None)
            if row is not None:
                cell = next((c for c in row.cells if c.field.name == m.group(3)), None) if m.group(3) else None
                if cell is not None:
                    cell.error = (cell.error + " " + text).strip()
                else:
                    row.error = (row.error + " " + (f"{m.group(3)}: " if m.group(3) else "") + text).strip()
                continue
        m = _FIELD_PATH.match(path)
        if m and m.group(1) in group_by_key:
            group = group_by_key[m.group(1)]
            cell = next((c for c in group.cells if c.field.name == m.group(2)), None)
            if cell is not None:
                cell.error = (cell.error + " " + text).strip()
                continue
        if path in by_key:
            by_key[path].error = (by_key[path].error + " " + text).strip()
        elif path in group_by_key:
            group_by_key[path].error = (group_by_key[path].error + " " + text).strip()
        else:
            loose.append(text if path in ("data", "name") else error_sentence({path: [text]}, fields))
    return loose


def new_match_form(catalog: Catalog) -> dict[str, Any]:
    """Hidden ``option.<key>`` inputs holding the catalog's data as JSON, for the new-match page."""
    options = catalogs.catalog_options(catalog)
    return {
        "game": catalog.game,
        "options": [{"name": f"option.{k}", "value": json.dumps(v, separators=(",", ":"))} for k, v in options.items()],
        "seat_count": get_ruleset(catalog.game).seats[0],
        "first_seat_note": FIRST_SEAT_NOTES.get(catalog.game, ""),
    }


# -- pages -----------------------------------------------------------------------------------------------


def _games() -> list[Any]:
    return catalogs.catalog_games()


@login_required
def catalog_list(request: HttpRequest) -> HttpResponse:
    """My catalogs, a form to start a new one from the defaults, and a link to import one."""
    return _list_page(request)


def _list_page(
    request: HttpRequest, errors: dict[str, list[str]] | None = None, values: dict[str, str] | None = None
) -> HttpResponse:
    game = request.GET.get("game") or None
    rows = []
    for c in catalogs.catalog_list(request.user, game):
        counts = [f"{len(v)} {k.replace('_', ' ')}" for k, v in c.data.items() if isinstance(v, list)]
        rows.append({"catalog": c, "counts": ", ".join(counts), "ruleset": get_ruleset(c.game)})
    errors = errors or {}
    context = {
        "rows": rows,
        "games": _games(),
        "errors": {k: " ".join(v) for k, v in errors.items()},
        "values": values or {"game": game or next(iter(catalogs.CATALOG_KEYS))},
    }
    return render(request, "frontend/catalogs/list.html", context, status=400 if errors else 200)


@login_required
@require_POST
def catalog_new(request: HttpRequest) -> HttpResponse:
    """Create a catalog pre-filled with the game's default cards, then edit it."""
    name, game = request.POST.get("name", ""), request.POST.get("game", "")
    try:
        catalog = catalogs.catalog_create(request.user, game, name)
    except InvalidInput as exc:
        return _list_page(request, exc.errors, {"name": name, "game": game})
    messages.success(request, f"Catalog “{catalog.name}” created with the default cards. Edit it below.")
    return redirect("catalog-edit", catalog_id=catalog.pk)


@login_required
def catalog_edit(request: HttpRequest, catalog_id: int) -> HttpResponse:
    """Edit the catalog's name, board and card tables; errors are shown in place and nothing is saved."""
    catalog = catalogs.catalog_get(request.user, catalog_id)
    errors: list[str] = []
    name_error = ""
    name = catalog.name
    if request.method == "POST":
        name = request.POST.get("name", "")
        tables, groups, data, bad = form_from_post(catalog.game, request.POST)
        if not bad:
            try:
                catalogs.catalog_update(catalog, request.user, name=name, data=data)
            except InvalidInput as exc:
                name_error = " ".join(exc.errors.pop("name", []))
                errors = attach_errors(tables, groups, exc.errors, catalogs.catalog_fields(catalog.game))
            else:
                messages.success(request, "Catalog saved. Matches created from it before keep their own copy.")
                return redirect("catalog-edit", catalog_id=catalog.pk)
        catalog.refresh_from_db()
        if bad and not errors:
            errors = ["Some values could not be read; they are marked below."]
    else:
        tables, groups = form_from_data(catalog.game, catalog.data)
    context = {
        "catalog": catalog,
        "ruleset": get_ruleset(catalog.game),
        "name": name,
        "name_error": name_error,
        "tables": tables,
        "groups": groups,
        "errors": errors,
        "failed": request.method == "POST",
        "new_match": new_match_form(catalog),
    }
    return render(request, "frontend/catalogs/edit.html", context, status=400 if request.method == "POST" else 200)


@login_required
def catalog_import(request: HttpRequest) -> HttpResponse:
    """A new catalog from JSON pasted or uploaded (the shape the export produces, or the bare data)."""
    values = {"name": "", "game": next(iter(catalogs.CATALOG_KEYS)), "json": ""}
    errors: dict[str, str] = {}
    if request.method == "POST":
        values = {k: request.POST.get(k, "") for k in ("name", "game", "json")}
        upload = request.FILES.get("file")
        text: Any = upload.read(catalogs.IMPORT_MAX_CHARS + 1) if upload else values["json"]
        try:
            catalog = catalogs.catalog_import(request.user, values["game"], values["name"], text)
        except InvalidInput as exc:
            errors = {k: " ".join(v) for k, v in exc.errors.items()}
        else:
            messages.success(request, f"Catalog “{catalog.name}” imported.")
            return redirect("catalog-edit", catalog_id=catalog.pk)
    known = {"name", "game", "json"}
    context = {
        "values": values,
        "games": _games(),
        "errors": errors,
        "other_errors": [f"{k}: {v}" if k != "data" else v for k, v in errors.items() if k not in known],
    }
    return render(request, "frontend/catalogs/import.html", context, status=400 if errors else 200)


@login_required
def catalog_export(request: HttpRequest, catalog_id: int) -> HttpResponse:
    """The catalog as a JSON file download."""
    catalog = catalogs.catalog_get(request.user, catalog_id)
    body = json.dumps(catalogs.catalog_export(catalog), indent=2, ensure_ascii=False)
    response = HttpResponse(body + "\n", content_type="application/json; charset=utf-8")
    filename = f"{catalog.game}-{slugify(catalog.name) or 'catalog'}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
def catalog_delete(request: HttpRequest, catalog_id: int) -> HttpResponse:
    """Delete one of my catalogs (matches created from it keep their cards)."""
    catalog = catalogs.catalog_get(request.user, catalog_id)
    if request.POST.get("confirm") != "on":
        messages.error(request, "Tick the box to confirm the deletion.")
        return redirect("catalog-edit", catalog_id=catalog.pk)
    name = catalog.name
    catalogs.catalog_delete(catalog, request.user)
    messages.success(request, f"Catalog “{name}” deleted.")
    return redirect(reverse("catalog-list"))

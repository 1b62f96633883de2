"""Web forms built from ruleset schemas: inputs for ``_input.html`` and the posted values read back.

One builder serves every page: the match pages (``data.<field>``, ``option.<field>``), the new-match and
new-campaign options and the campaign sheet. What differs between pages is passed in: whether objects and
fixed-size lists of objects are drawn as separate inputs (``expand``), which fields pick from a list of names
(``picks``) and which text fields suggest values from a ``<datalist>`` (``datalists``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse

from config.text import PROBLEM, unstorable_path
from matches.errors import DomainError, InvalidInput, RuleBroken, VersionConflict
from rulesets import Field
from rulesets.replay import CORRECTIONS_RULE

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
    widget: str  # text | number | checkbox | select | cell | json | checkboxes | group
    value: Any = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)
    children: list[Input] = field(default_factory=list)
    help: str = ""
    error: str = ""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    datalist: str = ""
    placeholder: str = ""
    empty: str = ""  # checkboxes: said instead when there is nothing to tick


@dataclass(frozen=True)
class Pick:
    """Names a field's value is picked from: a ``str`` field becomes a select, a list of ``str`` checkboxes."""

    names: Sequence[str]
    prompt: str = "— choose —"  # the select's empty choice
    empty: str = "Nothing to choose yet."  # shown instead of checkboxes when there are no names


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


def _fixed_rows(f: Field) -> int:
    """How many rows a list of objects is drawn with (only fixed-size lists get rows; others are JSON)."""
    if f.kind == "list" and f.item is not None and f.item.kind == "object" and f.min_items == f.max_items <= 8:
        return f.max_items
    return 0


def _getlist(values: Any, name: str) -> list[str]:
    if hasattr(values, "getlist"):
        return list(values.getlist(name))
    value = values.get(name)
    return list(value) if isinstance(value, (list, tuple)) else ([value] if value else [])


def build_inputs(
    fields: tuple[Field, ...], prefix: str, *, form: str, values: Any = None,
    errors: Mapping[str, list[str]] | None = None, expand: bool = False, picks: Mapping[str, Pick] | None = None,
    datalists: Mapping[str, str] | None = None,
) -> list[Input]:  # fmt: skip
    """Inputs named ``<prefix><field>`` (expanded: ``data.item.name``, ``data.cards.0.buy``) for ``fields``.

    ``values``: what was posted (a QueryDict, or a dict by POST name) to show again; None for a fresh form,
    which shows the fields' defaults. ``errors``: messages by POST name or service path. ``form`` makes the
    element ids unique on the page. ``expand``: objects and fixed-size lists of objects become groups of
    inputs (else one JSON input). ``picks``: field name → the names its value is picked from.
    ``datalists``: field name → the id of a ``<datalist>`` suggesting values for that text input.
    """
    errors = _error_paths(errors)
    picks = picks or {}
    datalists = datalists or {}
    ctx = {"form": form, "values": values, "errors": errors, "expand": expand, "picks": picks, "datalists": datalists}
    out: list[Input] = []
    for f in fields:
        name = f"{prefix}{f.name}"
        common = {
            "name": name,
            "id": _dom_id(form, name),
            "label": f.label or f.name.replace("_", " ").capitalize(),
            "error": " ".join(errors.get(name, [])),
            "help": f.help,
            "required": f.required and f.kind != "bool",
        }
        raw = values.get(name) if values is not None else None
        if raw is None:
            raw = f.default
        pick = picks.get(f.name)
        if f.kind == "str" and pick is not None:
            value = _display(raw)
            choices = [("", pick.prompt)] + [(n, n) for n in pick.names]
            if value and value not in pick.names:
                choices.append((value, value))
            out.append(Input(widget="select", value=value, choices=choices, **common))
        elif f.kind == "str":
            out.append(Input(widget="text", value=_display(raw), datalist=datalists.get(f.name, ""), **common))
        elif f.kind == "int":
            out.append(Input(widget="number", value=_display(raw), minimum=f.minimum, maximum=f.maximum, **common))
        elif f.kind == "bool" and f.nullable:  # three answers: empty (the default rule), yes, no
            shown = _display(raw) if values is not None else ("" if raw is None else str(bool(raw)).lower())
            choices = [("", "— (automatic)"), ("true", "Yes"), ("false", "No")]
            out.append(Input(widget="select", value=shown, choices=choices, **{**common, "required": False}))
        elif f.kind == "bool":
            checked = (name in values and values.get(name) not in _OFF) if values is not None else bool(f.default)
            out.append(Input(widget="checkbox", value=checked, **common))
        elif f.kind == "choice":
            choices = [(_display(c), str(c)) for c in f.choices]
            if not f.required or f.nullable:
                choices.insert(0, ("", "—"))
            out.append(Input(widget="select", value=_display(raw), choices=choices, **common))
        elif f.kind == "cell":
            shown = ",".join(str(v) for v in raw) if isinstance(raw, list) else _display(raw)
            axes = ",".join(f.axes)
            common["help"] = f.help or f"{axes} — e.g. 1,0"
            out.append(Input(widget="cell", value=shown, placeholder=axes, **common))
        elif _is_cell_list(f):
            assert f.item is not None
            shown = "; ".join(",".join(map(str, c)) for c in raw) if isinstance(raw, list) else _display(raw)
            axes = ",".join(f.item.axes)
            common["help"] = f.help or f"{axes} for each, separated by semicolons — e.g. 2,3; 4,1"
            out.append(Input(widget="text", value=shown, placeholder=f"{axes}; {axes}", **common))
        elif f.kind == "object" and expand:
            out.append(Input(widget="group", children=build_inputs(f.fields, f"{name}.", **ctx), **common))
        elif _is_str_list(f) and pick is not None:
            selected = _getlist(values, name) if values is not None else []
            choices = [(n, n) for n in pick.names] + [(s, s) for s in selected if s not in pick.names]
            out.append(Input(widget="checkboxes", choices=choices, selected=selected, empty=pick.empty, **common))
        elif _is_str_list(f):
            shown = ", ".join(str(v) for v in raw) if isinstance(raw, list) else _display(raw)
            common.update(help=f.help or "Separate several with commas.", required=False)
            out.append(Input(widget="text", value=shown, datalist=datalists.get(f.name, ""), **common))
        elif expand and _fixed_rows(f):
            assert f.item is not None
            item_label = (f.item.label or f.item.name).capitalize()
            rows = [
                Input(
                    name=f"{name}.{i}",
                    id=_dom_id(form, f"{name}.{i}"),
                    label=f"{item_label} {i + 1}",
                    widget="group",
                    children=build_inputs(f.item.fields, f"{name}.{i}.", **ctx),
                    error=" ".join(errors.get(f"{name}.{i}", [])),
                )
                for i in range(_fixed_rows(f))
            ]
            out.append(Input(widget="group", children=rows, **common))
        else:
            shown = raw if isinstance(raw, str) else _display(raw)
            if f.kind == "any":
                out.append(Input(widget="text", value=shown, **{**common, "help": f.help or "A name, or JSON."}))
            else:
                out.append(Input(widget="json", value=shown, **{**common, "help": f.help or "JSON"}))
    return out


def parse_inputs(
    fields: tuple[Field, ...], post: Any, prefix: str, *, expand: bool = False, picks: Collection[str] = ()
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Posted strings back into a payload for ``fields`` (the inverse of :func:`build_inputs`, called with
    the same ``expand`` and the names of the same ``picks``); returns ``(data, errors by POST name)``.

    Only form syntax is checked here (a number that is not a number, JSON that does not parse); the schema
    and the rules are checked by the service, which explains its refusals in the same words as the API.
    """
    data: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for f in fields:
        name = f"{prefix}{f.name}"
        if f.kind == "bool" and f.nullable:
            answer = str(post.get(name, "") or "").strip().lower()
            if answer:
                data[f.name] = answer not in _OFF
            continue
        if f.kind == "bool":
            data[f.name] = name in post and post.get(name) not in _OFF
            continue
        if f.kind == "object" and expand:
            data[f.name], errs = parse_inputs(f.fields, post, f"{name}.", expand=expand, picks=picks)
            errors.update(errs)
            continue
        if _is_str_list(f):
            if f.name in picks:
                data[f.name] = [v.strip() for v in _getlist(post, name) if v.strip()]
            else:
                data[f.name] = [p.strip() for p in str(post.get(name, "") or "").split(",") if p.strip()]
            continue
        if _is_cell_list(f):
            assert f.item is not None
            data[f.name], errs = _parse_cells(f.item, str(post.get(name, "") or "").strip(), name)
            errors.update(errs)
            continue
        if expand and _fixed_rows(f):
            assert f.item is not None
            rows = []
            for i in range(_fixed_rows(f)):
                row, errs = parse_inputs(f.item.fields, post, f"{name}.{i}.", expand=expand, picks=picks)
                rows.append(row)
                errors.update(errs)
            data[f.name] = rows
            continue
        raw = str(post.get(name, "") or "").strip()
        if raw == "":
            if f.nullable and f.required:
                data[f.name] = None
            continue
        try:
            data[f.name] = parse_value(f, raw)
        except ValueError as exc:
            errors[name] = [str(exc)]
    return data, errors


def _parse_cells(item: Field, raw: str, name: str) -> tuple[list[Any], dict[str, list[str]]]:
    """Tiles typed as ``2,3; 4,1`` (JSON ``[[2, 3], [4, 1]]`` still reads)."""
    try:
        if raw.startswith("["):
            return json.loads(raw), {}
        return [parse_value(item, part) for part in raw.split(";") if part.strip()], {}
    except ValueError:
        axes = ",".join(item.axes)
        return [], {name: [f"Enter each tile as {axes}, separated by semicolons, e.g. 2,3; 4,1."]}


def parse_value(f: Field, raw: str) -> Any:
    """One non-blank posted string as ``f`` wants it; ValueError with a message when it cannot be read."""
    if f.kind == "int":
        try:
            return int(raw)
        except ValueError:
            raise ValueError("Enter a whole number.") from None
    if f.kind == "cell":
        parts = [p for p in raw.replace("[", "").replace("]", "").replace(";", ",").split(",") if p.strip()]
        try:
            cell = [int(p) for p in parts]
        except ValueError:
            raise ValueError("Enter a cell as two whole numbers, e.g. 1,0.") from None
        if len(cell) != 2:
            raise ValueError("Enter a cell as two whole numbers, e.g. 1,0.")
        return cell
    if f.kind == "choice":
        return next((c for c in f.choices if str(c) == raw), raw)  # the schema check names the allowed values
    if f.kind == "str":
        return raw
    try:
        value = json.loads(raw)
    except ValueError:
        if f.kind == "any" and raw[0] not in '[{"':
            return raw  # a plain name (a card, a target) needs no quotes
        raise ValueError("Enter valid JSON.") from None
    if unstorable_path(value) is not None:
        raise ValueError(PROBLEM)
    return value


def field_label(path: str, fields: tuple[Field, ...], extra: Mapping[str, str] | None = None) -> str:
    """The words a form shows for an error path (``data.item.name`` → "Treasure › Name", ``data.tiles[1]`` →
    "Tiles it destroys 2", ``seats[0].name`` → "Seat 0"); ``extra`` names paths outside ``fields``."""
    extra = extra or {}
    norm = re.sub(r"\[(\d+)\]", r".\1", path)
    for key, words in extra.items():
        if norm == key or norm.startswith(key + "."):
            return words
    parts = norm.split(".")
    if parts and parts[0] in ("data", "options", "option"):
        parts = parts[1:]
    words: list[str] = []
    current: tuple[Field, ...] = fields
    item: Field | None = None
    for part in parts:
        if part.isdigit():
            words[-1:] = [f"{words[-1]} {int(part) + 1}" if words else part]
            current = item.fields if item is not None else ()
            continue
        f = next((x for x in current if x.name == part), None)
        words.append(f.label or part.replace("_", " ").capitalize() if f else part.replace("_", " ").capitalize())
        item = f.item if f is not None else None
        current = f.fields if f is not None else ()
    return " › ".join(words) or "This entry"


def error_sentence(
    errors: Mapping[str, list[str]], fields: tuple[Field, ...], extra: Mapping[str, str] | None = None
) -> str:
    """The errors in the form's words: "Label: message" for one, the labels alone for several (each input
    shows its own message)."""
    labels = list(dict.fromkeys(field_label(k, fields, extra) for k in errors))
    if len(errors) == 1:
        return f"{labels[0]}: {' '.join(next(iter(errors.values())))}"
    return ", ".join(labels[:-1]) + f" and {labels[-1]}" if len(labels) > 1 else labels[0]


# -- recording forms -----------------------------------------------------------------------------------------


def recording_guards(request: HttpRequest) -> dict[str, Any]:
    """What a recording form posts besides the entry, as the record services take it: the version the form
    was drawn at, its idempotency key (a resubmission records once) and the request's id."""
    return {
        "expected_version": int_or_none(request.POST.get("expected_version")),
        "idempotency_key": request.POST.get("idempotency_key") or None,
        "request_id": getattr(request, "request_id", ""),
    }


def posted_void(request: HttpRequest) -> dict[str, Any]:
    """The ``event_voided`` payload an undo form posts: the version to void and why."""
    return {
        "version": int_or_none(request.POST.get("version")),
        "reason": request.POST.get("reason", "").strip() or "Undone at the table",
    }


def record_or_rerender(
    request: HttpRequest,
    record: Callable[..., Any],
    problem: dict[str, Any],
    rerender: Callable[[dict[str, Any], int], HttpResponse],
) -> tuple[Any, HttpResponse | None]:
    """Call ``record`` with the form's guards; return ``(result, None)``, or on a refusal ``(None, page)``
    where the page is ``rerender(problem, status)`` with the refusal explained and nothing written."""
    try:
        return record(**recording_guards(request)), None
    except DomainError as exc:
        problem, status = problem_from(exc, problem)
        return None, rerender(problem, status)


def problem_from(exc: DomainError, problem: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Fill a page's ``problem`` from a refusal; returns it and the status to answer with."""
    if isinstance(exc, VersionConflict):
        problem.update(conflict=True, detail=exc.detail)
    elif isinstance(exc, RuleBroken):
        # an override lets a game move through; it cannot make a refused correction (a void) valid, nor
        # bend Chronicle's own stream rules (corrections, adventures played as matches)
        overridable = exc.rule != CORRECTIONS_RULE and not exc.rule.startswith("Chronicle ›")
        problem.update(detail=exc.detail, rule=exc.rule, violation=exc.violation_code, overridable=overridable)
    elif isinstance(exc, InvalidInput):
        problem.update(detail=exc.detail, errors=exc.errors)
    else:
        problem.update(detail=exc.detail)
    return problem, exc.status_code


# -- the options of a new match or campaign ----------------------------------------------------------------


def parse_options(schema: tuple[Field, ...], post: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The options posted as ``option.<key>``; returns ``(options, errors by option key)``."""
    options, errors = parse_inputs(schema, post, OPTION_PREFIX)
    return options, {k.removeprefix(OPTION_PREFIX): v for k, v in errors.items()}


def option_inputs(
    schema: tuple[Field, ...], *, form: str, post: Any = None, errors: Mapping[str, list[str]] | None = None
) -> list[Input]:
    """The options form; ``errors`` by option key (:func:`parse_options`) or service path (``options.<key>``)."""
    by_name = {OPTION_PREFIX + k.removeprefix("options."): v for k, v in (errors or {}).items()}
    return build_inputs(schema, OPTION_PREFIX, form=form, values=post, errors=by_name)


# -- accounts ------------------------------------------------------------------------------------------------


class SignupForm(UserCreationForm):
    """Sign-up: a username and a password typed twice."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class TokenForm(forms.Form):
    """Create or revoke the API token (the button pressed decides)."""

    action = forms.ChoiceField(choices=[("create", "Create"), ("revoke", "Revoke")])

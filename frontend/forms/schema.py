"""Web forms built from ruleset schemas: inputs for ``_input.html`` and the posted values read back.

One builder serves every page: the match pages (``data.<field>``, ``option.<field>``), the new-match and
new-campaign options and the campaign sheet. What differs between pages is passed in: whether objects and
fixed-size lists of objects are drawn as separate inputs (``expand``), which fields pick from a list of names
(``picks``) and which text fields suggest values from a ``<datalist>`` (``datalists``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse

from config.text import PROBLEM, unstorable_path
from frontend.forms.inputs import (  # the pure half: the offline board runs it too
    _OFF,
    OPTION_PREFIX,
    Input,
    _fixed_rows,
    _getlist,
    _is_cell_list,
    _is_object_list,
    _is_scalar_list,
    _is_str_list,
    _shifted,
    _typed_rows,
    _typed_under,
    build_inputs,
    int_or_none,
)
from matches.errors import DomainError, InvalidInput, RuleBroken, VersionConflict
from rulesets import Field
from rulesets.offline import UNDO_REASON
from rulesets.replay import house_rule_offered


def parse_inputs(
    fields: tuple[Field, ...], post: Any, prefix: str, *, expand: bool = False, picks: Collection[str] = ()
) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Posted strings back into a payload for ``fields`` (the inverse of :func:`build_inputs`, called with
    the same ``expand`` and the names of the same ``picks``); returns ``(data, errors by POST name)``.

    A value posted under the field's own name is read as typed there (a cell as ``2,3``, tiles as
    ``2,3; 4,1``, JSON for an object from a hidden input); otherwise its parts are read (``<name>.0``, rows
    ``<name>.<i>.<field>``; blank rows of a list are skipped). Only form syntax is checked here; the schema
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
        if f.kind == "cell" and name not in post:
            _parse_cell_parts(f, post, name, data, errors)
            continue
        if f.kind == "object" and expand and name not in post:
            if f.required or _typed_under(post, f"{name}."):  # an optional object left blank keeps its default
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
            if name in post:
                joined = "; ".join(str(v) for v in _getlist(post, name))
                data[f.name], errs = _parse_cells(f.item, joined.strip(), name)
            else:
                rows = _typed_rows(post, name)
                data[f.name], errs = parse_inputs(
                    tuple(replace(f.item, name=str(i)) for i in rows), post, f"{name}.", expand=expand
                )
                data[f.name] = [data[f.name][str(i)] for i in rows if str(i) in data[f.name]]
            errors.update(errs)
            continue
        if _is_scalar_list(f) and name not in post:
            assert f.item is not None
            items, errs = parse_inputs(
                tuple(replace(f.item, name=str(i), required=False) for i in range(f.max_items)), post, f"{name}."
            )
            errors.update(errs)
            if items or f.required:
                data[f.name] = [items[str(i)] for i in range(f.max_items) if str(i) in items]
            continue
        if _is_scalar_list(f) and not str(post.get(name, "")).strip().startswith("["):
            raw = str(post.get(name, "") or "")
            try:
                data[f.name] = [parse_value(f.item, p.strip()) for p in raw.split(",") if p.strip()]  # type: ignore[arg-type]
            except ValueError:
                errors[name] = ["Enter whole numbers separated by commas, e.g. 3, 2, 1."]
            continue
        if _is_object_list(f) and expand and name not in post:
            assert f.item is not None
            typed = _typed_rows(post, name)
            indexes = range(_fixed_rows(f)) if _fixed_rows(f) and (typed or f.required) else typed
            rows = []
            for i in indexes:
                row, errs = parse_inputs(f.item.fields, post, f"{name}.{i}.", expand=expand, picks=picks)
                rows.append(row)
                errors.update(errs)
            if rows or f.required:
                data[f.name] = rows
            continue
        _parse_typed(f, str(post.get(name, "") or "").strip(), name, data, errors)
    return data, errors


def _parse_typed(f: Field, raw: str, name: str, data: dict[str, Any], errors: dict[str, list[str]]) -> None:
    """One value typed in one input, read into ``data[f.name]`` (a blank one: None where the field must be
    answered and may be empty, else left out) or its error into ``errors[name]``."""
    if raw == "":
        if f.nullable and f.required:
            data[f.name] = None
        return
    try:
        data[f.name] = parse_value(f, raw)
    except ValueError as exc:
        errors[name] = [str(exc)]
        return
    if f.per_seat and f.kind == "choice" and raw.isdigit() and data[f.name] not in f.choices:
        # a seat this many players do not have: said with the form's words ("Player 2"); other values
        # (a random start a game refuses) are left to the rules, which quote the rulebook
        words = f.choice_labels or tuple(str(c) for c in f.choices)
        errors[name] = [f"Choose one of: {', '.join(words)}."]
        del data[f.name]


def _parse_cell_parts(f: Field, post: Any, name: str, data: dict[str, Any], errors: dict[str, list[str]]) -> None:
    """A cell posted as its two parts (``<name>.0``, ``<name>.1``, counted from ``f.first``)."""
    parts = [_shifted(str(post.get(f"{name}.{i}", "") or "").strip(), -f.first) for i in (0, 1)]
    if any(parts):
        try:
            data[f.name] = parse_value(f, ",".join(parts) if all(parts) else "x")
        except ValueError:
            errors[name] = [f"Enter the {f.axes[0]} and the {f.axes[1]} as whole numbers."]
    elif f.nullable and f.required:
        data[f.name] = None


def _parse_cells(item: Field, raw: str, name: str) -> tuple[list[Any], dict[str, list[str]]]:
    """Tiles posted as ``2,3; 4,1`` (ticked boxes, or typed; JSON ``[[2, 3], [4, 1]]`` still reads)."""
    try:
        if raw.startswith("[["):
            return json.loads(raw), {}
        return [parse_value(item, part) for part in raw.split(";") if part.strip()], {}
    except ValueError:
        return [], {name: [f"Enter each tile as its {item.axes[0]} and {item.axes[1]}."]}


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
    if f.kind == "number":
        try:
            value = float(raw.replace(",", "."))  # a phone keyboard may type a decimal comma
        except ValueError:
            raise ValueError("Enter a number, e.g. 57.5.") from None
        if not math.isfinite(value):
            raise ValueError("Enter a number, e.g. 57.5.")
        return int(value) if value.is_integer() and "." not in raw and "," not in raw else value
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
        "reason": request.POST.get("reason", "").strip() or UNDO_REASON,
    }


def record_or_rerender(
    request: HttpRequest,
    record: Callable[..., Any],
    problem: dict[str, Any],
    rerender: Callable[[dict[str, Any], int], HttpResponse],
    fields: tuple[Field, ...] = (),
) -> tuple[Any, HttpResponse | None]:
    """Call ``record`` with the form's guards; return ``(result, None)``, or on a refusal ``(None, page)``
    where the page is ``rerender(problem, status)`` with the refusal explained and nothing written
    (``fields``: the entry's, to name a malformed field by its label)."""
    try:
        return record(**recording_guards(request)), None
    except DomainError as exc:
        problem, status = problem_from(exc, problem, fields)
        return None, rerender(problem, status)


def problem_from(
    exc: DomainError, problem: dict[str, Any], fields: tuple[Field, ...] = ()
) -> tuple[dict[str, Any], int]:
    """Fill a page's ``problem`` from a refusal; returns it and the status to answer with. A malformed entry
    is explained with the labels of ``fields`` (never a path such as ``data.hero``)."""
    if isinstance(exc, VersionConflict):
        problem.update(conflict=True, detail=exc.detail, rebase_why=getattr(exc, "why", ""))
    elif isinstance(exc, RuleBroken):
        # an override lets a game move through; it cannot make a refused correction (a void) valid, nor
        # bend Chronicle's own stream rules (corrections, adventures played as matches), nor record a move the
        # game state cannot hold (``RuleBroken.overridable``: it would be refused as unplayable)
        overridable = house_rule_offered(exc.rule, exc.overridable)
        problem.update(detail=exc.detail, rule=exc.rule, violation=exc.violation_code, overridable=overridable)
    elif isinstance(exc, InvalidInput):
        detail = f"Please correct {error_sentence(exc.errors, fields)}" if exc.errors else exc.detail
        if exc.rule:  # a bound that is a rulebook line: say the rule, not the bound
            detail = exc.detail
        problem.update(detail=detail, errors=exc.errors, rule=exc.rule or problem.get("rule"))
    else:
        problem.update(detail=exc.detail)
    return problem, exc.status_code


# -- the options of a new match or campaign ----------------------------------------------------------------


def parse_options(schema: tuple[Field, ...], post: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The options posted as ``option.<key>``; returns ``(options, errors by option key)``."""
    options, errors = parse_inputs(schema, post, OPTION_PREFIX, expand=True)
    return options, {k.removeprefix(OPTION_PREFIX): v for k, v in errors.items()}


def option_inputs(
    schema: tuple[Field, ...], *, form: str, post: Any = None, errors: Mapping[str, list[str]] | None = None,
    exclude: Collection[str] = (),
) -> list[Input]:  # fmt: skip
    """The options form; ``errors`` by option key (:func:`parse_options`) or service path (``options.<key>``).

    ``exclude``: keys the page sets another way (the cards and board a card catalog holds)."""
    by_name = {OPTION_PREFIX + k.removeprefix("options."): v for k, v in (errors or {}).items()}
    shown = tuple(f for f in schema if f.name not in exclude)
    return build_inputs(shown, OPTION_PREFIX, form=form, values=post, errors=by_name, expand=True)


# -- accounts ------------------------------------------------------------------------------------------------


class SignupForm(UserCreationForm):
    """Sign-up: a username and a password typed twice."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class TokenForm(forms.Form):
    """Create or revoke the API token (the button pressed decides)."""

    action = forms.ChoiceField(choices=[("create", "Create"), ("revoke", "Revoke")])

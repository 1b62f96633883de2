"""Web forms built from ruleset schemas: render a field list for templates, parse posted values back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm

from rulesets import EventType, Field


@dataclass(frozen=True)
class FormField:
    """One input as a template draws it."""

    name: str  # the POST name
    label: str
    widget: str  # number | text | checkbox | select | cell | json
    value: Any
    required: bool
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    error: str = ""


def _display(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def form_fields(
    fields: tuple[Field, ...], prefix: str, values: dict[str, Any] | None = None, errors: dict[str, list[str]] | None = None,
    labels: dict[str, dict[str, str]] | None = None,
) -> list[FormField]:  # fmt: skip
    """Describe ``fields`` as inputs named ``<prefix><field>``, pre-filled from ``values`` (raw POST strings)."""
    values = values or {}
    errors = errors or {}
    out = []
    for f in fields:
        name = f"{prefix}{f.name}"
        raw = values.get(f.name, f.default)
        error = " ".join(
            errors.get(f.name, []) or errors.get(f"data.{f.name}", []) or errors.get(f"options.{f.name}", [])
        )
        common = {"name": name, "label": f.label or f.name.replace("_", " ").capitalize(), "required": f.required,
                  "help": f.help, "error": error}  # fmt: skip
        if f.kind == "int":
            out.append(FormField(widget="number", value=_display(raw), minimum=f.minimum, maximum=f.maximum, **common))
        elif f.kind == "bool":
            out.append(FormField(widget="checkbox", value=raw in (True, "on", "true", "1"), **common))
        elif f.kind == "choice":
            names = (labels or {}).get(f.name, {})
            choices = tuple((_display(c), names.get(str(c), str(c))) for c in f.choices)
            if not f.required or f.nullable:
                choices = (("", "—"), *choices)
            out.append(FormField(widget="select", value=_display(raw), choices=choices, **common))
        elif f.kind == "cell":
            shown = ",".join(str(v) for v in raw) if isinstance(raw, list) else _display(raw)
            out.append(FormField(widget="cell", value=shown, **{**common, "help": f.help or "x,y — e.g. 1,0"}))
        elif f.kind == "str":
            out.append(FormField(widget="text", value=_display(raw), **common))
        else:
            out.append(FormField(widget="json", value=_display(raw), **{**common, "help": f.help or "JSON"}))
    return out


def parse_fields(fields: tuple[Field, ...], post: Any, prefix: str) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Turn posted strings into typed values for ``fields``; returns ``(data, errors)``.

    Only form syntax is checked here (a number that is not a number, JSON that does not parse); the schema
    and the rules are checked by the service, which explains its refusals in the same words as the API.
    """
    data: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for f in fields:
        key = f"{prefix}{f.name}"
        if f.kind == "bool":
            data[f.name] = key in post and post.get(key) not in ("", "false", "0")
            continue
        raw = post.get(key, "")
        if raw is None or str(raw).strip() == "":
            if f.nullable and f.required:
                data[f.name] = None
            continue
        raw = str(raw).strip()
        try:
            data[f.name] = _parse_value(f, raw)
        except ValueError as exc:
            errors[f.name] = [str(exc)]
    return data, errors


def _parse_value(f: Field, raw: str) -> Any:
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
        for choice in f.choices:
            if str(choice) == raw:
                return choice
        return raw  # the schema check names the allowed values
    if f.kind == "str":
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        raise ValueError("Enter valid JSON.") from None


def event_type_fields(
    spec: EventType, values: dict[str, Any] | None, errors: dict[str, list[str]] | None
) -> list[FormField]:
    """The inputs of one event type's form (payload fields are posted as ``data.<name>``)."""
    return form_fields(spec.fields, "data.", values, errors)


class SignupForm(UserCreationForm):
    """Sign-up: a username and a password typed twice."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class TokenForm(forms.Form):
    """Create or revoke the API token (the button pressed decides)."""

    action = forms.ChoiceField(choices=[("create", "Create"), ("revoke", "Revoke")])

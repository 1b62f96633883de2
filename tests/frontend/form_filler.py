"""Filling a rendered page's forms as a person would: only with the controls and the choices the page offers.

:func:`page_forms` reads every POST form of a page (hidden inputs, text and number boxes, selects with their
options, checkboxes with their values, buttons with a name). :func:`fill` answers the POST a browser would
send to record a given move (``type``, ``seat``, ``data``) from one form, or raises :class:`CannotFill`
saying what the form lacks (no control for a field, a value missing from a select, no way to name the seat).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from rulesets import Event, EventType, Field


class CannotFill(Exception):
    """The form cannot record the move: the message says which field and why."""


@dataclass
class Control:
    name: str
    kind: str  # hidden | text | number | textarea | select | checkbox | radio | button
    value: str = ""
    options: list[str] = field(default_factory=list)  # a select's option values
    selected: list[str] = field(default_factory=list)  # a select's selected options
    checked: bool = False
    step: str = ""


@dataclass
class Form:
    action: str
    classes: str
    controls: list[Control] = field(default_factory=list)

    def named(self, name: str) -> list[Control]:
        return [c for c in self.controls if c.name == name]

    def hidden(self, name: str) -> str | None:
        found = [c.value for c in self.controls if c.name == name and c.kind == "hidden"]
        return found[0] if found else None

    def defaults(self) -> dict[str, list[str]]:
        """What the browser sends for this form untouched (no button named)."""
        out: dict[str, list[str]] = {}
        for c in self.controls:
            if c.kind in ("hidden", "text", "number", "textarea"):
                out.setdefault(c.name, []).append(c.value)
            elif c.kind == "select":
                chosen = c.selected[:1] or c.options[:1]
                out.setdefault(c.name, []).extend(chosen)
            elif c.kind in ("checkbox", "radio") and c.checked:
                out.setdefault(c.name, []).append(c.value or "on")
        return out


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Control | None = None
        self._option: dict[str, str] | None = None
        self._option_text = ""
        self._textarea: Control | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v if v is not None else "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._form = Form(action=a.get("action", ""), classes=a.get("class", ""))
            self.forms.append(self._form)
            return
        form = self._form
        if form is None or ("name" not in a and tag not in ("option",)):
            return
        if tag == "input":
            kind = a.get("type", "text")
            kind = kind if kind in ("hidden", "number", "checkbox", "radio") else "text"
            form.controls.append(
                Control(a["name"], kind, a.get("value", ""), checked="checked" in a, step=a.get("step", ""))
            )
        elif tag == "select":
            self._select = Control(a["name"], "select")
            form.controls.append(self._select)
        elif tag == "option" and self._select is not None:
            self._option, self._option_text = a, ""
        elif tag == "textarea":
            self._textarea = Control(a["name"], "textarea")
            form.controls.append(self._textarea)
        elif tag == "button" and a.get("name"):
            form.controls.append(Control(a["name"], "button", a.get("value", "")))

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option_text += data
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "option" and self._option is not None and self._select is not None:
            value = self._option.get("value", self._option_text.strip())
            self._select.options.append(value)
            if "selected" in self._option:
                self._select.selected.append(value)
            self._option = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._form = None


def page_forms(html: str) -> list[Form]:
    """Every POST form of ``html``."""
    parser = _Parser()
    parser.feed(html)
    return parser.forms


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True)
    return "" if value is None else str(value)


class _Filler:
    """Sets the controls of one form for one payload, from the form's untouched submission."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.post = form.defaults()

    def set(self, name: str, values: list[str], what: str) -> None:
        controls = self.form.named(name)
        if not controls:
            raise CannotFill(f"{what}: no control named {name!r}")
        kinds = {c.kind for c in controls}
        if kinds <= {"checkbox"}:
            offered = {c.value or "on" for c in controls}
            missing = [v for v in values if v not in offered]
            if missing:
                raise CannotFill(f"{what}: no box to tick for {missing} (offered: {sorted(offered)})")
            self.post[name] = list(values)
            return
        if "select" in kinds:
            [select] = [c for c in controls if c.kind == "select"]
            for v in values:
                if v not in select.options:
                    raise CannotFill(f"{what}: {v!r} is not among the choices {select.options}")
            self.post[name] = list(values)
            return
        if "hidden" in kinds:
            if [c.value for c in controls] != list(values):
                raise CannotFill(f"{what}: fixed by the page to {[c.value for c in controls]}, wanted {values}")
            return
        if len(values) != 1:
            raise CannotFill(f"{what}: one box for several values {values}")
        number = [c for c in controls if c.kind == "number"]
        if number and "." in values[0] and number[0].step != "any":
            raise CannotFill(f"{what}: a whole-number box cannot take {values[0]}")
        self.post[name] = list(values)

    def clear(self, name: str) -> None:
        """Leave a control blank (or pick its empty choice, untick its boxes)."""
        controls = self.form.named(name)
        if not controls:
            return
        if any(c.kind == "select" for c in controls):
            [select] = [c for c in controls if c.kind == "select"]
            if "" not in select.options:
                raise CannotFill(f"{name}: no empty choice to leave it unset")
            self.post[name] = [""]
        elif all(c.kind == "checkbox" for c in controls):
            self.post.pop(name, None)
        elif any(c.kind == "hidden" for c in controls):
            if any(c.value for c in controls):
                raise CannotFill(f"{name}: fixed by the page to a value")
        else:
            self.post[name] = [""]

    def has_under(self, prefix: str) -> bool:
        return any(c.name == prefix or c.name.startswith(prefix + ".") for c in self.form.controls)

    def fill_field(self, f: Field, value: Any, name: str) -> None:
        """Set the controls of field ``f`` named ``name`` to ``value`` (missing: leave the page's default)."""
        what = f.label or f.name
        if value is None:
            for c in [c for c in self.form.controls if c.name == name or c.name.startswith(name + ".")]:
                self.clear(c.name)
            return
        controls = self.form.named(name)
        if f.kind == "bool" and not f.nullable:
            if value:
                self.set(name, [next((c.value for c in controls if c.kind == "checkbox"), "on") or "on"], what)
            elif any(c.kind == "checkbox" for c in controls):
                self.post.pop(name, None)
            elif controls:
                self.set(name, ["false"], what)
            return
        if f.kind in ("int", "number", "str", "choice", "any", "bool"):
            if f.kind == "any" and controls and controls[0].kind == "select" and not isinstance(value, str):
                self.set(name, [json.dumps(value)], what)  # an ``any`` choice posted as its JSON
                return
            if f.kind == "any" and controls and controls[0].kind == "select":
                self.set(name, [value], what)
                return
            self.set(name, [_scalar(value) if f.kind != "str" else value], what)
            return
        if f.kind == "cell":
            if controls:
                self.set(name, [f"{value[0]},{value[1]}"], what)
            else:
                self.set(f"{name}.0", [str(value[0] + f.first)], what)  # as the board's edges number it
                self.set(f"{name}.1", [str(value[1] + f.first)], what)
            return
        if f.kind == "object":
            if controls:  # one control for the whole object (a hidden JSON input)
                self.set(name, [json.dumps(value)], what)
                return
            for sub in f.fields:
                if sub.name in value:
                    self.fill_field(sub, value[sub.name], f"{name}.{sub.name}")
            return
        if f.kind == "list":
            self._fill_list(f, list(value), name, what)
            return
        raise CannotFill(f"{what}: kind {f.kind} is not handled by the test")

    def _fill_list(self, f: Field, items: list[Any], name: str, what: str) -> None:
        assert f.item is not None
        controls = self.form.named(name)
        kind = f.item.kind
        if controls and all(c.kind == "checkbox" for c in controls):
            self.set(name, [f"{v[0]},{v[1]}" if kind == "cell" else _scalar(v) for v in items], what)
            return
        if controls and controls[0].kind in ("text", "textarea"):
            joined = "; ".join(f"{v[0]},{v[1]}" for v in items) if kind == "cell" else ", ".join(map(_scalar, items))
            self.set(name, [joined], what)
            return
        if controls:
            self.set(name, [json.dumps(items)], what)
            return
        for i, item in enumerate(items):
            sub = Field(
                str(i), kind, item=f.item.item, fields=f.item.fields, axes=f.item.axes, first=f.item.first, label=what
            )
            if kind == "object":
                if not self.has_under(f"{name}.{i}"):
                    raise CannotFill(f"{what}: no row {i + 1} to fill")
                for sf in f.item.fields:
                    if sf.name in item:
                        self.fill_field(sf, item[sf.name], f"{name}.{i}.{sf.name}")
            else:
                self.fill_field(sub, item, f"{name}.{i}")
        # rows beyond the move's items stay blank
        i = len(items)
        while self.has_under(f"{name}.{i}"):
            for c in [c for c in self.form.controls if c.name.startswith(f"{name}.{i}")]:
                self.clear(c.name)
            i += 1


def fill(form: Form, move: Event, spec: EventType | None) -> dict[str, list[str]]:
    """The POST ``form`` sends to record ``move`` (``spec``: its entry type), or :class:`CannotFill`."""
    wanted = json.dumps(move.to_dict(), sort_keys=True)
    if form.hidden("move") is not None:  # a one-tap move drawn on the board
        if json.dumps(json.loads(form.hidden("move") or "null"), sort_keys=True) != wanted:
            raise CannotFill("another one-tap move")
        return form.defaults()
    selects = [c for c in form.named("move") if c.kind == "select"]
    if selects:  # the list of legal moves
        for option in selects[0].options:
            try:
                if json.dumps(json.loads(option), sort_keys=True) == wanted:
                    return {**form.defaults(), "move": [option]}
            except ValueError:
                continue
        raise CannotFill("not in the list of legal moves")
    if form.hidden("type") != move.type or spec is None:
        raise CannotFill("a form for another entry")
    filler = _Filler(form)
    if move.seat is None:
        filler.clear("seat")
    elif filler.form.named("seat"):
        filler.set("seat", [str(move.seat)], "Player")
    else:
        raise CannotFill(f"no way to say which seat ({move.seat}) makes it")
    for f in spec.fields:
        if f.name in move.data:
            filler.fill_field(f, move.data[f.name], f"data.{f.name}")
    return filler.post

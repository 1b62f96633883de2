"""Payload and option schemas: a tiny declarative field language, its validator and its JSON Schema.

A ruleset describes each event payload and its options as a tuple of :class:`Field`. The same description
drives API validation (``check_payload``), OpenAPI (``json_schema``) and the web forms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

KINDS = ("int", "number", "str", "bool", "cell", "choice", "list", "object", "any")


@dataclass(frozen=True)
class Field:
    """One named value.

    ``kind``: ``int`` (``minimum``/``maximum``), ``number`` (a whole or finite decimal number, same bounds),
    ``str`` (``max_length``), ``bool``, ``cell`` (two integers, named ``axes`` for people), ``choice`` (one of ``choices``),
    ``list`` (of ``item``; ``min_items``/``max_items``), ``object`` (``fields``; unknown keys rejected unless
    ``open``), ``any`` (JSON, bounded in size).
    ``default`` is used when the field is missing and not ``required``.
    ``rule``/``rule_text``: when the field's bounds are a rulebook line (a card's own cost "$0 to $3"), the
    section it comes from and the line in plain words ("a card's own cost is $0 to $3"); a value out of them
    is refused naming that rule (:func:`explain`), not as a bare schema error.
    For forms only: ``names`` says which list of names a ``str``/``any`` field picks from (a key of the ruleset's
    ``names(state, seat)``, e.g. ``"hand"``), ``item_labels`` names the items of a short fixed-size list,
    ``per_seat`` says the field follows the number of players: a ``choice`` of seat indexes offers the seats
    of the match only (named "Player 1", …), a ``list`` has one item per seat.
    """

    name: str
    kind: str
    required: bool = True
    nullable: bool = False
    default: Any = None
    label: str = ""
    help: str = ""
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    max_length: int = 200
    item: Field | None = None
    min_items: int = 0
    max_items: int = 100
    fields: tuple[Field, ...] = ()
    open: bool = False
    axes: tuple[str, str] = ("column", "row")  # a cell's two numbers on the wire, as forms name them (S&B: row, column)
    first: int = (
        0  # the number a board's first column and row carry for people (1 on a board with edges; rulesets.cells)
    )
    choice_labels: tuple[str, ...] = ()  # words for people, one per ``choices`` entry (default: the value)
    names: str = ""
    item_labels: tuple[str, ...] = ()
    per_seat: bool = False
    rule: str = ""
    rule_text: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"{self.name}: one label per choice")


RANDOM = "random"  # the value of a ruleset's ``start_option`` asking the server to draw who starts


def start_field(name: str, seats: int, *, label: str, help: str = "") -> Field:
    """The option choosing who starts: a seat index (default 0) or ``"random"``, drawn by the server at
    creation and recorded as ``first_player_drawn`` (``rulesets.replay``); forms say "Player N" (counted
    from 1, the seats of the match only) and "Random"."""
    return Field(
        name,
        "choice",
        required=False,
        default=0,
        choices=(*range(seats), RANDOM),
        choice_labels=(*(seat_word(i) for i in range(seats)), "Random (Chronicle draws and records it)"),
        label=label,
        help=help,
        per_seat=True,
    )


def seat_word(seat: int) -> str:
    """A seat as a form offers it before the players are named: "Player 1" for seat 0."""
    return f"Player {seat + 1}"


def for_seat_count(fields: tuple[Field, ...], seat_count: int) -> tuple[Field, ...]:
    """``fields`` as a form for ``seat_count`` players shows them (``Field.per_seat``): a seat choice offers the
    seats of the match (and its other values, such as random), a per-seat list one item per seat."""
    out = []
    for f in fields:
        if f.per_seat and f.kind == "choice":
            labels = f.choice_labels or tuple(str(c) for c in f.choices)
            kept = [
                (c, seat_word(c) if isinstance(c, int) else text)
                for c, text in zip(f.choices, labels, strict=True)
                if not isinstance(c, int) or c < seat_count
            ]
            f = replace(f, choices=tuple(c for c, _ in kept), choice_labels=tuple(t for _, t in kept))
        elif f.per_seat and f.kind == "list":
            f = replace(f, max_items=min(f.max_items, seat_count), min_items=min(f.min_items, seat_count))
        out.append(f)
    return tuple(out)


class SchemaError(Exception):
    """Raised by :func:`check_payload` with ``errors``: a dict of dotted path → list of messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in errors.items()))
        self.errors = errors


def field_at(fields: tuple[Field, ...], path: str) -> Field | None:
    """The field a dotted error path (``card.cost``, ``slots[2].icon``) of :class:`SchemaError` names, or None."""
    found: Field | None = None
    for part in path.split("."):
        name = part.split("[", 1)[0]
        found = next((f for f in fields if f.name == name), None)
        if found is None:
            return None
        if "[" in part and found.item is not None:
            found = found.item
        fields = found.fields
    return found


def _value_at(data: Any, path: str) -> Any:
    for part in path.replace("[", ".[").split("."):
        if part.startswith("[") and isinstance(data, list):
            index = int(part[1:-1])
            data = data[index] if 0 <= index < len(data) else None
        elif isinstance(data, dict):
            data = data.get(part)
        else:
            return None
    return data


def _labels(fields: tuple[Field, ...], path: str) -> str:
    words = []
    for part in path.split("."):
        name = part.split("[", 1)[0]
        f = next((f for f in fields if f.name == name), None)
        if f is None:
            words.append(name)
            break
        words.append(f.label or f.name)
        fields = f.item.fields if "[" in part and f.item is not None else f.fields
    return " › ".join(words)


def explain(fields: tuple[Field, ...], data: Any, exc: SchemaError) -> tuple[str, str]:
    """``exc`` (raised checking ``data`` against ``fields``) in plain words, and the rule it breaks.

    Returns ``(sentence, rule)``. When an erring field carries a rulebook ``rule`` the sentence states that
    rule with the value given ("A card's own cost is $0 to $3 (…); got 4.") and ``rule`` is its section;
    otherwise the sentence names each erring field by its label ("Card › Card cost ($): must be a whole
    number.") and ``rule`` is "".
    """
    for path in exc.errors:
        f = field_at(fields, path)
        if f is not None and f.rule and f.rule_text:
            value = _value_at(data, path)
            said = (
                f"{value!r}" if isinstance(value, str)
                else f"{len(value)}" if isinstance(value, list)
                else "" if isinstance(value, dict) or value is None
                else f"{value}"
            )  # fmt: skip
            text = f.rule_text[0].upper() + f.rule_text[1:]
            return (f"{text}; got {said}." if said else f"{text}."), f.rule
    parts = []
    for path, messages in exc.errors.items():
        what = " ".join(m[0].lower() + m[1:] if m else m for m in messages)
        parts.append(f"{_labels(fields, path) if path != 'data' else 'The data'}: {what}")
    return "This entry does not fit: " + "; ".join(parts), ""


def check_payload(fields: tuple[Field, ...], data: Any, *, open_object: bool = False) -> dict[str, Any]:
    """Validate ``data`` against ``fields``; return a cleaned copy with defaults filled in.

    Raises :class:`SchemaError` listing every problem. Unknown keys are an error (a typo must not be
    silently ignored) unless ``open_object``.
    """
    errors: dict[str, list[str]] = {}
    cleaned = _check_object(fields, data, "", errors, open_object)
    if errors:
        raise SchemaError(errors)
    return cleaned


def _err(errors: dict[str, list[str]], path: str, msg: str) -> None:
    errors.setdefault(path or "data", []).append(msg)


def _check_object(
    fields: tuple[Field, ...], data: Any, path: str, errors: dict[str, list[str]], open_object: bool
) -> dict[str, Any]:
    if not isinstance(data, dict):
        _err(errors, path, "Must be a JSON object.")
        return {}
    out: dict[str, Any] = {}
    known = {f.name for f in fields}
    if not open_object:
        for key in data:
            if key not in known:
                _err(errors, _join(path, str(key)), "Unknown field.")
    for f in fields:
        sub = _join(path, f.name)
        if f.name not in data:
            if f.required:
                _err(errors, sub, "This field is required.")
            elif f.default is not None or f.nullable:
                out[f.name] = f.default
            continue
        out[f.name] = _check_value(f, data[f.name], sub, errors)
    return out


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_value(f: Field, value: Any, path: str, errors: dict[str, list[str]]) -> Any:
    if value is None:
        if not f.nullable:
            _err(errors, path, "May not be null.")
        return None
    kind = f.kind
    if kind in ("int", "number"):
        if kind == "int" and not _is_int(value):
            _err(errors, path, "Must be a whole number.")
        elif not (_is_int(value) or (isinstance(value, float) and math.isfinite(value))):
            _err(errors, path, "Must be a number.")
        elif f.minimum is not None and value < f.minimum:
            _err(errors, path, f"Must be at least {f.minimum}.")
        elif f.maximum is not None and value > f.maximum:
            _err(errors, path, f"Must be at most {f.maximum}.")
        return value
    if kind == "str":
        if not isinstance(value, str):
            _err(errors, path, "Must be a string.")
        elif len(value) > f.max_length:
            _err(errors, path, f"At most {f.max_length} characters.")
        elif f.required and not value.strip():
            _err(errors, path, "May not be blank.")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            _err(errors, path, "Must be true or false.")
        return value
    if kind == "cell":
        if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
            _err(errors, path, "Must be a cell: a list of two whole numbers, e.g. [0, 1].")
        elif any(abs(v) > 1000 for v in value):
            _err(errors, path, "Cell coordinates must be between -1000 and 1000.")
        return value
    if kind == "choice":
        if value not in f.choices or isinstance(value, bool) != any(isinstance(c, bool) for c in f.choices):
            allowed = ", ".join(repr(c) for c in f.choices)
            _err(errors, path, f"Must be one of {allowed}.")
        return value
    if kind == "list":
        if not isinstance(value, list):
            _err(errors, path, "Must be a list.")
            return value
        if len(value) < f.min_items:
            _err(errors, path, f"Enter at least {f.min_items}.")
        if len(value) > f.max_items:
            _err(errors, path, f"Enter at most {f.max_items}.")
            return value
        if f.item is None:
            return value
        return [_check_value(f.item, v, f"{path}[{i}]", errors) for i, v in enumerate(value)]
    if kind == "object":
        return _check_object(f.fields, value, path, errors, f.open)
    # "any": JSON of bounded depth (the API layer bounds total size)
    if _depth(value) > 6:
        _err(errors, path, "Nested too deeply.")
    return value


def _depth(value: Any, level: int = 0) -> int:
    if level > 6:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def json_schema(fields: tuple[Field, ...], *, open_object: bool = False) -> dict[str, Any]:
    """The JSON Schema (OpenAPI 3.1 flavour) of an object made of ``fields``."""
    schema = {
        "type": "object",
        "properties": {f.name: _field_schema(f) for f in fields},
        "required": [f.name for f in fields if f.required],
        "additionalProperties": open_object,  # check_payload refuses unknown keys unless open_object
    }
    if not fields and not open_object:
        schema["maxProperties"] = 0  # no fields, closed: only {} passes check_payload
    return schema


def _field_schema(f: Field) -> dict[str, Any]:
    s: dict[str, Any]
    if f.kind in ("int", "number"):
        s = {"type": "integer" if f.kind == "int" else "number"}
        if f.minimum is not None:
            s["minimum"] = f.minimum
        if f.maximum is not None:
            s["maximum"] = f.maximum
    elif f.kind == "str":
        s = {"type": "string", "maxLength": f.max_length}
        if f.required:  # a required text may not be blank (check_payload)
            s["pattern"] = r"\S"
    elif f.kind == "bool":
        s = {"type": "boolean"}
    elif f.kind == "cell":
        s = {
            "type": "array",
            "items": {"type": "integer", "minimum": -1000, "maximum": 1000},
            "minItems": 2,
            "maxItems": 2,
        }
    elif f.kind == "choice":
        s = {"enum": list(f.choices)}
    elif f.kind == "list":
        s = {"type": "array", "maxItems": f.max_items}
        if f.min_items:
            s["minItems"] = f.min_items
        if f.item is not None:
            s["items"] = _field_schema(f.item)
    elif f.kind == "object":
        s = json_schema(f.fields, open_object=f.open)
    else:
        s = {}
    if f.nullable:
        s = {"anyOf": [s, {"type": "null"}]}
    if f.help or f.label:
        s["description"] = f.help or f.label
    if f.default is not None:
        s["default"] = f.default
    return s


def example_payload(fields: tuple[Field, ...]) -> dict[str, Any]:
    """An object made of ``fields`` that :func:`check_payload` accepts, read off the declarations: every field
    given, each its default or the smallest value its bounds allow (the API schema's examples)."""
    return {f.name: _example_value(f) for f in fields}


def _example_value(f: Field) -> Any:
    if f.default is not None:
        return f.default
    if f.kind in ("int", "number"):
        low = f.minimum if f.minimum is not None else 0
        return min(max(low, 0), f.maximum) if f.maximum is not None else max(low, 0)
    if f.kind == "str":
        return (f.label or f.name)[: f.max_length]
    if f.kind == "bool":
        return False
    if f.kind == "cell":
        return [0, 0]
    if f.kind == "choice":
        return f.choices[0]
    if f.kind == "list":
        return [_example_value(f.item) if f.item is not None else 0 for _ in range(f.min_items)]
    if f.kind == "object":
        return example_payload(f.fields)
    return None if f.nullable else {}

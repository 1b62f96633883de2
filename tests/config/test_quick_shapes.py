"""The serializers' quick paths (``JsonInput.quick``, ``Shape.represent``) give exactly what the DRF serializer
gives, for every input and output shape of the API, on generated data (Hypothesis), and the hot bodies take them."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import campaigns.saltmarsh.api  # noqa: F401  (loads every API module, so every shape is a subclass below)
import matches.api.matches
import matches.api.streams  # noqa: F401
from config.api import JsonInput, Shape
from matches.api.serializers import AppendOutput, EventInput, OutcomeOutput, VoidInput

pytestmark = pytest.mark.pure


def _subclasses(cls: type) -> list[type]:
    found, todo = [], [cls]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return sorted(set(found), key=lambda c: c.__qualname__)


INPUTS = [c for c in _subclasses(JsonInput) if c._declared_fields]
OUTPUTS = [c for c in _subclasses(Shape) if c._declared_fields and not issubclass(c, JsonInput)]

text = st.one_of(
    st.sampled_from(["", " ", "stones_taken", " padded ", "x" * 64, "x" * 65, "x" * 101, "a\u0000b", "\ud800", "É"]),
    st.text(max_size=8),
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 120), st.integers(-(2**70), 2**70), st.floats(allow_nan=False), text
)
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3), max_leaves=6
)


def _kind_values(field: Any) -> st.SearchStrategy[Any]:
    """Mostly values of the field's own kind (so that many bodies are valid), sometimes anything."""
    from rest_framework import serializers as s

    if isinstance(field, s.ListSerializer):
        own = st.lists(st.deferred(lambda: bodies(type(field.child))), max_size=2)
    elif isinstance(field, Shape):
        own = st.deferred(lambda: bodies(type(field)))
    else:
        own = {s.CharField: text, s.IntegerField: st.integers(-3, 120), s.BooleanField: st.booleans(),
               s.FloatField: st.floats(allow_nan=False), s.ListField: st.lists(scalars, max_size=3),
               s.DictField: st.dictionaries(text, scalars, max_size=3)}.get(type(field), json_values)  # fmt: skip
    return st.one_of(own, own, own, json_values)


def bodies(shape: type) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts keyed by the shape's fields: mostly with every required one, sometimes with any subset."""
    fields = {name: _kind_values(field) for name, field in shape._declared_fields.items()}
    required = {n: v for n, v in fields.items() if shape._declared_fields[n].required}
    optional = {n: v for n, v in fields.items() if n not in required}
    complete = st.fixed_dictionaries(required, optional={**optional, "unknown": json_values})
    return st.one_of(complete, complete, st.fixed_dictionaries({}, optional={**fields, "unknown": json_values}))


def typed(value: Any) -> Any:
    """``value`` with every leaf's type beside it: 5 and 5.0, 1 and True, compare different (as in JSON)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [typed(v) for v in value]
    if isinstance(value, float) and math.isnan(value):  # a text "nan" read as a float by both paths: equal
        return ("float", "nan")
    return (type(value).__name__, value)


def _full_input(shape: type, data: dict[str, Any]) -> dict[str, Any] | None:
    serializer = shape(data=data)
    return dict(serializer.validated_data) if serializer.is_valid() else None


# Each shape on its own (its own examples, shrunk to its own smallest failure): 60 bodies a shape, where one
# test drawing every shape 200 times took a quarter of the pure stage (docs/PERFORMANCE.md › CI).
PER_SHAPE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("shape", INPUTS, ids=lambda c: c.__name__)
@PER_SHAPE
@given(data=st.data())
def test_quick_input_is_the_serializer_or_nothing(shape, data):
    body = data.draw(bodies(shape), label=shape.__name__)
    quick = shape.quick(body)
    if quick is not None:
        assert typed(quick) == typed(_full_input(shape, body)), (shape.__name__, body)


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        return "ok", typed(call())
    except Exception as exc:  # the serializer's own failure must be the quick path's too
        return "raised", type(exc).__name__


@pytest.mark.parametrize("shape", OUTPUTS, ids=lambda c: c.__name__)
@PER_SHAPE
@given(data=st.data())
def test_represent_is_the_serializer(shape, data):
    instance = data.draw(bodies(shape), label=shape.__name__)
    assert _outcome(lambda: shape.represent(instance)) == _outcome(lambda: dict(shape(instance).data)), (
        shape.__name__,
        instance,
    )


def test_the_hot_bodies_take_the_quick_paths():
    move = {"type": "stones_taken", "seat": 0, "data": {"count": 1}, "expected_version": 4, "idempotency_key": "k"}
    assert EventInput.quick(move) == _full_input(EventInput, move)
    assert EventInput.quick({"type": "event_voided", "data": {"version": 2, "reason": "x"}}) is not None
    assert VoidInput.quick({"version": 2, "reason": "miscounted"}) == _full_input(
        VoidInput, {"version": 2, "reason": "miscounted"}
    )
    answer = {
        "version": 7, "position": 70, "state": {"pile": 3}, "override_pending": False,
        "outcome": {"winners": [1], "draw": False, "reason": "Bo took the last stone", "scores": {"0": 2, "1": 5},
                    "provisional": False},
        "linked": [{"kind": "campaign", "id": 3, "versions": [8], "version": 8}],
    }  # fmt: skip
    from config import api

    assert api._represented(AppendOutput, answer) == dict(AppendOutput(answer).data)
    assert AppendOutput.represent(answer)["outcome"]["scores"] == {"0": 2.0, "1": 5.0}  # floats, as documented


def test_a_client_time_or_padded_text_takes_the_full_path():
    """What the quick path does not read (dates, text DRF would trim) is validated by DRF itself."""
    assert EventInput.quick({"type": "x", "client_time": "2026-11-30T12:00:00Z"}) is None
    assert EventInput.quick({"type": " x "}) is None
    assert EventInput.quick({"type": "x", "seat": True}) is None


def test_a_nan_both_paths_give_compares_equal():
    """A score typed as the text "nan" is a float NaN on both paths; the comparison must not call them different."""
    instance = {"winners": [0], "draw": False, "reason": "r", "scores": {"0": "nan"}, "provisional": False}
    assert typed(OutcomeOutput.represent(instance)) == typed(dict(OutcomeOutput(instance).data))

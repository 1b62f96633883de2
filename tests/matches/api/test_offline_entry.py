"""The offline rules read an entry's envelope with the API's very words: ``rulesets.offline.envelope`` against
``matches.api.common.parse(EventInput, …)`` (DRF and ``config.api.JsonInput``) for random bodies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.api.common import parse
from matches.api.serializers import EventInput
from matches.errors import InvalidInput
from rulesets.offline import EntryInvalid, envelope

pytestmark = pytest.mark.pure

VALUE = (
    st.none() | st.booleans() | st.integers(-3, 120) | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.sampled_from(["", "  ", " stones_taken ", "stones_taken", "x" * 64, "x" * 65, " " + "y" * 64, "3"])
    | st.lists(st.integers(), max_size=2) | st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)
)  # fmt: skip
BODY = st.dictionaries(st.sampled_from(["type", "seat", "data"]), VALUE, max_size=3) | VALUE


def server(body):
    try:
        data = parse(EventInput, body)
    except InvalidInput as exc:
        return exc.body()
    return (data["type"], data["seat"], data["data"])


def offline(body):
    try:
        return envelope(body)
    except EntryInvalid as exc:
        return exc.body()


@settings(max_examples=400, deadline=None)
@given(body=BODY)
def test_the_envelope_is_read_as_the_api_reads_it(body):
    assert offline(body) == server(body)


@pytest.mark.parametrize(
    "body",
    [{"type": "", "seat": 1}, {"seat": 0}, {"type": None}, {"type": 5}, {"type": "a", "seat": 100},
     {"type": "a", "seat": -1}, {"type": "a", "seat": True}, {"type": "a", "data": None}, [], {"type": " a "}],
)  # fmt: skip
def test_the_envelope_cases_the_random_walk_may_miss(body):
    assert offline(body) == server(body)

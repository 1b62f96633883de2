"""Optional fields of a play: what can be read is kept, what cannot is a warning, never a lost play (issue 34)."""

from __future__ import annotations

import pytest

from matches.interop.text import UNSTORABLE, optional_rating, optional_text, optional_whole

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(("value", "kept"), [(45, 45), ("45", 45), (45.0, 45), (None, None), ("", None), (0, 0)])
def test_a_readable_whole_number_is_kept_without_a_warning(value, kept):
    warnings: list[str] = []
    assert optional_whole(value, warnings, what="durationMin") == kept and warnings == []


@pytest.mark.parametrize("value", ["about an hour", -5, 45.5, True, [1], 10**9, {UNSTORABLE: True}])
def test_a_whole_number_that_cannot_be_read_is_none_and_a_warning_naming_field_and_value(value):
    warnings: list[str] = []
    assert optional_whole(value, warnings, what="durationMin") is None
    assert len(warnings) == 1 and warnings[0].startswith("durationMin ") and "left out, the play is kept" in warnings[0]
    if not isinstance(value, dict):
        assert repr(value)[:20] in warnings[0]


def test_text_that_cannot_be_stored_is_left_out_with_a_warning():
    warnings: list[str] = []
    assert optional_text("the  Kitchen", warnings, limit=120, what="The location") == "the Kitchen" and not warnings
    assert optional_text("Kit\x00chen", warnings, limit=120, what="The location") == ""
    assert optional_text({UNSTORABLE: True}, warnings, limit=120, what="The comments") == ""
    assert warnings == ["The location contains a character that cannot be stored: left out, the play is kept.",
                        "The comments contains a character that cannot be stored: left out, the play is kept."]  # fmt: skip


@pytest.mark.parametrize(("value", "kept"), [(7.5, 7.5), ("8", 8), ("7,5", 7.5), (10, 10), (0, None), ("0", None),
                                             (None, None), ("", None)])  # fmt: skip
def test_a_rating_is_kept(value, kept):
    warnings: list[str] = []
    assert optional_rating(value, warnings, what="Ana's rating") == kept and warnings == []


@pytest.mark.parametrize("value", ["great", 11, -1, True, float("nan"), [7]])
def test_a_rating_that_cannot_be_read_is_a_warning(value):
    warnings: list[str] = []
    assert optional_rating(value, warnings, what="Ana's rating") is None
    assert len(warnings) == 1 and warnings[0].startswith("Ana's rating ") and "cannot be read" in warnings[0]

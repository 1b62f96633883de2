"""Score expressions as BG Stats players type them, evaluated exactly and without eval."""

from __future__ import annotations

from decimal import Decimal

import pytest

from matches.interop.scores import ScoreError, score_evaluate, score_number, score_text

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("87+77", Decimal(164)), ("15+16+8-30", Decimal(9)), ("15+16-30", Decimal(1)), ("12.5", Decimal("12.5")),
        ("0.1+0.2", Decimal("0.3")), ("3,5", Decimal("3.5")), (" -4 + 10 ", Decimal(6)), ("2*(3+4)", Decimal(14)),
        ("10/4", Decimal("2.5")), (42, Decimal(42)), (1.5, Decimal("1.5")), (Decimal("7.25"), Decimal("7.25")),
    ],
)  # fmt: skip
def test_expressions_are_exact(text, value):
    assert score_evaluate(text) == value


@pytest.mark.parametrize("text", [None, "", "   "])
def test_empty_scores_are_none(text):
    assert score_evaluate(text) is None and score_number(None) is None


@pytest.mark.parametrize(
    "text",
    ["lots", "__import__('os')", "1/0", "(1+2", "1e999", "9" * 12, True, [1], "1 2", "-", "+*", "=", "9x", "()",
     "1+(", "a" * 201],
)  # fmt: skip
def test_anything_else_is_refused(text):
    with pytest.raises(ScoreError):
        score_evaluate(text)


def test_numbers_and_text_kept():
    assert score_number(Decimal(164)) == 164 and isinstance(score_number(Decimal(164)), int)
    assert score_number(Decimal("0.3")) == 0.3
    assert score_text("87+77") == "87+77" and score_text(72.0) == "72" and score_text(None) == ""

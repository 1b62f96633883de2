"""Score expressions as BG Stats players type them, evaluated exactly and without eval."""

from __future__ import annotations

from decimal import Decimal

import pytest

from matches.interop.scores import ScoreError, score_evaluate, score_number, score_read, score_text

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


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # BG Stats' calculator leaves the last key typed: a trailing operator is ignored, as its own total does
        ("86+84+", 170), ("0+12+1+12+4+", 29), ("1+0+1+0+0+1+", 3), ("7+", 7), ("7-", 7), ("7*", 7), ("7/", 7),
        ("86 + 84 + ", 170), ("(3+)*2", 6), ("5+3=", 8), ("5+3+=", 8),
        # the same operator twice counts once
        ("5--3", 2), ("5++3", 8), ("2**3", 6), ("8//2", 4), ("5---3", 2),
        # a times or divide sign after another operator replaces it
        ("5+*3", 15), ("8-/2", 4), ("-*5", 5),
        # a sign after an operator is a sign
        ("10+-3", 7), ("2*-3", -6), ("5-+3", 2), ("+-+-+-5", -5),
        # nothing to multiply: ignored
        ("*5", 5), ("(*5)", 5),
        # other signs of the same operators
        ("2 × 3", 6), ("6÷4", Decimal("1.5")), ("5−2", 3), ("3x4", 12), ("3 X (1+1)", 6),
    ],
)  # fmt: skip
def test_what_a_calculator_leaves_behind_is_read_as_bg_stats_reads_it(text, value):
    assert score_evaluate(text) == value


def test_a_score_that_cannot_be_read_gives_a_warning_naming_the_player_and_the_text():
    assert score_read("86+84+", "Ana") == (Decimal(170), None)
    value, warning = score_read("lots", "Ana")
    assert value is None and warning.startswith("Ana's score 'lots' cannot be read: ")
    assert "The play is kept" in warning
    assert score_read(None, "Ana") == (None, None) and score_read("", "Ana") == (None, None)
    assert score_read(True, "Bo")[1].startswith("Bo's score 'True' cannot be read")

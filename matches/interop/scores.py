"""Score expressions as BG Stats lets players type them (``87+77``, ``15+16+8-30``, ``12.5``), evaluated exactly.

A tiny recursive-descent parser over :class:`decimal.Decimal`: numbers (``.`` or ``,`` as the decimal mark),
``+ - * /``, unary signs and parentheses. Nothing is ever passed to ``eval``.
"""

from __future__ import annotations

from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext
from typing import Any

MAX_TEXT = 200
MAX_ABS = Decimal(10) ** 9


class ScoreError(ValueError):
    """The text is not a score expression (the message says why)."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def peek(self) -> str:
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self.i += 1
        return self.text[self.i] if self.i < len(self.text) else ""

    def expr(self, depth: int = 0) -> Decimal:
        if depth > 20:
            raise ScoreError("Too many parentheses.")
        value = self.term(depth)
        while self.peek() in ("+", "-"):
            op = self.text[self.i]
            self.i += 1
            rhs = self.term(depth)
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self, depth: int) -> Decimal:
        value = self.unary(depth)
        while self.peek() in ("*", "/", "x", "×"):
            op = self.text[self.i]
            self.i += 1
            rhs = self.unary(depth)
            if op == "/":
                if rhs == 0:
                    raise ScoreError("Division by zero.")
                value = value / rhs
            else:
                value = value * rhs
        return value

    def unary(self, depth: int) -> Decimal:
        c = self.peek()
        if c in ("+", "-"):
            self.i += 1
            value = self.unary(depth)
            return -value if c == "-" else value
        if c == "(":
            self.i += 1
            value = self.expr(depth + 1)
            if self.peek() != ")":
                raise ScoreError("A parenthesis is not closed.")
            self.i += 1
            return value
        return self.number()

    def number(self) -> Decimal:
        self.peek()
        start = self.i
        while self.i < len(self.text) and (self.text[self.i].isascii() and self.text[self.i].isdigit()):
            self.i += 1
        if self.i < len(self.text) and self.text[self.i] in ".,":
            self.i += 1
            while self.i < len(self.text) and (self.text[self.i].isascii() and self.text[self.i].isdigit()):
                self.i += 1
        token = self.text[start : self.i].replace(",", ".")
        if token in ("", "."):
            raise ScoreError(f"Expected a number at character {start + 1}.")
        return Decimal(token)


def score_evaluate(value: Any) -> Decimal | None:
    """The exact value of a score as the file holds it: a JSON number, or a text expression; ``None`` for an
    empty or missing score. Raises :class:`ScoreError`."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ScoreError("A score is a number, not true/false.")
    if isinstance(value, int | Decimal):
        result = Decimal(value)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ScoreError("A score is a finite number.")
        result = Decimal(repr(value))
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if len(text) > MAX_TEXT:
            raise ScoreError(f"At most {MAX_TEXT} characters.")
        parser = _Parser(text)
        with localcontext() as ctx:
            ctx.prec = 40
            try:
                result = parser.expr()
            except (InvalidOperation, DivisionByZero):
                raise ScoreError("Not a number.") from None
        if parser.peek():
            raise ScoreError(f"Unexpected {parser.peek()!r} at character {parser.i + 1}.")
    else:
        raise ScoreError("A score is a number or a sum like 87+77.")
    if not result.is_finite() or abs(result) > MAX_ABS:
        raise ScoreError("Out of range.")
    return result


def score_number(value: Decimal | None) -> int | float | None:
    """The JSON number recorded for an exact score: an int when whole, else the nearest float."""
    if value is None:
        return None
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def score_text(value: Any) -> str:
    """The score as the player typed it (kept beside its value)."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()[:MAX_TEXT]

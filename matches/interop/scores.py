"""Score expressions as BG Stats lets players type them (``87+77``, ``15+16+8-30``, ``12.5``), evaluated exactly.

A tiny parser over :class:`decimal.Decimal`: numbers (``.`` or ``,`` as the decimal mark), ``+ - * /`` (also
``x``, ``×``, ``÷`` and the minus sign ``−``), unary signs and parentheses. Nothing is ever passed to ``eval``.

**What a calculator leaves behind is read the way BG Stats' own total reads it** (issue 34: real exports hold
``86+84+`` and ``0+12+1+12+4+``, typed with BG Stats' calculator, whose total ignores the dangling key):

- a **trailing operator** is ignored: ``86+84+`` = 170, ``7+`` = 7, ``7-`` = 7, ``(3+)*2`` = 6 (also one just
  before a closing parenthesis), and so is a trailing ``=``: ``5+3=`` = 8;
- a **doubled operator** (the same key twice) counts once: ``5--3`` = 2, ``5++3`` = 8, ``2**3`` = 6 (there is no
  power operator);
- a ``*`` or ``/`` typed right after another operator **replaces** it, as a calculator's operator key does:
  ``5+*3`` = 15, ``8-/2`` = 4;
- otherwise a ``+`` or ``-`` after an operator is a sign, as in arithmetic: ``10+-3`` = 7, ``2*-3`` = -6,
  ``5-+3`` = 2; a ``*`` or ``/`` with nothing before it is ignored: ``*5`` = 5;
- a letter ``x`` is a times sign only before a number or a parenthesis: ``3x4`` = 12, but ``9x`` cannot be read.

Anything else cannot be read (:class:`ScoreError`: ``lots``, ``1 2``, ``1/0``, ``(1+2``, ``-``, over 10⁹): the
importers then keep the play and the typed text, with no number for that seat, and say so in a warning
(:func:`score_read`). A score never drops a play.
"""

from __future__ import annotations

from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext
from typing import Any

MAX_TEXT = 200
MAX_ABS = Decimal(10) ** 9
MAX_DEPTH = 20
_OPERATORS = {"+": "+", "-": "-", "−": "-", "*": "*", "x": "*", "X": "*", "×": "*", "/": "/", "÷": "/"}
_SPACES = " \t\u00a0"


class ScoreError(ValueError):
    """The text is not a score expression (the message says why)."""


def _operand_follows(text: str, i: int) -> bool:
    """Whether a number or a parenthesis starts at ``i`` (spaces skipped): what makes a letter ``x`` a times sign."""
    rest = text[i:].lstrip(_SPACES)[:1]
    return rest in ("(", ".", ",") or (rest.isascii() and rest.isdigit())


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """``(kind, value, character)`` for each number (``"n"``), operator (``"o"``) and parenthesis (``"("``,
    ``")"``), the character counted from 1. Raises :class:`ScoreError` on any other character."""
    out: list[tuple[str, str, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _SPACES:
            i += 1
        elif (c.isascii() and c.isdigit()) or (
            c in ".," and i + 1 < n and text[i + 1].isascii() and text[i + 1].isdigit()
        ):
            start = i
            while i < n and text[i].isascii() and text[i].isdigit():
                i += 1
            if i < n and text[i] in ".,":
                i += 1
                while i < n and text[i].isascii() and text[i].isdigit():
                    i += 1
            out.append(("n", text[start:i].replace(",", "."), start + 1))
        elif c in "xX" and not _operand_follows(text, i + 1):
            raise ScoreError(f"Unexpected {c!r} at character {i + 1}.")  # a letter, not a times sign: "9x"
        elif c in _OPERATORS:
            out.append(("o", _OPERATORS[c], i + 1))
            i += 1
        elif c in "()":
            out.append((c, c, i + 1))
            i += 1
        elif c == "=" and not text[i + 1 :].strip(_SPACES):
            break  # a calculator's "=" at the end
        else:
            raise ScoreError(f"Unexpected {c!r} at character {i + 1}.")
    return out


def _tidy(tokens: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """The tokens with what a calculator leaves behind taken out (the rules of the module's docstring)."""
    out: list[tuple[str, str, int]] = []
    for token in tokens:
        kind, value, _ = token
        if kind == "o":
            last = out[-1] if out else None
            if last is not None and last[0] == "o":
                if last[1] == value:
                    continue  # the same key twice: once
                if value in "*/":
                    while out and out[-1][0] == "o":  # replaces the operators typed just before it
                        out.pop()
            if value in "*/" and (not out or out[-1][0] == "("):
                continue  # nothing to multiply or divide
        elif kind == ")":
            while out and out[-1][0] == "o":
                out.pop()  # an operator dangling before the parenthesis closes
        out.append(token)
    while out and out[-1][0] == "o":
        out.pop()  # a trailing operator
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str, int]]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def expr(self, depth: int = 0) -> Decimal:
        if depth > MAX_DEPTH:
            raise ScoreError("Too many parentheses.")
        value = self.term(depth)
        while (t := self.peek()) is not None and t[0] == "o" and t[1] in "+-":
            self.i += 1
            rhs = self.term(depth)
            value = value + rhs if t[1] == "+" else value - rhs
        return value

    def term(self, depth: int) -> Decimal:
        value = self.unary(depth)
        while (t := self.peek()) is not None and t[0] == "o" and t[1] in "*/":
            self.i += 1
            rhs = self.unary(depth)
            if t[1] == "/":
                if rhs == 0:
                    raise ScoreError("Division by zero.")
                value = value / rhs
            else:
                value = value * rhs
        return value

    def unary(self, depth: int) -> Decimal:
        negative = False
        while (t := self.peek()) is not None and t[0] == "o" and t[1] in "+-":
            negative ^= t[1] == "-"
            self.i += 1
        t = self.peek()
        if t is None:
            raise ScoreError("Expected a number at the end.")
        if t[0] == "(":
            self.i += 1
            value = self.expr(depth + 1)
            closing = self.peek()
            if closing is None or closing[0] != ")":
                raise ScoreError(f"The parenthesis at character {t[2]} is not closed.")
            self.i += 1
        elif t[0] == "n":
            self.i += 1
            value = Decimal(t[1])
        else:
            raise ScoreError(f"Expected a number at character {t[2]}.")
        return -value if negative else value


def score_evaluate(value: Any) -> Decimal | None:
    """The exact value of a score as the file holds it: a JSON number, or a text expression read by the rules of
    the module's docstring; ``None`` for an empty or missing score. Raises :class:`ScoreError`."""
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
        tokens = _tidy(_tokens(text))
        if not any(kind == "n" for kind, _, _ in tokens):
            raise ScoreError("No number in it.")
        parser = _Parser(tokens)
        with localcontext() as ctx:
            ctx.prec = 40
            try:
                result = parser.expr()
            except (InvalidOperation, DivisionByZero):
                raise ScoreError("Not a number.") from None
        left = parser.peek()
        if left is not None:
            raise ScoreError(f"Unexpected {left[1]!r} at character {left[2]}.")
    else:
        raise ScoreError("A score is a number or a sum like 87+77.")
    if not result.is_finite() or abs(result) > MAX_ABS:
        raise ScoreError("Out of range.")
    return result


def score_read(value: Any, who: str) -> tuple[Decimal | None, str | None]:
    """A seat's score and, when it cannot be read, the warning that says so (naming ``who`` and the text as
    typed): ``(value, None)`` or ``(None, warning)``. Never raises: the play is kept either way."""
    try:
        return score_evaluate(value), None
    except ScoreError as exc:
        shown = score_text(value) or repr(value)
        return None, (
            f"{who}'s score {shown!r} cannot be read: {exc} The play is kept with the score as typed and no "
            "number for it."
        )


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

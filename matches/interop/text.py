"""Cleaning the text a play log carries: one line, no characters the database cannot store, bounded."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from matches.interop.records import PlaySkipped

UNSTORABLE = "__unstorable__"  # marks text a stored index could not keep (see ``BgStatsIndex.to_json``)
DATE_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d")


def clean_text(value: Any, *, limit: int, what: str, multiline: bool = False) -> str:
    """The text, whitespace folded (kept line by line when ``multiline``), cut to ``limit``; "" for none.
    Raises :class:`PlaySkipped` for text the database cannot store (NUL, lone surrogates)."""
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, dict) and value.get(UNSTORABLE):
        raise PlaySkipped(f"{what} contains a character that cannot be stored.")
    text = str(value)
    if "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise PlaySkipped(f"{what} contains a character that cannot be stored.")
    if multiline:
        lines = [" ".join(line.split()) for line in text.splitlines()]
        text = "\n".join(line for line in lines if line)
    else:
        text = " ".join(text.split())
    return text[:limit]


def local_datetime(value: Any, *, what: str = "the play date") -> tuple[datetime, str]:
    """A file's local date and time (the table's clock) as an aware datetime in ``TIME_ZONE``, and the text
    kept for showing it exactly ("2021-03-12 19:30:00", or a date alone). Raises :class:`PlaySkipped`."""
    text = str(value or "").strip()
    for fmt in DATE_FORMATS:
        try:
            naive = datetime.strptime(text, fmt)
        except ValueError:
            continue
        local = naive.strftime("%Y-%m-%d %H:%M:%S") if fmt != "%Y-%m-%d" else naive.strftime("%Y-%m-%d")
        return timezone.make_aware(naive), local
    raise PlaySkipped(f'{what} {text!r} is not a date like "2021-03-12 19:30:00".')


def whole(value: Any, *, what: str, lo: int = 0, hi: int = 100_000) -> int | None:
    """A whole number in ``lo..hi`` (numeric text accepted), None for none. Raises :class:`PlaySkipped`."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise PlaySkipped(f"{what} must be a whole number.")
    try:
        number = int(str(value).strip()) if isinstance(value, str) else value
        if number != int(number):
            raise ValueError
        number = int(number)
    except (TypeError, ValueError, OverflowError):
        raise PlaySkipped(f"{what} must be a whole number.") from None
    if not lo <= number <= hi:
        raise PlaySkipped(f"{what} must be between {lo} and {hi}.")
    return number


def flag(value: Any) -> bool:
    """A true/false the way files write it (true, 1, "1", "true")."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


# -- optional fields: what cannot be read is a warning, never a lost play (issue 34) ---------------------------

KEPT = "left out, the play is kept"


def optional_text(value: Any, warnings: list[str], *, limit: int, what: str, multiline: bool = False) -> str:
    """:func:`clean_text` for a field a play can do without: text that cannot be stored becomes "" and a
    warning in ``warnings``. Never raises."""
    try:
        return clean_text(value, limit=limit, what=what, multiline=multiline)
    except PlaySkipped as exc:
        warnings.append(f"{str(exc).rstrip('.')}: {KEPT}.")
        return ""


def optional_whole(value: Any, warnings: list[str], *, what: str, lo: int = 0, hi: int = 100_000) -> int | None:
    """:func:`whole` for a field a play can do without: a value that cannot be read becomes None and a warning
    (naming the field and the value as the file has it) in ``warnings``. Never raises."""
    try:
        return whole(value, what=what, lo=lo, hi=hi)
    except PlaySkipped as exc:
        warnings.append(f"{what} {_shown(value)} cannot be read ({str(exc).removeprefix(what + ' ').rstrip('.')}): "
                        f"{KEPT}.")  # fmt: skip
        return None


def optional_rating(value: Any, warnings: list[str], *, what: str) -> float | int | None:
    """A rating of the game (BGG's 1 to 10, decimals allowed; 0 or none: no rating); a value that cannot be read
    becomes None and a warning. Never raises."""
    if value is None or value == "" or (not isinstance(value, bool) and isinstance(value, int | float) and value == 0):
        return None
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value.strip().replace(",", ".")) if isinstance(value, str) else float(value)
        if number != number or not 0 <= number <= 10:
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        warnings.append(f"{what} {_shown(value)} cannot be read (a number from 1 to 10): {KEPT}.")
        return None
    if number == 0:
        return None
    return int(number) if number.is_integer() else number


def _shown(value: Any) -> str:
    """A file's value as a warning quotes it (bounded, characters the database cannot store escaped)."""
    if isinstance(value, dict) and value.get(UNSTORABLE):
        return "(text with a character that cannot be stored)"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."

"""CSV downloads' one rule: a cell a spreadsheet will show, never run (campaign sheet, series standings)."""

from __future__ import annotations

from typing import Any


def spreadsheet_safe(value: Any) -> Any:
    """A CSV cell a spreadsheet will show, never run: text starting like a formula gets a leading apostrophe.

    Every CSV download (campaign sheet, series standings, BGG play log) writes its cells through this, so a
    player or game named ``=HYPERLINK(...)`` stays text. Non-text values pass through unchanged.
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value

"""Template helpers for plays: the "Played … at … · imported from …" line and a seat's score and result."""

from __future__ import annotations

from typing import Any

from django import template

from matches.interop.present import play_line, seat_notes
from matches.interop.writer import SOURCE_NOTES

register = template.Library()


@register.simple_tag
def played_line(match: Any) -> str:
    return play_line(match)


@register.filter
def source_note(reason: Any) -> bool:
    """Whether an outcome's reason is only an imported result's note ("imported from BG Stats"), which the
    played line already says."""
    return str(reason or "").strip() in {note for note in SOURCE_NOTES.values() if note}


@register.filter
def outcome_tail(reason: Any) -> str:
    """What follows "Won by Ana" in the table bar: ": the last stone taken" for a game's own reason, " · the
    result imported from BG Stats" for an imported result's note, "" for none."""
    text = str(reason or "").strip()
    if not text:
        return ""
    if source_note(text):
        return f" · the result {text}"
    return f": {text}"


@register.simple_tag
def seat_note(match: Any, index: int) -> str:
    """The seat's score and result from the match summary (the list) for ``index``."""
    summary = getattr(match, "summary", None)
    notes = seat_notes(match, getattr(summary, "scores", None), getattr(summary, "winners", None))
    return notes.get(index, "")

"""How an imported (or logged) play reads on the match list and pages: when, where, how long, from where."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from matches.models import Match

SOURCE_LABELS = {"bgstats": "imported from BG Stats", "bgg": "imported from BoardGameGeek"}


def _when(match: Match) -> str:
    local = str((match.details or {}).get("played_local") or "")
    try:
        if len(local) == 19:
            return datetime.strptime(local, "%Y-%m-%d %H:%M:%S").strftime("%-d %b %Y %H:%M")
        if len(local) == 10:
            return datetime.strptime(local, "%Y-%m-%d").strftime("%-d %b %Y")
    except ValueError:
        pass
    at = match.played_at or match.created_at
    return timezone.localtime(at).strftime("%-d %b %Y %H:%M") if at else ""


def play_line(match: Match) -> str:
    """ "Played 12 Mar 2021 19:30 at the Kitchen, 70 min · imported from BG Stats" (the parts it has); a match
    still being played (recorded here, not finished) says "Started …"."""
    going = match.status == Match.STATUS_IN_PROGRESS and not match.source
    text = f"{'Started' if going else 'Played'} {_when(match)}"
    if match.location:
        text += f" at {match.location}"
    if match.duration_min:
        text += f", {match.duration_min} min"
    label = SOURCE_LABELS.get(match.source or "")
    if label:
        text += f" · {label}"
    if match.ignored:
        text += " · ignored for stats"
    return text


def seat_notes(match: Match, scores: dict[str, Any] | None, winners: list[int] | None) -> dict[int, str]:
    """Per seat index: its score (as typed, when it was a sum; the typed text alone, said so, when it could not be
    read), team, role, rank and a win, as one short text."""
    extras = (match.details or {}).get("seats") or []
    scores = scores or {}
    out: dict[int, str] = {}
    for index in range(max(len(extras), match.stream.seat_count if match.stream_id else 0)):
        more = extras[index] if index < len(extras) else {}
        parts = []
        score = scores.get(str(index), scores.get(index)) if isinstance(scores, dict) else None
        typed = more.get("score_text") or ""
        if score is not None:
            parts.append(f"{score:g}" if isinstance(score, float) else str(score))
            if typed and typed != parts[-1]:
                parts[-1] += f" ({typed})"
        elif typed:
            parts.append(f"{typed} (not read as a number)")  # kept as typed: it never dropped the play
        for key, label in (("team", "team "), ("role", ""), ("rank", "rank ")):
            if more.get(key) not in (None, ""):
                parts.append(f"{label}{more[key]}")
        if winners and index in winners:
            parts.append("winner")
        if more.get("new"):
            parts.append("new")
        out[index] = " · ".join(parts)
    return out

"""Reads that only the pages need: recent activity, the entry an undo would void."""

from __future__ import annotations

from typing import Any

from matches.models import Event as EventRow
from matches.selectors import UserLike, match_visible_qs
from rulesets import Event, get_ruleset
from rulesets.replay import EVENT_VOIDED, describe_entry


def home_activity(*, user: UserLike, limit: int = 12) -> list[dict[str, Any]]:
    """The latest entries on matches ``user`` may see, newest first."""
    visible = match_visible_qs(user).values("stream_id")
    rows = (
        EventRow.objects.filter(stream_id__in=visible)
        .select_related("stream__match", "recorded_by")
        .prefetch_related("stream__match__seats__player")
        .order_by("-position")[:limit]
    )
    out = []
    for r in rows:
        match = r.stream.match
        names = [s.player.name for s in sorted(match.seats.all(), key=lambda seat: seat.index)]
        text = describe_entry(get_ruleset(match.game), Event(r.type, r.seat, r.data), names)
        by = r.recorded_by.username if r.recorded_by_id else ""
        out.append({"match": match, "version": r.version, "text": text, "at": r.recorded_at, "by": by})
    return out


def last_undoable_version(*, stream_id: int) -> int | None:
    """The newest entry that still counts (not a void, not voided), or None."""
    rows = (
        EventRow.objects.filter(stream_id=stream_id).order_by("-version").values_list("version", "type", "data")[:200]
    )
    voided: set[int] = set()
    for version, type_, data in rows:
        if type_ == EVENT_VOIDED:
            voided.add(int(data["version"]))
            continue
        if version not in voided:
            return version
    return None

"""Reads that only the pages need: recent activity, the entry an undo would void."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.errors import NotFound, StreamUnreplayable
from matches.models import Event as EventRow
from matches.models import Match
from matches.selectors import UserLike, match_get, match_seat_names, match_visible_qs
from matches.store.history import HISTORY_LIMIT_MAX, history_page
from matches.store.visibility import Viewer, can_view, row_as_seen, viewer_for
from rulesets import get_ruleset
from rulesets.replay import EVENT_VOIDED, FIRST_PLAYER_DRAWN, describe_entry
from rulesets.versions import RULES_UPGRADED


def home_activity(*, user: UserLike, limit: int = 12) -> list[dict[str, Any]]:
    """The latest entries on matches ``user`` may see, newest first (none of a match that cannot be replayed,
    when reading it as ``user`` may would need its state)."""
    visible = match_visible_qs(user).values("stream_id")
    rows = (
        EventRow.objects.filter(stream_id__in=visible)
        .select_related("stream__match", "recorded_by")
        .prefetch_related("stream__match__seats__player")
        .order_by("-position")[:limit]
    )
    out = []
    viewers: dict[int, Viewer] = {}  # one per match (no query for a game that hides nothing)
    for r in rows:
        match = r.stream.match
        names = [s.player.name for s in sorted(match.seats.all(), key=lambda seat: seat.index)]
        ruleset = get_ruleset(match.game)
        viewer = viewers.setdefault(match.pk, viewer_for(user, match))
        try:
            event = row_as_seen(viewer, r)
        except StreamUnreplayable:  # a match that cannot be replayed: the activity goes on without it
            continue
        text = describe_entry(ruleset, event, names)
        by = r.recorded_by.username if r.recorded_by_id else ""
        out.append({"match": match, "version": r.version, "text": text, "at": r.recorded_at, "by": by})
    return out


def last_undoable_version(*, stream_id: int) -> int | None:
    """The newest entry that still counts (not a void, not voided) and may be voided (not the draw of who
    starts, not a move to the current rules), or None."""
    rows = (
        EventRow.objects.filter(stream_id=stream_id).order_by("-version").values_list("version", "type", "data")[:200]
    )
    voided: set[int] = set()
    for version, type_, data in rows:
        if type_ == EVENT_VOIDED:
            voided.add(int(data["version"]))
            continue
        if version not in voided:
            return None if type_ in (FIRST_PLAYER_DRAWN, RULES_UPGRADED) else version
    return None


def moves_recorded(*, stream_id: int, upto: int) -> bool:
    """Whether any game entry (not a table-level one: a result, a void, an override, the draw of who starts)
    was recorded up to version ``upto``."""
    from rulesets.replay import TABLE_LEVEL_TYPES

    return EventRow.objects.filter(stream_id=stream_id, version__lte=upto).exclude(type__in=TABLE_LEVEL_TYPES).exists()


def undo_words(*, match: Match, version: int, viewer: Any, seat_names: list[str]) -> str:
    """What the entry an undo would void says, as ``viewer`` may read it ("Ana took 2 stones."), for the
    undo button's confirmation; "" when it cannot be read."""
    from matches.store import events as store

    row = EventRow.objects.filter(stream_id=match.stream_id, version=version).select_related("stream").first()
    if row is None:
        return ""
    ruleset = get_ruleset(match.game)
    event = row_as_seen(viewer, row)
    before = store.position_at(match.stream_id, version - 1).state if ruleset.describe_uses_state else None
    return describe_entry(ruleset, event, seat_names, before=None if before is None else viewer.state(ruleset, before))


def match_version(*, user: UserLike, match_id: int) -> int:
    """The latest version of a match ``user`` may see, in one indexed query (two for a private match seen
    by a recorder); :class:`NotFound` otherwise, as for the match page."""
    match = Match.objects.select_related("stream").only("is_public", "owner_id", "stream__version")
    match = match.filter(pk=match_id).first()
    if match is None or not can_view(user, match):
        raise NotFound(f"No match {match_id}.")
    return match.stream.version


@dataclass(frozen=True)
class LiveEntries:
    """A watching page's news: the match's ``stream_id``, its ``version`` and the ``lines`` it has not drawn."""

    stream_id: int
    version: int
    lines: list[Any]


def live_entries(*, user: UserLike, match_id: int, after: int, session: Any = None) -> LiveEntries:
    """What the live table sends one watching page (``frontend.views.live``): the match's version and every entry
    after version ``after``, oldest first, each as ``user`` may read it (``viewer_for``, with the reading device's
    ``session``: the one rule of sight, never one answer for all). :class:`NotFound` when ``user`` may not see the
    match (any more)."""
    match = match_get(user=user, match_id=match_id)
    if match.stream.version <= after:
        return LiveEntries(match.stream_id, match.stream.version, [])
    viewer = viewer_for(user, match, session=session)
    names, lines, cursor = match_seat_names(match), [], after
    while cursor is not None:
        page = history_page(stream_id=match.stream_id, game=match.game, seat_names=names, viewer=viewer,
                            after=cursor, limit=HISTORY_LIMIT_MAX)  # fmt: skip
        lines += [h.line for h in page.lines]
        cursor = page.next
    return LiveEntries(match.stream_id, max([match.stream.version, *(ln.row.version for ln in lines)]), lines)

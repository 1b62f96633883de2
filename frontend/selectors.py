"""Reads that only the pages need: recent activity, the entry an undo would void."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from matches.errors import NotFound
from matches.models import Event as EventRow
from matches.models import Match
from matches.selectors import UserLike, match_visible_qs
from matches.visibility import Viewer, can_view, row_as_seen, viewer_for
from rulesets import get_ruleset
from rulesets.offline import UNDO_REASON
from rulesets.replay import EVENT_VOIDED, FIRST_PLAYER_DRAWN, describe_entry


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
    viewers: dict[int, Viewer] = {}  # one per match (no query for a game that hides nothing)
    for r in rows:
        match = r.stream.match
        names = [s.player.name for s in sorted(match.seats.all(), key=lambda seat: seat.index)]
        ruleset = get_ruleset(match.game)
        viewer = viewers.setdefault(match.pk, viewer_for(user, match))
        event = row_as_seen(viewer, r)
        text = describe_entry(ruleset, event, names)
        by = r.recorded_by.username if r.recorded_by_id else ""
        out.append({"match": match, "version": r.version, "text": text, "at": r.recorded_at, "by": by})
    return out


def last_undoable_version(*, stream_id: int) -> int | None:
    """The newest entry that still counts (not a void, not voided) and may be voided (not the draw of who
    starts), or None."""
    rows = (
        EventRow.objects.filter(stream_id=stream_id).order_by("-version").values_list("version", "type", "data")[:200]
    )
    voided: set[int] = set()
    for version, type_, data in rows:
        if type_ == EVENT_VOIDED:
            voided.add(int(data["version"]))
            continue
        if version not in voided:
            return None if type_ == FIRST_PLAYER_DRAWN else version
    return None


def moves_recorded(*, stream_id: int, upto: int) -> bool:
    """Whether any game entry (not a table-level one: a result, a void, an override, the draw of who starts)
    was recorded up to version ``upto``."""
    from rulesets.replay import TABLE_LEVEL_TYPES

    return EventRow.objects.filter(stream_id=stream_id, version__lte=upto).exclude(type__in=TABLE_LEVEL_TYPES).exists()


def undo_words(*, match: Match, version: int, viewer: Any, seat_names: list[str]) -> str:
    """What the entry an undo would void says, as ``viewer`` may read it ("Ana took 2 stones."), for the
    undo button's confirmation; "" when it cannot be read."""
    from matches import store

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


def offline_seed(
    *,
    match: Match,
    viewer: Viewer,
    seat_names: list[str],
    can_record: bool,
    revealed: bool = False,
    board: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the match page hands its offline rules (``frontend/static/frontend/offline/rules.js``): the head
    position as this reader may see it, plus where the rules and the log are.

    ``state`` is the reducer's own state (seats as "Seat N") passed through the reader's ``viewer``, so no
    secret is in it; ``complete`` is True when nothing is hidden from this reader right now (the view is the
    whole state), and only then can the browser check moves itself (``rulesets.offline``). ``viewer``:
    ``{everything, seat, revealed}``, who reads (the legal moves are listed as they may know them); ``revealed``:
    the seat is one a seatless recorder's device reveals, which the next entry hides again (``visibility.reveal``).
    ``board``: what the board knows of the match besides the position (``frontend.boards.TableFacts.seed``), so
    the page can draw it again offline (``frontend/offline_board.py``).
    """
    from frontend.bundle import offline_urls
    from matches import store

    head = store.head_from_row(match.stream)  # read with the match (``match_get``): no query of its own
    ruleset = get_ruleset(match.game)
    shown = viewer.state(ruleset, head.state)
    complete = viewer.everything or shown == head.state
    return {
        "match": match.pk,
        "game": match.game,
        "options": head.options,
        "version": head.version,
        "state": shown,
        "override_pending": head.override_pending,
        "seat_names": list(seat_names),
        "complete": complete,
        "viewer": {"everything": viewer.everything, "seat": viewer.seat, "revealed": revealed},
        "reader_seat": viewer.seat,
        "can_record": can_record,
        "events_url": reverse("api-match-events", args=[match.pk]),
        "board": board or {},
        "log": _offline_log(match, viewer, head.version),
        "undo_reason": UNDO_REASON,  # what the pages' undo records when no reason is typed (frontend.forms)
        **offline_urls(),
    }


OFFLINE_LOG_MAX = 400  # entries; a longer match's undo of a recorded entry is left to the server offline


def _offline_log(match: Match, viewer: Viewer, version: int) -> list[dict[str, Any]] | None:
    """Every entry up to ``version`` (``[{version, type, seat, data}]``), for the phone to check an undo of a
    recorded entry offline (a void is decided by replaying the log: ``rulesets.offline.record``); None when
    the reader may not see every entry as recorded (a game that hides information) or the log is longer than
    ``OFFLINE_LOG_MAX``: the server decides those undos. One query."""
    if not viewer.everything or version > OFFLINE_LOG_MAX:
        return None
    rows = EventRow.objects.filter(stream_id=match.stream_id, version__lte=version).order_by("version")
    return [
        {"version": v, "type": t, "seat": s, "data": d}
        for v, t, s, d in rows.values_list("version", "type", "seat", "data")
    ]

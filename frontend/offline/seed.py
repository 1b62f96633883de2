"""What the match page hands its offline rules: the head position as this reader may see it, the log for an
undo checked on the phone, and where the rules archives are (``frontend.offline.bundle``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from frontend.offline.bundle import offline_urls
from matches.models import Event as EventRow
from matches.models import Match
from matches.store import events as store
from matches.store.visibility import Viewer
from rulesets import get_ruleset
from rulesets.offline import UNDO_REASON


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
    secret is in it; ``complete`` is True when nothing may be hidden from this reader right now, judged from
    what they see (``Ruleset.hidden_from``: a face-down card on another board, never whether it was named), and only then can the browser check moves itself (``rulesets.offline``). ``viewer``:
    ``{everything, seat, revealed}``, who reads (the legal moves are listed as they may know them); ``revealed``:
    the seat is one a seatless recorder's device reveals, which the next entry hides again (``visibility.reveal``).
    ``board``: what the board knows of the match besides the position (``frontend.boards.shared.TableFacts.seed``), so
    the page can draw it again offline (``frontend/offline/board.py``).
    """
    head = store.head_from_row(match.stream)  # read with the match (``match_get``): no query of its own
    ruleset = get_ruleset(match.game)
    shown = viewer.state(ruleset, head.state)
    # from what the reader sees (public facts: a face-down card lies there), never from the secret itself
    complete = viewer.everything or not ruleset.hidden_from(shown, viewer.seat)
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

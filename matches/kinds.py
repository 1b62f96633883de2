"""The match stream kind (see ``matches.store.streams``): registered when the app is ready."""

from __future__ import annotations

from typing import Any

from matches.models import Match
from matches.selectors import match_get_brief, match_seat_names
from matches.store import events as store
from matches.store.streams import StreamKind, after_record, kind_register

MATCH = kind_register(
    StreamKind(
        name="match", noun="match", model=Match, seat_names=match_seat_names, touch=False,
        not_allowed="Only the match's owner and the recorders they named may record moves.",
        get_for_write=lambda user, pk: match_get_brief(user=user, match_id=pk),
    )
)  # fmt: skip


@after_record("match")
def _status_follows_outcome(match: Match, user: Any, result: store.AppendResult) -> None:
    """``Match.status`` follows the outcome of each new state (lists filter by it)."""
    from matches.services import match_status_sync

    match_status_sync(match, result.state)

"""Rebasing a stale entry (docs/ARCHITECTURE.md, *Rebasing a stale entry*): the one rule that says when an entry
made for an older version may be recorded after newer ones, and what it was rebased over."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.models import Event as EventRow
from rulesets import Event
from rulesets.names import seat_ref
from rulesets.replay import (
    EVENT_VOIDED,
    FIRST_PLAYER_DRAWN,
    PHOTO_TYPES,
    RESULT_RECORDED,
    RULE_OVERRIDDEN,
)
from rulesets.versions import RULES_UPGRADED


@dataclass(frozen=True)
class Rebased:
    """A stale append recorded after the entries made since the version its client expected: ``after`` is the
    entry it follows, ``seat`` who made that entry (None: the table), ``over`` every entry since."""

    after: int
    seat: int | None
    over: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"after": self.after, "seat": self.seat, "over": list(self.over)}


CORRECTION_TYPES = frozenset({EVENT_VOIDED, RULE_OVERRIDDEN, RESULT_RECORDED, FIRST_PLAYER_DRAWN, RULES_UPGRADED})


def rebase_refusal(
    event: Event, since: list[tuple[int, int | None, str]], override_pending: bool
) -> tuple[str, str] | None:
    """The one rebase rule: why ``event``, made for an older version, may not be recorded after the entries
    ``since`` (``(version, seat, type)`` oldest first), as ``(reason, why)``; None when it may (then it is
    re-validated on the new head, and refused as ``illegal`` if the rules no longer let it through).

    - a correction (undo, house rule, result) is never rebased: it was meant for the version it names;
    - an entry by the same seat since is never rebased over (it may be the same physical action twice); for a
      table-level entry (seat None) every table-level entry since counts as the same seat;
    - an undo since is never rebased over (the form was drawn on a past that is gone);
    - nor a house rule still waiting for its move (it belongs to the move its recorder is entering).
    """
    if event.type in CORRECTION_TYPES:
        return "correction", "an undo, a house rule or a result is recorded only on the version it was made for."
    for version, seat, type_ in since:
        if type_ in PHOTO_TYPES:  # a photo of the table is no move: nothing is counted twice over it
            continue
        if type_ == EVENT_VOIDED:
            return "undo_since", f"move {version} undid an earlier move since your form was drawn."
        if seat == event.seat and type_ not in (RULE_OVERRIDDEN, RESULT_RECORDED):
            if seat is None:
                return "table_entry", f"the table recorded move {version} since your form was drawn."
            return "same_seat", (
                f"{seat_ref(seat)} recorded move {version} since your form was drawn, and one player's moves are "
                "never counted twice."
            )
    if override_pending:
        last = since[-1][0] if since else 0
        return "override_pending", f"the house rule of move {last} waits for its own move."
    return None


MAX_OWN_KEYS = 200  # a queue longer than this is sent in more than one chain (the API refuses more keys)


def own_versions(stream_id: int, after: int, keys: tuple[str, ...], recorded_by_id: int | None) -> frozenset[int]:
    """The versions after ``after`` recorded on this stream with one of ``keys`` by ``recorded_by_id``: the
    client's own earlier entries (its queue's), left out of what a rebase is judged against. A key that is not
    on this stream, or was recorded by someone else, or at or before ``after``, counts for nothing."""
    if not keys:
        return frozenset()
    rows = EventRow.objects.filter(
        stream_id=stream_id, version__gt=after, idempotency_key__in=set(keys), recorded_by_id=recorded_by_id
    )
    return frozenset(rows.values_list("version", flat=True))


def entries_since(
    stream_id: int, after: int, upto: int, own: frozenset[int] = frozenset()
) -> list[tuple[int, int | None, str]]:
    """``(version, seat, type)`` of the entries ``after < version <= upto`` but ``own``, oldest first."""
    rows = EventRow.objects.filter(stream_id=stream_id, version__gt=after, version__lte=upto).order_by("version")
    return [row for row in rows.values_list("version", "seat", "type") if row[0] not in own]


def rebased_over(stream_id: int, expected: int, version: int, own: frozenset[int] = frozenset()) -> Rebased | None:
    """What an append recorded at ``version`` for a client expecting ``expected`` was rebased over, if anything
    (the client's ``own`` entries are not: they were made before it, on the same device)."""
    over = tuple(v for v in range(expected + 1, version) if v not in own)
    if not over:
        return None
    seat = EventRow.objects.filter(stream_id=stream_id, version=version - 1).values_list("seat", flat=True).first()
    return Rebased(after=version - 1, seat=seat, over=over)

"""Stream heads and positions: the in-process head cache, streams created empty, heads loaded (and rebuilt when
the ruleset changed), and any version's position folded from the newest usable snapshot.

A head and a position need each other (a head whose ruleset changed is rebuilt by replaying the stream; a
replay starts from the head's options), so they share this module. ``matches.store.events`` appends.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import transaction

from matches.errors import (
    NotFound,
    StreamUnreplayable,
)
from matches.models import Event as EventRow
from matches.models import Snapshot, Stream
from rulesets import Event, Ruleset, get_ruleset
from rulesets.replay import (
    EVENT_VOIDED,
    Position,
    ReplayError,
    event_types_with_meta,
    fold,
    fold_judged,
)
from rulesets.versions import RULES_UPGRADED, initial_state

logger = logging.getLogger("chronicle.store")


@dataclass(frozen=True)
class Head:
    """A stream's identity and latest folded position, as cached in-process."""

    stream_id: int
    game: str
    options: dict[str, Any]
    seat_count: int
    version: int
    state: dict[str, Any]
    override_pending: bool
    ruleset_version: int
    rules_version: int = 0  # the rules the stream is judged under (0: not known, the current ones)

    @property
    def position(self) -> Position:
        return Position(self.state, self.version, self.override_pending)


# -- the in-process head cache --------------------------------------------------------------------------


class _HeadCache:
    """A small thread-safe LRU of heads. Filled only with committed data (see ``head_remember``)."""

    def __init__(self) -> None:
        self._items: OrderedDict[int, Head] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stream_id: int) -> Head | None:
        with self._lock:
            head = self._items.get(stream_id)
            if head is not None:
                self._items.move_to_end(stream_id)
            return head

    def put(self, head: Head) -> None:
        with self._lock:
            old = self._items.get(head.stream_id)
            if old is not None and old.version > head.version:
                return
            self._items[head.stream_id] = head
            self._items.move_to_end(head.stream_id)
            while len(self._items) > settings.CHRONICLE_HEAD_CACHE_SIZE:
                self._items.popitem(last=False)

    def drop(self, stream_id: int) -> None:
        with self._lock:
            self._items.pop(stream_id, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


head_cache = _HeadCache()


def head_remember(head: Head) -> None:
    """Cache ``head`` once the surrounding transaction commits (never data a rollback could undo)."""
    transaction.on_commit(lambda: head_cache.put(head))


# -- streams and heads ----------------------------------------------------------------------------------


def stream_create(*, kind: str, game: str, options: dict[str, Any], seat_count: int) -> Stream:
    """Create an empty stream (version 0) whose head is the ruleset's initial state."""
    ruleset = get_ruleset(game)
    state = ruleset.initial_state(options, seat_count)
    return Stream.objects.create(
        rules_version=ruleset.version,
        kind=kind,
        game=game,
        options=options,
        seat_count=seat_count,
        version=0,
        state=state,
        override_pending=False,
        ruleset_version=ruleset.version,
    )


# a stream's head read with the rows of a table that has a ``stream`` foreign key, in the order of
# :class:`Head`'s fields: ``Head(*values)``, no model instances (projectors read thousands at once)
STREAM_FIELDS = ("stream__id", "stream__game", "stream__options", "stream__seat_count", "stream__version",
                 "stream__state", "stream__override_pending", "stream__ruleset_version",
                 "stream__rules_version")  # fmt: skip


def _head_from_row(row: Stream | Head) -> Head:
    if isinstance(row, Head):
        return row
    return Head(
        stream_id=row.pk,
        game=row.game,
        options=row.options,
        seat_count=row.seat_count,
        version=row.version,
        state=row.state,
        override_pending=row.override_pending,
        ruleset_version=row.ruleset_version,
        rules_version=row.rules_version,
    )


def head_load(stream_id: int, *, fresh: bool = False) -> Head:
    """The stream's head: from the cache unless ``fresh``; rebuilt if the ruleset version changed. Raises
    :class:`NotFound`, and :class:`StreamUnreplayable` when that rebuild cannot replay the stream."""
    if not fresh:
        cached = head_cache.get(stream_id)
        if cached is not None:
            return cached
    try:
        row = Stream.objects.get(pk=stream_id)
    except Stream.DoesNotExist:
        raise NotFound(f"No stream {stream_id}.") from None
    return head_from_row(row)


def head_from_row(row: Stream | Head) -> Head:
    """The head of a stream row just read from the database (rebuilt if the ruleset version changed)."""
    head = _head_from_row(row)
    ruleset = get_ruleset(head.game)
    if head.ruleset_version != ruleset.version:
        head = _head_rebuild(head, ruleset)
    head_remember(head)
    return head


def position_of_row(row: Stream | Head, version: int) -> Position:
    """A stream's position at ``version`` from its row just read: the head itself when it is at that version
    (what projectors close behind the writers ask for), else folded from the newest usable snapshot."""
    head = head_from_row(row)
    return head.position if head.version == version else position_at(head.stream_id, version, _head=head)


def _head_rebuild(head: Head, ruleset: Ruleset) -> Head:
    """Replay the stream under the current ruleset version and store the new head (guarded by version)."""
    pos = position_at(head.stream_id, head.version, _head=head)
    Stream.objects.filter(pk=head.stream_id, version=head.version).update(
        state=pos.state, override_pending=pos.override_pending, ruleset_version=ruleset.version
    )
    return replace(head, state=pos.state, override_pending=pos.override_pending, ruleset_version=ruleset.version)


# -- reading events -------------------------------------------------------------------------------------


def event_of_row(row: EventRow) -> Event:
    return Event(type=row.type, seat=row.seat, data=row.data)


def events_iter(stream_id: int, *, after: int = 0, upto: int | None = None, batch: int = 2000) -> Iterator[EventRow]:
    """Stream events ``after < version <= upto`` in version order, fetched in batches."""
    last = after
    while True:
        qs = EventRow.objects.filter(stream_id=stream_id, version__gt=last).order_by("version")
        if upto is not None:
            qs = qs.filter(version__lte=upto)
        rows = list(qs[:batch])
        if not rows:
            return
        yield from rows
        last = rows[-1].version
        if len(rows) < batch:
            return


def voids_upto(stream_id: int, version: int) -> list[tuple[int, int]]:
    """``(void's version, target version)`` for every void recorded at or before ``version``."""
    rows = EventRow.objects.filter(stream_id=stream_id, type=EVENT_VOIDED, version__lte=version).values_list(
        "version", "data"
    )
    return [(v, int(d["version"])) for v, d in rows]


def position_at(
    stream_id: int,
    version: int,
    *,
    extra_void: int | None = None,
    check: bool = False,
    _head: Head | None = None,
) -> Position:
    """The folded position of a stream at ``version`` (0 = initial state).

    Starts from the newest usable snapshot: one taken with the current ruleset version, at or before
    ``version``, that no later void reaches behind. ``extra_void`` folds as if that version were voided too
    (used to check a void before recording it); ``check`` re-validates every folded entry and raises
    :class:`ReplayError` on the first that no longer holds. Without ``check``, an entry the reducer cannot
    apply raises :class:`StreamUnreplayable` (a domain error: the API and the pages answer it, never a 500).
    """
    head = _head or head_load(stream_id)
    ruleset = get_ruleset(head.game)
    if version > head.version:
        head = head_load(stream_id, fresh=True)
        if version > head.version:
            raise NotFound(f"Version {version} does not exist yet; the latest is {head.version}.")
    if version == head.version and extra_void is None and not check and head.ruleset_version == ruleset.version:
        return head.position
    voids = voids_upto(stream_id, version)
    voided = {target for _, target in voids}
    limit = version
    if extra_void is not None:
        voided.add(extra_void)
        limit = min(limit, extra_void - 1)
    # a snapshot at S is usable only if no void recorded after S targets a version at or before S
    candidates = Snapshot.objects.filter(
        stream_id=stream_id, version__lte=limit, ruleset_version=ruleset.version
    ).order_by("-version")
    start = Position(initial_state(ruleset, head.options, head.seat_count, head.rules_version or None), 0, False)
    upgraded: int | None = None
    for snap in candidates.only("version", "state", "override_pending")[:20]:
        if upgraded is None:  # a snapshot taken before the last rules upgrade was folded under the rules it left
            upgraded = _last_upgrade(stream_id)
        if snap.version < upgraded:
            break
        if all(not (void_v > snap.version and target <= snap.version) for void_v, target in voids):
            start = Position(snap.state, snap.version, snap.override_pending)
            break
    tail = ((row.version, event_of_row(row)) for row in events_iter(stream_id, after=start.version, upto=version))
    try:
        return fold(ruleset, start, tail, voided, check=check)
    except ReplayError as exc:
        if check:  # a re-check's refusal is the caller's to word (a void, the rules check)
            raise
        raise unreplayable(stream_id, ruleset, exc) from exc


def unreplayable(stream_id: int, ruleset: Ruleset, exc: ReplayError) -> StreamUnreplayable:
    """The domain error for a stream whose entry ``exc.version`` cannot be replayed (logged as a warning)."""
    type_ = EventRow.objects.filter(stream_id=stream_id, version=exc.version).values_list("type", flat=True).first()
    spec = event_types_with_meta(ruleset).get(type_ or "")
    entry = spec.label if spec is not None else (type_ or "").replace("_", " ")
    logger.warning("stream %s cannot be replayed: %s", stream_id, exc.detail)
    return StreamUnreplayable(stream_id, exc.version, type_ or "", entry, exc.detail)


def head_stored(stream_id: int) -> Head:
    """The stream's head exactly as stored, never rebuilt nor cached (what a check of a stream that may not
    replay reads). Raises :class:`NotFound`."""
    row = Stream.objects.filter(pk=stream_id).first()
    if row is None:
        raise NotFound(f"No stream {stream_id}.")
    return _head_from_row(row)


def _last_upgrade(stream_id: int) -> int:
    """The version of the stream's last ``rules_upgraded`` entry (0: none). The whole stream replays under the
    rules it moved to, the versions before that entry too, so no snapshot older than it is usable."""
    rows = EventRow.objects.filter(stream_id=stream_id, type=RULES_UPGRADED)
    return rows.order_by("-version").values_list("version", flat=True).first() or 0


def position_under(head: Head, rules_version: int | None) -> tuple[Position, list[ReplayError]]:
    """The whole stream of ``head`` replayed from its first entry under ``rules_version`` (None: the current
    rules), every entry re-checked: the position it reaches and the entries those rules would refuse (the
    fold goes on past them, as if they were voided; :func:`rulesets.replay.fold_judged`). Writes nothing."""
    ruleset = get_ruleset(head.game)
    voids = voids_upto(head.stream_id, head.version)
    start = Position(initial_state(ruleset, head.options, head.seat_count, rules_version), 0, False)
    tail = ((row.version, event_of_row(row)) for row in events_iter(head.stream_id, upto=head.version))
    return fold_judged(ruleset, start, tail, {target for _, target in voids})

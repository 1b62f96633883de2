"""The append-only event store: streams, optimistic appends, heads, snapshots and the global log.

Promises (DESIGN.md §3): per-stream versions 1..n with no gap or duplicate; an append guarded by the
version it read, so a lost race writes nothing; idempotency keys; heads moved in the append's own statement;
snapshots every ``CHRONICLE_SNAPSHOT_EVERY`` versions; global-log readers that never skip a late commit.

On PostgreSQL an append is one statement (one round trip): a CTE that moves the head, guarded by the
expected version, and inserts the event only if the head moved. Heads are cached in-process per
(stream, version); the database stays the judge, and a stale cache only costs a reload.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from psycopg.types.numeric import Int2, Int4, Int8

from config.db import prepared_fetch
from matches.errors import (
    IdempotencyKeyReused,
    NotFound,
    RebaseRefused,
    RuleBroken,
    StreamUnreplayable,
    VersionConflict,
)
from matches.models import Event as EventRow
from matches.models import Snapshot, Stream
from matches.store.rows import rows_insert
from rulesets import Event, Ruleset, RuleViolation, get_ruleset
from rulesets.names import seat_ref
from rulesets.offline import void_broken, void_refusal
from rulesets.replay import (
    EVENT_VOIDED,
    FIRST_PLAYER_DRAWN,
    PHOTO_TYPES,
    RESULT_RECORDED,
    RULE_OVERRIDDEN,
    Position,
    ReplayError,
    event_types_with_meta,
    fold,
    fold_judged,
    step,
)
from rulesets.versions import RULES_UPGRADED, initial_state

logger = logging.getLogger("chronicle.store")

CORRECTIONS_RULE = "Chronicle › Corrections"
VERSIONS_RULE = "Chronicle › Rule versions"


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


@dataclass(frozen=True)
class Metadata:
    """Who recorded an event and from where."""

    recorded_by_id: int | None = None
    client_time: datetime | None = None
    request_id: str = ""


@dataclass(frozen=True)
class LinkedWrite:
    """Entries another stream received in the same transaction as an append (``kind``: ``"campaign"``;
    ``id``: that object's id; ``versions``: the new entries; ``version``: its version afterwards)."""

    kind: str
    id: int
    versions: tuple[int, ...]
    version: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "versions": list(self.versions), "version": self.version}


@dataclass(frozen=True)
class Rebased:
    """A stale append recorded after the entries made since the version its client expected: ``after`` is the
    entry it follows, ``seat`` who made that entry (None: the table), ``over`` every entry since."""

    after: int
    seat: int | None
    over: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"after": self.after, "seat": self.seat, "over": list(self.over)}


@dataclass(frozen=True)
class AppendResult:
    """The outcome of an append: the event's global ``position``, its ``version`` and the new state.

    ``repeated`` is True when an idempotency key matched an earlier append (nothing new was written).
    ``linked``: what other streams the same action wrote, in the same transaction (all or nothing).
    ``rebased``: set when a stale entry was recorded after newer ones (``append(rebase=True)``).
    """

    position: int
    version: int
    state: dict[str, Any]
    override_pending: bool
    repeated: bool = False
    linked: tuple[LinkedWrite, ...] = ()
    rebased: Rebased | None = None


@dataclass(frozen=True)
class LogEntry:
    """One event as the global-log reader returns it; ``txid`` is 0 on SQLite."""

    position: int
    txid: int
    stream_id: int
    version: int
    type: str
    seat: int | None
    data: dict[str, Any]
    recorded_at: datetime


# -- the in-process head cache --------------------------------------------------------------------------


class _HeadCache:
    """A small thread-safe LRU of heads. Filled only with committed data (see ``_remember``)."""

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


def _remember(head: Head) -> None:
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
    _remember(head)
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


def _to_event(row: EventRow) -> Event:
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


def _voids_upto(stream_id: int, version: int) -> list[tuple[int, int]]:
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
    voids = _voids_upto(stream_id, version)
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
    tail = ((row.version, _to_event(row)) for row in events_iter(stream_id, after=start.version, upto=version))
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
    voids = _voids_upto(head.stream_id, head.version)
    start = Position(initial_state(ruleset, head.options, head.seat_count, rules_version), 0, False)
    tail = ((row.version, _to_event(row)) for row in events_iter(head.stream_id, upto=head.version))
    return fold_judged(ruleset, start, tail, {target for _, target in voids})


def _upgrade_position(ruleset: Ruleset, head: Head, event: Event) -> Position:
    """The position after ``rules_upgraded``: the whole stream replayed under the current rules. Raises
    :class:`RuleViolation` unless ``from`` is the stream's rules and ``to`` the current ones, no house rule
    waits for its move, and every entry holds under the current rules."""
    current = head.rules_version or ruleset.version
    if event.data.get("from") != current or event.data.get("to") != ruleset.version or current >= ruleset.version:
        raise RuleViolation(
            "rules_current" if current >= ruleset.version else "rules_changed",
            f"This match is judged under version {current} of the rules of {ruleset.name}; the current rules are "
            f"version {ruleset.version}."
            + (" There is nothing to move to." if current >= ruleset.version else " Look at the difference again."),
            VERSIONS_RULE,
        )
    if head.override_pending:
        raise RuleViolation(
            "override_pending",
            "A house rule is waiting for its move: record that move first, then replay under the current rules.",
            CORRECTIONS_RULE,
        )
    pos, refused = position_under(head, None)
    if refused:
        first = refused[0]
        raise RuleViolation(
            "rules_upgrade_refused",
            f"Under the current rules {first.detail} Void it first, or keep the rules this match was recorded under.",
            VERSIONS_RULE,
        )
    return Position(pos.state, head.version + 1, False)


# -- appending ------------------------------------------------------------------------------------------


def _next_position(ruleset: Ruleset, head: Head, event: Event, sight: frozenset[int] | None = None) -> Position:
    """Validate ``event`` against ``head`` and fold it. Raises :class:`RuleViolation` when illegal. ``sight``:
    the seats whose secrets the writer may see (None: all), ``rulesets.replay.step``."""
    if event.type == RULES_UPGRADED:
        return _upgrade_position(ruleset, head, event)
    if event.type != EVENT_VOIDED:
        return step(ruleset, head.position, event, check=True, sight=sight)
    target = int(event.data["version"])
    row = None
    if target <= head.version:
        row = EventRow.objects.filter(stream_id=head.stream_id, version=target).only("type").first()
    voided = (
        row is not None
        and row.type not in (EVENT_VOIDED, FIRST_PLAYER_DRAWN)
        and (EventRow.objects.filter(stream_id=head.stream_id, type=EVENT_VOIDED, data__version=target).exists())
    )
    refusal = void_refusal(target, head.version, row.type if row is not None else None, voided)
    if refusal is not None:  # the same refusals the match page gives offline (rulesets.offline)
        raise refusal
    try:
        pos = position_at(head.stream_id, head.version, extra_void=target, check=True, _head=head)
    except ReplayError as exc:
        raise void_broken(target, exc) from None
    return Position(pos.state, head.version + 1, pos.override_pending)


_PG_APPEND = """
WITH moved AS (
    UPDATE matches_stream
       SET version = %(new_version)s, state = %(state)s::jsonb, override_pending = %(override)s,
           ruleset_version = %(ruleset_version)s, updated_at = now()
     WHERE id = %(stream_id)s AND version = %(expected)s
 RETURNING id
)
INSERT INTO matches_event
    (stream_id, version, type, seat, data, recorded_by_id, client_time, request_id, idempotency_key,
     request_fingerprint, recorded_at)
SELECT id, %(new_version)s, %(type)s, %(seat)s, %(data)s::jsonb, %(recorded_by)s, %(client_time)s,
       %(request_id)s, %(key)s, %(fingerprint)s, now()
  FROM moved
RETURNING position
"""


def _write(head: Head, event: Event, pos: Position, meta: Metadata, key: str | None, rv: int) -> int | None:
    """Move the head from ``head.version`` and insert the event, atomically. None if the guard failed."""
    params = {
        "stream_id": head.stream_id,
        "expected": head.version,
        "new_version": head.version + 1,
        "state": json.dumps(pos.state, separators=(",", ":")),
        "override": pos.override_pending,
        "ruleset_version": rv,
        "type": event.type,
        "seat": event.seat,
        "data": json.dumps(event.data, separators=(",", ":")),
        "recorded_by": meta.recorded_by_id,
        "client_time": meta.client_time,
        "request_id": meta.request_id[:64],
        "key": key,
        "fingerprint": fingerprint(event) if key else "",
    }
    if connection.vendor == "postgresql":
        if connection.in_atomic_block:
            with transaction.atomic():  # a savepoint, so a duplicate key leaves the outer transaction usable
                return _pg_execute(params)
        return _pg_execute(params)
    with transaction.atomic():
        moved = Stream.objects.filter(pk=head.stream_id, version=head.version).update(
            version=head.version + 1,
            state=pos.state,
            override_pending=pos.override_pending,
            ruleset_version=rv,
            updated_at=timezone.now(),
        )
        if moved != 1:
            return None
        row = EventRow.objects.create(
            stream_id=head.stream_id,
            version=head.version + 1,
            type=event.type,
            seat=event.seat,
            data=event.data,
            recorded_by_id=meta.recorded_by_id,
            client_time=meta.client_time,
            request_id=meta.request_id[:64],
            idempotency_key=key,
            request_fingerprint=params["fingerprint"],
            recorded_at=timezone.now(),
        )
        return row.position


def _pg_execute(params: dict[str, Any]) -> int | None:
    """Run the append as a server-side prepared statement (``config.db``) in Django's transaction."""
    typed = {
        **params,
        "stream_id": Int8(params["stream_id"]),
        "expected": Int4(params["expected"]),
        "new_version": Int4(params["new_version"]),
        "ruleset_version": Int4(params["ruleset_version"]),
        "seat": None if params["seat"] is None else Int2(params["seat"]),
        "recorded_by": None if params["recorded_by"] is None else Int8(params["recorded_by"]),
    }
    row = prepared_fetch(_PG_APPEND, typed)
    return None if row is None else int(row[0])


def fingerprint(event: Event) -> str:
    """A digest of what an append asks for (type, seat, data): equal for a retry, different for another move."""
    canonical = json.dumps([event.type, event.seat, event.data], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _find_repeat(
    stream_id: int,
    key: str | None,
    event: Event,
    expected_version: int | None = None,
    own: frozenset[int] = frozenset(),
) -> AppendResult | None:
    """The earlier append with this idempotency key, as it was answered then (``rebased`` when it was
    recorded after entries newer than the ``expected_version`` the repeat carries).

    Raises :class:`IdempotencyKeyReused` when that append asked for something else than ``event``.
    """
    if not key:
        return None
    row = (
        EventRow.objects.filter(stream_id=stream_id, idempotency_key=key)
        .only("position", "version", "request_fingerprint")
        .first()
    )
    if row is None:
        return None
    if row.request_fingerprint and row.request_fingerprint != fingerprint(event):
        raise IdempotencyKeyReused(key, row.version)
    pos = position_at(stream_id, row.version)
    rebased = None if expected_version is None else _rebased(stream_id, expected_version, row.version, own)
    return AppendResult(row.position, row.version, pos.state, pos.override_pending, repeated=True, rebased=rebased)


# -- rebasing a stale entry (docs/ARCHITECTURE.md, *Rebasing a stale entry*) -------------------------------

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


def _own_versions(stream_id: int, after: int, keys: tuple[str, ...], recorded_by_id: int | None) -> frozenset[int]:
    """The versions after ``after`` recorded on this stream with one of ``keys`` by ``recorded_by_id``: the
    client's own earlier entries (its queue's), left out of what a rebase is judged against. A key that is not
    on this stream, or was recorded by someone else, or at or before ``after``, counts for nothing."""
    if not keys:
        return frozenset()
    rows = EventRow.objects.filter(
        stream_id=stream_id, version__gt=after, idempotency_key__in=set(keys), recorded_by_id=recorded_by_id
    )
    return frozenset(rows.values_list("version", flat=True))


def _since(
    stream_id: int, after: int, upto: int, own: frozenset[int] = frozenset()
) -> list[tuple[int, int | None, str]]:
    """``(version, seat, type)`` of the entries ``after < version <= upto`` but ``own``, oldest first."""
    rows = EventRow.objects.filter(stream_id=stream_id, version__gt=after, version__lte=upto).order_by("version")
    return [row for row in rows.values_list("version", "seat", "type") if row[0] not in own]


def _rebased(stream_id: int, expected: int, version: int, own: frozenset[int] = frozenset()) -> Rebased | None:
    """What an append recorded at ``version`` for a client expecting ``expected`` was rebased over, if anything
    (the client's ``own`` entries are not: they were made before it, on the same device)."""
    over = tuple(v for v in range(expected + 1, version) if v not in own)
    if not over:
        return None
    seat = EventRow.objects.filter(stream_id=stream_id, version=version - 1).values_list("seat", flat=True).first()
    return Rebased(after=version - 1, seat=seat, over=over)


UNPLAYABLE = "unplayable"  # the refusal of a move even a pending house rule cannot place (rulesets.replay.step)
HOUSE_RULE_SPENT = "The house rule could not place the move"  # the reason of the void that withdraws it


def _house_rule_of(head: Head) -> int | None:
    """The version of the ``rule_overridden`` entry waiting for its move at ``head`` (the newest one not voided)."""
    voided = {target for _, target in _voids_upto(head.stream_id, head.version)}
    rows = EventRow.objects.filter(stream_id=head.stream_id, type=RULE_OVERRIDDEN, version__lte=head.version)
    return next((v for v in rows.order_by("-version").values_list("version", flat=True) if v not in voided), None)


def append(
    *,
    stream_id: int,
    event: Event,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    meta: Metadata = Metadata(),
    attempts: int = 5,
    rebase: bool = False,
    own_keys: tuple[str, ...] = (),
    sight: frozenset[int] | None = None,
) -> AppendResult:
    """Validate and append one event; return the new version and state.

    - ``sight``: the seats whose hidden information the writer may see (``visibility.writer_sight``; None: the
      whole table, the server's own entries): the entry is judged from that sight (``rulesets.replay.step``).

    - ``expected_version``: fail with :class:`VersionConflict` unless the stream is at exactly this version.
      Without it, a lost race re-reads the head and re-validates (up to ``attempts`` times).
    - ``idempotency_key``: a repeat returns the first result and writes nothing; the same key with another
      type, seat or data raises :class:`IdempotencyKeyReused` (the envelope, e.g. ``expected_version``, is not
      compared: a retry may carry a fresher one).
    - ``rebase``: with ``expected_version`` behind the head, record the entry after the newer ones when
      :func:`rebase_refusal` allows it and the rules still do on the new head (``AppendResult.rebased`` says
      after which entry); else raise :class:`RebaseRefused` (a :class:`VersionConflict`). A repeat of a
      rebased append answers ``rebased`` again (from its version and the ``expected_version`` it carries).
    - ``own_keys`` (with ``rebase``): idempotency keys of the client's own earlier entries (an offline queue's,
      sent in order, each made after the one before it on the same device). The entries since
      ``expected_version`` recorded with one of them by the same user (``meta.recorded_by_id``) are left out of
      what :func:`rebase_refusal` judges and of ``rebased.over`` -- undos among them too: the client made this
      entry after its own undo. When every entry since is the client's own, the entry is on its version: it
      is recorded as if ``expected_version`` were the head (a correction too), with no ``rebased``.
    - Illegal events raise :class:`RuleBroken`; nothing is written. An entry refused as ``unplayable`` under a
      pending house rule names that house rule (``RuleBroken.house_rule``): the service withdraws it
      (``streams.stream_record``), so the next entry is checked again.
    """
    fresh = False
    rebasing = False
    own: frozenset[int] = frozenset()
    for _ in range(attempts):
        head = head_load(stream_id, fresh=fresh)
        ruleset = get_ruleset(head.game)
        if head.ruleset_version != ruleset.version:
            head = head_load(stream_id, fresh=True)
        if expected_version is not None and head.version != expected_version and not fresh:
            head = head_load(stream_id, fresh=True)
            fresh = True
        if expected_version is not None and head.version != expected_version:
            if rebase and own_keys and head.version > expected_version:
                own = _own_versions(stream_id, expected_version, own_keys, meta.recorded_by_id)
            repeat = _find_repeat(stream_id, idempotency_key, event, expected_version, own)
            if repeat is not None:
                return repeat
            if not rebase or head.version < expected_version:
                raise VersionConflict(head.version, expected_version)
            since = _since(stream_id, expected_version, head.version, own)
            if since:  # else only the client's own entries came since: the entry is on its version
                refusal = rebase_refusal(event, since, head.override_pending)
                if refusal is not None:
                    raise RebaseRefused(head.version, expected_version, *refusal)
                rebasing = True
            else:
                rebasing = False
        try:
            pos = _next_position(ruleset, head, event, sight)
        except RuleViolation as violation:
            repeat = _find_repeat(stream_id, idempotency_key, event, expected_version, own)
            if repeat is not None:
                return repeat
            if not fresh:  # the cached head may be stale: judge again on the database's head
                fresh = True
                continue
            if rebasing:
                why = f"it is no longer legal: {violation.message}"
                raise RebaseRefused(
                    head.version, expected_version, "illegal", why, rule=violation.rule, violation=violation.code
                ) from None
            spent = _house_rule_of(head) if violation.code == UNPLAYABLE and head.override_pending else None
            raise RuleBroken(
                violation.code, violation.message, violation.rule, overridable=violation.overridable, house_rule=spent
            ) from None
        try:
            if event.type == RULES_UPGRADED:  # the head and the rules it is judged under move together
                with transaction.atomic():
                    position = _write(head, event, pos, meta, idempotency_key, ruleset.version)
                    if position is not None:
                        Stream.objects.filter(pk=head.stream_id).update(rules_version=ruleset.version)
            else:
                position = _write(head, event, pos, meta, idempotency_key, ruleset.version)
        except IntegrityError:
            position = None
        if position is None:
            repeat = _find_repeat(stream_id, idempotency_key, event, expected_version, own)
            if repeat is not None:
                return repeat
            fresh = True
            if expected_version is not None and not rebase:
                current = head_load(stream_id, fresh=True)
                raise VersionConflict(current.version, expected_version)
            continue  # lost a race: judge again on the new head (rebasing when asked)
        new_head = replace(
            head,
            version=pos.version,
            state=pos.state,
            override_pending=pos.override_pending,
            ruleset_version=ruleset.version,
            rules_version=ruleset.version if event.type == RULES_UPGRADED else head.rules_version,
        )
        _remember(new_head)
        if pos.version % settings.CHRONICLE_SNAPSHOT_EVERY == 0:
            snapshot_take(new_head)
        rebased = (
            _rebased(stream_id, expected_version, pos.version, own)
            if rebasing and expected_version is not None
            else None
        )
        return AppendResult(position, pos.version, pos.state, pos.override_pending, rebased=rebased)
    current = head_load(stream_id, fresh=True)
    raise VersionConflict(current.version, expected_version)


@dataclass(frozen=True)
class NewStream:
    """A stream to create already holding ``events`` (for :func:`streams_create_with_events`)."""

    kind: str
    game: str
    options: dict[str, Any]
    seat_count: int
    events: tuple[Event, ...]
    meta: Metadata = Metadata()


def streams_create_with_events(specs: list[NewStream]) -> list[Stream]:
    """Create many new streams, each born holding its first entries, in one transaction and a fixed number of
    statements (the batched append of imports: no one else can see a stream before it exists, so no version
    guard is needed). Every entry is judged exactly as :func:`append` judges it, folding from the ruleset's
    initial state; the head is written at its final version. Raises :class:`RuleBroken`; nothing is written."""
    heads: list[Head] = []
    for spec in specs:
        ruleset = get_ruleset(spec.game)
        head = Head(
            stream_id=0, game=spec.game, options=spec.options, seat_count=spec.seat_count, version=0,
            state=ruleset.initial_state(spec.options, spec.seat_count), override_pending=False,
            ruleset_version=ruleset.version, rules_version=ruleset.version,
        )  # fmt: skip
        for event in spec.events:
            if event.type == EVENT_VOIDED:
                raise RuleBroken("no_such_entry", "A new stream has no entry to void yet.", CORRECTIONS_RULE)
            try:
                pos = _next_position(ruleset, head, event)
            except RuleViolation as violation:
                raise RuleBroken(
                    violation.code, violation.message, violation.rule, overridable=violation.overridable
                ) from None
            head = replace(head, version=pos.version, state=pos.state, override_pending=pos.override_pending)
        heads.append(head)
    now = timezone.now()
    # written as rows (``rows_insert``: one statement per table, the JSON columns sent as one document); the new
    # ids come back in the rows' order, as Django's own bulk_create takes them on both databases
    columns = ("kind", "game", "options", "seat_count", "version", "state", "override_pending", "ruleset_version",
               "rules_version", "created_at", "updated_at")  # fmt: skip
    values = [
        (spec.kind, spec.game, spec.options, spec.seat_count, head.version, head.state, head.override_pending,
         head.ruleset_version, head.rules_version, now, now)
        for spec, head in zip(specs, heads, strict=True)
    ]  # fmt: skip
    with transaction.atomic():
        ids = rows_insert(Stream, columns, values, returning=("id",))
        streams = [
            Stream(id=pk, **dict(zip(columns, row, strict=True))) for (pk,), row in zip(ids, values, strict=True)
        ]
        for stream in streams:
            stream._state.adding, stream._state.db = False, connection.alias
        rows_insert(
            EventRow,
            ("stream_id", "version", "type", "seat", "data", "recorded_by_id", "client_time", "request_id",
             "idempotency_key", "request_fingerprint", "recorded_at"),
            [
                (stream.pk, v, event.type, event.seat, event.data, spec.meta.recorded_by_id, spec.meta.client_time,
                 spec.meta.request_id[:64], None, "", now)
                for stream, spec in zip(streams, specs, strict=True)
                for v, event in enumerate(spec.events, start=1)
            ],
        )  # fmt: skip
        for stream, head in zip(streams, heads, strict=True):
            head = replace(head, stream_id=stream.pk)
            _remember(head)
            if head.version >= settings.CHRONICLE_SNAPSHOT_EVERY:
                snapshot_take(head)
    return streams


def snapshot_take(head: Head) -> None:
    """Store the head as a snapshot at its version (ignored if one is already there)."""
    try:
        with transaction.atomic():
            Snapshot.objects.get_or_create(
                stream_id=head.stream_id,
                version=head.version,
                defaults={
                    "state": head.state,
                    "override_pending": head.override_pending,
                    "ruleset_version": head.ruleset_version,
                },
            )
    except IntegrityError:
        pass


# -- the global log -------------------------------------------------------------------------------------

# The reader's horizon: the oldest transaction that was still running when this statement's snapshot was
# taken and that could still commit rows into this database's event table. Transaction ids are cluster-wide,
# so pg_snapshot_xmin alone would wait for transactions in *other* databases too (a long report, a migration
# elsewhere on a shared server). A backend is bound to one database for life, so an xid that
# pg_stat_activity shows as running in another database can never write here and is left out. Anything not
# positively known to belong elsewhere (prepared transactions, a transaction that ended in the meantime,
# a backend whose row we may not read) is kept, so the horizon is never later than it may be.
_PG_HORIZON = """
SELECT least(pg_snapshot_xmax(snap.s), (
         SELECT min(x) FROM pg_snapshot_xip(snap.s) AS x
          WHERE x::xid NOT IN (SELECT a.backend_xid FROM pg_stat_activity a
                                WHERE a.backend_xid IS NOT NULL AND a.datname IS NOT NULL
                                  AND a.datname <> current_database())))
  FROM (SELECT pg_current_snapshot() AS s) AS snap
"""

_PG_READ_LOG = f"""
SELECT position, txid::text::bigint, stream_id, version, type, seat, data, recorded_at
  FROM matches_event
 WHERE (txid, position) > (%(txid)s::text::xid8, %(position)s)
   AND txid < ({_PG_HORIZON})
 ORDER BY matches_event.txid, matches_event.position
 LIMIT %(limit)s
"""


def log_read(*, after_txid: int, after_position: int, limit: int = 1000) -> list[LogEntry]:
    """The next events of the global log after the checkpoint ``(after_txid, after_position)``.

    PostgreSQL: only events of transactions older than every transaction still in flight that could write
    here (``_PG_HORIZON``) are returned, ordered by (transaction id, position); a reader that checkpoints
    the last pair it saw never skips an event that commits late (docs/ARCHITECTURE.md). SQLite: writers are serial, position order suffices.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_PG_READ_LOG, {"txid": after_txid, "position": after_position, "limit": limit})
            rows = cursor.fetchall()
        return [
            LogEntry(p, t, s, v, ty, se, d if isinstance(d, dict) else json.loads(d), at)
            for p, t, s, v, ty, se, d, at in rows
        ]
    qs = EventRow.objects.filter(position__gt=after_position).order_by("position")[:limit]
    return [
        LogEntry(r.position, 0, r.stream_id, r.version, r.type, r.seat, r.data, r.recorded_at) for r in qs.iterator()
    ]


# Bounding the stall behind a long transaction in this database (docs/ARCHITECTURE.md). Events the global
# reader holds back (committed, but at or past the horizon) are read per stream instead: every committed
# event of such a stream past the checkpoint, in version order. A stream's versions commit in order (n + 1
# is appended only after n committed), so this is always a complete run of the versions the global reader
# has not delivered yet, and read models that accept it are guarded by version (or re-derive from it), so
# the global reader delivering the same events later changes nothing.
_PG_HELD_BACK = f"""
SELECT extract(epoch FROM clock_timestamp() - min(recorded_at)),
       extract(epoch FROM clock_timestamp() - max(recorded_at))
  FROM matches_event
 WHERE (txid, position) > (%(txid)s::text::xid8, %(position)s)
   AND txid >= ({_PG_HORIZON})
"""

_PG_READ_AHEAD = f"""
SELECT position, txid::text::bigint, stream_id, version, type, seat, data, recorded_at
  FROM matches_event
 WHERE (txid, position) > (%(txid)s::text::xid8, %(position)s)
   AND stream_id IN (
       SELECT stream_id FROM matches_event
        WHERE (txid, position) > (%(txid)s::text::xid8, %(position)s)
          AND txid >= ({_PG_HORIZON})
          AND recorded_at < clock_timestamp() - make_interval(secs => %(older_than)s))
 ORDER BY stream_id, version
"""


def log_held_back(*, after_txid: int, after_position: int) -> tuple[float, float] | None:
    """Ages in seconds ``(oldest, youngest)`` of the committed events past the checkpoint that the global
    reader holds back behind a transaction still in flight in this database; None when it holds none back
    (and always on SQLite, where nothing is held back)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(_PG_HELD_BACK, {"txid": after_txid, "position": after_position})
        oldest, youngest = cursor.fetchone()
    return None if oldest is None else (float(oldest), float(youngest))


def log_read_ahead(*, after_txid: int, after_position: int, older_than: float) -> list[LogEntry]:
    """Every stream holding an event the global reader has held back for more than ``older_than`` seconds:
    all its committed events past the checkpoint, in (stream, version) order (PostgreSQL; empty on SQLite).

    For each stream returned, the events are exactly the versions after the last one the global reader
    delivered up to the newest committed one, without a gap. The global reader delivers them again later.
    """
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        params = {"txid": after_txid, "position": after_position, "older_than": older_than}
        cursor.execute(_PG_READ_AHEAD, params)
        rows = cursor.fetchall()
    return [
        LogEntry(p, t, s, v, ty, se, d if isinstance(d, dict) else json.loads(d), at)
        for p, t, s, v, ty, se, d, at in rows
    ]


def log_settled() -> bool:
    """Whether the global-log reader can see every event committed so far (no horizon holds any back)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT coalesce(max(txid::text::bigint), 0) < ({_PG_HORIZON})::text::bigint FROM matches_event"
        )
        return bool(cursor.fetchone()[0])


__all__ = [
    "RULE_OVERRIDDEN",
    "AppendResult",
    "Head",
    "LinkedWrite",
    "LogEntry",
    "Metadata",
    "Rebased",
    "append",
    "events_iter",
    "head_from_row",
    "head_load",
    "head_stored",
    "log_held_back",
    "log_read",
    "log_read_ahead",
    "log_settled",
    "position_at",
    "position_of_row",
    "rebase_refusal",
    "snapshot_take",
    "stream_create",
]

"""The append-only event store's door: appends (validated, guarded by the version read, idempotent, rebased when
asked), streams created already holding entries, snapshots; and, re-exported from their own modules so callers
name one store (``from matches.store import events as store``), heads and positions (``heads``), the rebase
rule (``rebase``) and the global log (``log``).

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
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from psycopg.types.numeric import Int2, Int4, Int8

from config.db import prepared_fetch
from matches.errors import IdempotencyKeyReused, RebaseRefused, RuleBroken, VersionConflict
from matches.models import Event as EventRow
from matches.models import Snapshot, Stream
from matches.store.heads import (
    STREAM_FIELDS,
    Head,
    event_of_row,
    events_iter,
    head_cache,
    head_from_row,
    head_load,
    head_remember,
    head_stored,
    position_at,
    position_of_row,
    position_under,
    stream_create,
    unreplayable,
    voids_upto,
)
from matches.store.log import LogEntry, log_held_back, log_read, log_read_ahead, log_settled
from matches.store.rebase import MAX_OWN_KEYS, Rebased, entries_since, own_versions, rebase_refusal, rebased_over
from matches.store.rows import rows_insert
from rulesets import Event, Ruleset, RuleViolation, get_ruleset
from rulesets.offline import void_broken, void_refusal
from rulesets.replay import EVENT_VOIDED, FIRST_PLAYER_DRAWN, RULE_OVERRIDDEN, Position, ReplayError, step
from rulesets.versions import RULES_UPGRADED

CORRECTIONS_RULE = "Chronicle › Corrections"
VERSIONS_RULE = "Chronicle › Rule versions"


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
    rebased = None if expected_version is None else rebased_over(stream_id, expected_version, row.version, own)
    return AppendResult(row.position, row.version, pos.state, pos.override_pending, repeated=True, rebased=rebased)


UNPLAYABLE = "unplayable"  # the refusal of a move even a pending house rule cannot place (rulesets.replay.step)
HOUSE_RULE_SPENT = "The house rule could not place the move"  # the reason of the void that withdraws it


def _house_rule_of(head: Head) -> int | None:
    """The version of the ``rule_overridden`` entry waiting for its move at ``head`` (the newest one not voided)."""
    voided = {target for _, target in voids_upto(head.stream_id, head.version)}
    rows = EventRow.objects.filter(stream_id=head.stream_id, type=RULE_OVERRIDDEN, version__lte=head.version)
    return next((v for v in rows.order_by("-version").values_list("version", flat=True) if v not in voided), None)


def _behind(
    head: Head,
    event: Event,
    expected: int,
    key: str | None,
    rebase: bool,
    own_keys: tuple[str, ...],
    meta: Metadata,
    own: frozenset[int],
) -> tuple[AppendResult | None, frozenset[int], bool]:
    """An append that expected ``expected`` but found ``head`` elsewhere: ``(repeat, own, rebasing)``, the earlier
    answer when ``key`` was recorded already, the client's ``own`` entries since, and whether the entry is
    recorded after newer ones (False: only the client's own came since). Raises :class:`VersionConflict` unless
    it may be rebased, :class:`RebaseRefused` when :func:`rebase_refusal` refuses it."""
    if rebase and own_keys and head.version > expected:
        own = own_versions(head.stream_id, expected, own_keys, meta.recorded_by_id)
    repeat = _find_repeat(head.stream_id, key, event, expected, own)
    if repeat is not None:
        return repeat, own, False
    if not rebase or head.version < expected:
        raise VersionConflict(head.version, expected)
    since = entries_since(head.stream_id, expected, head.version, own)
    if not since:  # only the client's own entries came since: the entry is on its version
        return None, own, False
    refusal = rebase_refusal(event, since, head.override_pending)
    if refusal is not None:
        raise RebaseRefused(head.version, expected, *refusal)
    return None, own, True


def _refused(head: Head, violation: RuleViolation, rebased_from: int | None) -> RebaseRefused | RuleBroken:
    """The error for an entry the rules refuse on ``head``: a :class:`RebaseRefused` when it was being rebased
    from version ``rebased_from``, else a :class:`RuleBroken` that names the house rule it spends, if any."""
    if rebased_from is not None:
        why = f"it is no longer legal: {violation.message}"
        return RebaseRefused(head.version, rebased_from, "illegal", why, rule=violation.rule, violation=violation.code)
    spent = _house_rule_of(head) if violation.code == UNPLAYABLE and head.override_pending else None
    return RuleBroken(
        violation.code, violation.message, violation.rule, overridable=violation.overridable, house_rule=spent
    )


def _write_entry(head: Head, event: Event, pos: Position, meta: Metadata, key: str | None, rv: int) -> int | None:
    """:func:`_write`, with the stream's rules moved along when ``event`` upgrades them; None when the guard
    failed or the idempotency key was taken meanwhile."""
    try:
        if event.type == RULES_UPGRADED:  # the head and the rules it is judged under move together
            with transaction.atomic():
                position = _write(head, event, pos, meta, key, rv)
                if position is not None:
                    Stream.objects.filter(pk=head.stream_id).update(rules_version=rv)
            return position
        return _write(head, event, pos, meta, key, rv)
    except IntegrityError:
        return None


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
            repeat, own, rebasing = _behind(head, event, expected_version, idempotency_key, rebase, own_keys, meta, own)
            if repeat is not None:
                return repeat
        try:
            pos = _next_position(ruleset, head, event, sight)
        except RuleViolation as violation:
            repeat = _find_repeat(stream_id, idempotency_key, event, expected_version, own)
            if repeat is not None:
                return repeat
            if not fresh:  # the cached head may be stale: judge again on the database's head
                fresh = True
                continue
            raise _refused(head, violation, expected_version if rebasing else None) from None
        position = _write_entry(head, event, pos, meta, idempotency_key, ruleset.version)
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
        head_remember(new_head)
        if pos.version % settings.CHRONICLE_SNAPSHOT_EVERY == 0:
            snapshot_take(new_head)
        rebased = (
            rebased_over(stream_id, expected_version, pos.version, own)
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
            head_remember(head)
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


__all__ = [
    "MAX_OWN_KEYS",
    "RULE_OVERRIDDEN",
    "STREAM_FIELDS",
    "AppendResult",
    "Head",
    "LinkedWrite",
    "LogEntry",
    "Metadata",
    "Rebased",
    "append",
    "event_of_row",
    "events_iter",
    "head_cache",
    "head_from_row",
    "head_load",
    "head_stored",
    "log_held_back",
    "log_read",
    "log_read_ahead",
    "log_settled",
    "position_at",
    "position_of_row",
    "position_under",
    "rebase_refusal",
    "snapshot_take",
    "stream_create",
    "unreplayable",
]

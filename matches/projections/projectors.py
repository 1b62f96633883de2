"""Projectors: read models kept from the global event log, checkpointed in the same transaction.

A read model joins by registering itself (:func:`read_model_register`, called when its app is ready, as
stream kinds do with ``matches.store.streams.kind_register``): its name, the function applying a batch of log
entries, and the function emptying it before a replay. This module knows the match summary only (its own);
``matches.projections.play_stats`` (``play_stats``) and ``campaigns.saltmarsh.stats`` (``campaign_stats``) register theirs, so
nothing here imports another read model, nor ``campaigns``.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from matches.errors import StreamUnreplayable
from matches.models import Match, MatchSummary, ProjectionCheckpoint, Seat
from matches.store import events as store
from matches.store.gcpause import gc_paused
from matches.store.rows import ids_among, rows_insert
from rulesets import Event, get_ruleset
from rulesets.names import name_seats
from rulesets.replay import EVENT_VOIDED, Position, ReplayError, final_outcome_of, fold

logger = logging.getLogger("chronicle.projections")

MATCH_SUMMARY = "match_summary"
BATCH = 5000  # log entries per transaction: live runs read a few; a run far behind (after an import) counts
# more roll-up keys once per batch (docs/PERFORMANCE.md, bench import)


def projection_lock(name: str) -> None:
    """Serialise runs of one projector (PostgreSQL advisory lock, released at commit)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"projection:{name}"])


class _Summarised(NamedTuple):
    """A match as the summary projector reads it: its summary's version and voids (0 before its first run)."""

    pk: int
    game: str
    version: int
    voided_count: int
    stream: store.Head


def _apply_match_summary(entries: list[store.LogEntry]) -> None:
    """Bring each touched match's summary up to the last version of it in ``entries``.

    Entries at or below a summary's version were projected already (by the stream read-ahead, or a
    redelivered batch) and count nothing twice.
    """
    by_stream: dict[int, list[store.LogEntry]] = {}
    for entry in entries:
        by_stream.setdefault(entry.stream_id, []).append(entry)
    last = {stream_id: run[-1] for stream_id, run in by_stream.items()}
    rows = Match.objects.filter(ids_among(Match, "stream_id", last))
    matches = {
        stream_id: _Summarised(pk, game, version or 0, voided or 0, store.Head(*head))
        for pk, stream_id, game, version, voided, *head in rows.values_list(
            "id", "stream_id", "game", "summary__version", "summary__voided_count", *store.STREAM_FIELDS
        )
    }
    todo: dict[int, _Summarised] = {}
    for stream_id, entry in last.items():
        summary = matches.get(stream_id)
        if summary is None:
            continue  # a campaign stream: not a match
        if summary.version < entry.version:  # else already projected (a redelivered task, the read-ahead)
            todo[stream_id] = summary
    voids: dict[int, int] = {}
    for entry in entries:
        summary = todo.get(entry.stream_id)
        if summary is not None and entry.type == "event_voided" and entry.version > summary.version:
            voids[entry.stream_id] = voids.get(entry.stream_id, 0) + 1
    outcomes: dict[int, Any] = {}
    for stream_id in list(todo):
        match = matches[stream_id]
        try:
            state = _position(match, by_stream[stream_id], last[stream_id].version).state
        except StreamUnreplayable as exc:
            passed_over(MATCH_SUMMARY, exc)
            del todo[stream_id]  # its summary stays where it was; the others go on
            continue
        outcomes[stream_id] = final_outcome_of(get_ruleset(match.game), state)
    # the result names the players: seats read only for the matches that have one
    names = _seat_names([matches[s].pk for s, outcome in outcomes.items() if outcome])
    rows = []
    for stream_id, summary in todo.items():
        entry, match, outcome = last[stream_id], matches[stream_id], outcomes[stream_id]
        rows.append((
            match.pk, entry.version, Match.STATUS_FINISHED if outcome else Match.STATUS_IN_PROGRESS,
            list(outcome.winners) if outcome else [], bool(outcome and outcome.draw),
            (name_seats(outcome.reason, names.get(match.pk, [])) if outcome else "")[:200],
            outcome.to_dict()["scores"] if outcome else None,
            entry.version, summary.voided_count + voids.get(stream_id, 0),
            entry.recorded_at,
        ))  # fmt: skip
    _summaries_write(rows)


# The summary projector's last position of each stream, per process (a bounded map, oldest dropped first).
_positions: OrderedDict[int, Position] = OrderedDict()
_positions_lock = threading.Lock()
POSITIONS_KEPT = 4096


def positions_forget() -> None:
    """Forget this process's last projected positions (keyed by stream id): call it with ``head_cache.clear()``
    wherever the streams this process knows stop being the database's (a restore, a switch to another database,
    whose stream ids start at 1 again)."""
    with _positions_lock:
        _positions.clear()


def _position(match: Match | _Summarised, entries: list[store.LogEntry], version: int) -> Position:
    """The match's position at ``version``, for its summary; ``entries``: the batch's entries of its stream.

    The stream row read with the match when it is at that version (the projector close behind the writers);
    else, when writers are ahead, this process's last position of the stream folded forward with the
    batch's entries, if they continue it without a gap and hold no void (a void may reach behind it); else
    the store's replay from the newest snapshot, which that fold spares (up to 99 entries and 3 queries).
    """
    row = match.stream
    stream_id = row.stream_id if isinstance(row, store.Head) else row.pk
    known = _positions.get(stream_id)
    if row.version == version or known is None or known.version > version:
        pos = store.position_of_row(row, version)
    else:
        tail = [(e.version, Event(e.type, e.seat, e.data)) for e in entries if known.version < e.version <= version]
        follows = [v for v, _ in tail] == list(range(known.version + 1, version + 1))
        if follows and not any(event.type == EVENT_VOIDED for _, event in tail):
            try:
                pos = fold(get_ruleset(match.game), known, tail, set())
            except ReplayError:  # the store says which entry, as a domain error
                pos = store.position_of_row(row, version)
        else:
            pos = store.position_of_row(row, version)
    with _positions_lock:  # eager projections (no worker) run in the web threads
        _positions[stream_id] = pos
        _positions.move_to_end(stream_id)
        while len(_positions) > POSITIONS_KEPT:
            _positions.popitem(last=False)
    return pos


# streams a projector of this process passed over because they cannot be replayed, by stream id (what
# ``rebuild_projections`` reports); each is logged as a warning when met
_passed_over: dict[int, StreamUnreplayable] = {}


def passed_over(name: str, exc: StreamUnreplayable) -> None:
    """Note that projector ``name`` went on without the stream of ``exc`` (it cannot be replayed): its read
    model rows stay as they were; a warning names the stream and the entry."""
    logger.warning("%s: stream %s skipped: %s", name, exc.stream_id, exc.cause or exc.detail)
    _passed_over[exc.stream_id] = exc


def passed_over_streams(*, forget: bool = False) -> dict[int, StreamUnreplayable]:
    """The streams the projectors of this process passed over since the last ``forget``, by stream id."""
    found = dict(_passed_over)
    if forget:
        _passed_over.clear()
    return found


def _seat_names(match_ids: list[int]) -> dict[int, list[str]]:
    """Each match's seat names in seat order (results name the players), in one query (none for no match)."""
    names: dict[int, list[str]] = {}
    if match_ids:
        seats = Seat.objects.filter(ids_among(Seat, "match_id", match_ids)).order_by("match_id", "index")
        for match_id, name in seats.values_list("match_id", "player__name"):
            names.setdefault(match_id, []).append(name)
    return names


def _summaries_write(rows: list[tuple[Any, ...]]) -> None:
    """Upsert summaries in one statement; a row never moves a summary back to an older version."""
    columns = ("version", "status", "winners", "draw", "reason", "scores", "events_count", "voided_count",
               "last_activity")  # fmt: skip
    upsert = (
        f"ON CONFLICT (match_id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in columns)} "
        "WHERE matches_matchsummary.version < excluded.version"
    )
    rows_insert(MatchSummary, ("match_id", *columns), rows, on_conflict=upsert)


Projector = Callable[[list[store.LogEntry]], None]

# name → the read model's projector, and its reset: every read model registered (read_model_register)
PROJECTORS: dict[str, Projector] = {}
_RESETS: dict[str, Callable[[], None]] = {}


def read_model_register(name: str, apply: Projector, reset: Callable[[], None]) -> Projector:
    """Make the read model ``name`` known to the projectors (once, when its app is ready): ``apply(entries)``
    brings it up to a batch of log entries (redelivered entries must count nothing twice), ``reset()`` empties
    it before a replay from the start (:func:`projection_reset`). Both run inside the projector's transaction."""
    PROJECTORS[name] = apply
    _RESETS[name] = reset
    return apply


def _reset_match_summary() -> None:
    MatchSummary.objects.all().delete()
    MatchSummary.objects.bulk_create(
        [
            MatchSummary(match_id=pk, last_activity=created)
            for pk, created in Match.objects.values_list("pk", "created_at")
        ],
        batch_size=1000,
    )


read_model_register(MATCH_SUMMARY, _apply_match_summary, _reset_match_summary)


def _checkpoints_read(names: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """Each projector's checkpoint ``(txid, position)``; (0, 0) before its first run."""
    with connection.cursor() as cursor:
        marks = ", ".join(["%s"] * len(names))
        cursor.execute(f"SELECT name, txid, position FROM matches_projectioncheckpoint WHERE name IN ({marks})", names)
        found = {name: (int(txid), int(position)) for name, txid, position in cursor.fetchall()}
    return {name: found.get(name, (0, 0)) for name in names}


def _checkpoint_write(name: str, txid: int, position: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO matches_projectioncheckpoint (name, txid, position, updated_at) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (name) DO UPDATE SET txid = excluded.txid, position = excluded.position, "
            "updated_at = excluded.updated_at",
            [name, txid, position, connection.ops.adapt_datetimefield_value(timezone.now())],
        )


def project(name: str = MATCH_SUMMARY, *, batch: int = BATCH, on_batch: Callable[[int], None] | None = None) -> int:
    """Feed every event after the projector's checkpoint to it, one transaction per batch; return the count.

    Each batch's read-model writes and the new checkpoint commit together, so a crash or a redelivered
    task replays at most an uncommitted batch, which the version guard makes harmless.
    """
    return _project((name,), batch=batch, on_batch=on_batch, ahead=False)[0]


def project_with_read_ahead(*names: str) -> tuple[int, float | None]:
    """:func:`project` for the projectors ``names`` (default: all) together, then bound the stall behind a long
    transaction in this database: events the global reader has held back for ``CHRONICLE_PROJECTOR_STALL_BOUND``
    seconds are fed per stream (``store.log_read_ahead``; not counted, the global reader delivers them again
    and the read models ignore them).

    The projectors share each read of the log (one read, one held-back check per batch instead of one per
    projector); each applies the batch and moves its checkpoint in a savepoint of its own, so a failing read
    model rolls back alone and the others go on to the log's end without it (its error is raised then).
    Returns ``(count, due)``: the log entries read, and in how many seconds held-back events still waiting
    will be due for the read-ahead (the caller runs again then), or None when nothing waits.
    """
    return _project(names or tuple(PROJECTORS), batch=BATCH, on_batch=None, ahead=True)


def _project(
    names: tuple[str, ...], *, batch: int, on_batch: Callable[[int], None] | None, ahead: bool
) -> tuple[int, float | None]:  # fmt: skip
    done = 0
    failure: Exception | None = None
    while True:
        with gc_paused(), transaction.atomic():  # one batch's objects all live to its end (gcpause)
            for name in sorted(names):  # one order everywhere: runs of overlapping sets never deadlock
                projection_lock(name)
            marks = _checkpoints_read(names)
            start = min(marks.values())
            entries = store.log_read(after_txid=start[0], after_position=start[1], limit=batch)
            end = (entries[-1].txid, entries[-1].position) if entries else start
            failed: list[str] = []
            for name in names:
                mine = [e for e in entries if (e.txid, e.position) > marks[name]]  # all of them, but after a reset
                if not mine:
                    continue
                try:
                    with transaction.atomic():
                        PROJECTORS[name](mine)
                        _checkpoint_write(name, *end)
                except Exception as exc:  # raised once the other read models have caught up
                    failure = failure or exc
                    failed.append(name)
            names = tuple(name for name in names if name not in failed)  # the others go on without it
            # at the log's end every remaining checkpoint is ``end``: the held-back events are the same for all
            due = _read_ahead(names, *end) if ahead and names and len(entries) < batch else None
        done += len(entries)
        if entries and on_batch is not None:
            on_batch(len(entries))
        if len(entries) < batch or not names:
            if failure is not None:
                raise failure
            return done, due


def _read_ahead(names: tuple[str, ...], txid: int, position: int) -> float | None:
    """Feed the streams held back longer than the bound to the projectors ``names``; seconds until the rest is
    due, or None."""
    bound = settings.CHRONICLE_PROJECTOR_STALL_BOUND
    if bound <= 0:
        return None
    held = store.log_held_back(after_txid=txid, after_position=position)
    if held is None:
        return None
    oldest, youngest = held
    if oldest >= bound:
        entries = store.log_read_ahead(after_txid=txid, after_position=position, older_than=bound)
        for name in names if entries else ():
            PROJECTORS[name](entries)
    return max(0.0, bound - youngest) if youngest < bound else None


@transaction.atomic
def projection_reset(name: str = MATCH_SUMMARY) -> None:
    """Empty a read model and its checkpoint, so the next run replays the log from the start."""
    projection_lock(name)
    _RESETS[name]()
    ProjectionCheckpoint.objects.filter(name=name).delete()

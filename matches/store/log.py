"""The global log: every stream's events in one order its readers never skip a late commit in
(docs/ARCHITECTURE.md, *Reading the global log without skipping late commits*), and the reads that bound the stall behind a long transaction."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection

from matches.models import Event as EventRow


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

"""The event table hash-partitioned by stream (PostgreSQL declarative partitioning), and the way there.

``matches_event`` starts as one table. :func:`events_partition` turns it, with its rows, into a table
partitioned ``BY HASH (stream_id)`` in one transaction (``manage.py events_partition``): the migration path
for an existing database, and what a new one runs once it expects to grow; :func:`events_unpartition`
(``--undo``) is the way back. Nothing else changes:

- every unique constraint already holds ``stream_id`` (``(stream, version)``, ``(stream, idempotency key)``),
  so each stays enforceable per partition; the primary key becomes ``(position, stream_id)`` (a partitioned
  table's keys must hold its partition key), ``position`` stays the one global identity sequence;
- a stream's reads and its append touch one partition; the global log reader's ``(txid, position)`` index scan
  becomes a merge of one index scan per partition;
- the append statement, the immutability trigger (recreated on the partitioned table: row triggers there
  apply to every partition), the check and foreign-key constraints and the indexes are the same, under the
  same names (taken from the catalog, so a later migration finds them).

The conversion holds an exclusive lock on the table while it copies the rows: run it in a maintenance window
on a large table (about a second per million events measured here; docs/PERFORMANCE.md). Running it on a
partitioned table does nothing. PostgreSQL only.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction

TABLE = "matches_event"
DEFAULT_PARTITIONS = 16


@dataclass(frozen=True)
class Partitioning:
    """What the table is: partitioned or not, and into how many partitions."""

    partitioned: bool
    partitions: int


def events_partitioning() -> Partitioning:
    """Whether ``matches_event`` is partitioned now (PostgreSQL; SQLite's is never)."""
    if connection.vendor != "postgresql":
        return Partitioning(False, 0)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relkind = 'p', (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = c.oid) "
            "FROM pg_class c WHERE c.relname = %s AND c.relnamespace = 'public'::regnamespace",
            [TABLE],
        )
        partitioned, count = cursor.fetchone()
    return Partitioning(bool(partitioned), int(count))


def _definitions(cursor: object) -> tuple[list[tuple[str, str, str]], list[str], list[str], str]:
    """The table's constraints (name, kind, definition), its other indexes and triggers (as SQL), its key's name."""
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass ORDER BY contype, conname",
        [TABLE],
    )
    constraints = list(cursor.fetchall())  # type: ignore[attr-defined]
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = %s::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid) "
        "ORDER BY i.indexrelid",
        [TABLE],
    )
    indexes = [row[0] for row in cursor.fetchall()]  # type: ignore[attr-defined]
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
        [TABLE],
    )
    triggers = [row[0] for row in cursor.fetchall()]  # type: ignore[attr-defined]
    key = next(name for name, kind, _ in constraints if kind == "p")
    return [c for c in constraints if c[1] != "p"], indexes, triggers, key


@transaction.atomic
def events_partition(partitions: int = DEFAULT_PARTITIONS) -> Partitioning:
    """Make ``matches_event`` hash-partitioned by ``stream_id`` into ``partitions`` tables, rows kept; return
    what it is afterwards. Does nothing on a partitioned table (whatever ``partitions`` says).

    ValueError for fewer than 2 partitions or a database other than PostgreSQL.
    """
    if partitions < 2:
        raise ValueError(f"a partitioned table needs at least 2 partitions, not {partitions}")
    return _rebuild(partitions)


@transaction.atomic
def events_unpartition() -> Partitioning:
    """The way back: ``matches_event`` as one table again, rows kept. Does nothing on a plain table."""
    return _rebuild(None)


def _rebuild(partitions: int | None) -> Partitioning:
    """``matches_event`` rebuilt with its rows: hash-partitioned into ``partitions``, or one table (None)."""
    if connection.vendor != "postgresql":
        raise ValueError("partitioning is PostgreSQL's: the embedded SQLite database has one event table")
    now = events_partitioning()
    if now.partitioned == (partitions is not None):
        return now
    old = f"{TABLE}_previous"
    with connection.cursor() as cursor:
        # the foreign keys are DEFERRABLE INITIALLY DEFERRED: checks pending from this transaction's own writes
        # would forbid dropping the old table; run them now
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"LOCK TABLE {TABLE} IN ACCESS EXCLUSIVE MODE")
        constraints, indexes, triggers, key = _definitions(cursor)
        cursor.execute(f"ALTER TABLE {TABLE} RENAME TO {old}")
        for n in range(now.partitions):
            cursor.execute(f"ALTER TABLE {TABLE}_p{n} RENAME TO {old}_p{n}")
        how = "PARTITION BY HASH (stream_id)" if partitions is not None else ""
        cursor.execute(
            f"CREATE TABLE {TABLE} (LIKE {old} INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING GENERATED "
            f"INCLUDING STORAGE INCLUDING COMMENTS) {how}"
        )
        for n in range(partitions or 0):
            cursor.execute(
                f"CREATE TABLE {TABLE}_p{n} PARTITION OF {TABLE} FOR VALUES WITH (MODULUS {partitions}, REMAINDER {n})"
            )
        cursor.execute(f"INSERT INTO {TABLE} SELECT * FROM {old}")
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{TABLE}', 'position'), "
            f"coalesce((SELECT max(position) FROM {TABLE}), 0) + 1, false)"
        )
        cursor.execute(f"DROP TABLE {old}")  # its constraints, indexes and trigger go with it: made again below
        primary = "(position, stream_id)" if partitions is not None else "(position)"
        cursor.execute(f'ALTER TABLE {TABLE} ADD CONSTRAINT "{key}" PRIMARY KEY {primary}')
        for name, _, definition in constraints:
            cursor.execute(f'ALTER TABLE {TABLE} ADD CONSTRAINT "{name}" {definition}')
        for sql in indexes + triggers:  # read before the rename: they name matches_event already
            cursor.execute(sql.replace(" ON ONLY ", " ON "))  # a partitioned table's own index, made anew
        cursor.execute(f"SELECT pg_get_serial_sequence('{TABLE}', 'position')")
        sequence = cursor.fetchone()[0]
        if sequence != f"public.{TABLE}_position_seq":  # LIKE named it after the old one, still there then
            cursor.execute(f"ALTER SEQUENCE {sequence} RENAME TO {TABLE}_position_seq")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    return events_partitioning()

"""``manage.py bench store --sizes``: append latency and one history page as the event table grows, plain and
hash-partitioned by stream (``matches/store/partitions.py``), each figure as a ratio to the same run's first size.

The bulk is written with COPY (100 events per stream, streams inserted in one statement) into the scratch
database ``bench store`` made; the figures are measured on streams of their own at each size: 300 appends
through the service path (p50), and 200 reads of a 50-entry history page in the middle of a 200-event stream
(p50). Both should stay flat: a stream's rows are found through ``(stream_id, version)``, whatever the
table's size.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass

from django.db import connection

from benchmarks.store_measures import ServiceWriter, projector_wakeups_off, stream_new
from matches.store.history import history_page
from matches.store.partitions import events_partition
from matches.store.visibility import TABLE

PER_STREAM = 100
PAGE = 50


@dataclass(frozen=True)
class SizePoint:
    layout: str
    events: int
    append_p50_ms: float
    page_p50_ms: float


def _events_now() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM matches_event")
        return int(cursor.fetchone()[0])


def bulk_grow(target: int) -> None:
    """Add Last Stone streams of ``PER_STREAM`` events each until the table holds about ``target`` events."""
    missing = target - _events_now()
    streams = max(0, -(-missing // PER_STREAM))
    if not streams:
        return
    state = json.dumps({"pile": 10**9, "turn": 0, "winner": None})
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO matches_stream (kind, game, options, seat_count, version, state, override_pending, "
            "ruleset_version, rules_version, created_at, updated_at) SELECT 'match', 'last-stone', '{}', 2, %s, %s, "
            "false, 1, 1, now(), now() FROM generate_series(1, %s) RETURNING id",
            [PER_STREAM, state, streams],
        )
        ids = [row[0] for row in cursor.fetchall()]
        with cursor.cursor.copy(
            "COPY matches_event (stream_id, version, type, seat, data, request_id, recorded_at) FROM STDIN"
        ) as copy:
            for stream_id in ids:
                for version in range(1, PER_STREAM + 1):
                    copy.write_row((stream_id, version, "stones_taken", (version - 1) % 2, '{"count": 1}', "", "now"))


def settle() -> None:
    """Vacuum and checkpoint the event table (outside any transaction: VACUUM refuses to run in one)."""
    with connection.cursor() as cursor:
        # measured as a long-lived table is: vacuumed and checkpointed. Straight after a bulk COPY, autovacuum's
        # first pass over millions of new rows (and the hint bits every first read sets) would run during the
        # measurement and be taken for the table's size (plain 10M appends read 8-9x slower so)
        cursor.execute("VACUUM (ANALYZE) matches_event")
        cursor.execute("CHECKPOINT")


def _append_p50(appends: int = 300) -> float:
    writer = ServiceWriter(stream_new())
    took = []
    for _ in range(appends):
        t0 = time.perf_counter()
        writer.one()
        took.append((time.perf_counter() - t0) * 1000)
    return statistics.median(took)


def _page_p50(reads: int = 200) -> float:
    writer = ServiceWriter(stream_new())
    for _ in range(4 * PAGE):
        writer.one()
    took = []
    for _ in range(reads):
        t0 = time.perf_counter()
        page = history_page(stream_id=writer.stream_id, game="last-stone", seat_names=["Ana", "Bo"], viewer=TABLE,
                            after=PAGE, limit=PAGE)  # fmt: skip
        took.append((time.perf_counter() - t0) * 1000)
        assert len(page.lines) == PAGE
    return statistics.median(took)


def size_series(sizes: list[int], layout: str, partitions: int) -> list[SizePoint]:
    """One layout ("plain" or "partitioned") grown through ``sizes`` (ascending) from an empty event table: run it
    in a fresh scratch database (events cannot be deleted)."""
    points = []
    with projector_wakeups_off():
        if layout == "partitioned":
            events_partition(partitions)
        for size in sizes:
            bulk_grow(size)
            settle()
            points.append(SizePoint(layout, _events_now(), _append_p50(), _page_p50()))
    return points


def size_report(points: list[SizePoint]) -> list[str]:
    """Lines: each layout's figures per size and their ratio to that layout's first size."""
    lines = [f"{'layout':<12} {'events':>12} {'append p50':>11} {'ratio':>6} {'page p50':>9} {'ratio':>6}"]
    for layout in ("plain", "partitioned"):
        mine = [p for p in points if p.layout == layout]
        if not mine:
            continue
        base = mine[0]
        for p in mine:
            lines.append(
                f"{layout:<12} {p.events:>12,} {p.append_p50_ms:>8.2f} ms {p.append_p50_ms / base.append_p50_ms:>5.2f}x "
                f"{p.page_p50_ms:>6.2f} ms {p.page_p50_ms / base.page_p50_ms:>5.2f}x"
            )
    return lines

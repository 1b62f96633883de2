"""manage.py bench history: one page of a match's history (the page and the events API) at 10 and 10,000 entries.

Runs in a scratch PostgreSQL database (created, migrated and dropped), like bench store. Three score-sheet
matches, of 10, 200 and ``--entries`` (10,000) entries, written in bulk through the real reducer (head
and snapshots as the store keeps them). Each URL is timed through Django's whole request path (median and p95
of ``--repeat`` requests), with its body size and SQL statements; the same-run baselines are a request that
reads no history (the match's state) and the whole log as one list (the shape before pages). Exit code 0
whatever the figures; "page cost at N ÷ at 200" (the same page size) is printed for each paged URL (target: ~1).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from django.conf import settings
from django.db import connection

from benchmarks.harness import Out, cpu_count, pg_version, scratch_database, test_client_open, time_get

HELP = "Benchmark one page of history (page and events API) at 10 and N entries (scratch database)."
POSTGRES = "rerun"
FULL = 200  # the middle match: every page of 50 full, the oldest page reached by ?before=51


def _fill(match: Any, owner: Any, count: int) -> None:
    """``count`` score-sheet entries on ``match`` in bulk: rows, head and a snapshot every
    ``CHRONICLE_SNAPSHOT_EVERY`` versions, each state the reducer's own."""
    from datetime import timedelta

    from django.utils import timezone

    from matches.models import Event as EventRow
    from matches.models import Snapshot, Stream
    from rulesets import Event, get_ruleset

    ruleset = get_ruleset("scoresheet")
    stream = match.stream
    state = ruleset.initial_state(stream.options, stream.seat_count)
    every = settings.CHRONICLE_SNAPSHOT_EVERY
    now = timezone.now()
    rows, snaps = [], []
    for v in range(1, count + 1):
        event = Event("points_scored", (v - 1) % stream.seat_count, {"points": v % 17, "round": (v - 1) // 4 + 1})
        state = ruleset.apply(state, event)
        rows.append(EventRow(stream=stream, version=v, type=event.type, seat=event.seat, data=event.data,
                             recorded_by=owner, recorded_at=now + timedelta(seconds=v)))  # fmt: skip
        if v % every == 0:
            snaps.append(Snapshot(stream=stream, version=v, state=state, ruleset_version=ruleset.version))
    EventRow.objects.bulk_create(rows, batch_size=2000)
    Snapshot.objects.bulk_create(snaps)
    Stream.objects.filter(pk=stream.pk).update(version=count, state=state, ruleset_version=ruleset.version)


def add_arguments(parser: Any) -> None:
    parser.add_argument("--entries", type=int, default=10_000, help="entries of the long match (10000)")
    parser.add_argument("--repeat", type=int, default=20, help="requests per URL (20)")


def run(options: dict[str, Any], out: Out) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from matches.projections import projectors as projections
    from matches.services import match_create
    from matches.store import events as store

    logging.disable(logging.INFO)
    n, repeat = options["entries"], options["repeat"]
    name = f"chronicle_bench_history_{os.getpid()}"
    with scratch_database(name), test_client_open():
        owner = get_user_model().objects.create_user("bench-owner", password="bench-pass-123")
        seats = [{"name": s} for s in ("Ana", "Tomas", "Cy", "Di")]
        small = match_create(owner=owner, game="scoresheet", seats=seats, is_public=True)
        full = match_create(owner=owner, game="scoresheet", seats=seats, is_public=True)
        big = match_create(owner=owner, game="scoresheet", seats=seats, is_public=True)
        _fill(small, owner, 10)
        _fill(full, owner, FULL)
        _fill(big, owner, n)
        store.head_cache.clear()
        projections.positions_forget()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        client = Client()
        client.force_login(owner)
        out(f"Chronicle history benchmark: PostgreSQL {pg_version()}, scratch database {name}, "
            f"{cpu_count()} CPU(s); score sheets of 10 and {n:,} entries, snapshots every "
            f"{settings.CHRONICLE_SNAPSHOT_EVERY}\n")  # fmt: skip
        paged = [
            ("history page, newest 50", "/matches/{id}/history/", None),
            ("history page, oldest 50", "/matches/{id}/history/?before=51", 51),
            ("history page, one player", "/matches/{id}/history/?player=1", None),
            ("events API, first 50", "/api/matches/{id}/events/?after=0&limit=50", None),
            ("events API, last 50", "/api/matches/{id}/events/?after={last}&limit=50", None),
        ]
        base = [time_get(client, f"/api/matches/{m.pk}/state/", repeat) for m in (small, big)]
        whole = [time_get(client, f"/api/matches/{m.pk}/events/", r) for m, r in ((small, repeat), (big, 3))]
        rows = []
        for label, pattern, needs in paged:
            pair = []
            for m, length in ((small, 10), (full, FULL), (big, n)):
                url = pattern.format(id=m.pk, last=max(0, length - 50))
                if needs is not None and length < needs:
                    url = pattern.split("?")[0].format(id=m.pk)
                pair.append(time_get(client, url, repeat))
            rows.append((label, pair))
    out(f"Baselines (same run, median / p95, body, SQL statements; {repeat} requests, the whole log at {n:,}: 3):")
    for label, (a, b) in (("GET state (no history read)", base), ("GET events, whole log (before pages)", whole)):
        out(f"  {label:<40} 10: {a.median_ms:7.2f} / {a.p95_ms:7.2f} ms {a.bytes / 1024:7.1f} KiB {a.queries:3d} q"
            f"   {n:,}: {b.median_ms:8.2f} / {b.p95_ms:8.2f} ms {b.bytes / 1024:8.1f} KiB {b.queries:3d} q")  # fmt: skip
    out(f"\nOne page (median / p95, body, SQL statements) at 10, {FULL} (a full page of 50) and {n:,} entries;")
    out(f"ratio = median at {n:,} ÷ median at {FULL} (the same page size):")
    for label, (a, f, b) in rows:
        out(f"  {label:<26} 10: {a.median_ms:6.2f} / {a.p95_ms:6.2f} ms {a.bytes / 1024:5.1f} KiB {a.queries:2d} q"
            f" | {FULL}: {f.median_ms:6.2f} / {f.p95_ms:6.2f} ms {f.bytes / 1024:5.1f} KiB {f.queries:2d} q"
            f" | {n:,}: {b.median_ms:6.2f} / {b.p95_ms:6.2f} ms {b.bytes / 1024:5.1f} KiB {b.queries:2d} q"
            f"  ×{b.median_ms / max(f.median_ms, 1e-9):.2f}")  # fmt: skip
    out(f"Scratch database {name} dropped.")

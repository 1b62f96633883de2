"""manage.py bench_import: play-log import speed on a generated BG Stats export (default 50,000 plays), beside a
raw INSERT baseline of the same rows in the same run, and the import's peak memory.

Runs in a scratch PostgreSQL database (created, migrated, dropped). The import goes through the real path:
the streaming reader, the job's batches, each play appended through the store, the projectors kept up after
the import, timed apart (they run after every few thousand plays in a real job). See docs/PERFORMANCE.md. Exit code 0 whatever the figures.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, transaction

TARGET = 1000.0  # plays/s (issue 24)


class Command(BaseCommand):
    help = "Benchmark importing a generated BG Stats export against a raw INSERT baseline (scratch database)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--plays", type=int, default=50_000, help="plays in the generated file (default 50,000)")
        parser.add_argument("--batch", type=int, default=None, help="plays per transaction (default the setting)")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            self.stdout.write("bench_import needs PostgreSQL (DATABASE_URL): the store's fast path is PostgreSQL's.")
            return
        from benchmarks import store_bench as sb
        from benchmarks.import_bench import write_bgstats

        plays = options["plays"]
        out = self.stdout.write
        fd, path = tempfile.mkstemp(suffix=".json")
        started = time.perf_counter()
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            write_bgstats(fp, plays)
        size = os.path.getsize(path)
        out(f"Generated {plays:,} plays, {size / 2**20:.1f} MiB, in {time.perf_counter() - started:.1f} s")
        name = f"chronicle_bench_import_{os.getpid()}"
        try:
            with sb.scratch_database(name):
                raw = self._raw_baseline(path, options["batch"] or settings.CHRONICLE_IMPORT_BATCH)
                eager = settings.CELERY_TASK_ALWAYS_EAGER
                try:
                    figures = self._import(path, options["batch"])
                finally:
                    settings.CELERY_TASK_ALWAYS_EAGER = eager
        finally:
            os.unlink(path)
        rate = plays / figures["seconds"]
        out(f"{'':2}{'what':44}{'time':>10}{'plays/s':>12}")
        out(f"  {'raw INSERT of the same plays (baseline)':44}{raw:>9.1f}s{plays / raw:>12,.0f}")
        out(f"  {'scan (first pass: count, games, players)':44}{figures['scan']:>9.1f}s")
        out(f"  {'import job (read, check, batched append)':44}{figures['run']:>9.1f}s{plays / figures['run']:>12,.0f}")
        out(f"  {'projectors catching up (all read models)':44}{figures['project']:>9.1f}s"
            f"{plays / figures['project']:>12,.0f}")  # fmt: skip
        out(f"  {'total (upload stored -> read models done)':44}{figures['seconds']:>9.1f}s{rate:>12,.0f}")
        out(f"  imported {figures['imported']:,}, skipped {figures['skipped']:,}; "
            f"{figures['events']:,} events, {figures['results']:,} stats rows")  # fmt: skip
        out(f"  peak memory: {figures['peak'] / 2**20:.0f} MiB resident; grew +{figures['import_grew'] / 2**20:.0f} MiB "
            f"during the import job, +{figures['grew'] / 2**20:.0f} MiB with the projectors "
            f"(a {size / 2**20:.0f} MiB file)")  # fmt: skip
        out(f"  ratio to the raw baseline: {figures['seconds'] / raw:.1f}x")
        append_rate = (figures["scan"] + figures["run"]) and plays / (figures["scan"] + figures["run"])
        word = "PASS" if append_rate >= TARGET else "FAIL"
        out(f"  {word}  >= {TARGET:,.0f} plays/s through the store's append path: {append_rate:,.0f} plays/s")
        word = "PASS" if rate >= TARGET else "FAIL"
        out(f"  {word}  >= {TARGET:,.0f} plays/s with the read models kept up: {rate:,.0f} plays/s")

    def _raw_baseline(self, path: str, batch: int) -> float:
        """INSERT one row per play (its key and its JSON) in transactions of ``batch`` rows: the floor."""
        import ijson

        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE bench_raw_play (key text PRIMARY KEY, data jsonb NOT NULL)")
        started = time.perf_counter()
        rows: list[tuple[str, str]] = []
        import json

        def flush() -> None:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.executemany("INSERT INTO bench_raw_play (key, data) VALUES (%s, %s)", rows)
            rows.clear()

        with open(path, "rb") as fp:
            for play in ijson.items(fp, "plays.item", use_float=True):
                rows.append((play["uuid"], json.dumps(play)))
                if len(rows) >= batch:
                    flush()
        if rows:
            flush()
        return time.perf_counter() - started

    def _import(self, path: str, batch: int | None) -> dict[str, Any]:
        from unittest import mock

        from django.contrib.auth import get_user_model

        from matches.interop.jobs import import_job_create, import_job_run
        from matches.models import Event, PlayerResult
        from matches.tasks import project_all

        settings.CELERY_TASK_ALWAYS_EAGER = True  # tasks in this process; the projectors timed on their own below
        user = get_user_model().objects.create_user(username="bench", password="bench-pass-123")
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        started = time.perf_counter()
        with open(path, "rb") as fp:
            job = import_job_create(owner=user, fp=fp, file_name="bench.json", source="bgstats")
        scanned = time.perf_counter()
        with mock.patch("matches.services.wake_projector", lambda: None):
            job = import_job_run(job.pk, batch=batch)
        imported = time.perf_counter()
        import_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        project_all()
        done = time.perf_counter()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        return {
            "scan": scanned - started, "run": imported - scanned, "project": done - imported,
            "seconds": done - started, "imported": job.imported,
            "skipped": job.skipped, "events": Event.objects.count(), "results": PlayerResult.objects.count(),
            "peak": peak, "grew": max(0, peak - base), "import_grew": max(0, import_peak - base),
        }  # fmt: skip

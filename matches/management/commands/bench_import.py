"""manage.py bench_import: play-log import speed on a generated BG Stats export, beside a raw INSERT baseline of
the same rows in the same run, and the import's peak memory.

The file (``--shape``): ``real`` (the default, issue 34) has the shape and the quirks of real exports (every key
the app writes, calculator scores ending on an operator, doubled operators, unreadable scores and fields, many
games and players, solo to 8-player plays); ``plain`` is issue 24's file. ``--plays`` defaults to 5,000, the size
issue 34's target is stated for.

Each way of keeping the read models up runs in a scratch PostgreSQL database of its own (created, migrated,
dropped), with its own raw baseline: ``after`` (the import job, then the projectors catching up in the same
process, timed apart) and ``worker`` (as deployed: a projector process beside the import, running every
``CHRONICLE_WAKE_WINDOW`` as the import's wake-ups would, until the read models hold every play). The import
goes through the real path: the streaming reader, the job's batches, each play appended through the store.
CPU seconds (this process, and its database backend when the server is local) are printed too: on a shared
machine they move less than wall time. See docs/PERFORMANCE.md. Exit code 0 whatever the figures.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import tempfile
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, connections, transaction

TARGET = 1000.0  # plays/s (issues 24 and 34)
MODES = ("worker", "after")  # the worker first: its import process has run no projector (memory figures)


def _rss() -> int:
    """This process's peak resident memory since :func:`_rss_reset`, bytes: Linux's ``VmHWM`` (what
    ``ru_maxrss`` reports, but resettable), else ``ru_maxrss`` (the whole process's life)."""
    try:
        with open("/proc/self/status") as fp:
            for line in fp:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _rss_reset() -> None:
    """Start a new peak (Linux: ``echo 5 > /proc/self/clear_refs``), so each mode's figure is its own."""
    try:
        with open("/proc/self/clear_refs", "w") as fp:
            fp.write("5")
    except OSError:
        pass


def _cpu() -> tuple[float, float | None]:
    """CPU seconds used so far by this process and by its database backend (None when the server is not on
    this machine or its process cannot be read)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        with open(f"/proc/{pid}/stat") as fp:
            fields = fp.read().rsplit(")", 1)[1].split()
        backend: float | None = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        backend = None
    return time.process_time(), backend


def _spent(before: tuple[float, float | None], after: tuple[float, float | None]) -> tuple[float, float | None]:
    db = after[1] - before[1] if after[1] is not None and before[1] is not None else None
    return after[0] - before[0], db


def _projector_worker(wake: Any, stop: Any, out: Any) -> None:
    """The projector process of the ``worker`` mode, as a Celery worker takes the import's wake-ups: the
    projectors (the task a wake-up runs) each time the import wakes it (every ``CHRONICLE_IMPORT_PROJECT_EVERY``
    plays and at its end), until told to stop. Reports its CPU and peak memory."""
    from matches.projections.tasks import project_all

    connections.close_all()  # a connection of its own (the parent's was closed before the fork)
    _rss_reset()
    start = _cpu()
    while not stop.is_set():
        if wake.wait(0.05):
            wake.clear()
            project_all()
    project_all()
    python, db = _spent(start, _cpu())
    connections.close_all()
    out.put({"python": python, "db": db, "peak": _rss()})


class Command(BaseCommand):
    help = "Benchmark importing a generated BG Stats export against a raw INSERT baseline (scratch database)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--plays", type=int, default=5_000, help="plays in the generated file (default 5,000)")
        parser.add_argument("--shape", choices=("real", "plain"), default="real",
                            help="real: the shape and quirks of real exports (default); plain: issue 24's file")  # fmt: skip
        parser.add_argument("--batch", type=int, default=None, help="plays per transaction (default the setting)")
        parser.add_argument("--projector", choices=(*MODES, "both"), default="both",
                            help="after: projectors after the import; worker: a projector process beside it")  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            self.stdout.write("bench_import needs PostgreSQL (DATABASE_URL): the store's fast path is PostgreSQL's.")
            return
        from benchmarks.import_bench import write_bgstats, write_bgstats_real

        plays = options["plays"]
        out = self.stdout.write
        fd, path = tempfile.mkstemp(suffix=".json")
        started = time.perf_counter()
        with os.fdopen(fd, "w", encoding="utf-8") as fp:
            (write_bgstats_real if options["shape"] == "real" else write_bgstats)(fp, plays)
        size = os.path.getsize(path)
        out(f"Generated {plays:,} plays ({options['shape']} shape), {size / 2**20:.1f} MiB, in "
            f"{time.perf_counter() - started:.1f} s; "
            f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} CPUs")  # fmt: skip
        modes = MODES if options["projector"] == "both" else (options["projector"],)
        try:
            for mode in modes:
                self._run(path, plays, size, mode, options["batch"])
        finally:
            os.unlink(path)

    def _run(self, path: str, plays: int, size: int, mode: str, batch: int | None) -> None:
        from benchmarks import store_bench as sb

        out = self.stdout.write
        eager = settings.CELERY_TASK_ALWAYS_EAGER
        with sb.scratch_database(f"chronicle_bench_import_{os.getpid()}_{mode}"):
            raw = self._raw_baseline(path, batch or settings.CHRONICLE_IMPORT_BATCH)
            try:
                f = self._import(path, batch, mode)
            finally:
                settings.CELERY_TASK_ALWAYS_EAGER = eager
        rate = plays / f["seconds"]
        out("")
        out(f"Read models kept up by: {'the projectors after the import' if mode == 'after' else 'a projector process beside the import (as deployed)'}")  # fmt: skip
        out(f"{'':2}{'what':46}{'time':>10}{'plays/s':>12}")
        out(f"  {'raw INSERT of the same plays (baseline)':46}{raw:>9.1f}s{plays / raw:>12,.0f}")
        out(f"  {'scan (first pass: count, games, players)':46}{f['scan']:>9.1f}s")
        out(f"  {'import job (read, check, batched append)':46}{f['run']:>9.1f}s{plays / f['run']:>12,.0f}")
        if mode == "after":
            out(f"  {'projectors catching up (all read models)':46}{f['project']:>9.1f}s{plays / f['project']:>12,.0f}")
        else:
            out(f"  {'projectors still behind at the import end':46}{f['project']:>9.1f}s")
        out(f"  {'total (upload stored -> read models done)':46}{f['seconds']:>9.1f}s{rate:>12,.0f}")
        out(f"  imported {f['imported']:,}, skipped {f['skipped']:,}, {f['warnings']:,} warnings; {f['events']:,} events, "
            f"{f['results']:,} stats rows, {f['rollups']:,} roll-up rows")  # fmt: skip
        for label, (python, db) in f["cpu"].items():
            db_text = f"{db:.1f} s" if db is not None else "n/a (server not local)"
            per = (python + (db or 0)) / plays * 1000
            out(f"  CPU, {label}: python {python:.1f} s + its database backend {db_text} ({per:.2f} ms a play)")
        out(f"  peak memory (VmHWM, i.e. ru_maxrss, of the import process): {f['peak'] / 2**20:.0f} MiB resident; the import "
            f"job grew it by {f['import_grew'] / 2**20:.0f} MiB (a {size / 2**20:.1f} MiB file)")  # fmt: skip
        if "worker_peak" in f:
            out(f"  peak memory of the projector process (VmHWM): {f['worker_peak'] / 2**20:.0f} MiB resident")
        else:
            out(f"  with the projectors in the same process: {f['peak_after'] / 2**20:.0f} MiB resident")
        out(f"  total time / raw baseline: {f['seconds'] / raw:.1f}x")
        append_rate = plays / (f["scan"] + f["run"])
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

    def _import(self, path: str, batch: int | None, mode: str) -> dict[str, Any]:
        from unittest import mock

        from django.contrib.auth import get_user_model

        from matches.interop.jobs import import_job_create, import_job_run
        from matches.models import Event, PlayerResult, StatsRollup
        from matches.projections.tasks import project_all

        settings.CELERY_TASK_ALWAYS_EAGER = True  # tasks in this process; the projectors timed on their own below
        user = get_user_model().objects.create_user(username="bench", password="bench-pass-123")
        figures: dict[str, Any] = {"cpu": {}}
        worker = wake = stop = queue = None
        if mode == "worker":
            ctx = multiprocessing.get_context("fork")
            wake, stop, queue = ctx.Event(), ctx.Event(), ctx.Queue()
            connections.close_all()  # the child opens its own
            worker = ctx.Process(target=_projector_worker, args=(wake, stop, queue), daemon=True)
            worker.start()
        _rss_reset()
        base = _rss()
        cpu = _cpu()
        started = time.perf_counter()
        with open(path, "rb") as fp:
            job = import_job_create(owner=user, fp=fp, file_name="bench.json", source="bgstats")
        scanned = time.perf_counter()
        # the import's wake-ups go to the projector process (worker), or nowhere: the projectors run after it
        with mock.patch("matches.projections.tasks.wake_projector", wake.set if worker is not None else lambda: None):
            job = import_job_run(job.pk, batch=batch)
        imported = time.perf_counter()
        figures["cpu"]["import process"] = _spent(cpu, _cpu())
        figures["import_grew"] = max(0, _rss() - base)
        figures["peak"] = _rss()
        cpu = _cpu()
        if worker is not None:
            stop.set()
            report = queue.get(timeout=3600)
            worker.join()
            figures["cpu"]["projector process"] = (report["python"], report["db"])
            figures["worker_peak"] = report["peak"]
        else:
            project_all()
            figures["cpu"]["projectors"] = _spent(cpu, _cpu())
            figures["peak_after"] = _rss()
        done = time.perf_counter()
        figures.update({
            "scan": scanned - started, "run": imported - scanned, "project": done - imported,
            "seconds": done - started, "imported": job.imported, "skipped": job.skipped,
            "warnings": len(job.report.get("warnings", [])) + job.report.get("warnings_more", 0),
            "events": Event.objects.count(), "results": PlayerResult.objects.count(),
            "rollups": StatsRollup.objects.count(),
        })  # fmt: skip
        return figures

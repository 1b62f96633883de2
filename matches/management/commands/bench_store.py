"""manage.py bench_store: event-store speed, each figure beside a baseline measured in the same run.

Runs in a scratch PostgreSQL database (created, migrated and dropped again; events cannot be deleted, so
the developer's database is never touched). See docs/PERFORMANCE.md. Exit code 0 whatever the figures.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
PROJECTOR_BATCHES = (16, 48, 200)  # events per projector run: a quiet table … a busy club night


def _n(value: float) -> str:
    return f"{value:,.0f}"


def _ms(value: float) -> str:
    return f"{value:.2f} ms"


def _mib(value: int) -> str:
    return f"{value / 2**20:.1f} MiB"


class Command(BaseCommand):
    help = "Benchmark the event store against raw PostgreSQL and the eventsourcing library (scratch database)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--quick", action="store_true", help="smoke run: small sizes, 2 s per rate")
        parser.add_argument("--seconds", type=float, default=None, help="seconds per rate measurement (default 5)")
        parser.add_argument("--writers", type=int, default=8, help="parallel writers (default 8)")
        parser.add_argument(
            "--interleave", type=int, default=8, help="matches played at once in the rebuild's log (default 8)"
        )
        parser.add_argument("--profile", action="store_true", help="also print a cProfile of the 1-writer append")
        parser.add_argument(
            "--sizes", default="",
            help="only the size series: comma-separated event counts, e.g. 10000,1000000,10000000 (append p50 and "
                 "one history page at each, plain and hash-partitioned, ratios to the first size)",
        )  # fmt: skip
        parser.add_argument("--partitions", type=int, default=16, help="partitions for the size series (default 16)")

    def _size_series(self, options: dict[str, Any]) -> None:
        """``--sizes``: each layout in a scratch database of its own, grown through the sizes with COPY."""
        from benchmarks import size_series as ss
        from benchmarks import store_bench as sb

        sizes = sorted(int(n.replace("_", "")) for n in options["sizes"].split(",") if n.strip())
        out = self.stdout.write
        out(f"Event-table size series: PostgreSQL {connection.pg_version // 10000}, {sb.cpu_count()} CPU(s), "
            f"sizes {', '.join(f'{n:,}' for n in sizes)}, {options['partitions']} partitions")  # fmt: skip
        points = []
        for layout in ("plain", "partitioned"):
            t0 = time.perf_counter()
            with sb.scratch_database(f"chronicle_sizes_{layout}_{os.getpid()}"):
                points += ss.size_series(sizes, layout, options["partitions"])
            if options["verbosity"] >= 2:
                self.stderr.write(f"[{layout}: {time.perf_counter() - t0:.0f} s]")
        for line in ss.size_report(points):
            out("  " + line)

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            self._rerun_on_postgres(options)
            return
        from benchmarks import store_bench as sb

        if options["sizes"]:
            self._size_series(options)
            return
        quick = options["quick"]
        seconds = options["seconds"] or (2.0 if quick else 5.0)
        writers = options["writers"]
        interleave = options["interleave"]
        stream_len = 1_000 if quick else 10_000
        early = (50, 500) if quick else (50, 5_000)
        small, large = (1_000, 10_000) if quick else (10_000, 100_000)
        reads = 50 if quick else 200
        rounds = max(3, round(seconds))
        name = f"chronicle_bench_{os.getpid()}"
        out = self.stdout.write
        started = time.perf_counter()

        @contextlib.contextmanager
        def phase(what: str) -> Iterator[None]:
            t0 = time.perf_counter()
            yield
            if options["verbosity"] >= 2:
                self.stderr.write(f"[{what}: {time.perf_counter() - t0:.1f} s]")

        with sb.scratch_database(name) as db:
            pg = connection.pg_version
            out(
                f"Chronicle event-store benchmark{' (quick)' if quick else ''}: PostgreSQL "
                f"{pg // 10000}.{pg % 10000} at {db['host']}:{db['port']}, scratch database {name}, "
                f"{sb.cpu_count()} CPU(s), {seconds:g} s per rate"
            )
            out("Workload: Last Stone moves {stones_taken, count}; projector wake-ups stubbed while appending.\n")

            # 5. projection rebuild (first, so the global log holds only its own events)
            with phase("rebuild small"):
                sb.streams_bulk(small // 1000, 1000, interleave)
                rb_small = sb.rebuild_measure(small)
            with phase("rebuild large"):
                sb.streams_bulk((large - small) // 1000, 1000, interleave)
                rb_large = sb.rebuild_measure(large)

            # 4. reads of one long stream
            worst_at = stream_len - 1  # the furthest any version lies past its snapshot
            with phase("reads"):
                (match,) = sb.streams_bulk(1, stream_len)
                sb.stream_verify(match.stream_id)
                lat_latest = sb.state_read_latency(match, None, reads)
                lat_early = [(at, sb.state_read_latency(match, at, reads)) for at in early]
                lat_worst = sb.state_read_latency(match, worst_at, reads)

            # 1-3. appends: one writer of each kind taking turns in short rounds, then parallel writers
            es_missing = sb.eventsourcing_missing()
            with phase("one writer"):
                one = sb.one_writer_rates(db, seconds, rounds)
            with phase("parallel writers"):
                par = sb.parallel_rates(db, writers, seconds)
            with phase("projector runs"):
                proj = sb.projector_runs(PROJECTOR_BATCHES, runs=8 if quick else 30)
            profile = sb.service_profile(min(seconds, 3.0)) if options["profile"] else ""

        def row(label: str, value: str, baseline: str = "", ratio: str = "") -> None:
            out(f"  {label:<38} {value:>15}   {baseline:<44} {ratio}")

        med = {k: statistics.median(v) for k, v in one.items()}
        raw1, svc1, es1 = med["raw"], med["service"], med.get("eventsourcing")
        rawn, svcn = statistics.median(par["raw"]), statistics.median(par["service"])

        def spread(rates: list[float]) -> str:
            return f"rounds {_n(min(rates))}–{_n(max(rates))}"

        out(f"Appends, one event per transaction (median of {rounds} interleaved rounds; parallel: of 2)")
        row("raw INSERT+COMMIT (1 writer)", f"{_n(raw1)} rows/s", f"ceiling: psycopg, jsonb row; {spread(one['raw'])}")
        row("service append (1 writer)", f"{_n(svc1)} ev/s", f"vs raw {_n(raw1)} rows/s; {spread(one['service'])}",
            f"{svc1 / raw1:.0%} of raw")  # fmt: skip
        if es1 is not None:
            row("eventsourcing append (1 writer)", f"{_n(es1)} ev/s",
                f"eventsourcing {version('eventsourcing')}; {spread(one['eventsourcing'])}")  # fmt: skip
            row("service vs eventsourcing (1 writer)", f"{svc1 / es1:.2f}×", f"vs eventsourcing {_n(es1)} ev/s",
                f"{svc1 / raw1:.0%} vs {es1 / raw1:.0%} of raw")  # fmt: skip
        else:
            row("eventsourcing append (1 writer)", "n/a", es_missing)
        row(f"raw INSERT+COMMIT ({writers} writers)", f"{_n(rawn)} rows/s", f"forked processes; {spread(par['raw'])}")
        row(f"service append ({writers} writers)", f"{_n(svcn)} ev/s", f"vs raw {_n(rawn)} rows/s; {spread(par['service'])}",
            f"{svcn / rawn:.0%} of raw")  # fmt: skip
        out("")
        out(
            f"State reads as GET …/state/ reads (match_get_with_head, match_state), {stream_len:,}-event stream, {reads} reads"
        )
        row("state read at=latest", f"{_ms(lat_latest.median_ms)} med", f"p95 {_ms(lat_latest.p95_ms)}")
        for at, lat in lat_early:
            row(f"state read at={at}", f"{_ms(lat.median_ms)} med", f"p95 {_ms(lat.p95_ms)}")
        row(f"state read at={worst_at} (worst case)", f"{_ms(lat_worst.median_ms)} med", f"p95 {_ms(lat_worst.p95_ms)}",
            f"{settings.CHRONICLE_SNAPSHOT_EVERY - 1} events past a snapshot")  # fmt: skip
        out("")
        out(f"Projection rebuild: manage.py rebuild_projections; 1000-event matches, {interleave} at a time in the log")
        for rb in (rb_small, rb_large):
            row(f"projection rebuild ({rb.events:,} events)", f"{_n(rb.rate)} ev/s",
                f"{rb.seconds:.1f} s; peak traced {_mib(rb.traced_peak)}", f"RSS +{_mib(rb.rss_growth)}")  # fmt: skip
        mem_ratio = rb_large.traced_peak / max(rb_small.traced_peak, 1)
        row(f"rebuild peak memory ratio {large // 1000}k/{small // 1000}k", f"{mem_ratio:.2f}×",
            f"tracemalloc peak {_mib(rb_large.traced_peak)} vs {_mib(rb_small.traced_peak)}",
            f"{large // small}× the events")  # fmt: skip
        out("")
        out(
            "Projector runs behind busy writers: every read model (the Celery task's run) over a batch of moves in "
            "16 matches in progress,"
        )
        out("CPU of this process per run (median), beside reading the same batch from the log in the same rounds")
        for pr in proj:
            row(f"projector run, {pr.events} events", _ms(pr.run_cpu_ms),
                f"batch read {_ms(pr.read_cpu_ms)}; {pr.queries} queries per run",
                f"{pr.run_cpu_ms / pr.events:.3f} ms per event, {pr.run_cpu_ms / pr.read_cpu_ms:.1f}× the read")  # fmt: skip
        out("")
        out("Targets (from the issue; informational)")
        self._target(svc1 >= 0.5 * raw1, "service append 1 writer ≥ 50% of raw insert rate",
                     f"{svc1 / raw1:.0%} ({_n(svc1)} vs {_n(raw1)} /s)")  # fmt: skip
        if es1 is not None:
            self._target(svc1 >= 2 * es1, "service append 1 writer ≥ 2× eventsourcing",
                         f"{svc1 / es1:.2f}× ({_n(svc1)} vs {_n(es1)} /s)")  # fmt: skip
        else:
            self._target(None, "service append 1 writer ≥ 2× eventsourcing", es_missing)
        stream_note = "" if stream_len == 10_000 else f" (quick: {stream_len:,}-event stream)"
        self._target(lat_latest.p95_ms < 5.0, "current-state read of a 10k stream < 5 ms",
                     f"p95 {_ms(lat_latest.p95_ms)}, median {_ms(lat_latest.median_ms)}{stream_note}")  # fmt: skip
        if profile:
            out("\ncProfile of the 1-writer service append")
            out(profile)
        out(f"\nDone in {time.perf_counter() - started:.0f} s; scratch database {name} dropped.")

    def _target(self, ok: bool | None, text: str, detail: str) -> None:
        word = "N/A " if ok is None else ("PASS" if ok else "FAIL")
        self.stdout.write(f"  {word}  {text}: {detail}")

    def _rerun_on_postgres(self, options: dict[str, Any]) -> None:
        """The store's fast path is PostgreSQL's: re-run this command against the default local server."""
        url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER)
        self.stdout.write(f"DATABASE_URL is not PostgreSQL; re-running against {url} (scratch database there).")
        argv = [
            sys.executable,
            str(settings.BASE_DIR / "manage.py"),
            "bench_store",
            "--writers",
            str(options["writers"]),
            "--interleave",
            str(options["interleave"]),
            f"-v{options['verbosity']}",
        ]
        if options["quick"]:
            argv.append("--quick")
        if options["seconds"]:
            argv += ["--seconds", str(options["seconds"])]
        if options["profile"]:
            argv.append("--profile")
        done = subprocess.run(argv, env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True)
        self.stdout.write(done.stdout)
        if done.returncode:
            self.stderr.write(done.stderr)

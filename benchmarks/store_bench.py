"""manage.py bench store: event-store speed, each figure beside a baseline measured in the same run.

Runs in a scratch PostgreSQL database (created, migrated and dropped again; events cannot be deleted, so
the developer's database is never touched). See docs/PERFORMANCE.md. Exit code 0 whatever the figures.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

from django.conf import settings

from benchmarks.harness import Out, cpu_count, mib, ms, n, pg_version, row_printer, scratch_database, target

HELP = "Benchmark the event store against raw PostgreSQL and the eventsourcing library (scratch database)."
POSTGRES = "rerun"
PROJECTOR_BATCHES = (16, 48, 200)  # events per projector run: a quiet table … a busy club night


def add_arguments(parser: Any) -> None:
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


def run(options: dict[str, Any], out: Out) -> None:
    if options["sizes"]:
        size_series(options, out)
        return
    quick = options["quick"]
    plan = {
        "quick": quick, "seconds": options["seconds"] or (2.0 if quick else 5.0), "writers": options["writers"],
        "interleave": options["interleave"], "stream_len": 1_000 if quick else 10_000,
        "early": (50, 500) if quick else (50, 5_000), "sizes": (1_000, 10_000) if quick else (10_000, 100_000),
        "reads": 50 if quick else 200, "profile": options["profile"], "verbosity": options["verbosity"],
    }  # fmt: skip
    plan["rounds"] = max(3, round(plan["seconds"]))
    name = f"chronicle_bench_{os.getpid()}"
    started = time.perf_counter()
    figures = measure(plan, name, out)
    report(plan, figures, out)
    out(f"\nDone in {time.perf_counter() - started:.0f} s; scratch database {name} dropped.")


def size_series(options: dict[str, Any], out: Out) -> None:
    """``--sizes``: each layout in a scratch database of its own, grown through the sizes with COPY."""
    from benchmarks import store_sizes as ss

    sizes = sorted(int(s.replace("_", "")) for s in options["sizes"].split(",") if s.strip())
    out(f"Event-table size series: PostgreSQL {pg_version().split('.')[0]}, {cpu_count()} CPU(s), "
        f"sizes {', '.join(f'{s:,}' for s in sizes)}, {options['partitions']} partitions")  # fmt: skip
    points = []
    for layout in ("plain", "partitioned"):
        t0 = time.perf_counter()
        with scratch_database(f"chronicle_sizes_{layout}_{os.getpid()}"):
            points += ss.size_series(sizes, layout, options["partitions"])
        if options["verbosity"] >= 2:
            out.err(f"[{layout}: {time.perf_counter() - t0:.0f} s]")
    for line in ss.size_report(points):
        out("  " + line)


def measure(plan: dict[str, Any], name: str, out: Out) -> dict[str, Any]:
    """Every figure of the run, in a scratch database ``name``: rebuilds first (the global log holds only their
    events), reads of one long stream, then appends (one writer of each kind taking turns, parallel writers)."""
    from benchmarks import store_measures as sm

    @contextlib.contextmanager
    def phase(what: str) -> Iterator[None]:
        t0 = time.perf_counter()
        yield
        if plan["verbosity"] >= 2:
            out.err(f"[{what}: {time.perf_counter() - t0:.1f} s]")

    small, large = plan["sizes"]
    f: dict[str, Any] = {}
    with scratch_database(name) as db:
        out(f"Chronicle event-store benchmark{' (quick)' if plan['quick'] else ''}: PostgreSQL {pg_version()} at "
            f"{db['host']}:{db['port']}, scratch database {name}, {cpu_count()} CPU(s), {plan['seconds']:g} s per rate")  # fmt: skip
        out("Workload: Last Stone moves {stones_taken, count}; projector wake-ups stubbed while appending.\n")
        with phase("rebuild small"):
            sm.streams_bulk(small // 1000, 1000, plan["interleave"])
            f["rb_small"] = sm.rebuild_measure(small)
        with phase("rebuild large"):
            sm.streams_bulk((large - small) // 1000, 1000, plan["interleave"])
            f["rb_large"] = sm.rebuild_measure(large)
        f["worst_at"] = plan["stream_len"] - 1  # the furthest any version lies past its snapshot
        with phase("reads"):
            (match,) = sm.streams_bulk(1, plan["stream_len"])
            sm.stream_verify(match.stream_id)
            f["latest"] = sm.state_read_latency(match, None, plan["reads"])
            f["early"] = [(at, sm.state_read_latency(match, at, plan["reads"])) for at in plan["early"]]
            f["worst"] = sm.state_read_latency(match, f["worst_at"], plan["reads"])
        f["es_missing"] = sm.eventsourcing_missing()
        with phase("one writer"):
            f["one"] = sm.one_writer_rates(db, plan["seconds"], plan["rounds"])
        with phase("parallel writers"):
            f["par"] = sm.parallel_rates(db, plan["writers"], plan["seconds"])
        with phase("projector runs"):
            f["proj"] = sm.projector_runs(PROJECTOR_BATCHES, runs=8 if plan["quick"] else 30)
        f["profile"] = sm.service_profile(min(plan["seconds"], 3.0)) if plan["profile"] else ""
    return f


def _spread(rates: list[float]) -> str:
    return f"rounds {n(min(rates))}–{n(max(rates))}"


def report(plan: dict[str, Any], f: dict[str, Any], out: Out) -> None:
    """The figures of :func:`measure`, each beside its same-run baseline, then the targets."""
    row = row_printer(out, 38, 15, 44)
    one, par, writers = f["one"], f["par"], plan["writers"]
    med = {k: statistics.median(v) for k, v in one.items()}
    raw1, svc1, es1 = med["raw"], med["service"], med.get("eventsourcing")
    rawn, svcn = statistics.median(par["raw"]), statistics.median(par["service"])
    out(f"Appends, one event per transaction (median of {plan['rounds']} interleaved rounds; parallel: of 2)")
    row("raw INSERT+COMMIT (1 writer)", f"{n(raw1)} rows/s", f"ceiling: psycopg, jsonb row; {_spread(one['raw'])}")
    row("service append (1 writer)", f"{n(svc1)} ev/s", f"vs raw {n(raw1)} rows/s; {_spread(one['service'])}",
        f"{svc1 / raw1:.0%} of raw")  # fmt: skip
    if es1 is not None:
        row("eventsourcing append (1 writer)", f"{n(es1)} ev/s",
            f"eventsourcing {version('eventsourcing')}; {_spread(one['eventsourcing'])}")  # fmt: skip
        row("service vs eventsourcing (1 writer)", f"{svc1 / es1:.2f}×", f"vs eventsourcing {n(es1)} ev/s",
            f"{svc1 / raw1:.0%} vs {es1 / raw1:.0%} of raw")  # fmt: skip
    else:
        row("eventsourcing append (1 writer)", "n/a", f["es_missing"])
    row(f"raw INSERT+COMMIT ({writers} writers)", f"{n(rawn)} rows/s", f"forked processes; {_spread(par['raw'])}")
    row(f"service append ({writers} writers)", f"{n(svcn)} ev/s", f"vs raw {n(rawn)} rows/s; {_spread(par['service'])}",
        f"{svcn / rawn:.0%} of raw")  # fmt: skip
    out("")
    stream_len, latest = plan["stream_len"], f["latest"]
    out(f"State reads as GET …/state/ reads (match_get_with_head, match_state), {stream_len:,}-event stream, "
        f"{plan['reads']} reads")  # fmt: skip
    row("state read at=latest", f"{ms(latest.median_ms)} med", f"p95 {ms(latest.p95_ms)}")
    for at, lat in f["early"]:
        row(f"state read at={at}", f"{ms(lat.median_ms)} med", f"p95 {ms(lat.p95_ms)}")
    row(f"state read at={f['worst_at']} (worst case)", f"{ms(f['worst'].median_ms)} med",
        f"p95 {ms(f['worst'].p95_ms)}", f"{settings.CHRONICLE_SNAPSHOT_EVERY - 1} events past a snapshot")  # fmt: skip
    out("")
    small, large = plan["sizes"]
    rb_small, rb_large = f["rb_small"], f["rb_large"]
    out(
        f"Projection rebuild: manage.py rebuild_projections; 1000-event matches, {plan['interleave']} at a time in the log"
    )
    for rb in (rb_small, rb_large):
        row(f"projection rebuild ({rb.events:,} events)", f"{n(rb.rate)} ev/s",
            f"{rb.seconds:.1f} s; peak traced {mib(rb.traced_peak)}", f"RSS +{mib(rb.rss_growth)}")  # fmt: skip
    mem_ratio = rb_large.traced_peak / max(rb_small.traced_peak, 1)
    row(f"rebuild peak memory ratio {large // 1000}k/{small // 1000}k", f"{mem_ratio:.2f}×",
        f"tracemalloc peak {mib(rb_large.traced_peak)} vs {mib(rb_small.traced_peak)}",
        f"{large // small}× the events")  # fmt: skip
    out("")
    out("Projector runs behind busy writers: every read model (the Celery task's run) over a batch of moves in "
        "16 matches in progress,")  # fmt: skip
    out("CPU of this process per run (median), beside reading the same batch from the log in the same rounds")
    for pr in f["proj"]:
        row(f"projector run, {pr.events} events", ms(pr.run_cpu_ms),
            f"batch read {ms(pr.read_cpu_ms)}; {pr.queries} queries per run",
            f"{pr.run_cpu_ms / pr.events:.3f} ms per event, {pr.run_cpu_ms / pr.read_cpu_ms:.1f}× the read")  # fmt: skip
    out("")
    out("Targets (from the issue; informational)")
    target(out, svc1 >= 0.5 * raw1, "service append 1 writer ≥ 50% of raw insert rate",
           f"{svc1 / raw1:.0%} ({n(svc1)} vs {n(raw1)} /s)")  # fmt: skip
    if es1 is not None:
        target(out, svc1 >= 2 * es1, "service append 1 writer ≥ 2× eventsourcing",
               f"{svc1 / es1:.2f}× ({n(svc1)} vs {n(es1)} /s)")  # fmt: skip
    else:
        target(out, None, "service append 1 writer ≥ 2× eventsourcing", f["es_missing"])
    stream_note = "" if stream_len == 10_000 else f" (quick: {stream_len:,}-event stream)"
    target(out, latest.p95_ms < 5.0, "current-state read of a 10k stream < 5 ms",
           f"p95 {ms(latest.p95_ms)}, median {ms(latest.median_ms)}{stream_note}")  # fmt: skip
    if f["profile"]:
        out("\ncProfile of the 1-writer service append")
        out(f["profile"])

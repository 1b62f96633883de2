"""manage.py bench http: the web tier as deployed (scripts/serve, a real Celery worker), over HTTP.

Every figure is printed beside the raw single-writer INSERT rate measured in the same run on the same
PostgreSQL. Runs in a scratch database that is dropped afterwards; needs PostgreSQL and REDIS_URL.
See docs/PERFORMANCE.md. Exit code 0 whatever the figures (PASS/FAIL words are for information).
"""

from __future__ import annotations

import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from benchmarks.harness import Out, cpu_count, n, pg_version, row_printer, scratch_database, target, test_client_open

HELP = "Benchmark appends and state reads over real HTTP against scripts/serve + a Celery worker (scratch database)."
POSTGRES = "rerun"
DEFAULT_STACKS = ["granian:2x2"]


def add_arguments(parser: Any) -> None:
    parser.add_argument("--clients", type=int, default=16, help="concurrent keep-alive HTTP clients (16)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds of HTTP appends per stack (8)")
    parser.add_argument(
        "--stack", action="append", dest="stacks", metavar="CLASS:PROCSxTHREADS",
        help=f"serving stack(s) to measure, e.g. granian:2x2 gthread:2x8 sync:4 (repeatable; default {DEFAULT_STACKS[0]})",
    )  # fmt: skip
    parser.add_argument("--worker-concurrency", type=int, default=1, help="Celery worker processes (1)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2 s per figure")
    parser.add_argument("--profile", action="store_true", help="py-spy the web workers during the first stack")
    parser.add_argument("--keep-logs", action="store_true", help="print where the servers' logs are kept")


def run(options: dict[str, Any], out: Out) -> None:
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        raise CommandError("bench http needs REDIS_URL (the Celery broker of the worker it starts).")
    from benchmarks import http_stack as hb
    from benchmarks import store_measures as sm

    quick = options["quick"]
    seconds = 2.0 if quick else options["seconds"]
    rounds = 3 if quick else 5
    clients = options["clients"]
    stacks = [hb.Stack.parse(s) for s in options["stacks"] or DEFAULT_STACKS]
    name = f"chronicle_bench_http_{os.getpid()}"
    log_dir = Path(tempfile.mkdtemp(prefix="bench_http_"))
    started = time.perf_counter()
    load = os.getloadavg()

    with scratch_database(name) as db:
        password = f":{db['password']}" if db["password"] else ""
        database_url = f"postgres://{db['user']}{password}@{db['host']}:{db['port']}/{name}"
        out(
            f"Chronicle HTTP benchmark{' (quick)' if quick else ''}: PostgreSQL {pg_version()}, "
            f"scratch database {name}, {cpu_count()} CPU(s), load average {load[0]:.2f} {load[1]:.2f} "
            f"{load[2]:.2f} at start"
        )
        out(f"Workload: Last Stone moves with expected_version, {clients} clients each on its own match, "
            f"keep-alive; {seconds:g} s per figure.\n")  # fmt: skip
        token, match_ids = hb.bench_matches(clients + 1)
        api_match, http_matches = match_ids[-1], match_ids[:clients]
        env = hb.service_env(database_url, redis_url)
        worker = hb.start_worker(env, log_dir, options["worker_concurrency"])
        raw = sm.raw_writer(db)
        results: list[dict[str, Any]] = []
        try:
            inproc = _in_process(hb, sm, raw, token, api_match, seconds, rounds, log_dir)
            hb.drain_wait(match_ids)
            for i, stack in enumerate(stacks):
                results.append(_stack(hb, raw, worker, stack, env, log_dir, token, http_matches, db,
                                      seconds, profile=options["profile"] and i == 0))  # fmt: skip
        finally:
            raw.close()
            worker.stop()
    _report(out, inproc, results, clients)
    if options["keep_logs"]:
        out(f"\nServer logs: {log_dir}")
    out(f"\nDone in {time.perf_counter() - started:.0f} s; load average at the end "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; scratch database {name} dropped.")  # fmt: skip


# -- phases ---------------------------------------------------------------------------------------------


def _in_process(hb: Any, sm: Any, raw: Any, token: str, match_id: int, seconds: float, rounds: int,
                log_dir: Path) -> dict[str, Any]:  # fmt: skip
    """Django's test client, 1 writer, taking turns in short rounds with the raw INSERT writer and with the
    two floors of a request: the service append alone and an empty request through the test client."""
    from config.logs import JsonFormatter

    access = logging.getLogger("chronicle.access")
    handler = logging.FileHandler(log_dir / "in-process-access.log")
    handler.setFormatter(JsonFormatter())
    saved_access = (access.propagate, access.level)
    access.addHandler(handler)
    access.propagate, access.level = False, logging.INFO  # the same log line as the server, to a file
    not_found = logging.getLogger("django.request")  # its warning per 404 is no part of an append's floor
    saved_not_found, not_found.level = not_found.level, logging.ERROR
    try:
        with test_client_open():
            writers = [raw, hb.ApiClientWriter(token, match_id), sm.ServiceWriter(sm.stream_new()),
                       hb.EmptyRequestWriter(token)]  # fmt: skip
            rates = sm.interleaved_rates(writers, seconds, rounds)
    finally:
        access.removeHandler(handler)
        access.propagate, access.level = saved_access
        not_found.level = saved_not_found
        handler.close()
    return {"raw": rates[0], "api": rates[1], "service": rates[2], "empty": rates[3]}


def _stack(hb: Any, raw: Any, worker: Any, stack: Any, env: dict[str, str], log_dir: Path, token: str,
           matches: list[int], db: dict[str, Any], seconds: float, profile: bool) -> dict[str, Any]:  # fmt: skip
    """Raw rate, then HTTP appends (with CPU per process tree), drain, state reads, raw rate again."""
    from matches.models import Match

    raw_rates = [_rate(raw, min(seconds / 2, 2.0))]
    web, port = hb.start_web(env, stack, log_dir)
    try:
        versions = dict(Match.objects.filter(pk__in=matches).values_list("pk", "stream__version"))
        hb.http_appends(port, token, versions, 0.0, 1.0)  # warm-up: connections, head caches
        hb.drain_wait(matches)
        before_total = sum(versions.values())
        pg_pids = hb.backend_pids(db["dbname"])
        cpu0 = (web.cpu(), worker.cpu(), hb.pids_cpu(pg_pids), time.process_time())
        spy = _py_spy(web, log_dir, seconds) if profile else None
        result = hb.http_appends(port, token, versions, 0.5, seconds)
        drain = hb.drain_wait(matches)
        cpu1 = (web.cpu(), worker.cpu(), hb.pids_cpu(pg_pids), time.process_time())
        events = sum(versions.values()) - before_total
        pg_cpu = sum(cpu1[2].get(p, c) - c for p, c in cpu0[2].items())
        reads16 = hb.http_state_reads(port, None, matches, len(matches), min(seconds, 3.0))
        reads1 = hb.http_state_reads(port, None, matches, 1, min(seconds, 3.0))
        stalled = {}
        for where, dbname in (("elsewhere", "postgres"), ("here", db["dbname"])):
            held = hb.transaction_elsewhere(db, dbname)  # a long transaction, in another database or this one
            try:
                hb.http_appends(port, token, versions, 0.0, 1.0)
                stalled[where] = hb.drain_wait(matches, timeout=60)
            finally:
                held.close()
            hb.drain_wait(matches)
        if spy is not None:
            spy.wait(30)
    finally:
        web.stop()
    raw_rates.append(_rate(raw, min(seconds / 2, 2.0)))
    return {
        "stack": stack, "result": result, "raw": raw_rates, "events": events, "drain": drain,
        "web_cpu": cpu1[0] - cpu0[0], "worker_cpu": cpu1[1] - cpu0[1], "pg_cpu": pg_cpu,
        "client_cpu": cpu1[3] - cpu0[3], "reads16": reads16, "reads1": reads1, "stalled": stalled,
        "spy": str(log_dir / f"py-spy-{stack.label}.txt") if spy is not None else "",
    }  # fmt: skip


# -- report ---------------------------------------------------------------------------------------------


def _report(out: Out, inproc: dict[str, Any], results: list[dict[str, Any]], clients: int) -> None:
    row = row_printer(out, 44, 16, 46)

    raw1, api1 = statistics.median(inproc["raw"]), statistics.median(inproc["api"])
    out("In-process API (Django test client → middleware → DRF → service → PostgreSQL), 1 writer, "
        f"median of {len(inproc['raw'])} interleaved rounds")  # fmt: skip
    row("raw INSERT+COMMIT, 1 writer", f"{n(raw1)} rows/s", "baseline (same rounds)")
    row("API append via test client, 1 writer", f"{n(api1)} ev/s",
        f"{1000 / api1:.2f} ms per request", f"{api1 / raw1:.2f}× raw")  # fmt: skip
    svc1, empty1 = statistics.median(inproc["service"]), statistics.median(inproc["empty"])
    row("  floor: the service append alone", f"{1000 / svc1:.2f} ms", "streams.stream_event_record, no request")
    row("  floor: an empty request (JSON 404)", f"{1000 / empty1:.2f} ms", "test client → middleware → 404")
    row("  floor together / what 0.25× raw allows", f"{1000 / svc1 + 1000 / empty1:.2f} ms",
        f"{4000 / raw1:.2f} ms per request")  # fmt: skip
    out("")
    for r in results:
        res, raw = r["result"], statistics.mean(r["raw"])
        events = max(r["events"], 1)
        out(f"HTTP, stack {r['stack'].label} (scripts/serve), {clients} keep-alive clients, "
            f"{res.connections} connections opened")  # fmt: skip
        row("raw INSERT+COMMIT, 1 writer (before/after)", f"{n(raw)} rows/s",
            " / ".join(n(x) for x in r["raw"]))  # fmt: skip
        if res.failures or r["reads16"].failures or r["reads1"].failures:
            failed = len(res.failures) + len(r["reads16"].failures) + len(r["reads1"].failures)
            first = (res.failures or r["reads16"].failures or r["reads1"].failures)[0]
            row("  FAILED requests", f"{failed}", first[:60])
        row("HTTP append throughput", f"{n(res.rate)} ev/s",
            f"p50 {res.pct(0.5):.1f} ms, p95 {res.pct(0.95):.1f} ms, p99 {res.pct(0.99):.1f} ms",
            f"{res.rate / raw:.2f}× raw")  # fmt: skip
        row("  appends per client (slowest / fastest)", f"{min(res.per_client)} / {max(res.per_client)}",
            "every phone at a table is served, none starved")  # fmt: skip
        row("  web CPU per append (server tree)", f"{r['web_cpu'] / events * 1000:.2f} ms", f"{events:,} appends")
        row("  projector CPU per event (Celery tree)", f"{r['worker_cpu'] / events * 1000:.2f} ms",
            f"caught up {r['drain'] * 1000:.0f} ms after the load stopped")  # fmt: skip
        row("  PostgreSQL CPU per append (its backends)", f"{r['pg_cpu'] / events * 1000:.2f} ms")
        row("  load generator CPU per append", f"{r['client_cpu'] / events * 1000:.2f} ms", "asyncio, this process")
        for label, reads in (("GET …/state/, 16 clients", r["reads16"]), ("GET …/state/, 1 client", r["reads1"])):
            row(label, f"{n(reads.rate)} req/s", f"p50 {reads.pct(0.5):.1f} ms, p95 {reads.pct(0.95):.1f} ms")
        row("  projector lag, transaction open elsewhere", f"{r['stalled']['elsewhere'] * 1000:.0f} ms",
            "caught up after 1 s of appends while a transaction held an xid in database postgres")  # fmt: skip
        row("  projector lag, transaction open here", f"{r['stalled']['here'] * 1000:.0f} ms",
            f"same, the xid in the same database (stall bound {settings.CHRONICLE_PROJECTOR_STALL_BOUND:g} s)")  # fmt: skip
        if r["spy"]:
            row("  py-spy profile of the web workers", r["spy"])
            for frame, share in _spy_top(Path(r["spy"])):
                row(f"    {share:5.1%} {frame}"[:48], "")
        out("")
    out("Targets (from the issue; informational)")
    target(out, api1 >= 0.25 * raw1, "in-process API, 1 writer ≥ 0.25× raw", f"{api1 / raw1:.2f}×")
    for r in results:
        res, raw = r["result"], statistics.mean(r["raw"])
        label = r["stack"].label
        target(out, not res.failures, f"[{label}] every append answered 201", f"{len(res.failures)} failed")
        target(out, res.rate >= 0.2 * raw, f"[{label}] HTTP append, {clients} clients ≥ 0.2× raw",
                     f"{res.rate / raw:.2f}× ({n(res.rate)} vs {n(raw)} /s)")  # fmt: skip
        target(out, res.pct(0.95) < 50, f"[{label}] HTTP append p95 < 50 ms", f"{res.pct(0.95):.1f} ms")
        fair = min(res.per_client) >= 0.5 * statistics.mean(res.per_client)
        target(out, fair, f"[{label}] (ours) every client served, the slowest ≥ half the mean",
                     f"{min(res.per_client)} vs mean {statistics.mean(res.per_client):.0f}")  # fmt: skip
        per_event = r["worker_cpu"] / max(r["events"], 1) * 1000
        target(out, per_event <= 0.5, f"[{label}] projector CPU ≤ 0.5 ms per event", f"{per_event:.2f} ms")
        target(out, r["reads1"].pct(0.95) < 10, f"[{label}] GET state p95 < 10 ms (1 client)",
                     f"{r['reads1'].pct(0.95):.1f} ms; with {clients} clients {r['reads16'].pct(0.95):.1f} ms")  # fmt: skip


def _rate(writer: Any, seconds: float) -> float:
    count, start, end = writer.run(seconds)
    return count / (end - start)


def _py_spy(web: Any, log_dir: Path, seconds: float) -> subprocess.Popen[bytes] | None:
    """Sample the web tree with py-spy (if installed) while the load runs: collapsed stacks (flamegraph input)."""
    spy = Path(sys.executable).with_name("py-spy")
    if not spy.exists():
        return None
    target = log_dir / f"py-spy-{web.name.removeprefix('web-')}.txt"
    argv = [str(spy), "record", "--pid", str(web.proc.pid), "--subprocesses", "--duration", str(int(seconds)),
            "--format", "raw", "--output", str(target), "--nonblocking"]  # fmt: skip
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _spy_top(path: Path, count: int = 12) -> list[tuple[str, float]]:
    """The functions the web workers spent most samples in, by own time (the innermost frame)."""
    if not path.exists():
        return []
    totals: dict[str, int] = {}
    for line in path.read_text(errors="replace").splitlines():
        stack, _, samples = line.rpartition(" ")
        if stack and samples.isdigit():
            leaf = stack.rsplit(";", 1)[-1]
            totals[leaf] = totals.get(leaf, 0) + int(samples)
    everything = sum(totals.values()) or 1
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:count]
    return [(frame, samples / everything) for frame, samples in top]

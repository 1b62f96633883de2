"""The benchmarks' shared set-up: output, the re-run on PostgreSQL, scratch databases, forked workers, timings."""

from __future__ import annotations

import argparse
import contextlib
import logging
import multiprocessing
import os
import statistics
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection, connections

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"  # where a re-run goes without BENCH_DATABASE_URL


# -- output --------------------------------------------------------------------------------------------------


class Out:
    """Where a subject writes: ``out(text)`` a line of its report (stdout), ``out.err(text)`` a note (stderr)."""

    def __init__(self, stdout: TextIO, stderr: TextIO) -> None:
        self.stdout, self.stderr = stdout, stderr

    def __call__(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def err(self, text: str) -> None:
        self.stderr.write(text + "\n")


def n(value: float) -> str:
    """A count or a rate, with thousands separators."""
    return f"{value:,.0f}"


def ms(value: float) -> str:
    return f"{value:.2f} ms"


def mib(value: int) -> str:
    return f"{value / 2**20:.1f} MiB"


def row_printer(out: Out, label: int, value: int, baseline: int) -> Callable[..., None]:
    """``row(label, value, baseline="", ratio="")``: one figure beside its same-run baseline and their ratio, in
    columns of the given widths."""

    def row(text: str, figure: str, base: str = "", ratio: str = "") -> None:
        out(f"  {text:<{label}} {figure:>{value}}   {base:<{baseline}} {ratio}")

    return row


def target(out: Out, ok: bool | None, text: str, detail: str) -> None:
    """One informational target: PASS, FAIL, or N/A when it could not be measured here."""
    word = "N/A " if ok is None else ("PASS" if ok else "FAIL")
    out(f"  {word}  {text}: {detail}")


# -- the re-run on PostgreSQL --------------------------------------------------------------------------------


def argv_of(parser: argparse.ArgumentParser, options: dict[str, Any]) -> list[str]:
    """The command-line options that give ``options`` again through ``parser`` (those left at their default
    omitted), ``--verbosity`` included: every option a run was given reaches its re-run."""
    argv = [f"--verbosity={options.get('verbosity', 1)}"]
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", "verbosity") or action.dest not in options:
            continue
        value, flag = options[action.dest], action.option_strings[-1]
        if action.nargs == 0:  # store_true
            argv += [flag] if value and value != action.default else []
        elif isinstance(value, list):  # append
            argv += [part for item in value for part in (flag, str(item))] if value != action.default else []
        elif value != action.default:
            argv += [flag, str(value)]
    return argv


def rerun_on_postgres(name: str, argv: list[str], out: Out) -> None:
    """Run ``manage.py bench name *argv`` again against PostgreSQL (``BENCH_DATABASE_URL``, else the local
    server), where the store's fast path is; its output is this run's."""
    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER)
    out(f"DATABASE_URL is not PostgreSQL; re-running against {url} (scratch database there).")
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "bench", name, *argv]
    done = subprocess.run(command, env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True)
    out.stdout.write(done.stdout)
    if done.returncode:
        out.stderr.write(done.stderr)
        raise CommandError(f"bench {name} exited with {done.returncode} on PostgreSQL")


# -- the scratch database -----------------------------------------------------------------------------------


def server_params(settings_dict: dict[str, Any]) -> dict[str, Any]:
    """psycopg connection keywords for the server that ``settings_dict`` names (no database)."""
    return {
        "host": settings_dict.get("HOST") or "127.0.0.1",
        "port": int(settings_dict.get("PORT") or 5432),
        "user": settings_dict.get("USER") or "postgres",
        "password": settings_dict.get("PASSWORD") or None,
    }


@contextlib.contextmanager
def scratch_database(name: str) -> Iterator[dict[str, Any]]:
    """Create database ``name``, point Django's default connection at it and migrate it; drop it after.

    Events can never be deleted (a trigger forbids it), so a benchmark never writes into the developer's
    database. The default connection's settings are restored (and its connection closed) on the way out, also
    on error, so a test run or a shell that called the benchmark carries on with its own database.
    """
    import psycopg
    from django.core.management import call_command

    from matches.projections import projectors as projections
    from matches.store import events as store

    conn = connections["default"]
    if conn.vendor != "postgresql":
        raise RuntimeError("the scratch database needs PostgreSQL")
    params = server_params(conn.settings_dict)
    saved = dict(conn.settings_dict)
    saved_debug = settings.DEBUG
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        connections.close_all()
        conn.settings_dict["NAME"] = name
        settings.DEBUG = False  # no query log growing in memory
        store.head_cache.clear()  # stream ids restart at 1 in the new database
        projections.positions_forget()
        call_command("migrate", verbosity=0, interactive=False)
        yield {**params, "dbname": name}
    finally:
        connections.close_all()
        conn.settings_dict.clear()
        conn.settings_dict.update(saved)
        settings.DEBUG = saved_debug
        store.head_cache.clear()
        projections.positions_forget()
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pg_version() -> str:
    """The server's major.minor version, as the reports print it."""
    pg = connection.pg_version
    return f"{pg // 10000}.{pg % 10000}"


@contextlib.contextmanager
def test_client_open() -> Iterator[None]:
    """Settings under which Django's test client may hammer the site in-process: ``testserver`` allowed, a
    session-signing key when none is set, every throttle rate out of reach (one client asks far beyond a
    person's rate); restored after (the key excepted)."""
    from django.test import override_settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    changes: dict[str, Any] = {
        "ALLOWED_HOSTS": [*settings.ALLOWED_HOSTS, "testserver"],
        "REST_FRAMEWORK": {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict.fromkeys(rates, "1000000/min")},
    }
    if not os.environ.get("DJANGO_SECRET_KEY") and not settings.DEBUG:
        # the test client signs a session and no key is set; kept after (an empty key cannot be put back)
        settings.SECRET_KEY = os.urandom(32).hex()
    with override_settings(**changes):
        yield


def access_log_quiet() -> None:
    """No access-log line per request: one line per timed request is not what is measured."""
    logging.getLogger("chronicle.access").setLevel(logging.WARNING)


# -- forked workers -----------------------------------------------------------------------------------------


def _child_main(fn: Callable[..., Any], args: tuple[Any, ...], barrier: Any, queue: Any) -> None:
    try:
        result = fn(*args, barrier)
        queue.put(("ok", result))
    except BaseException:  # reported to the parent, which raises it there
        queue.put(("error", traceback.format_exc()))
    finally:
        connections.close_all()


def run_forked(fn: Callable[..., Any], arg_list: list[tuple[Any, ...]], timeout: float) -> list[Any]:
    """Run ``fn(*args, barrier)`` in one forked process per ``args``; return their results.

    Django's connections are closed first, so every child opens its own. ``barrier`` lets the children
    start their timed section together.
    """
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(len(arg_list))
    queue = ctx.Queue()
    connections.close_all()
    procs = [ctx.Process(target=_child_main, args=(fn, args, barrier, queue)) for args in arg_list]
    for p in procs:
        p.start()
    results = []
    try:
        for _ in procs:
            status, value = queue.get(timeout=timeout)
            if status != "ok":
                raise RuntimeError(f"benchmark worker failed:\n{value}")
            results.append(value)
    finally:
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.terminate()
                p.join()
    return results


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# -- timings ------------------------------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values``: the value at index ⌊q·n⌋ of the sorted list (the last for q = 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def p95(values: list[float]) -> float:
    """The 95th percentile as the request timings take it: the value of rank ⌊0.95·n⌋ (from 1) of the sorted list."""
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def samples_ms(fn: Callable[[], Any], repeat: int, warmup: int = 0) -> list[float]:
    """Wall time of ``repeat`` calls of ``fn`` in ms, after ``warmup`` calls not timed."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``fn``, ms."""
    return statistics.median(samples_ms(fn, repeat))


@dataclass
class Timing:
    label: str
    median_ms: float
    p95_ms: float
    bytes: int
    queries: int = 0  # SQL statements of one request (a figure the machine's load does not move)


def time_get(client: Any, url: str, repeat: int, *, cold: bool = False) -> Timing:
    """Median and p95 wall time of ``GET url`` through the whole Django stack (middleware to template).

    ``cold``: the statistics cache is emptied before each request, so every figure is computed again."""
    from django.core.cache import cache
    from django.test.utils import CaptureQueriesContext

    client.get(url)  # warm: imports, template loading, connection
    times = []
    size = 0
    for _ in range(repeat):
        if cold:
            cache.clear()
        t0 = time.perf_counter()
        r = client.get(url)
        times.append((time.perf_counter() - t0) * 1000)
        if r.status_code != 200:
            raise RuntimeError(f"GET {url} answered {r.status_code}")
        size = len(r.content)
    if cold:
        cache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return Timing(url, statistics.median(times), p95(times), size, len(queries))


def time_call(label: str, fn: Callable[[], Any], repeat: int) -> Timing:
    """Median and p95 of ``fn`` (after one call not timed)."""
    times = samples_ms(fn, repeat, warmup=1)
    return Timing(label, statistics.median(times), p95(times), 0)


class StatementCounter:
    """A database execute wrapper (``connection.execute_wrapper``) that keeps each statement it sees."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    @property
    def count(self) -> int:
        return len(self.statements)

    def __call__(self, execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        self.statements.append(sql)
        return execute(sql, *args)


# -- the site served in-process -----------------------------------------------------------------------------


class LiveSite:
    """The site on a free port of 127.0.0.1, served by a thread (static files as WhiteNoise serves them):
    ``with LiveSite() as origin``."""

    def __enter__(self) -> str:
        from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
        from django.core.wsgi import get_wsgi_application

        class Quiet(WSGIRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1"]
        self.server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
        self.server.set_app(get_wsgi_application())
        access_log_quiet()  # after django.setup(): no line per request
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_port}"

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

"""The push half of ``manage.py bench live``: the live table's event streams against polling, in the same run, over
real HTTP to the production web tier (``scripts/serve``: granian, ASGI, 2 processes) on the scratch database and
Redis (docs/PERFORMANCE.md › The live table).

A watcher here is what a watching page does, without a browser: it hears of the new version (a pushed frame, or
its next ``/version/`` poll every 1.5 s) and asks for the ``#match-live`` fragment (the in-place redraw, HX headers);
"drawn" is that fragment's last byte. Appends are recorded in this process (the store, then the wake-up on Redis)
and timed from their commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import resource
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.harness import Out, quantile
from benchmarks.http_stack import Service, Stack, service_env, start_web

POLL_EVERY = 1.5


def _rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, in KiB."""
    total, pids = 0, [pid]
    with contextlib.suppress(OSError):
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for each in list(pids[1:]):
        with contextlib.suppress(OSError):
            pids += [int(p) for p in Path(f"/proc/{each}/task/{each}/children").read_text().split()]
    for each in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


class Watchers:
    """An event loop in a thread holding HTTP watchers of matches: streams, pollers and idle streams."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.seen: dict[tuple[int, int], float] = {}  # (watcher, version) -> when drawn
        self.heard: dict[tuple[int, int], float] = {}  # (watcher, version) -> when its frame arrived (pushed)
        self.tasks: list[Any] = []
        self.ready = 0  # streams answered (their ``ready`` frame received)

    def run(self, coro: Any, timeout: float = 600) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def spawn(self, coro: Any) -> None:
        self.tasks.append(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def stop(self) -> None:
        async def cancel() -> None:
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        self.run(cancel())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    async def _get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        raw = await reader.read()
        writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        status_line, *rest = head.decode("latin-1").split("\r\n")
        found = {k.lower(): v.strip() for k, _, v in (r.partition(":") for r in rest)}
        return int(status_line.split()[1]), found, body

    async def _draw(self, who: int, match: int, version: int) -> None:
        await self._get(f"/matches/{match}/?seen={version - 1}", {"HX-Request": "true", "HX-Target": "match-live"})
        self.seen[(who, version)] = time.perf_counter()

    async def stream(self, who: int, match: int, draw: bool = True) -> None:
        """A pushed page: one stream; each entry's fragment is fetched (``draw``), else the frame alone counts.
        An ended stream is opened again from the last entry received, as ``EventSource`` does."""
        last = 0
        while True:
            last = await self._stream_once(who, match, draw, last)
            await asyncio.sleep(1.0)

    async def _stream_once(self, who: int, match: int, draw: bool, last: int) -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        request = (f"GET /matches/{match}/live/?from={last} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Accept: text/event-stream\r\n\r\n")  # fmt: skip
        writer.write(request.encode())
        try:
            while line := await reader.readline():
                if line.startswith(b"event: ready"):
                    self.ready += 1
                if line.startswith(b"id: "):
                    version = last = int(line[4:])
                    self.heard[(who, version)] = time.perf_counter()
                    if draw:
                        self.spawn(self._draw(who, match, version))
                    else:
                        self.seen[(who, version)] = time.perf_counter()
        finally:
            writer.close()
        return last

    async def poll(self, who: int, match: int) -> None:
        """A polling page: ``/version/`` every 1.5 s with its ETag (first poll at a random phase)."""
        await asyncio.sleep(random.uniform(0, POLL_EVERY))
        etag, version = "", None
        while True:
            status, headers, body = await self._get(
                f"/matches/{match}/version/", {"If-None-Match": etag} if etag else {}
            )
            if status == 200:
                etag = headers.get("etag", "")
                now = int(body.decode().split(":")[1].strip(" }"))
                if version is not None and now > version:
                    await self._draw(who, match, now)
                version = now
            await asyncio.sleep(POLL_EVERY)


def _latencies(watchers: Watchers, who: list[int], commits: dict[int, float], timeout: float = 10.0) -> list[float]:
    """Commit → drawn, in ms, for every (watcher, version) drawn; a poll that saw several versions at once drew
    only the newest, so an earlier version counts as drawn when a later one was."""
    deadline = time.perf_counter() + timeout
    last = max(commits)
    while time.perf_counter() < deadline and not all((w, last) in watchers.seen for w in who):
        time.sleep(0.02)
    out = []
    for w in who:
        for v, committed in commits.items():
            drawn = [watchers.seen[(w, u)] for u in commits if u >= v and (w, u) in watchers.seen]
            if drawn:
                out.append((min(drawn) - committed) * 1000)
    return out


def _appends(record: Callable[[int], None], count: int, gap: float) -> dict[int, float]:
    commits = {}
    for i in range(count):
        version = record(i)
        commits[version] = time.perf_counter()
        time.sleep(gap)
    return commits


def run_push(
    out: Out, database: str, redis_url: str, setup: Callable[[int], list[Any]], record: Any, options: Any
) -> None:
    """Measure and print the push against polling (module doc). ``setup(n)`` makes ``n`` public matches;
    ``record(match, i)`` records one entry and returns its version."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    idle, appends, gap = options["idle"], options["appends"], 1.0
    matches = setup(1 + (idle + 3) // 4)
    watched, rest = matches[0], matches[1:]
    env = service_env(
        database, redis_url, CHRONICLE_LOG_FORMAT="text", CHRONICLE_ACCESS_LOG="0", CHRONICLE_LIVE_MAX_SECONDS="3600"
    )  # fmt: skip  (opening 1,000 streams here takes minutes)
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-live-") as logs:
        web, port = start_web(env, Stack("granian", 2, 2), Path(logs))
        watchers = Watchers(port)
        try:
            _measure(out, web, watchers, watched, rest, record, appends, gap, idle)
        finally:
            watchers.stop()
            web.stop()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _measure(out: Out, web: Service, watchers: Watchers, watched: Any, rest: list[Any], record: Any,
             appends: int, gap: float, idle: int) -> None:  # fmt: skip
    rec = lambda i: record(watched, i)  # noqa: E731
    out(f"\nThe push against polling (scripts/serve: granian ASGI 2 processes; load average {os.getloadavg()[0]:.1f})")
    # polling: 4 pages, each /version/ every 1.5 s, then the fragment
    for w in range(4):
        watchers.spawn(watchers.poll(100 + w, watched.pk))
    time.sleep(POLL_EVERY * 2)
    cpu0, t0 = web.cpu(), time.perf_counter()
    commits = _appends(rec, appends, gap)
    poll_ms = _latencies(watchers, [100, 101, 102, 103], commits)
    poll_cpu, poll_secs = web.cpu() - cpu0, time.perf_counter() - t0
    for task in watchers.tasks:
        task.cancel()
    watchers.tasks.clear()
    # pushed: 4 pages, one stream each
    for w in range(4):
        watchers.spawn(watchers.stream(w, watched.pk))
    time.sleep(5)  # the polls' last redraws are done
    cpu0 = web.cpu()
    quiet_start = time.perf_counter()
    time.sleep(5)
    quiet_cpu = (web.cpu() - cpu0) / (time.perf_counter() - quiet_start)
    cpu0, t0 = web.cpu(), time.perf_counter()
    commits = _appends(rec, appends, gap)
    push_ms = _latencies(watchers, [0, 1, 2, 3], commits)
    push_cpu = web.cpu() - cpu0
    frame_ms = [
        (watchers.heard[(w, v)] - c) * 1000 for w in range(4) for v, c in commits.items() if (w, v) in watchers.heard
    ]
    out(f"{'commit → drawn (fragment received), 4 watchers':<52} {'p50 ms':>8} {'p95 ms':>8} {'samples':>8}")
    for label, values in (("pushed: the frame alone (commit → frame received)", frame_ms),
                          ("pushed (one event stream a page)", push_ms), ("polled (every 1.5 s), same run", poll_ms)):  # fmt: skip
        out(f"{label:<52} {quantile(values, 0.5):>8.0f} {quantile(values, 0.95):>8.0f} {len(values):>8}")
    out(f"web CPU per append with 4 watchers, pushed (4 redraws included): {push_cpu / appends * 1000:.1f} ms")
    polls_per_append = 4 * (poll_secs / appends) / POLL_EVERY
    out(f"web CPU per append with 4 watchers, polled: {poll_cpu / appends * 1000:.1f} ms "
        f"({polls_per_append:.1f} polls per append at one append per {poll_secs / appends:.2f} s)")  # fmt: skip
    out(f"web CPU while 4 pushed watchers wait: {quiet_cpu * 100:.2f} % of one core")
    # idle watchers: streams held on other matches, then the 4 measured again
    rss0 = _rss_kib(web.proc.pid)
    for i in range(idle):
        watchers.spawn(watchers.stream(1000 + i, rest[i // 4].pk, draw=False))
    deadline = time.perf_counter() + 600
    while watchers.ready < 4 + idle and time.perf_counter() < deadline:
        time.sleep(0.5)
    out(f"{watchers.ready - 4} of {idle} idle streams open in {time.perf_counter() - deadline + 600:.0f} s")
    time.sleep(20)  # their first reads and what opening them left (threads ending) are done
    cpu0, t0 = web.cpu(), time.perf_counter()
    time.sleep(10)
    idle_cpu = (web.cpu() - cpu0) / (time.perf_counter() - t0)
    rss1 = _rss_kib(web.proc.pid)
    commits = _appends(rec, appends, gap)
    busy_ms = _latencies(watchers, [0, 1, 2, 3], commits, timeout=30) or [float("nan")]
    out(f"{idle} idle watchers ({len(rest)} matches × 4): web CPU {idle_cpu * 100:.2f} % of one core, "
        f"web memory {rss1 / 1024:.0f} MiB ({(rss1 - rss0) / 1024:+.0f} MiB for them)")  # fmt: skip
    out(f"with them connected, commit → drawn for the 4 watchers: p50 {quantile(busy_ms, 0.5):.0f} ms, "
        f"p95 {quantile(busy_ms, 0.95):.0f} ms ({len(busy_ms)} samples)")  # fmt: skip

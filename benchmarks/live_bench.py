"""manage.py bench live: what a watching phone costs the server (the live table's version poll).

Runs the whole Django stack in-process (middleware, sessions, the view) against a scratch PostgreSQL database
that is created, migrated and dropped again. Each figure is printed beside the baseline it replaces, measured
in the same run: reloading the match page. See docs/PERFORMANCE.md.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test import Client

from benchmarks.harness import Out, StatementCounter, access_log_quiet, scratch_database, test_client_open

HELP = "Benchmark the live table's version poll (ETag/304) against reloading the match page (scratch database)."
POSTGRES = "required"

POLL_EVERY = 1.5  # seconds between two polls of one phone (static/frontend/app.js)


def _rate(call: Callable[[], Any], seconds: float, rounds: int) -> tuple[float, float]:
    """Median requests per second over ``rounds`` rounds of ``seconds`` / ``rounds`` each, and the median ms."""
    rates = []
    per_round = seconds / rounds
    for _ in range(rounds):
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < per_round:
            call()
            n += 1
        rates.append(n / (time.perf_counter() - start))
    rate = statistics.median(rates)
    return rate, 1000 / rate


def add_arguments(parser: Any) -> None:
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per figure (5)")
    parser.add_argument("--moves", type=int, default=40, help="moves recorded in the benchmark match (40)")
    parser.add_argument("--idle", type=int, default=1000, help="idle pushed watchers held open (1000)")
    parser.add_argument("--appends", type=int, default=20, help="appends timed per way (20)")
    parser.add_argument("--no-push", action="store_true", help="the poll's costs only (no web tier, no Redis)")


def run(options: dict[str, Any], out: Out) -> None:
    name = f"chronicle_bench_live_{os.getpid()}"
    with scratch_database(name) as params, test_client_open():
        _run(out, options["seconds"], options["moves"])
        if not options["no_push"]:
            _push(out, params, options)
    out(f"Scratch database {name} dropped.")


def _push(out: Out, params: dict[str, Any], options: dict[str, Any]) -> None:
    """The push against polling over real HTTP (``benchmarks.live_push``); needs Redis (``REDIS_URL``)."""
    from django.conf import settings

    from benchmarks.http_stack import bench_matches
    from benchmarks.live_push import run_push
    from matches.models import Match
    from matches.services import match_event_record
    from matches.store import events as store

    if not settings.REDIS_URL:
        out("\nThe push against polling needs Redis (REDIS_URL): not measured.")
        return
    url = f"postgres://{params.get('user', 'postgres')}@{params.get('host', '127.0.0.1')}:{params.get('port', 5432)}/"
    url += params["dbname"]

    def setup(count: int) -> list[Any]:
        _, ids = bench_matches(count)
        Match.objects.filter(pk__in=ids).update(is_public=True)
        return list(Match.objects.filter(pk__in=ids).select_related("stream", "owner").order_by("pk"))

    def record(match: Any, i: int) -> int:
        seat = store.head_load(match.stream_id, fresh=True).version % 2
        result = match_event_record(match=match, user=match.owner, type="stones_taken", seat=seat, data={"count": 1})
        return result.version

    run_push(out, url, settings.REDIS_URL, setup, record, options)


def _run(out: Out, seconds: float, moves: int) -> None:
    from django.contrib.auth import get_user_model

    from matches.services import match_create, match_event_record
    from rulesets import get_ruleset

    access_log_quiet()
    user = get_user_model().objects.create_user(username="bench", password="bench-pass-123")
    # public: a spectator watches it (matches are private by default since issue 41; a private one answers 404)
    match = match_create(owner=user, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)
    ruleset = get_ruleset("get-salty")
    from matches.store import events as store

    for i in range(moves):
        legal = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)
        if not legal or ruleset.outcome(store.head_load(match.stream_id).state):
            break
        quiet = [m for m in legal if ruleset.winner_after(store.head_load(match.stream_id).state, m) is None]
        move = (quiet or legal)[(i * 7 + 3) % len(quiet or legal)]
        match_event_record(match=match, user=user, type=move.type, seat=move.seat, data=move.data)
    version = store.head_load(match.stream_id, fresh=True).version
    spectator, recorder = Client(), Client()
    recorder.force_login(user)
    version_url, page_url = f"/matches/{match.pk}/version/", f"/matches/{match.pk}/"
    etag = spectator.get(version_url)["ETag"]

    def check(client: Client, url: str, status: int, **headers: str) -> Callable[[], Any]:
        def call() -> Any:
            response = client.get(url, **headers)
            assert response.status_code == status, response.status_code
            return response

        return call

    figures = [
        ("poll, nothing new (304), spectator", check(spectator, version_url, 304, HTTP_IF_NONE_MATCH=etag)),
        ("poll, nothing new (304), signed-in recorder", check(recorder, version_url, 304, HTTP_IF_NONE_MATCH=etag)),
        ("poll, new version (200 + JSON), spectator", check(spectator, version_url, 200)),
        ("baseline: reload the match page, spectator", check(spectator, page_url, 200)),
        ("baseline: reload the match page, recorder", check(recorder, page_url, 200)),
    ]
    out(
        f"Live table benchmark: PostgreSQL {connection.pg_version // 10000}, Get Salty match at version {version}, "
        f"in-process Django stack (no network), {seconds:g} s per figure, median of 5 rounds\n"
    )
    out(f"{'request':<48} {'req/s':>8} {'ms':>7} {'queries':>8} {'bytes':>7}")
    results = {}
    for label, call in figures:
        call()  # warm
        counter = StatementCounter()
        with connection.execute_wrapper(counter):
            response = call()
        rate, ms = _rate(call, seconds, 5)
        results[label] = rate
        out(f"{label:<48} {rate:>8,.0f} {ms:>7.2f} {counter.count:>8} {len(response.content):>7,}")
    poll = results["poll, nothing new (304), spectator"]
    page = results["baseline: reload the match page, spectator"]
    out(f"\nA 304 poll costs {page and poll / page:.1f}× less than reloading the page (same run).")
    out(
        f"One web process answers the polls of about {poll * POLL_EVERY:,.0f} watching phones "
        f"(one poll per {POLL_EVERY:g} s each) at full load of one core."
    )

"""manage.py bench stats: statistics pages and API over N finished matches, beside same-run baselines.

Generates N finished matches (score sheets of a few box games, and Last Stone games) among a group of
players, in bulk but through the real replay (each stream's head is the fold of its events), projects them
with the real projectors, then times the statistics pages and API through Django's full request path. Runs in a
scratch PostgreSQL database (created, migrated and dropped), like bench store. Exit code 0 whatever the figures;
the target (every page and API call under 50 ms at 10,000 matches) is printed PASS or FAIL.
"""

from __future__ import annotations

import logging
import os
import random
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client

from benchmarks.harness import Out, cpu_count, pg_version, scratch_database, test_client_open, time_call, time_get
from matches.models import Event as EventRow
from matches.models import Match, MatchSummary, Player, Seat, Stream
from rulesets import Event, get_ruleset
from rulesets.replay import replay

HELP = "Benchmark the statistics read model, API and pages at N finished matches (scratch database)."
POSTGRES = "rerun"
TARGET_MS = 50.0

TITLES = ("Azul", "Cascadia", "Wingspan", "Carcassonne", "Ticket to Ride")
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu")


def _score_sheet(rng: random.Random, seats: int) -> tuple[dict[str, Any], list[Event]]:
    options = {"title": rng.choice(TITLES), "bgg_id": None, "highest_wins": True, "cooperative": False}
    events = [Event("points_scored", s, {"points": rng.randint(20, 120), "round": None}) for s in range(seats)]
    return options, [*events, Event("game_ended", None, {"won": None})]


def _last_stone(rng: random.Random) -> tuple[dict[str, Any], list[Event]]:
    rules = get_ruleset("last-stone")
    options = {"stones": rng.randint(5, 15), "first_seat": rng.randint(0, 1)}
    state = rules.initial_state(options, 2)
    events = []
    while rules.outcome(state) is None:
        move = rng.choice(rules.legal_moves(state))
        events.append(move)
        state = rules.apply(state, move)
    return options, events


def generate(count: int, *, seed: int = 7, batch: int = 500) -> int:
    """Create ``count`` finished matches owned by one user (public), in batches; returns events written."""
    rng = random.Random(seed)
    owner = get_user_model().objects.create_user("bench-owner", password="bench-pass-123")
    players = [Player.objects.create(owner=owner, name=n) for n in NAMES]
    start = datetime(2025, 1, 1, 19, tzinfo=UTC)
    written = 0
    for first in range(0, count, batch):
        n = min(batch, count - first)
        with transaction.atomic():
            specs = []
            for i in range(n):
                if rng.random() < 0.7:
                    seats = rng.randint(2, 4)
                    game, (options, events) = "scoresheet", _score_sheet(rng, seats)
                else:
                    seats, game = 2, "last-stone"
                    options, events = _last_stone(rng)
                pos = replay(get_ruleset(game), options, seats, events)
                specs.append((game, options, seats, events, pos, start + timedelta(hours=9 * (first + i))))
            streams = Stream.objects.bulk_create(
                [
                    Stream(kind="match", game=g, options=o, seat_count=s, version=p.version, state=p.state)
                    for g, o, s, _, p, _ in specs
                ]
            )
            matches = Match.objects.bulk_create(
                [
                    Match(stream=st, game=spec[0], owner=owner, is_public=True, status="finished", played_at=spec[5])
                    for st, spec in zip(streams, specs, strict=True)
                ]
            )
            Seat.objects.bulk_create(
                [
                    Seat(match=m, index=s, player=p)
                    for m, spec in zip(matches, specs, strict=True)
                    for s, p in enumerate(rng.sample(players, spec[2]))
                ]
            )
            MatchSummary.objects.bulk_create([MatchSummary(match=m) for m in matches])
            rows = [
                EventRow(
                    stream=st,
                    version=v,
                    type=e.type,
                    seat=e.seat,
                    data=e.data,
                    recorded_by=owner,
                    recorded_at=spec[5] + timedelta(minutes=3 * v),
                )
                for st, spec in zip(streams, specs, strict=True)
                for v, e in enumerate(spec[3], start=1)
            ]
            EventRow.objects.bulk_create(rows, batch_size=2000)
            written += len(rows)
    return written


def raw_count() -> None:
    """Baseline: one aggregate over the same read model, straight SQL (no Django request)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT player_id, count(*), sum(won::int) FROM matches_playerresult GROUP BY player_id")
        cursor.fetchall()


def add_arguments(parser: Any) -> None:
    parser.add_argument("--matches", type=int, default=10_000, help="finished matches to generate (10000)")
    parser.add_argument("--repeat", type=int, default=40, help="requests per URL (40)")


def run(options: dict[str, Any], out: Out) -> None:
    from matches.models import Player, PlayerResult, StatsRollup
    from matches.projections.projectors import PROJECTORS, project

    logging.disable(logging.INFO)  # the access log of every timed request would drown the figures
    n, repeat = options["matches"], options["repeat"]
    name = f"chronicle_bench_stats_{os.getpid()}"
    with scratch_database(name), test_client_open():
        t0 = time.perf_counter()
        events = generate(n)
        t_gen = time.perf_counter() - t0
        t0 = time.perf_counter()
        projected = sum(project(p) for p in PROJECTORS)
        t_proj = time.perf_counter() - t0
        with connection.cursor() as cursor:  # planner statistics, as autovacuum keeps them on a live database
            cursor.execute("ANALYZE")
        busiest = PlayerResult.objects.values_list("player_id", flat=True).first()
        ana = Player.objects.get(pk=busiest)
        out(f"Chronicle statistics benchmark: PostgreSQL {pg_version()}, scratch database {name}, {cpu_count()} CPU(s)")
        out(
            f"Data: {n:,} finished matches, {events:,} events, {PlayerResult.objects.count():,} seat results, "
            f"{StatsRollup.objects.count():,} roll-up rows "
            f"(generated in {t_gen:.1f} s; projected {projected:,} log entries in {t_proj:.1f} s = "
            f"{projected / max(t_proj, 1e-9):,.0f}/s)\n"
        )
        client = Client()
        base_api = time_get(client, "/api/games/last-stone/", repeat)
        base_sql = time_call("raw SQL GROUP BY over the read model", raw_count, repeat)
        urls = [
            "/api/stats/players/",
            f"/api/stats/players/{ana.pk}/",
            "/api/stats/games/scoresheet/",
            "/api/stats/games/last-stone/?since=2026-01-01",
            f"/api/stats/players/?players={ana.pk}",
            "/stats/players/",
            f"/players/{ana.pk}/",
            "/games/scoresheet/",
            "/games/",
        ]
        cold = [time_get(client, url, repeat, cold=True) for url in urls]
        warm = [time_get(client, url, repeat) for url in urls]
    out(f"Baselines (same run, {repeat} requests each, median / p95):")
    out(f"  {'GET /api/games/last-stone/ (no database)':<52} {base_api.median_ms:7.2f} / {base_api.p95_ms:7.2f} ms")
    out(f"  {base_sql.label:<52} {base_sql.median_ms:7.2f} / {base_sql.p95_ms:7.2f} ms\n")
    worst = {}
    for title, timings in (
        ("computed (cache emptied before each request)", cold),
        ("repeated views (cached)", warm),
    ):
        out(f"Statistics through the whole Django request path, {title}:")
        out("  (median / p95, body size, median ÷ raw SQL GROUP BY, SQL statements per request)")
        worst[title] = max(t.p95_ms for t in timings)
        for t in timings:
            out(
                f"  {t.label:<52} {t.median_ms:7.2f} / {t.p95_ms:7.2f} ms  {t.bytes / 1024:6.1f} KiB  "
                f"×{t.median_ms / max(base_sql.median_ms, 1e-9):<5.1f} {t.queries:3d} queries"
            )
        out("")
    for title, value in worst.items():
        word = "PASS" if value < TARGET_MS else "FAIL"
        out(f"  {word}  p95 < {TARGET_MS:g} ms at {n:,} matches, {title}: worst p95 {value:.2f} ms")
    out(f"Scratch database {name} dropped.")

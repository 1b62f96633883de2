"""The data generator and measurements behind ``manage.py bench_stats`` (see docs/PERFORMANCE.md).

Generates N finished matches (score sheets of a few box games, and Last Stone games) among a group of
players, in bulk but through the real replay (each stream's head is the fold of its events), projects them
with the real projectors, then times the statistics pages and API through Django's full request path.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches.models import Event as EventRow
from matches.models import Match, MatchSummary, Player, Seat, Stream
from rulesets import Event, get_ruleset
from rulesets.replay import replay

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


@dataclass
class Timing:
    label: str
    median_ms: float
    p95_ms: float
    bytes: int
    queries: int = 0  # SQL statements of one request (a figure the machine's load does not move)


def time_get(client: Client, url: str, repeat: int, *, cold: bool = False) -> Timing:
    """Median and p95 wall time of ``GET url`` through the whole Django stack (middleware to template).

    ``cold``: the statistics cache is emptied before each request, so every figure is computed again."""
    from django.core.cache import cache

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
    times.sort()
    if cold:
        cache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return Timing(url, statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)], size, len(queries))


def time_call(label: str, fn: Callable[[], Any], repeat: int) -> Timing:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return Timing(label, statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)], 0)


def raw_count() -> None:
    """Baseline: one aggregate over the same read model, straight SQL (no Django request)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT player_id, count(*), sum(won::int) FROM matches_playerresult GROUP BY player_id")
        cursor.fetchall()

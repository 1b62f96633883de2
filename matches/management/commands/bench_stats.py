"""manage.py bench_stats: statistics pages and API over N finished matches, beside same-run baselines.

Runs in a scratch PostgreSQL database (created, migrated and dropped), like bench_store. Exit code 0 whatever
the figures; the target (every page and API call under 50 ms at 10,000 matches) is printed PASS or FAIL.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection

DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
TARGET_MS = 50.0


class Command(BaseCommand):
    help = "Benchmark the statistics read model, API and pages at N finished matches (scratch database)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--matches", type=int, default=10_000, help="finished matches to generate (10000)")
        parser.add_argument("--repeat", type=int, default=40, help="requests per URL (40)")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            self._rerun_on_postgres(options)
            return
        from django.test import Client

        from benchmarks import stats_bench as stb
        from benchmarks import store_bench as sb
        from matches.models import Player, PlayerResult, StatsRollup
        from matches.projections.projectors import PROJECTORS, project

        logging.disable(logging.INFO)  # the access log of every timed request would drown the figures
        out = self.stdout.write
        n, repeat = options["matches"], options["repeat"]
        name = f"chronicle_bench_stats_{os.getpid()}"
        with sb.scratch_database(name):
            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
            if not os.environ.get("DJANGO_SECRET_KEY") and not settings.DEBUG:
                settings.SECRET_KEY = os.urandom(32).hex()  # the test client signs a session; no key is set
            rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]  # one client asks far beyond a person's rate
            settings.REST_FRAMEWORK = {
                **settings.REST_FRAMEWORK,
                "DEFAULT_THROTTLE_RATES": dict.fromkeys(rates, "1000000/min"),
            }
            t0 = time.perf_counter()
            events = stb.generate(n)
            t_gen = time.perf_counter() - t0
            t0 = time.perf_counter()
            projected = sum(project(p) for p in PROJECTORS)
            t_proj = time.perf_counter() - t0
            with connection.cursor() as cursor:  # planner statistics, as autovacuum keeps them on a live database
                cursor.execute("ANALYZE")
            busiest = PlayerResult.objects.values_list("player_id", flat=True).first()
            ana = Player.objects.get(pk=busiest)
            pg = connection.pg_version
            out(
                f"Chronicle statistics benchmark: PostgreSQL {pg // 10000}.{pg % 10000}, scratch database {name}, "
                f"{sb.cpu_count()} CPU(s)"
            )
            out(
                f"Data: {n:,} finished matches, {events:,} events, {PlayerResult.objects.count():,} seat results, "
                f"{StatsRollup.objects.count():,} roll-up rows "
                f"(generated in {t_gen:.1f} s; projected {projected:,} log entries in {t_proj:.1f} s = "
                f"{projected / max(t_proj, 1e-9):,.0f}/s)\n"
            )
            client = Client()
            base_api = stb.time_get(client, "/api/games/last-stone/", repeat)
            base_sql = stb.time_call("raw SQL GROUP BY over the read model", stb.raw_count, repeat)
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
            cold = [stb.time_get(client, url, repeat, cold=True) for url in urls]
            warm = [stb.time_get(client, url, repeat) for url in urls]
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

    def _rerun_on_postgres(self, options: dict[str, Any]) -> None:
        url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_SERVER)
        self.stdout.write(f"DATABASE_URL is not PostgreSQL; re-running against {url} (scratch database there).")
        argv = [sys.executable, str(settings.BASE_DIR / "manage.py"), "bench_stats", "--matches", str(options["matches"]),
                "--repeat", str(options["repeat"])]  # fmt: skip
        done = subprocess.run(argv, env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True)
        self.stdout.write(done.stdout)
        if done.returncode:
            self.stderr.write(done.stderr)

"""manage.py bench inplace: what one recorded move costs, answered in place (htmx) or by a whole new page.

Runs the whole Django stack in-process (middleware, sessions, the views) against a scratch PostgreSQL database
that is created, migrated and dropped again. Each sample records one move from the legal-moves form of a Get
Salty match at the same position, both ways, interleaved: the baseline is what a phone without JavaScript does
(POST, 302, GET of the whole match page); in place is what the page's htmx does (one POST answered with the
changed part of the page, ``#match-live``). See docs/PERFORMANCE.md.
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid
from typing import Any

from django.db import connection
from django.test import Client

from benchmarks.harness import Out, StatementCounter, access_log_quiet, scratch_database, test_client_open

HELP = "Benchmark one recorded move: answered in place (htmx fragment) vs POST + redirect + whole page."
POSTGRES = "required"

IN_PLACE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match-live", "HTTP_HX_BOOSTED": "true"}


def add_arguments(parser: Any) -> None:
    parser.add_argument("--samples", type=int, default=30, help="moves recorded each way (30)")
    parser.add_argument("--moves", type=int, default=12, help="moves already on the board (12)")


def run(options: dict[str, Any], out: Out) -> None:
    name = f"chronicle_bench_inplace_{os.getpid()}"
    with scratch_database(name), test_client_open():
        _run(out, options["samples"], options["moves"])
    out(f"Scratch database {name} dropped.")


def _run(out: Out, samples: int, moves: int) -> None:
    from django.contrib.auth import get_user_model

    from matches.services import match_create, match_event_record
    from matches.store import events as store
    from rulesets import get_ruleset

    access_log_quiet()
    user = get_user_model().objects.create_user(username="bench", password="bench-pass-123")
    ruleset = get_ruleset("get-salty")
    client = Client()
    client.force_login(user)

    def position() -> tuple[Any, dict[str, str]]:
        """A fresh match played to ``moves`` moves, and the legal-moves form's fields for its next move."""
        match = match_create(owner=user, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])
        for i in range(moves + 1):
            state = store.head_load(match.stream_id, fresh=True).state
            legal = ruleset.legal_moves(state)
            quiet = [m for m in legal if ruleset.winner_after(state, m) is None] or legal
            move = quiet[(i * 7 + 3) % len(quiet)]
            if i == moves:
                return match, {
                    "move": json.dumps(move.to_dict()), "origin": "legal", "idempotency_key": uuid.uuid4().hex,
                    "expected_version": str(store.head_load(match.stream_id, fresh=True).version),
                }  # fmt: skip
            match_event_record(match=match, user=user, type=move.type, seat=move.seat, data=move.data)
        raise AssertionError("unreachable")

    def whole_page(match: Any, data: dict[str, str]) -> tuple[int, int]:
        posted = client.post(f"/matches/{match.pk}/record/", data)
        assert posted.status_code == 302, posted.status_code
        page = client.get(posted["Location"].split("#")[0])
        assert page.status_code == 200 and b'id="match-live"' in page.content
        return len(posted.content) + len(page.content), 2

    def in_place(match: Any, data: dict[str, str]) -> tuple[int, int]:
        answer = client.post(f"/matches/{match.pk}/record/", data, **IN_PLACE)
        assert answer.status_code == 200 and answer.content.lstrip().startswith(b'<div id="match-live"')
        return len(answer.content), 1

    ways = {
        "baseline: POST + 302 + GET whole page": whole_page,
        "in place: POST answered with #match-live": in_place,
    }
    figures: dict[str, list[tuple[float, int, int, int]]] = {label: [] for label in ways}
    for way in ways.values():  # warm both paths (templates, head cache)
        way(*position())
    for _ in range(samples):
        for label, way in ways.items():
            match, data = position()
            counter = StatementCounter()
            with connection.execute_wrapper(counter):
                start = time.perf_counter()
                size, requests = way(match, data)
                ms = (time.perf_counter() - start) * 1000
            figures[label].append((ms, size, counter.count, requests))

    out(
        f"One recorded move, Get Salty after {moves} moves: PostgreSQL {connection.pg_version // 10000}, "
        f"in-process Django stack (no network), median of {samples} samples each way, interleaved\n"
    )
    out(f"{'way':<44} {'requests':>8} {'server ms':>10} {'queries':>8} {'bytes':>8}")
    medians = {}
    for label, rows in figures.items():
        ms = statistics.median(r[0] for r in rows)
        size = int(statistics.median(r[1] for r in rows))
        queries = int(statistics.median(r[2] for r in rows))
        medians[label] = (ms, size)
        out(f"{label:<44} {rows[0][3]:>8} {ms:>10.1f} {queries:>8} {size:>8,}")
    (base_ms, base_size), (new_ms, new_size) = medians.values()
    out(
        f"\nIn place: {base_ms / new_ms:.2f}× less server time, {base_size / new_size:.2f}× fewer bytes, one round trip."
    )

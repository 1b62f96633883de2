"""``GET /healthz``: is this web process able to serve? PostgreSQL is checked; Redis and the apps' checks reported.

Answers JSON: 200 with ``status`` ``ok`` (or ``degraded`` when Redis is unreachable or a registered check fails
or judges itself degraded, as the projector lagging by more than ``CHRONICLE_HEALTH_MAX_LAG`` seconds: the app
still records and reads), 503 ``down`` when PostgreSQL does not answer. Load balancers route on the status
code; operators read the body. The apps' checks register at start (:func:`register_check`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


class Check(NamedTuple):
    """A health check an app registers: ``run()`` reports (a dict, or None for nothing to add) or raises;
    ``degraded(report)`` says whether a report that ran says the app is degraded (still serving)."""

    run: Callable[[], dict[str, Any] | None]
    degraded: Callable[[dict[str, Any]], bool]


_checks: dict[str, Check] = {}


def register_check(
    name: str, run: Callable[[], dict[str, Any] | None], degraded: Callable[[dict[str, Any]], bool]
) -> None:
    """Add ``name`` to the report (after ``database`` and ``redis``), run while PostgreSQL answers; a check
    that fails, or whose report ``degraded`` judges so, makes the status ``degraded`` (``matches`` registers
    ``projector`` at start: config imports no app)."""
    _checks[name] = Check(run, degraded)


def _timed(check: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        result = {"ok": True, **(check() or {})}
    except Exception as exc:  # any failure is the answer, not an error of the health check
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    result["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return result


def _database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def _redis() -> dict[str, Any] | None:
    if not settings.REDIS_URL:
        return None
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=0.5, socket_connect_timeout=0.5)
    try:
        client.ping()
    finally:
        client.close()
    return {}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The health report (see the module docstring)."""
    database = _timed(_database)
    body: dict[str, Any] = {"database": database}
    if settings.REDIS_URL:
        body["redis"] = _timed(_redis)
    else:
        body["redis"] = {"ok": None, "detail": "not configured (tasks run in-process)"}
    healthy = database["ok"]
    degraded = body["redis"]["ok"] is False or not healthy
    for name, check in _checks.items() if healthy else ():
        body[name] = report = _timed(check.run)
        degraded = degraded or not report["ok"] or check.degraded(report)
    body = {"status": "down" if not healthy else ("degraded" if degraded else "ok"), **body}
    return JsonResponse(body, status=200 if healthy else 503)

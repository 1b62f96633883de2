"""``GET /healthz``: is this web process able to serve? PostgreSQL is checked; Redis and the projector reported.

Answers JSON: 200 with ``status`` ``ok`` (or ``degraded`` when Redis is unreachable or the projector lags by
more than ``CHRONICLE_HEALTH_MAX_LAG`` seconds: the app still records and reads), 503 ``down`` when
PostgreSQL does not answer. Load balancers route on the status code; operators read the body.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

# events after the projector's checkpoint (in the reader's own order on PostgreSQL), counted up to a cap
_LAG_SQL = {
    "postgresql": """
SELECT count(*), extract(epoch FROM now() - min(recorded_at))
  FROM (SELECT recorded_at FROM matches_event e
         WHERE (e.txid, e.position) > (SELECT coalesce(max(c.txid), 0)::text::xid8, coalesce(max(c.position), 0)
                                         FROM matches_projectioncheckpoint c WHERE c.name = %s)
         ORDER BY e.txid, e.position LIMIT 10000) AS pending
""",
    "sqlite": """
SELECT count(*), (julianday('now') - julianday(min(recorded_at))) * 86400
  FROM (SELECT recorded_at FROM matches_event
         WHERE position > coalesce((SELECT position FROM matches_projectioncheckpoint WHERE name = %s), 0)
         ORDER BY position LIMIT 10000) AS pending
""",
}


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


def _projector() -> dict[str, Any]:
    from matches.projections.projectors import MATCH_SUMMARY

    with connection.cursor() as cursor:
        cursor.execute(_LAG_SQL[connection.vendor], [MATCH_SUMMARY])
        pending, oldest = cursor.fetchone()
    return {"pending_events": int(pending), "lag_seconds": round(float(oldest or 0), 3), "capped_at": 10000}


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
    if database["ok"]:
        body["projector"] = _timed(_projector)
    healthy = database["ok"]
    lagging = body.get("projector", {}).get("lag_seconds", 0) > settings.CHRONICLE_HEALTH_MAX_LAG
    degraded = body["redis"]["ok"] is False or lagging or not body.get("projector", {}).get("ok", False)
    body = {"status": "down" if not healthy else ("degraded" if degraded else "ok"), **body}
    return JsonResponse(body, status=200 if healthy else 503)

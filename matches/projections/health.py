"""The projector's health check (``/healthz``'s ``projector``): how far the match summary lags the global log.

Registered with ``config.health`` on import (``matches.apps`` imports it when Django is ready): config knows no
app's tables. Degraded when the oldest unprojected event is older than ``CHRONICLE_HEALTH_MAX_LAG`` seconds.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection

from config.health import register_check
from matches.projections.projectors import MATCH_SUMMARY

CAP = 10000  # events counted at most

# events after the projector's checkpoint (in the reader's own order on PostgreSQL), counted up to a cap
_LAG_SQL = {
    "postgresql": f"""
SELECT count(*), extract(epoch FROM now() - min(recorded_at))
  FROM (SELECT recorded_at FROM matches_event e
         WHERE (e.txid, e.position) > (SELECT coalesce(max(c.txid), 0)::text::xid8, coalesce(max(c.position), 0)
                                         FROM matches_projectioncheckpoint c WHERE c.name = %s)
         ORDER BY e.txid, e.position LIMIT {CAP}) AS pending
""",
    "sqlite": f"""
SELECT count(*), (julianday('now') - julianday(min(recorded_at))) * 86400
  FROM (SELECT recorded_at FROM matches_event
         WHERE position > coalesce((SELECT position FROM matches_projectioncheckpoint WHERE name = %s), 0)
         ORDER BY position LIMIT {CAP}) AS pending
""",
}


def projector_lag() -> dict[str, Any]:
    """Events the match summary has not projected yet (up to ``CAP``) and the age of the oldest, in seconds."""
    with connection.cursor() as cursor:
        cursor.execute(_LAG_SQL[connection.vendor], [MATCH_SUMMARY])
        pending, oldest = cursor.fetchone()
    return {"pending_events": int(pending), "lag_seconds": round(float(oldest or 0), 3), "capped_at": CAP}


def lagging(report: dict[str, Any]) -> bool:
    """Whether the projector lags by more than ``CHRONICLE_HEALTH_MAX_LAG`` seconds."""
    return report.get("lag_seconds", 0) > settings.CHRONICLE_HEALTH_MAX_LAG


register_check("projector", projector_lag, lagging)

"""Reads from a PostgreSQL streaming replica (``DATABASE_REPLICA_URL``), writes and heads on the primary.

Only with ``DATABASE_REPLICA_URL`` set (``settings.DATABASE_ROUTERS`` names :class:`ReplicaRouter` then); the
embedded default and a single PostgreSQL have no router and nothing changes.

- **What reads where.** Inside a ``GET`` or ``HEAD`` request, ORM reads go to the replica, all of them, so a
  page is one snapshot (its board, turn line and history agree). Everything else stays on the primary: every
  write; every read of another method, so the head an append is checked against (and the append, the
  idempotency check, the rebase) is the primary's; reads inside a transaction on the primary; raw SQL on
  ``django.db.connection`` (the store's log reads, the projectors, the stats roll-ups, the health check); the
  prepared hot path (``config.db``); and all work outside a request (Celery: the projectors, commands).
- **A writer reads its own writes.** After a write request (any other method answered below 400) the
  middleware notes the primary's WAL position (``pg_current_wal_lsn()``): in a cookie for the browser and, for
  an API client, in the cache under a hash of its ``Authorization`` header. That client's reads go to the
  primary until the replica has replayed past that position, or for ``CHRONICLE_REPLICA_RYW_SECONDS`` at most.
  While Redis cannot be reached an API client's position cannot be known (the cache falls back to per-process
  memory, and its note may sit in another web process): its reads then go to the primary, never the replica.
- **A replica that cannot serve is not used.** At a request's first routed read it is asked for its state
  (one query): down or unreachable (then not asked again for ``DOWN_RETRY_SECONDS``), no longer a standby
  (promoted away: it may have diverged), or replaying more than ``CHRONICLE_REPLICA_MAX_LAG`` seconds behind,
  and the request reads from the primary. Each change of the replica's state is logged once.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.utils import DatabaseError
from django.http import HttpRequest, HttpResponse

log = logging.getLogger("chronicle.replica")

REPLICA = "replica"
SAFE_METHODS = ("GET", "HEAD")
RYW_COOKIE = "chronicle_ryw"  # the primary's WAL position after this browser's last write
DOWN_RETRY_SECONDS = 5.0


def lsn_value(text: str) -> int:
    """A PostgreSQL WAL position (``16/B374D848``) as a number; ValueError if it is not one."""
    high, _, low = text.strip().partition("/")
    if not low:
        raise ValueError(text)
    return (int(high, 16) << 32) | int(low, 16)


@dataclass
class _Plan:
    """One safe request's reads: the WAL position they must see (None: any), and the decision once made."""

    min_lsn: int | None
    alias: str | None = None


_plan: contextvars.ContextVar[_Plan | None] = contextvars.ContextVar("chronicle_replica_plan", default=None)


class _ReplicaState:
    """What this process last learned of the replica; one log line per change of state."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_until = 0.0
        self.said = "usable"
        self.behind: tuple[int, float] | None = None  # (WAL position received, when first seen unreplayed)

    def lag(self, replayed: int, received: int | None) -> float:
        """Seconds since the replica received WAL it has still not replayed (0 when it has replayed all).

        Not ``now() - pg_last_xact_replay_timestamp()``: on a quiet primary that is the age of the last commit,
        and a replica that is up to date would look minutes behind the moment a new commit arrives.
        """
        now = time.monotonic()
        with self.lock:
            if received is None or replayed >= received:
                self.behind = None
                return 0.0
            if self.behind is None or replayed >= self.behind[0]:
                self.behind = (received, now)  # behind since now: on what it has received just now
            return now - self.behind[1]

    def say(self, state: str, why: str) -> None:
        with self.lock:
            if state == self.said:
                return
            self.said = state
        if state == "usable":
            log.warning("the read replica serves reads again")
        else:
            log.warning("the read replica is not used (%s); reads go to the primary until it can serve", why)


_state = _ReplicaState()


def _replica_position() -> tuple[bool, int, float] | None:
    """(standby?, replayed WAL position, replay lag in seconds) from the replica; None if it cannot answer."""
    if time.monotonic() < _state.down_until:
        return None
    conn = connections[REPLICA]
    try:
        with conn.cursor() as cursor:
            cursor.execute(
                "SELECT pg_is_in_recovery(), coalesce(pg_last_wal_replay_lsn()::text, '0/0'), "
                "pg_last_wal_receive_lsn()::text"
            )
            standby, replayed_text, received_text = cursor.fetchone()
    except DatabaseError as exc:
        conn.close()
        _state.down_until = time.monotonic() + DOWN_RETRY_SECONDS
        _state.say("down", f"{type(exc).__name__}: {str(exc).strip()[:200]}")
        return None
    replayed = lsn_value(replayed_text)
    received = lsn_value(received_text) if received_text else None
    return bool(standby), replayed, _state.lag(replayed, received)


def _decide(min_lsn: int | None) -> str:
    """The alias a safe request reads from: the replica if it can serve this reader, else the primary."""
    found = _replica_position()
    if found is None:
        return DEFAULT_DB_ALIAS
    standby, replayed, lag = found
    if not standby:
        _state.say("promoted", "it is no longer a standby: promoted, so it may differ from the primary")
        return DEFAULT_DB_ALIAS
    if lag > settings.CHRONICLE_REPLICA_MAX_LAG:
        _state.say("lagging", f"replaying {lag:.1f} s behind, more than {settings.CHRONICLE_REPLICA_MAX_LAG:g} s")
        return DEFAULT_DB_ALIAS
    _state.say("usable", "")
    if min_lsn is not None and replayed < min_lsn:
        return DEFAULT_DB_ALIAS  # this reader wrote what the replica has not replayed yet
    return REPLICA


class ReplicaRouter:
    """Django database router: reads of a safe request on the replica where it can serve them (module doc)."""

    def db_for_read(self, model: type, **hints: Any) -> str:
        plan = _plan.get()
        if plan is None:
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS  # a transaction on the primary reads what it sees
        if plan.alias is None:
            plan.alias = _decide(plan.min_lsn)
        return plan.alias

    def db_for_write(self, model: type, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database, two copies

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS


def _client_key(request: HttpRequest) -> str | None:
    """The cache key of an API client's last write position (a hash of its Authorization header), or None."""
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if not header:
        return None
    return "chronicle:ryw:" + hashlib.sha256(header.encode("utf-8", "surrogatepass")).hexdigest()[:32]


UNKNOWN = -1  # a client's last write position that cannot be known now: its reads go to the primary


def _position_unknown() -> bool:
    """True when the cache's last answer did not come from the shared store (``config.cache.FailSafeRedisCache``
    serving its per-process fallback while Redis is unreachable): another process's note is not in it."""
    return bool(getattr(cache, "redis_down", False))


def _written_at(request: HttpRequest) -> int | None:
    """The WAL position this client last wrote at, if it still must read its own writes; :data:`UNKNOWN` when an
    API client's position cannot be known (Redis unreachable: the note may be in another process's memory)."""
    positions = []
    cookie = request.COOKIES.get(RYW_COOKIE)
    if cookie:
        with contextlib.suppress(ValueError):  # not a position: as if absent
            positions.append(lsn_value(cookie))
    key = _client_key(request)
    if key is not None:
        noted = cache.get(key)
        if _position_unknown():  # even a note found here: another process may hold a later one
            return UNKNOWN
        if isinstance(noted, int):
            positions.append(noted)
    return max(positions) if positions else None


def _note_write(request: HttpRequest, response: HttpResponse) -> None:
    """After a write: where the primary's WAL stands, in the client's cookie and (API client) the cache."""
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            text = cursor.fetchone()[0]
    except DatabaseError:
        return  # the write's own answer stands; the bounded wait below covers nothing here
    seconds = settings.CHRONICLE_REPLICA_RYW_SECONDS
    response.set_cookie(RYW_COOKIE, text, max_age=int(seconds), httponly=True, samesite="Lax",
                        secure=request.is_secure())  # fmt: skip
    key = _client_key(request)
    if key is not None:
        cache.set(key, lsn_value(text), timeout=seconds)


class ReplicaMiddleware:
    """Sets the request's read plan (safe methods) and notes a write's WAL position (other methods)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.enabled = REPLICA in settings.DATABASES

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not self.enabled:
            return self.get_response(request)
        if request.method in SAFE_METHODS:
            written = _written_at(request)
            plan = _Plan(min_lsn=None, alias=DEFAULT_DB_ALIAS) if written == UNKNOWN else _Plan(min_lsn=written)
            token = _plan.set(plan)
            try:
                return self.get_response(request)
            finally:
                _plan.reset(token)
        response = self.get_response(request)
        if response.status_code < 400:
            _note_write(request, response)
        return response


def reset() -> None:
    """Forget what this process learned of the replica (tests)."""
    _state.down_until, _state.said, _state.behind = 0.0, "usable", None

"""Hot-path SQL as server-side prepared statements on Django's own connection (PostgreSQL).

Django binds parameters on the client and never prepares, so PostgreSQL parses and plans every statement
on every call. The few statements each request runs (the token lookup, the match lookup, the append) are
prepared once per connection instead: the server's work per request roughly halves. Integer parameters
must be typed (``Int8`` …) so that one prepared statement serves every call. Errors are Django's
(``IntegrityError``, ``OperationalError``), the transaction is Django's.

Like Django's own cursors, the first statement of each request passes Django's connection health check
(``CONN_HEALTH_CHECKS``): a persistent connection the server has closed meanwhile (PostgreSQL restarted, the
backend terminated) is replaced before use instead of failing that request with a 503. The check costs no
round trip while the connection's socket is quiet (a closed connection leaves its socket readable: the
server's goodbye or end of file); only then does Django's ``SELECT 1`` decide.

Behind a transaction pooler (PgBouncer ``pool_mode = transaction``) a server-side prepared statement may be
gone by the next transaction: with ``CHRONICLE_DB_POOLER=transaction`` (``settings.CHRONICLE_DB_POOLER``)
the same statements run unprepared (one parse and plan per call, as any Django query).
"""

from __future__ import annotations

import select
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper


def _socket_quiet(raw: psycopg.Connection[Any]) -> bool:
    """True when nothing is waiting on the idle connection's socket (no goodbye, no end of file)."""
    if raw.closed or raw.broken:
        return False
    try:
        fd = raw.pgconn.socket
    except psycopg.Error:
        return False
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return not poller.poll(0)


def health_check(conn: BaseDatabaseWrapper) -> None:
    """Django's per-request connection health check, as its own cursors run it, before a statement that
    bypasses them: a dead persistent connection is closed (and reopened by ``ensure_connection``)."""
    if conn.connection is None or not conn.health_check_enabled or conn.health_check_done:
        return
    if _socket_quiet(conn.connection):
        conn.health_check_done = True
        return
    conn.close_if_health_check_failed()


def prepared_fetch(sql: str, params: Sequence[Any] | Mapping[str, Any]) -> tuple[Any, ...] | None:
    """Run ``sql`` (``%s`` or ``%(name)s`` placeholders) as a prepared statement; return its first row or None.

    PostgreSQL only: callers keep their portable path for other databases.
    """
    conn = connections[DEFAULT_DB_ALIAS]  # once: each ``connection.x`` looks the thread's connection up again
    health_check(conn)
    conn.ensure_connection()
    conn.validate_no_broken_transaction()
    raw = conn.connection
    if settings.CHRONICLE_DB_POOLER == "transaction":
        with conn.wrap_database_errors, psycopg.Cursor(raw) as cursor:
            cursor.execute(sql, params, prepare=False)
            return cursor.fetchone()
    threshold = raw.prepare_threshold
    raw.prepare_threshold = 0  # Django leaves it at None, which disables preparing altogether
    try:
        with conn.wrap_database_errors, psycopg.Cursor(raw) as cursor:
            cursor.execute(sql, params, prepare=True)
            return cursor.fetchone()
    finally:
        raw.prepare_threshold = threshold

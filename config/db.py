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
gone by the next transaction, or worse, a same-named statement of another client may be there (psycopg names
them ``_pg3_0``, ``_pg3_1`` … on every connection): with ``CHRONICLE_DB_POOLER=transaction``
(``settings.CHRONICLE_DB_POOLER``) the same statements run unprepared (one parse and plan per call, as any
Django query).

A forgotten setting cannot cross statements: every new connection, unless a pooler is declared, asks the server
for its backend's process id and compares it with the one the connection was given when it opened (the
``BackendKeyData`` of the start-up). They are the same on a direct connection (a TCP proxy or a port mapping
passes them through); a pooler that speaks the protocol (PgBouncer, pgcat, Odyssey) hands its clients keys of its
own, so they differ. Then this process runs as if ``CHRONICLE_DB_POOLER=transaction`` had been set (nothing
prepared, no server-side cursors) and logs why once; the web processes, the worker and beat check the same at
start (``refuse_undeclared_pooler``) and refuse to start (exit status 78) with a message naming the setting.
``CHRONICLE_DB_POOLER=session`` declares a session pooler: prepared statements are kept.
"""

from __future__ import annotations

import logging
import select
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.dispatch import receiver

log = logging.getLogger("chronicle.db")

POOLER_FOUND = (
    "DATABASE_URL points at a connection pooler (the server's backend process id differs from the one this "
    "connection was given: PgBouncer or alike), but CHRONICLE_DB_POOLER is not set. Set "
    "CHRONICLE_DB_POOLER=transaction behind a transaction pooler (PgBouncer pool_mode = transaction), or "
    "CHRONICLE_DB_POOLER=session behind a session pooler. README › Behind a connection pooler."
)
# set once a connection of this process was found to go through an undeclared pooler: from then on nothing is
# prepared and no server-side cursor is opened, as under CHRONICLE_DB_POOLER=transaction
_pooled = False


def pooler_undeclared() -> bool:
    """True when no pooler is declared (``CHRONICLE_DB_POOLER`` empty): new connections are then checked."""
    return settings.CHRONICLE_DB_POOLER == ""


def pooled_unprepared() -> bool:
    """True when statements must run unprepared: a transaction pooler declared, or one found undeclared."""
    return _pooled or settings.CHRONICLE_DB_POOLER == "transaction"


def behind_pooler(raw: psycopg.Connection[Any]) -> bool:
    """True when ``raw`` reaches PostgreSQL through a pooler that speaks the protocol (one round trip).

    The backend process id the server reports differs from the one in the connection's start-up keys.
    """
    with psycopg.ClientCursor(raw) as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    if raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        raw.rollback()  # the check opened a transaction (Django's connection is not in autocommit yet): end it
    return row is not None and row[0] != raw.info.backend_pid


@receiver(connection_created, dispatch_uid="chronicle.db.pooler_check")
def _pooler_check(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """On every new PostgreSQL connection while no pooler is declared: an undeclared pooler makes this process
    run unprepared (and without server-side cursors) from now on, and is logged once."""
    global _pooled
    if connection.vendor != "postgresql" or not pooler_undeclared() or _pooled:
        return
    if behind_pooler(connection.connection):
        _pooled = True
        connection.settings_dict["DISABLE_SERVER_SIDE_CURSORS"] = True
        log.error("%s Running unprepared meanwhile.", POOLER_FOUND)
    # other aliases' and later connections read the flag; their settings are checked when they open


def refuse_undeclared_pooler() -> None:
    """At a server process's start: raise ``ImproperlyConfigured`` (``POOLER_FOUND``) when ``DATABASE_URL`` goes
    through a pooler that ``CHRONICLE_DB_POOLER`` does not declare. A database that cannot be reached now is
    not an error here (the process starts and checks its connections as they open)."""
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.vendor != "postgresql" or not pooler_undeclared():
        return
    params = {**conn.get_connection_params(), "connect_timeout": 3}
    try:
        with psycopg.connect(**params, autocommit=True) as raw:
            found = behind_pooler(raw)
    except psycopg.Error:
        return
    if found:
        raise ImproperlyConfigured(POOLER_FOUND)


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
    if pooled_unprepared():
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

"""Hot-path SQL as server-side prepared statements on Django's own connection (PostgreSQL).

Django binds parameters on the client and never prepares, so PostgreSQL parses and plans every statement
on every call. The few statements each request runs (the token lookup, the match lookup, the append) are
prepared once per connection instead: the server's work per request roughly halves. Integer parameters
must be typed (``Int8`` …) so that one prepared statement serves every call. Errors are Django's
(``IntegrityError``, ``OperationalError``), the transaction is Django's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections


def prepared_fetch(sql: str, params: Sequence[Any] | Mapping[str, Any]) -> tuple[Any, ...] | None:
    """Run ``sql`` (``%s`` or ``%(name)s`` placeholders) as a prepared statement; return its first row or None.

    PostgreSQL only: callers keep their portable path for other databases.
    """
    conn = connections[DEFAULT_DB_ALIAS]  # once: each ``connection.x`` looks the thread's connection up again
    conn.ensure_connection()
    conn.validate_no_broken_transaction()
    raw = conn.connection
    threshold = raw.prepare_threshold
    raw.prepare_threshold = 0  # Django leaves it at None, which disables preparing altogether
    try:
        with conn.wrap_database_errors, psycopg.Cursor(raw) as cursor:
            cursor.execute(sql, params, prepare=True)
            return cursor.fetchone()
    finally:
        raw.prepare_threshold = threshold

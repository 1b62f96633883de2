"""API token authentication with one prepared-once query instead of an ORM query built on every request.

Same contract as DRF's ``TokenAuthentication`` (``Authorization: Token <key>``; unknown key or inactive user
→ 401): only the lookup differs. The SQL is composed once per process from the models' metadata, so a
custom user model or new columns are picked up, and runs as a prepared statement on PostgreSQL (``config.db``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from config.db import prepared_fetch


@cache
def _lookup() -> tuple[str, list[str], list[str]]:
    """(SQL, token attnames, user attnames) for reading a token and its user in one statement."""
    user_model = get_user_model()
    token_fields = [f for f in Token._meta.concrete_fields]
    user_fields = [f for f in user_model._meta.concrete_fields]
    q = connection.ops.quote_name
    columns = [f"t.{q(f.column)}" for f in token_fields] + [f"u.{q(f.column)}" for f in user_fields]
    sql = (
        f"SELECT {', '.join(columns)} FROM {q(Token._meta.db_table)} t "
        f"JOIN {q(user_model._meta.db_table)} u ON u.{q(user_model._meta.pk.column)} = t.{q('user_id')} "
        f"WHERE t.{q(Token._meta.pk.column)} = %s"
    )
    return sql, [f.attname for f in token_fields], [f.attname for f in user_fields]


class FastTokenAuthentication(TokenAuthentication):
    """``TokenAuthentication`` whose key lookup is one hand-composed query (token joined with its user)."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        sql, token_names, user_names = _lookup()
        if connection.vendor == "postgresql":
            row = prepared_fetch(sql, [key])
        else:
            with connection.cursor() as cursor:
                cursor.execute(sql, [key])
                row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        token = Token.from_db(connection.alias, token_names, row[: len(token_names)])
        user = get_user_model().from_db(connection.alias, user_names, row[len(token_names) :])
        if not user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        token.user = user
        return user, token

"""Many rows into one table in one statement that is cheap to build: the bulk writes of the import and of the
``play_stats`` projector.

Django's ``bulk_create`` prepares every field of every object in Python and, on PostgreSQL, binds each column as
an array whose items psycopg escapes one by one; for thousands of rows that costs more than the database's work.
Here the rows go to PostgreSQL as **one JSON document** (one ``json.dumps``, in C) that the statement unpacks
(``jsonb_array_elements``, each column cast to its field's type); SQLite gets multi-row ``VALUES`` lists with each
value prepared by its field, as Django would. Both insert exactly what ``bulk_create`` would for the same values
(no defaults filled in, no signals, no ``save()``): name every column you need.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Any

from django.db import connection, models
from django.db.models import Q
from django.db.models.expressions import RawSQL

_SQLITE_VARIABLES = 900  # placeholders per statement on SQLite (its old default limit is 999)


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _pg_cast(field: models.Field, i: int) -> str:
    kind = field.db_type(connection) or "text"
    if kind == "jsonb":
        return f"nullif(r->{i}, 'null'::jsonb)"  # JSON null is SQL NULL, as Django stores None
    if kind.startswith("varchar"):
        kind = "text"  # the column's own length check applies (a cast to varchar(n) would truncate silently)
    return f"(r->>{i})::{kind}"


def rows_insert(
    model: type[models.Model], columns: Sequence[str], rows: Sequence[Sequence[Any]], *,
    returning: Sequence[str] = (), on_conflict: str = "",
) -> list[tuple[Any, ...]]:  # fmt: skip
    """Insert ``rows`` (one value per name in ``columns``, a field's name or attname) into ``model``'s table in
    one statement on PostgreSQL (a few on SQLite) and return the ``returning`` columns of the new rows, in no
    order of ``rows`` (the order Django's own ``bulk_create`` relies on: the rows are inserted in that order). ``on_conflict`` is an ``ON CONFLICT …`` clause
    both databases read alike (``excluded.column``). Raises the database's error (nothing inserted then,
    inside the caller's transaction)."""
    if not rows:
        return []
    meta = model._meta
    fields = [meta.get_field(name) for name in columns]
    table = connection.ops.quote_name(meta.db_table)
    names = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    back = f" RETURNING {', '.join(connection.ops.quote_name(meta.get_field(n).column) for n in returning)}"
    back = (f" {on_conflict}" if on_conflict else "") + (back if returning else "")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            floats = [i for i, f in enumerate(fields) if f.db_type(connection) == "double precision"]
            if floats:  # NaN and infinities are not JSON: sent as text, which the float cast reads
                rows = [_finite(row, floats) for row in rows]
            casts = ", ".join(_pg_cast(f, i) for i, f in enumerate(fields))
            cursor.execute(
                f"INSERT INTO {table} ({names}) SELECT {casts} FROM jsonb_array_elements(%s::jsonb) WITH ORDINALITY "
                f"AS e(r, i) ORDER BY i{back}",
                [json.dumps(rows, default=_json_default, separators=(",", ":"))],
            )
            return [tuple(row) for row in cursor.fetchall()] if returning else []
        out: list[tuple[Any, ...]] = []
        per = max(1, _SQLITE_VARIABLES // len(fields))
        mark = "(" + ", ".join(["%s"] * len(fields)) + ")"
        for first in range(0, len(rows), per):
            chunk = rows[first : first + per]
            params = [f.get_db_prep_save(v, connection) for row in chunk for f, v in zip(fields, row, strict=True)]
            cursor.execute(f"INSERT INTO {table} ({names}) VALUES {', '.join([mark] * len(chunk))}{back}", params)
            if returning:
                out.extend(tuple(row) for row in cursor.fetchall())
        return out


def _finite(row: Sequence[Any], floats: list[int]) -> Sequence[Any]:
    bad = [i for i in floats if isinstance(row[i], float) and not math.isfinite(row[i])]
    if not bad:
        return row
    row = list(row)
    for i in bad:
        row[i] = str(row[i]).replace("inf", "Infinity").replace("nan", "NaN")
    return row


def ids_among(model: type[models.Model], column: str, ids: Collection[int]) -> Q | RawSQL:
    """A filter for ``model``'s queries: ``column`` (a field's name or attname) is one of ``ids``. On PostgreSQL
    one array parameter (``= ANY``): Django's ``__in`` prepares, binds and parses one placeholder per id, which
    for the thousand ids of a projector batch costs more than the query."""
    if connection.vendor != "postgresql":
        return Q(**{f"{column}__in": list(ids)})
    field = model._meta.get_field(column)
    qn = connection.ops.quote_name
    sql = f"{qn(model._meta.db_table)}.{qn(field.column)} = ANY(%s::bigint[])"
    return RawSQL(sql, (list(ids),), output_field=models.BooleanField())

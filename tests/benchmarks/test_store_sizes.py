"""The bulk writer of ``manage.py bench store --sizes`` (``benchmarks/store_sizes.py``): rows the store reads as its
own."""

from __future__ import annotations

import pytest
from django.db import connection  # noqa: F401 (read by postgres_only's condition)

from matches.models import Event as EventRow
from matches.store import events as store

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

postgres_only = pytest.mark.skipif("connection.vendor != 'postgresql'", reason="COPY into PostgreSQL")


@postgres_only
def test_the_size_series_bulk_fills_streams_the_store_reads_as_its_own():
    """``bench store --sizes`` grows the table with raw SQL and COPY: it must write rows the current schema
    accepts (a column added since, such as ``rules_version``, broke it once) and the store reads back."""
    from benchmarks.store_sizes import PER_STREAM, bulk_grow

    bulk_grow(2 * PER_STREAM)

    assert EventRow.objects.count() == 2 * PER_STREAM
    stream_id = EventRow.objects.values_list("stream_id", flat=True).first()
    assert [row.version for row in store.events_iter(stream_id)][-1] == PER_STREAM
    assert store.head_load(stream_id).version == PER_STREAM

"""Smoke run of ``manage.py bench import`` on a tiny generated file: every figure printed, the test database
back in place afterwards."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection

pytestmark = [pytest.mark.one_db, pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def test_bench_import_prints_every_figure(owner, settings):
    if connection.vendor != "postgresql":
        pytest.skip("bench import measures PostgreSQL")
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    test_db = connection.settings_dict["NAME"]
    out = io.StringIO()
    call_command("bench", "import", "--plays", "60", stdout=out)
    text = out.getvalue()
    for label in ("raw INSERT of the same plays (baseline)", "import job", "projectors catching up", "peak memory",
                  "plays/s through the store's append path", "imported 60, skipped 0", "(real shape)",
                  "total time / raw baseline"):  # fmt: skip
        assert label in text, text
    assert connection.settings_dict["NAME"] == test_db and eager == settings.CELERY_TASK_ALWAYS_EAGER

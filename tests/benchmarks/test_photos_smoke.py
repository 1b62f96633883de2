"""Smoke run of ``manage.py bench photos`` and ``bench photo_memory``: every figure is printed with its ratio, and nothing is left behind
(no user, match or event in the database, no file in the store)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from matches.models import Event as EventRow
from matches.models import Match

pytestmark = [pytest.mark.one_db, pytest.mark.django_db(transaction=True)]


def test_bench_photos_prints_every_figure_and_leaves_nothing(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    out = io.StringIO()
    call_command("bench", "photos", "--repeat", "1", "--photos", "3", stdout=out)
    text = out.getvalue()
    for label in ("baseline, plain Pillow decode + save", "× baseline", "stored per photo:", "history with 3 photos",
                  "the page's HTML:", "3 thumbnails on the page, lazy-loaded", "page weight with every thumbnail"):  # fmt: skip
        assert label in text, text
    assert not get_user_model().objects.exists() and not Match.objects.exists() and not EventRow.objects.exists()
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_bench_photo_memory_prints_each_shape_against_the_baseline():
    out = io.StringIO()
    call_command("bench", "photo_memory", "--only", "the issue's file", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("baseline: plain Pillow decode of a 12 MP phone JPEG") and " MB " in lines[0]
    issue = next(line for line in lines if "the issue's file" in line)
    assert "× baseline" in issue and "refused (too_many_pixels)" in issue
    assert any(line.startswith("process: the same 12 MP phone JPEG") for line in lines)

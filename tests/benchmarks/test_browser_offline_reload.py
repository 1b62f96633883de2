"""``manage.py bench offline --reload-only`` (issue 35 item 5, docs/PERFORMANCE.md): run with one reload per row
against the live server in the suite's Chromium, it prints every figure of its tables. Timings are the bench's,
never asserted here."""

from __future__ import annotations

import io
import re

import pytest

from benchmarks.harness import Out
from benchmarks.offline_reload import reload_bench

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIGURE = r"[\d,]+ \([\d,]+\)"  # a median and its p90


def test_the_reload_bench_prints_every_figure_for_both_engine_paths_at_both_rates(browser, live_server):
    out = io.StringIO()
    reload_bench(Out(out, io.StringIO()), browser, live_server.url, rates=[1.0, 4.0], reloads=1, warmups=0)
    text = out.getvalue()
    assert "Load average at the start of the reloads:" in text and "Load average at the end:" in text, text
    for rate in ("1", "4"):
        for label in (r"kept \(shared worker\)", r"per page \(old path\)"):
            row = rf"\| {rate}× \| {label} \| {FIGURE} \| {FIGURE} \| {FIGURE} \| {FIGURE} \| {FIGURE} \| 1 (kept|started) \|"
            assert re.search(row, text), (row, text)
        # a busy loop in the page, its dedicated worker and the shared worker
        assert re.search(rf"\| {rate}× \| [\d,.]+ \| [\d,.]+ \| [\d,.]+ \|", text), text
    assert "| 4× | per page (old path) |" in text and "1 started |" in text.split("| 4× | per page")[1], text
    assert "CDP's throttling is set on the page" in text, text
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username__startswith="bench-reload-").exists()  # deleted after

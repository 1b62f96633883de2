"""Projector wake-ups: at most one per window across all processes (a Redis slot), none lost without Redis,
and every commit followed by a run that starts after it, whichever process made it."""

from __future__ import annotations

import time
from typing import Any

import pytest

from matches.projections import tasks
from matches.projections.tasks import project_all, wake_slot_claim

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_one_claim_per_window_across_processes(redis_cache):
    redis_cache.delete("chronicle:projector-wake")
    assert wake_slot_claim(0.3) == 0.0  # claimed: this process sends the wake-up
    left = wake_slot_claim(0.3)
    assert 0.0 < left <= 0.3  # another process (or this one) has a run on its way, starting in `left` s
    time.sleep(0.35)
    assert wake_slot_claim(0.3) == 0.0


def test_without_redis_every_wake_up_is_sent(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert wake_slot_claim(0.3) == 0.0
    assert wake_slot_claim(0.3) == 0.0


class _Process:
    """One web process's wake-up state (``tasks._covered_until`` is per process)."""

    def __init__(self) -> None:
        self.covered_until = 0.0

    def commit(self) -> None:
        saved, tasks._covered_until = tasks._covered_until, self.covered_until
        try:
            tasks.wake_projector()
        finally:
            self.covered_until, tasks._covered_until = tasks._covered_until, saved


def test_a_commit_after_another_process_run_is_not_left_behind(redis_cache, settings, monkeypatch):
    """Process B finds A's window claimed, then commits again after A's run has started: B must wake the
    projector itself (it used to keep quiet for a whole window of its own, and that commit waited for beat)."""
    redis_cache.delete("chronicle:projector-wake")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CHRONICLE_WAKE_WINDOW = 0.3
    sent: list[float] = []
    runs: list[float] = []  # when each scheduled run starts (monotonic)

    def apply_async(countdown: float, **_: Any) -> None:
        sent.append(time.monotonic())
        runs.append(time.monotonic() + countdown)

    monkeypatch.setattr(project_all, "apply_async", apply_async)
    a, b = _Process(), _Process()
    commits = []
    a.commit()
    commits.append(time.monotonic())
    time.sleep(0.15)
    b.commit()  # A's run is on its way: B stays quiet
    commits.append(time.monotonic())
    assert len(sent) == 1
    time.sleep(0.2)  # past A's run, still inside what used to be B's own quiet window
    b.commit()
    commits.append(time.monotonic())
    assert len(sent) == 2, "B's commit after A's run started sent no wake-up"
    for committed in commits:  # every commit has a run starting after it
        assert any(start >= committed - 0.01 for start in runs)


def test_quiet_inside_its_own_window(redis_cache, settings, monkeypatch):
    """One process committing many times inside a window sends one wake-up (no Redis round trip either)."""
    redis_cache.delete("chronicle:projector-wake")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CHRONICLE_WAKE_WINDOW = 0.5
    countdowns: list[float] = []
    monkeypatch.setattr(project_all, "apply_async", lambda countdown, **_: countdowns.append(countdown))
    monkeypatch.setattr(tasks, "_covered_until", 0.0)
    for _ in range(20):
        tasks.wake_projector()
    assert countdowns == [0.5]

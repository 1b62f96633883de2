"""Projector wake-ups: at most one per window across all processes (a Redis slot), none lost without Redis."""

from __future__ import annotations

import time

import pytest

from matches.tasks import wake_slot_claim

pytestmark = pytest.mark.django_db


def test_one_claim_per_window_across_processes(redis_cache):
    redis_cache.delete("chronicle:projector-wake")
    assert wake_slot_claim(0.3) is True
    assert wake_slot_claim(0.3) is False  # another process (or this one) already has a run on its way
    time.sleep(0.35)
    assert wake_slot_claim(0.3) is True


def test_without_redis_every_wake_up_is_sent(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert wake_slot_claim(0.3) is True
    assert wake_slot_claim(0.3) is True

"""Projector wake-ups: at most one per window across all processes (a Redis slot), none lost without Redis."""

from __future__ import annotations

import os
import time

import pytest

from config import throttling
from matches.tasks import wake_slot_claim

pytestmark = pytest.mark.django_db


def test_one_claim_per_window_across_processes(settings):
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL (the CI run on PostgreSQL + Redis sets it)")
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}
    throttling._down_until = 0.0
    throttling.redis_client().delete("chronicle:projector-wake")
    assert wake_slot_claim(0.3) is True
    assert wake_slot_claim(0.3) is False  # another process (or this one) already has a run on its way
    time.sleep(0.35)
    assert wake_slot_claim(0.3) is True


def test_without_redis_every_wake_up_is_sent(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert wake_slot_claim(0.3) is True
    assert wake_slot_claim(0.3) is True

"""Shared fixtures: users, API clients, a fresh head cache and no throttling unless a test asks for it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import pytest

# Ruleset tests run without Django (`-p no:django`): Django is imported lazily, only by tests that use it.

# Tests run with DEBUG off, as production does, so they need a key: the settings have none then (config.security).
# Set here for this process and inherited by the servers and workers that tests start.
TEST_SECRET_KEY = "test-only-secret-key-never-used-in-production-0123456789"
os.environ.setdefault("DJANGO_SECRET_KEY", TEST_SECRET_KEY)
if "django" in sys.modules:
    from django.conf import settings as _settings

    if _settings.configured:
        _settings.SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]


@pytest.fixture(autouse=True)
def _isolation(request: pytest.FixtureRequest) -> Any:
    """Django tests start with an empty head cache and generous throttles."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from matches.store import head_cache

    settings = request.getfixturevalue("settings")
    head_cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min"},
    }
    from django.core.cache import cache

    cache.clear()
    yield
    head_cache.clear()


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., Any]:
    def make(username: str = "owner", password: str = "pass-word-123") -> Any:
        return django_user_model.objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def owner(make_user: Callable[..., Any]) -> Any:
    return make_user("owner")


@pytest.fixture
def stranger(make_user: Callable[..., Any]) -> Any:
    return make_user("stranger")


@pytest.fixture
def client_for() -> Callable[[Any], Any]:
    from rest_framework.test import APIClient

    def make(user: Any | None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def api(owner: Any, client_for: Callable[[Any], Any]) -> Any:
    return client_for(owner)


@pytest.fixture
def stone_match(owner: Any) -> Any:
    """A Last Stone match (10 stones, seat 0 starts) owned by ``owner``."""
    from matches.services import match_create

    return match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 10})


@pytest.fixture
def redis_cache(settings: Any) -> Any:
    """The real Redis (``REDIS_URL``) as Django's cache, its failure back-off reset; the raw client.

    Skips without ``REDIS_URL`` (the SQLite run); the PostgreSQL + Redis run sets it."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL (the CI run on PostgreSQL + Redis sets it)")
    from config import throttling

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}}
    throttling._down_until = 0.0
    return throttling.redis_client()

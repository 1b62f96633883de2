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
        # A fast hasher for the users tests create and sign in (Django's advice for test suites): the default
        # PBKDF2 costs about 0.3 s of CPU per hash, paid on nearly every test. Passwords are checked the same way;
        # the servers and workers tests start as subprocesses keep the production hashers.
        _settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The four test groups (docs/TESTING.md): every test module carries exactly one of them as a module-level mark, and
# scripts/test selects by them (`-m`): pure and one_db tests run once, both_dbs on PostgreSQL and SQLite, browser once.
TEST_GROUPS = ("pure", "one_db", "both_dbs", "browser")
_DB_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}


def group_problems(items: list[pytest.Item]) -> dict[str, str]:
    """Test files whose group is missing, doubled or contradicted by what their tests use, with the reason."""
    problems: dict[str, str] = {}
    for item in items:
        module = item.getparent(pytest.Module)
        if module is None or str(module.path) in problems:
            continue
        where = module.nodeid
        groups = sorted({m.name for m in module.own_markers} & set(TEST_GROUPS))
        if len(groups) != 1:
            problems[str(module.path)] = (
                f"{where}: {'no test group' if not groups else 'several test groups: ' + ', '.join(groups)}; "
                f"add exactly one module-level mark of {', '.join(TEST_GROUPS)} (pytestmark = pytest.mark.<group>)"
            )
            continue
        uses_db = item.get_closest_marker("django_db") is not None or bool(_DB_FIXTURES & set(item.fixturenames))
        if groups[0] == "pure" and uses_db:
            problems[str(module.path)] = f"{where}: marked pure but {item.name} uses the database"
        elif groups[0] == "browser" and "browser" not in item.fixturenames:
            problems[str(module.path)] = f"{where}: marked browser but {item.name} drives no browser"
    return problems


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse to run when a collected test file is in no group, in several, or in the wrong one (before `-m`)."""
    problems = group_problems(items)
    if problems:
        raise pytest.UsageError("Test files outside the test groups:\n  " + "\n  ".join(sorted(problems.values())))


@pytest.fixture(autouse=True)
def _isolation(request: pytest.FixtureRequest) -> Any:
    """Django tests start with an empty head cache and generous throttles."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    from matches.projections.projectors import positions_forget
    from matches.store.events import head_cache

    settings = request.getfixturevalue("settings")
    head_cache.clear()
    positions_forget()
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
    """A public Last Stone match (10 stones, seat 0 starts) owned by ``owner``."""
    from matches.services import match_create

    return match_create(
        is_public=True, owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 10}
    )


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

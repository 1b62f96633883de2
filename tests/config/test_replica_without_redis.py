"""Read-your-writes does not depend on Redis (issue 42): an API client's last write position lives in the cache; while
Redis cannot be reached that position cannot be known (the cache answers from per-process memory, and the note may sit
in another web process), so the client's reads go to the primary. A browser's position is its cookie: unaffected.

Redis here is a real one that is not there (a closed port), as after a kill; the replica is never asked.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from config import replica
from config.cache import FailSafeRedisCache
from tests.processes import free_port

pytestmark = pytest.mark.pure


def _plan_of(request, cache) -> replica._Plan:
    """The read plan the middleware sets for ``request`` with ``cache`` as the site's cache."""
    seen = []

    def view(req):
        seen.append(replica._plan.get())
        return HttpResponse()

    middleware = replica.ReplicaMiddleware(view)
    middleware.enabled = True  # as with DATABASE_REPLICA_URL set
    with mock.patch.object(replica, "cache", cache):
        middleware(request)
    return seen[0]


def _dead_redis() -> FailSafeRedisCache:
    params = {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}
    return FailSafeRedisCache(f"redis://127.0.0.1:{free_port()}/0", params)


def test_an_api_client_reads_the_primary_while_its_position_cannot_be_known():
    cache = _dead_redis()
    api = RequestFactory().get("/api/matches/1/events/", HTTP_AUTHORIZATION="Token abc")
    plan = _plan_of(api, cache)
    assert plan.alias == "default", "with Redis unreachable an API client's reads must go to the primary"
    # a note this very process kept meanwhile is not enough either: another process may hold a later one
    cache._fallback.set(replica._client_key(api), 5)
    assert _plan_of(api, cache).alias == "default"


def test_a_browser_keeps_its_cookie_and_a_reader_who_never_wrote_may_read_the_replica():
    cache = _dead_redis()
    browser = RequestFactory().get("/matches/1/", HTTP_COOKIE=f"{replica.RYW_COOKIE}=0/10")
    plan = _plan_of(browser, cache)
    assert plan.alias is None and plan.min_lsn == 16, "a cookie's position is known without Redis"
    anonymous = _plan_of(RequestFactory().get("/matches/1/"), cache)
    assert anonymous.alias is None and anonymous.min_lsn is None

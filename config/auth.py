"""Sign-in throttling: failed passwords are counted per account and per address, and over a limit sign-in
answers 429 until a cool-off ends. No lockout is permanent, and none needs an administrator.

Three counters, each a fixed window of ``CHRONICLE_LOGIN_COOL_OFF`` seconds that starts at its first failure
(further failures do not extend it):

- one account from one address: ``CHRONICLE_LOGIN_FAILURES`` (default 5): the guessing limit;
- one address, any account: ``CHRONICLE_LOGIN_FAILURES_PER_ADDRESS`` (30): no spraying many accounts;
- one account, any address: ``CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT`` (100): a distributed attack is slowed.
  This is the only counter that someone else can fill for a real user, so it is high, and it lasts one
  window: an attacker can delay a user for at most a cool-off at a time while spending 100 guesses on it.

Every sign-in goes through :class:`ThrottledModelBackend` (the web page, the API token endpoint and the
admin), so one place counts and refuses; the sign-in views (``frontend.views.accounts``) ask
:func:`login_locked` first, to answer 429 with ``Retry-After``. Counters live in the cache (Redis, degrading to a per-process
memory cache while Redis is down; see config/cache.py). A successful sign-in clears its account+address count.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from config.throttling import client_address


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _address(request: Any) -> str:
    """The client's address as the API's throttles see it (``config.throttling.client_address``)."""
    return client_address(request)


def _counters(username: str, address: str) -> list[tuple[str, int]]:
    """``(cache key, limit)`` for each counter that applies to this attempt."""
    account = hashlib.sha256(username.strip().casefold().encode("utf-8", "replace")).hexdigest()[:32]
    found = []
    if username:
        found.append((f"login:acct:{account}", _setting("CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT", 100)))
    if address:
        found.append((f"login:addr:{address}", _setting("CHRONICLE_LOGIN_FAILURES_PER_ADDRESS", 30)))
    if username and address:
        found.append((f"login:pair:{account}:{address}", _setting("CHRONICLE_LOGIN_FAILURES", 5)))
    return found


def _cool_off() -> int:
    return _setting("CHRONICLE_LOGIN_COOL_OFF", 900)


def login_locked(request: Any, username: str) -> int:
    """Seconds until sign-in for ``username`` from this request's address is allowed again; 0 if it is now."""
    counters = _counters(username, _address(request))
    counts = cache.get_many([key for key, _ in counters])
    if not any(counts.get(key, 0) >= limit for key, limit in counters):
        return 0
    return _cool_off()  # an upper bound: the window started at the first failure


def login_failed(request: Any, username: str) -> None:
    """Count one failed sign-in on every counter that applies."""
    for key, _ in _counters(username, _address(request)):
        cache.add(key, 0, timeout=_cool_off())
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr: start a new window
            cache.set(key, 1, timeout=_cool_off())


def login_succeeded(request: Any, username: str) -> None:
    """Forget this account's failures from this address (the others stay: they are not this user's)."""
    pair = [key for key, _ in _counters(username, _address(request)) if key.startswith("login:pair:")]
    cache.delete_many(pair)


class ThrottledModelBackend(ModelBackend):
    """Django's username/password backend, refusing while throttled and counting failures."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        name = str(username if username is not None else kwargs.get("username", ""))
        if login_locked(request, name):
            raise PermissionDenied("Too many failed sign-ins; wait for the cool-off.")  # stops every backend
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            if password is not None:
                login_failed(request, name)
        else:
            login_succeeded(request, name)
        return user

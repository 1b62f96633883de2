"""The throwaway match the offline benchmarks play on (``offline_reload``, ``offline_cold``), and a signed-in
session for a Playwright browser: shared by both, so neither imports the other."""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings


def bench_match() -> tuple[Any, Any]:
    """A throwaway recorder and a Last Stone match of theirs (deleted by ``drop_bench_match``)."""
    from django.contrib.auth import get_user_model

    from matches.services import match_create

    name = f"bench-reload-{random.randrange(16**8):08x}"
    user = get_user_model().objects.create_user(username=name, password=None)
    match = match_create(owner=user, game="last-stone", seats=[{"name": "Ana"}, {"name": "Tomas"}],
                         options={"stones": 120})  # fmt: skip
    return user, match


def drop_bench_match(user: Any, match: Any) -> None:
    """Delete what ``bench_match`` wrote (its events and projections go with the match)."""
    from django.db import connection

    try:
        match.delete()
        user.delete()
    finally:
        connection.close()


def session_cookie(user: Any, origin: str) -> dict[str, Any]:
    """A signed-in session for ``user`` as a Playwright cookie (Django's test client: no sign-in form)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            "url": origin}  # fmt: skip

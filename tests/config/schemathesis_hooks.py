"""Schemathesis hooks for the live run (tests/config/test_api_schema.py): one check of Chronicle's own contract."""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def error_bodies_name_the_problem(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx/5xx answer is JSON with a ``code`` and a non-empty ``detail`` (DESIGN.md §4)."""
    if response.status_code < 400:
        return None
    body = response.json()
    assert isinstance(body, dict) and body.get("code") and body.get("detail"), body
    return None

"""Schemathesis hooks for the live run (tests/config/test_api_schema.py): one check of Chronicle's own contract."""

from __future__ import annotations

import io
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


def _small_png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (20, 120, 220)).save(buf, "PNG")
    return buf.getvalue()


PICTURE = _small_png()


@schemathesis.hook
def map_body(context: Any, body: Any) -> Any:
    """A photo upload sends a real small picture where it would send arbitrary bytes (the schema can say "binary",
    not "a picture"), so the photo operations and the links from them reach a stored photo."""
    operation = context.operation
    upload = operation is not None and operation.path.endswith("/photos/")
    return (
        {**body, "file": PICTURE} if upload and isinstance(body, dict) and isinstance(body.get("file"), bytes) else body
    )

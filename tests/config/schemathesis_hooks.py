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


# The game of the world's match (tests/config/test_api_schema.py), whose every entry example the examples phase sends
WORLD_GAME = "GetSaltyEntry"


@schemathesis.hook
def before_add_examples(context: Any, examples: list[Any]) -> None:
    """``POST /api/matches/{match_id}/events/`` gets every game's entry examples (about 80), all sent to the world's
    one Get Salty match: keep Get Salty's and the first of each other game (the rest would be 400s for the wrong
    game, 15 s; tests/matches/api/test_entry_schemas.py proves every game's entries and examples without HTTP)."""
    operation = context.operation
    if operation is None or operation.method.lower() != "post" or operation.path != "/api/matches/{match_id}/events/":
        return
    schemas = operation.schema.raw_schema["components"]["schemas"]
    games = {k: set(v["discriminator"]["mapping"]) for k, v in schemas.items() if k.endswith("Entry") and "oneOf" in v}
    kept, seen = [], set()
    for case in examples:
        kind = case.body.get("type") if isinstance(case.body, dict) else None
        game = next((name for name, types in games.items() if kind in types), None)
        if kind in games.get(WORLD_GAME, ()) or game not in seen:
            kept.append(case)
            seen.add(game)
    examples[:] = kept

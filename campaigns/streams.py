"""What the campaign and series kinds share when a stream is opened: its name, its empty stream and its row
(owner, visibility, recorders)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from matches.errors import InvalidInput
from matches.store import events as store
from matches.store.streams import kind_get


def name_clean(name: str | None, kind: str) -> str:
    """``name`` with its white space folded; a blank one is an :class:`InvalidInput` ("A series needs a name.")."""
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput({"name": [f"A {kind_get(kind).noun} needs a name."]})
    return name[:120]


def named_stream_open(
    *, kind: str, owner: AbstractBaseUser, name: str, game: str, options: dict[str, Any], is_public: bool,
    recorders: list[AbstractBaseUser] | None, stream_game: str | None = None,
) -> Any:  # fmt: skip
    """Open an empty, seatless stream of ``kind`` folded by ``stream_game`` (default ``game``) with cleaned
    ``options``, and its row named ``name`` (cleaned by :func:`name_clean`) for ``game``; returns the row. Call
    inside the caller's transaction."""
    stream = store.stream_create(kind=kind, game=stream_game or game, options=options, seat_count=0)
    obj = kind_get(kind).model.objects.create(stream=stream, name=name, game=game, owner=owner, is_public=is_public)
    if recorders:
        obj.recorders.set(recorders)
    return obj

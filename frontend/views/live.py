"""The live table (issue 42; docs/ARCHITECTURE.md › The live table): a watching match page is sent each new entry as
it is recorded, over one server-sent-events stream per page (:func:`match_live_view`); where that stream cannot be
opened, the page polls :func:`match_version_view` as before (``static/frontend/app.js``)."""

from __future__ import annotations

import asyncio
import functools
import json
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections, connections
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from frontend.selectors import LiveEntries, live_entries, match_version
from matches.api.serializers import EventOutput
from matches.errors import InvalidInput, NotFound
from matches.people import joins
from matches.store import live
from matches.store.history import cursor_clean

KEEPALIVE_SECONDS = 15.0  # a comment line on a quiet stream: proxies and phones see it alive
# Every stream's reads share these threads (and their database connections): a thousand waiting pages hold no
# connection each, where asgiref's per-request thread would keep one open for as long as the page watches.
_READS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="live-read")


def _read_now(**kwargs: Any) -> LiveEntries:
    close_old_connections()  # a connection past its age or broken (PostgreSQL restarted) is replaced
    return live_entries(**kwargs)


async def _read(**kwargs: Any) -> LiveEntries:
    """:func:`frontend.selectors.live_entries` on the shared read threads."""
    return await asyncio.get_running_loop().run_in_executor(_READS, functools.partial(_read_now, **kwargs))


@require_GET
def match_version_view(request: HttpRequest, match_id: int) -> HttpResponse:
    """``{"version": n}`` with an ETag; a poll that names the current ETag gets an empty 304.

    ``private, no-cache``: a browser keeps the answer but asks again each time (the ETag makes that cheap);
    shared caches never keep it, since private matches answer only their recorders.
    """
    version = match_version(user=request.user, match_id=match_id)
    answer: dict[str, int] = {"version": version}
    if request.GET.get("seats") == "1":  # the owner's join box follows the seats taken (joins.seats_held)
        answer["seated"] = joins.seats_held(match_id)
    etag = f'"m{match_id}v{version}' + (f's{answer["seated"]}"' if "seated" in answer else '"')
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(answer)
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _frame(event: str, data: Any, version: int | None = None) -> bytes:
    head = f"id: {version}\n" if version is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, cls=DjangoJSONEncoder)}\n\n".encode()


def _entry_frames(news: LiveEntries) -> list[bytes]:
    return [_frame("entry", EventOutput(line).data, line.row.version) for line in news.lines]


async def match_live_view(request: HttpRequest, match_id: int) -> HttpResponse:
    """``text/event-stream`` of the match's entries after the version the page last drew (``Last-Event-ID`` on a
    reconnect, else ``?from=``): each entry as this reader may read it, in order, once (its version is the event's
    id), then each new one as it is recorded. Frames: ``ready`` ({"version"}) first, ``entry`` (the events API's
    shape), ``closed`` ({"detail"}) when the reader may no longer see the match (the stream then ends). The stream
    ends by itself after ``CHRONICLE_LIVE_MAX_SECONDS`` (the browser reconnects from its last id).

    Answers 404 as the match page does, 400 for a bad cursor, 405 for other methods, and 501 where the server is not
    ASGI (runserver, gunicorn: a stream would hold a thread): the page then polls."""
    if request.method != "GET":
        return JsonResponse({"code": "method_not_allowed", "detail": "GET only."}, status=405)
    if "wsgi.version" in request.META:
        detail = "This server sends no live updates (WSGI); poll the version instead."
        return JsonResponse({"code": "no_push", "detail": detail}, status=501)
    try:
        after = cursor_clean(request.headers.get("Last-Event-ID") or request.GET.get("from"), "from") or 0
    except InvalidInput as exc:
        return JsonResponse({"code": "invalid", "detail": str(exc), "errors": exc.errors}, status=400)
    user = await request.auser()
    await sync_to_async(connections.close_all)()  # the request's own thread (middleware, sign-in) lets its go
    read = _read
    try:
        first = await read(user=user, match_id=match_id, after=after, session=request.session)
    except NotFound as exc:
        return JsonResponse({"code": "not_found", "detail": str(exc)}, status=404)
    seats = request.GET.get("seats") == "1"  # the owner's join box follows the seats taken (as the poll's ?seats=1)
    response = StreamingHttpResponse(
        _stream(read, user, request.session, match_id, first, seats=seats), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response


async def _seated(match_id: int) -> int:
    """:func:`matches.people.joins.seats_held` on the shared read threads."""
    return await asyncio.get_running_loop().run_in_executor(_READS, joins.seats_held, match_id)


async def _stream(
    read: Any, user: Any, session: Any, match_id: int, news: LiveEntries, *, seats: bool = False
) -> AsyncIterator[bytes]:
    """The frames of one watching page (:func:`match_live_view`); with ``seats``, a ``seated`` frame ({"seated": n},
    the seats accounts hold) first and whenever a wake-up finds it changed (a join records no entry)."""
    hub, ends = live.hub(), time.monotonic() + settings.CHRONICLE_LIVE_MAX_SECONDS
    async with hub.watch(news.stream_id) as woken:
        yield b"retry: 1000\n" + _frame("ready", {"version": news.version})
        sent = news.version
        held = await _seated(match_id) if seats else None
        if held is not None:
            yield _frame("seated", {"seated": held})
        for frame in _entry_frames(news):
            yield frame
        woken.set()  # an entry recorded between the first read and the watch: looked for once now
        while time.monotonic() < ends and not hub.stopping:
            try:
                wait = live.DEGRADED_CHECK_SECONDS if hub.degraded else KEEPALIVE_SECONDS
                await asyncio.wait_for(woken.wait(), timeout=min(wait, max(ends - time.monotonic(), 0.01)))
            except TimeoutError:
                if not hub.degraded:
                    yield b": keep-alive\n\n"
                    continue
            woken.clear()
            if hub.stopping:  # this process stops: the page reconnects to the next one, from its last entry
                return
            try:
                news = await read(user=user, match_id=match_id, after=sent, session=session)
            except NotFound as exc:
                yield _frame("closed", {"detail": str(exc)})
                return
            for frame in _entry_frames(news):
                yield frame
            sent = max(sent, news.version)
            if held is not None and (now_held := await _seated(match_id)) != held:
                held = now_held
                yield _frame("seated", {"seated": held})

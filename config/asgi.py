"""The web tier's ASGI entry point (``scripts/serve``: granian ``--interface asgi``).

Two kinds of request, one process:

- the long-lived streams (``settings.CHRONICLE_ASYNC_PATHS``: the live table's server-sent events) go to Django's
  async handler, where a waiting stream holds no thread;
- every other request runs the WSGI application (``config.wsgi``, unchanged) on a pool of ``WEB_THREADS`` threads,
  as granian's WSGI interface ran it: Django's sync views under its ASGI handler would share one thread per
  process and close their database connection after each request (docs/PERFORMANCE.md › The live table).

The WSGI bridge reads the request body whole first (spooled to a file past 64 KB; up to
``config.chunked.MAX_CHUNKED_BODY``, else 413), so a chunked body gets its length and an early answer leaves nothing
unread on the connection; the answer's chunks are sent as the application yields them (the thread waits for each).
"""

from __future__ import annotations

import asyncio
import os
import re
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import Any

from asgiref.wsgi import WsgiToAsgiInstance
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi = get_asgi_application()

from django.conf import settings  # noqa: E402  (settings are loaded by now)

from config import lifespan  # noqa: E402
from config.chunked import MAX_CHUNKED_BODY  # noqa: E402
from config.db import refuse_undeclared_pooler  # noqa: E402
from config.security import require_secret_key  # noqa: E402
from config.wsgi import application as wsgi_application  # noqa: E402

require_secret_key()
refuse_undeclared_pooler()

_ASYNC = [re.compile(p) for p in settings.CHRONICLE_ASYNC_PATHS]
_pool = ThreadPoolExecutor(max_workers=int(os.environ.get("WEB_THREADS", "2")), thread_name_prefix="wsgi")


class _TooLarge(Exception):
    pass


async def _read_body(receive: Any) -> SpooledTemporaryFile | None:
    """The request's body, whole (None: the client went away); :class:`_TooLarge` past the bound."""
    body, size = SpooledTemporaryFile(max_size=65536), 0  # noqa: SIM115  (closed by the caller, or here)
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            body.close()
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_CHUNKED_BODY:
            body.close()
            raise _TooLarge
        body.write(chunk)
        if not message.get("more_body"):
            body.seek(0)
            return body


def _run_wsgi(scope: dict[str, Any], body: Any, send: Any, loop: asyncio.AbstractEventLoop) -> None:
    """In a pool thread: the WSGI application's answer to one request, each message sent on ``loop``."""

    async def sending(message: dict[str, Any]) -> None:
        await send(message)  # granian's send is awaitable, not a coroutine

    def sent(message: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(sending(message), loop).result()

    bridge = WsgiToAsgiInstance(wsgi_application)
    bridge.scope = scope
    environ = bridge.build_environ(scope, body)
    length = body.seek(0, 2)
    body.seek(0)
    if "CONTENT_LENGTH" not in environ:
        environ["CONTENT_LENGTH"] = str(length)
    environ["wsgi.input_terminated"] = True
    start: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        start["message"] = {
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        }
        return lambda data: None  # the legacy write() callable: Django never uses it

    result = wsgi_application(environ, start_response)
    try:
        for chunk in result:
            if "message" in start:
                sent(start.pop("message"))
            if chunk:
                sent({"type": "http.response.body", "body": chunk, "more_body": True})
        if "message" in start:
            sent(start.pop("message"))
        sent({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI application: streams to Django's async handler, the rest to the WSGI application (module doc)."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                lifespan.shutdown()  # the live table's streams end: the stop is not held up by waiting pages
            await send({"type": message["type"] + ".complete"})
            if message["type"] == "lifespan.shutdown":
                return
    if scope["type"] != "http" or any(p.match(scope.get("path", "")) for p in _ASYNC):
        await django_asgi(scope, receive, send)
        return
    try:
        body = await _read_body(receive)
    except _TooLarge:
        await send({"type": "http.response.start", "status": 413, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"Request body too large."})
        return
    if body is None:
        return
    loop = asyncio.get_running_loop()
    with body:
        await loop.run_in_executor(_pool, _run_wsgi, scope, body, send, loop)

"""A request body sent with ``Transfer-Encoding: chunked`` (no ``Content-Length``) is read, never taken as empty.

Django's WSGI request reads exactly ``CONTENT_LENGTH`` bytes, and a chunked request has none: the body was
silently empty ("type: This field is required" for a valid move). Both production servers (granian,
gunicorn) decode the chunks and let ``wsgi.input`` be read to its end, saying so with
``wsgi.input_terminated``. This WSGI wrapper reads such a body to its end (in memory up to
``DATA_UPLOAD_MAX_MEMORY_SIZE``, then in a temporary file, as Django spools uploads) and hands Django a body
of known length; Django's own limits then apply as to any body. Past :data:`MAX_CHUNKED_BODY` it answers
413 without reading on. A server that cannot promise the end of a chunked body gets 411 Length Required.

An answer given before the body was read (a 503 while PostgreSQL is down, a 401 for a bad token) leaves the
rest of the body on the connection. granian then closes it after the answer, without ``Connection: close``,
and the client's next request on that keep-alive connection fails (``BrokenPipeError``: issue 31 item 5,
7 times under load). So the wrapper reads what the app left of a body of up to :data:`DRAIN_MAX` bytes
before answering: the connection stays usable. A larger body left unread still closes it.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

API_PREFIX = "/api/"
MAX_CHUNKED_BODY = 64 * 1024 * 1024  # far above any body Chronicle takes (a BG Stats import is a few MB)
DRAIN_MAX = 16 * 1024 * 1024  # an unread body up to this size is read before answering (the connection stays open)


def _is_chunked(environ: dict[str, Any]) -> bool:
    return "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()


def _refuse(
    environ: dict[str, Any], start_response: Callable[..., Any], status: str, code: str, detail: str
) -> list[bytes]:
    """An error answered before Django: the API's ``{code, detail}`` under ``/api/``, plain text elsewhere."""
    if environ.get("PATH_INFO", "").startswith(API_PREFIX):
        body, kind = json.dumps({"code": code, "detail": detail}).encode(), "application/json"
    else:
        body, kind = detail.encode(), "text/plain; charset=utf-8"
    start_response(status, [("Content-Type", kind), ("Content-Length", str(len(body)))])
    return [body]


def _read_to_end(stream: Any, limit: int, in_memory: int) -> tuple[Any, int] | None:
    """(a file positioned at 0, its length) holding ``stream`` read to EOF; None past ``limit`` bytes."""
    spool = tempfile.SpooledTemporaryFile(max_size=in_memory)  # noqa: SIM115  (it becomes wsgi.input)
    size = 0
    while chunk := stream.read(64 * 1024):
        size += len(chunk)
        if size > limit:
            spool.close()
            return None
        spool.write(chunk)
    spool.seek(0)
    return spool, size


class ChunkedBody:
    """WSGI middleware around Django's handler: a chunked body becomes a body of known ``CONTENT_LENGTH``."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if _is_chunked(environ):
            if not environ.get("wsgi.input_terminated"):
                detail = "Send the request body with a Content-Length header (this server cannot read a chunked one)."
                return _refuse(environ, start_response, "411 Length Required", "length_required", detail)
            from django.conf import settings

            read = _read_to_end(environ["wsgi.input"], MAX_CHUNKED_BODY, settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)
            if read is None:
                detail = f"Request body too large (more than {MAX_CHUNKED_BODY // (1024 * 1024)} MB)."
                return _refuse(environ, start_response, "413 Content Too Large", "too_large", detail)
            environ["wsgi.input"], length = read
            environ["CONTENT_LENGTH"] = str(length)
            return self.app(environ, start_response)
        response = self.app(environ, start_response)
        _drain(environ)
        return response


def _drain(environ: dict[str, Any]) -> None:
    """Read and drop what the app left unread of a body of up to ``DRAIN_MAX`` bytes (one read if nothing)."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return
    if length <= 0 or length > DRAIN_MAX:
        return
    stream, left = environ["wsgi.input"], length
    try:
        while left > 0 and (chunk := stream.read(min(left, 64 * 1024))):
            left -= len(chunk)
    except OSError:  # the client went away meanwhile: nothing to keep
        return

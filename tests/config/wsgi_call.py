"""Call the project's WSGI application in-process as a server would: request signals included (the test
client disconnects ``close_old_connections``; a server does not), the environ built by the caller."""

from __future__ import annotations

import io
import json
from typing import Any


def wsgi_call(
    method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None, app: Any = None,
    signals: bool = True, **environ: Any,
) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    """(status, headers, body) of one request to ``app`` (Django's bare handler by default); ``headers`` as
    HTTP names, ``environ`` overrides the rest (a None value removes the key). ``signals=False`` keeps the
    connection across the request, as the test client does (inside a test's transaction)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    env: dict[str, Any] = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(body), "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False,
        "CONTENT_LENGTH": str(len(body)),
    }  # fmt: skip
    for name, value in (headers or {}).items():
        key = name.upper().replace("-", "_")
        env[key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"] = value
    env.update(environ)
    env = {k: v for k, v in env.items() if v is not None}
    answer: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), dict(response_headers)

    if not signals:
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
    try:
        chunks = (app or WSGIHandler())(env, start_response)
        try:
            content = b"".join(chunks)
        finally:
            getattr(chunks, "close", lambda: None)()
    finally:
        if not signals:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)
    return answer["status"], answer["headers"], content


def append_call(token: str, match_id: int, move: dict[str, Any], **kwargs: Any) -> tuple[int, dict[str, str], bytes]:
    """POST one move on the API's hot (lean) path: JSON with ``Authorization: Token``."""
    headers = {"Content-Type": "application/json", "Authorization": f"Token {token}", **kwargs.pop("headers", {})}
    body = kwargs.pop("body", json.dumps(move).encode())
    return wsgi_call("POST", f"/api/matches/{match_id}/events/", body, headers, **kwargs)

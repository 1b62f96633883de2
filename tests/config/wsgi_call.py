"""Call the project's WSGI application in-process as a server would: request signals included (the test
client disconnects ``close_old_connections``; a server does not), the environ built by the caller."""

from __future__ import annotations

import io
import json
from typing import Any


def wsgi_call(
    method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None, **environ: Any
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of one request; ``headers`` as HTTP names, ``environ`` overrides the rest."""
    from django.core.handlers.wsgi import WSGIHandler

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
    answer: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), dict(response_headers)

    chunks = WSGIHandler()(env, start_response)
    try:
        content = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    return answer["status"], answer["headers"], content


def append_call(token: str, match_id: int, move: dict[str, Any], **kwargs: Any) -> tuple[int, dict[str, str], bytes]:
    """POST one move on the API's hot (lean) path: JSON with ``Authorization: Token``."""
    headers = {"Content-Type": "application/json", "Authorization": f"Token {token}", **kwargs.pop("headers", {})}
    body = kwargs.pop("body", json.dumps(move).encode())
    return wsgi_call("POST", f"/api/matches/{match_id}/events/", body, headers, **kwargs)

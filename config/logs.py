"""Structured logs: one JSON object per line, carrying the id of the request being served, and an access log.

``request_id_var`` holds the current request's id (set by ``config.middleware.RequestIdMiddleware``) so that
every log line written while serving it, from any module, names it. ``AccessLogMiddleware`` writes one line
per request (method, path, status, duration, user) on the ``chronicle.access`` logger.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse

request_id_var: ContextVar[str] = ContextVar("request_id", default="")

_access = logging.getLogger("chronicle.access")


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "request_id"?, ...fields, "exc"?}`` on one line.

    Extra structured values are passed as ``extra={"fields": {...}}``.
    """

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = request_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class AccessLogMiddleware:
    """One ``chronicle.access`` line per request: method, path, status, duration in ms, user id, request id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _access.isEnabledFor(logging.INFO):
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        user = getattr(request, "user", None)
        _access.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "fields": {
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    "user_id": user.pk if user is not None and user.is_authenticated else None,
                    "request_id": getattr(request, "request_id", ""),
                }
            },
        )
        return response

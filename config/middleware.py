"""Request ids: every request gets one (or keeps the client's X-Request-ID); events record it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from config.logs import request_id_var

_SAFE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


class RequestIdMiddleware:
    """Sets ``request.request_id`` and echoes it in the ``X-Request-ID`` response header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get("X-Request-ID", "")
        request.request_id = given if _SAFE.match(given) else uuid.uuid4().hex
        token = request_id_var.set(request.request_id)  # log lines written while serving it name it
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response["X-Request-ID"] = request.request_id
        return response


class DomainErrorPageMiddleware:
    """Web pages: a domain error that escapes a view becomes an error page with its status (the API maps its own)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.shortcuts import render

        from matches.errors import DomainError

        if not isinstance(exception, DomainError):
            return None
        return render(
            request, "frontend/error.html", {"title": exception.detail, "message": ""}, status=exception.status_code
        )

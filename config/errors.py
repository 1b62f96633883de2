"""Error answers given outside the views: JSON on ``/api/`` paths, pages elsewhere; outages become 503.

Django's own error handlers (``handler400/403/404/500`` in config.urls) and the
:class:`config.middleware.ServiceUnavailableMiddleware` both answer through this module, so an API client
never gets an HTML page: unknown API paths are a JSON 404, and a request stopped by PostgreSQL, Redis or the
broker being unreachable is a JSON 503 with ``Retry-After`` (an HTML 503 page on web pages).

config imports no app: an app's errors say their own answer by subclassing :class:`HttpError`, and the site's
error page is drawn by the renderer the web app registers at start (:func:`register_error_page`).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("chronicle.errors")

API_PREFIX = "/api/"
RETRY_AFTER_SECONDS = 5

# A request that meets one of these could not reach a service it needs; retrying later may succeed.
INFRASTRUCTURE_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    RedisConnectionError,
    RedisTimeoutError,
    BrokerError,
)


class HttpError(Exception):
    """Base of every error a caller can cause that carries its own HTTP answer: ``status_code``, ``code``,
    ``detail`` and ``body()`` (the JSON error body). The API maps each one to ``Response(body(), status_code)``
    (config.api, the one place); an app's domain errors subclass it, so config never imports them."""

    status_code = 400
    code = "error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail}


ErrorPage = Callable[[HttpRequest, int, str, str], HttpResponse]
_error_page: list[ErrorPage] = []


def register_error_page(render: ErrorPage) -> None:
    """Set the site's error page: ``render(request, status, title, message)`` (the web app's, at start)."""
    _error_page[:] = [render]


def error_page(request: HttpRequest, status: int, title: str, message: str = "") -> HttpResponse:
    """The site's error page with ``status``; before a renderer is registered, a plain page needing nothing."""
    if _error_page:
        return _error_page[0](request, status, title, message)
    return HttpResponse(
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        f"<title>{escape(title)}</title><h1>{escape(title)}</h1><p>{escape(message)}</p>",
        status=status,
    )


def is_api(request: HttpRequest) -> bool:
    """True for paths under ``/api/`` (the JSON API, its schema and docs)."""
    return request.path_info.startswith(API_PREFIX)


def json_error(status: int, code: str, detail: str, **extra: Any) -> JsonResponse:
    """The API's error body ``{code, detail, ...}`` with ``status``."""
    return JsonResponse({"code": code, "detail": detail, **extra}, status=status)


def unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """503 with ``Retry-After`` for a request an unreachable service stopped; logged, never a traceback page.

    The page needs nothing but this function: no template, session or database (they may be what is down).
    """
    logger.warning("service unavailable on %s %s: %s: %s", request.method, request.path_info, type(exc).__name__, exc)
    detail = (
        "A service Chronicle needs is unreachable just now. Try again shortly "
        "(a retried append with the same idempotency key is never recorded twice)."
    )
    if is_api(request):
        response: HttpResponse = json_error(503, "service_unavailable", detail)
    else:
        response = HttpResponse(
            "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>Unavailable</title><h1>Chronicle is briefly unavailable</h1><p>{escape(detail)}</p>",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: JSON on the API, Django's page elsewhere."""
    if is_api(request):
        return json_error(400, "bad_request", "The request could not be understood.")
    from django.views.defaults import bad_request as page

    return page(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler403: JSON on the API, Django's page elsewhere."""
    if is_api(request):
        return json_error(403, "permission_denied", "You may not do this.")
    from django.views.defaults import permission_denied as page

    return page(request, exception)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent from a page drawn before this browser's cookies were cleared, or before a
    sign-in elsewhere rotated the token (app.js refreshes the token before sending; this is the page without
    JavaScript, or when the refresh could not be made). Nothing was written."""
    if is_api(request):
        return json_error(403, "csrf_failed", f"The request's CSRF token was refused ({reason}). Nothing was written.")
    return error_page(
        request,
        403,
        "This page had gone stale",
        "It was drawn before this phone's cookies were cleared or before a sign-in: go back, reload the page and "
        "tap again. Nothing was written.",
    )


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON ``not_found`` on unknown API paths, the site's page elsewhere."""
    if is_api(request):
        return json_error(404, "not_found", f"There is no API endpoint at {request.path_info}; see /api/schema/.")
    return error_page(request, 404, "Not found", "There is nothing here, or it is private.")


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an outage that escaped the middleware is still a 503; otherwise JSON or the site's page."""
    exc = sys.exc_info()[1]
    if isinstance(exc, INFRASTRUCTURE_ERRORS):
        return unavailable(request, exc)
    if is_api(request):
        return json_error(500, "server_error", "Something went wrong on our side.")
    return error_page(request, 500, "Something went wrong")

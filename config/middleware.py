"""Request middleware that knows no app: request ids, refusing unstorable text, lazy flash messages, and 503 for
outages (see config.errors). The web app's own (domain errors as pages) is ``frontend.views.errors``."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import secrets
import threading
from collections.abc import Callable

from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.functional import SimpleLazyObject, empty

from config.logs import request_id_var

_SAFE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


_ids = itertools.count(1)
_id_lock = threading.Lock()
_id_process: tuple[int, str] = (0, "")


def new_request_id() -> str:
    """A request id unique across processes and hosts: 16 random hex digits drawn once per process (again
    after a fork), then a counter; 32 characters like the uuid4 it replaced, without a system call each."""
    global _id_process
    pid = os.getpid()
    if _id_process[0] != pid:
        with _id_lock:
            if _id_process[0] != pid:
                _id_process = (pid, secrets.token_hex(8))
    return f"{_id_process[1]}{next(_ids):016x}"


class RequestIdMiddleware:
    """Sets ``request.request_id`` and echoes it in the ``X-Request-ID`` response header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        request.request_id = given if _SAFE.match(given) else new_request_id()
        token = request_id_var.set(request.request_id)  # log lines written while serving it name it
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
        response["X-Request-ID"] = request.request_id
        return response


class TextInputMiddleware:
    """Refuse (400) a query string, form field or ``Idempotency-Key`` holding unstorable text (config.text).

    JSON bodies are checked by the API's parser; JSON typed into a form is checked where it is parsed.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        field = self._unstorable_field(request)
        if field is None:
            return self.get_response(request)
        from config.errors import error_page, is_api, json_error
        from config.text import PROBLEM

        if is_api(request):
            return json_error(400, "invalid", f"Invalid {field}: {PROBLEM}", errors={field: [PROBLEM]})
        return error_page(request, 400, f"Invalid {field}", PROBLEM)

    @staticmethod
    def _unstorable_field(request: HttpRequest) -> str | None:
        from django.conf import settings

        from config.text import is_unstorable

        sources = [request.GET] if request.META.get("QUERY_STRING") else []
        length = request.META.get("CONTENT_LENGTH") or "0"
        small = length.isdecimal() and int(length) <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request.method == "POST" and small and request.content_type in _FORM_TYPES:
            # a body that cannot be parsed is the view's to answer, as before
            with contextlib.suppress(MultiPartParserError, SuspiciousOperation, OSError):
                sources.append(request.POST)
        for source in sources:
            for key, values in source.lists():
                if is_unstorable(key) or any(is_unstorable(v) for v in values):
                    return key if not is_unstorable(key) else "parameter name"
        if is_unstorable(request.META.get("HTTP_IDEMPOTENCY_KEY", "")):
            return "Idempotency-Key"
        return None


_FORM_TYPES = {"application/x-www-form-urlencoded", "multipart/form-data"}


class ServiceUnavailableMiddleware:
    """A view stopped by an unreachable PostgreSQL, Redis or broker answers 503 + Retry-After (config.errors)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from config.errors import INFRASTRUCTURE_ERRORS, unavailable

        if isinstance(exception, INFRASTRUCTURE_ERRORS):
            return unavailable(request, exception)
        return None


class LazyMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware``, with the message storage built only when a view or template uses it.

    The API never does, and building it (a cookie and a session storage) on every request was measurable.
    A storage nobody touched has nothing to store, so skipping its ``update`` changes nothing.
    """

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)

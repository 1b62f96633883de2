"""Error pages: the site's error page (Django's 404/500 and config's refusals draw it, through
``config.errors.register_error_page``, registered by ``frontend.apps``), domain errors escaping a view, and the
page state of a record whose stream cannot be replayed (its log, and why nothing else shows)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.errors import DomainError, NotFound, StreamUnreplayable
from matches.models import Stream
from matches.store.history import stream_log
from matches.store.streams import kind_of
from matches.store.visibility import can_view, stream_owner, viewer_for

logger = logging.getLogger("chronicle.errors")


def error_page(request: HttpRequest, status: int, title: str, message: str = "") -> HttpResponse:
    """The error page: ``title`` as its heading, ``message`` under it, with ``status``."""
    return render(request, "frontend/error.html", {"title": title, "message": message}, status=status)


class DomainErrorPageMiddleware:
    """Web pages: a domain error that escapes a view becomes an error page with its status (the API maps its own).

    A match's page (or its history) not found by a reader who is signed out (a private match's link sent to a
    friend) sends them to sign in, with ``?next=`` back to it; a signed-in reader who may not see it gets the
    404. Any id sends a signed-out reader to sign in, so the redirect does not tell a private match from none.
    """

    SIGN_IN_FIRST = frozenset({"match", "match-history"})  # campaigns and series: still 404 (not asked for yet)

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DomainError):
            return None
        if isinstance(exception, StreamUnreplayable):
            return unreplayable_page(request, exception)
        if isinstance(exception, NotFound) and self.sign_in_first(request):
            return redirect_to_login(request.get_full_path())
        return error_page(request, exception.status_code, exception.detail)

    @classmethod
    def sign_in_first(cls, request: HttpRequest) -> bool:
        """Whether a page's not-found answer is a sign-in for this reader (see the class docstring)."""
        user = getattr(request, "user", None)
        match = getattr(request, "resolver_match", None)
        return (
            request.method in ("GET", "HEAD")
            and (user is None or not user.is_authenticated)
            and match is not None
            and match.url_name in cls.SIGN_IN_FIRST
        )


def unreplayable_page(request: HttpRequest, exc: StreamUnreplayable) -> HttpResponse:
    """Any page of a match, campaign or series whose stream cannot be replayed (``StreamUnreplayable``, the one
    place the pages handle it): says so in players' words and shows what can still be shown, the log as the
    reader may read it. 200 for a page read (the page works, in this state), 409 for a form sent to it; a
    reader who may not see the record gets the not-found page."""
    stream = Stream.objects.filter(pk=exc.stream_id).first()
    obj = stream_owner(stream) if stream is not None else None
    user = getattr(request, "user", None)
    if obj is None or not can_view(user, obj):
        return error_page(request, 404, "Not found", "There is nothing here, or it is private.")
    spec = kind_of(obj)
    names = spec.seat_names(obj)
    try:
        lines = stream_log(stream_id=exc.stream_id, game=stream.game, seat_names=names, viewer=viewer_for(user, obj))
    except Exception:  # the log is what is left to show: if even it cannot be read, the page still answers
        logger.exception("the log of stream %s could not be read", exc.stream_id)
        lines = None
    context = {"obj": obj, "noun": spec.noun, "error": exc, "lines": lines, "seat_names": names}
    status = 200 if request.method in ("GET", "HEAD") else 409
    return render(request, "frontend/stream_unreplayable.html", context, status=status)

"""Who a page was drawn for, as the offline app on a device needs to know it (docs/ARCHITECTURE.md › Offline
at the table › Whose pages and entries).

A device keeps match pages and waiting entries. When the account reading on it changes (a sign-in as someone
else, a session that expired) the kept pages must not be shown to the next reader, and entries made by one
account must never be sent under another's session. The server names the reader with an opaque token, the
same for every page of one account and different between accounts (no user id is shown): on each HTML
response as the ``X-Chronicle-Reader`` header (the service worker reads it on navigations) and on the page as
``<meta name="chronicle-reader">`` (the page's scripts stamp their entries with it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac

HEADER = "X-Chronicle-Reader"
ANONYMOUS = "anonymous"


def reader_token(user: Any) -> str:
    """``user``'s token: 20 hex digits keyed by the site's secret, or ``"anonymous"`` for no signed-in user."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ANONYMOUS
    return salted_hmac("chronicle.offline.reader", str(user.pk)).hexdigest()[:20]


def reader(request: HttpRequest) -> dict[str, str]:
    """Template context processor: ``reader``, the token of the request's user."""
    return {"reader": reader_token(getattr(request, "user", None))}


class ReaderMiddleware:
    """Names the reader on every HTML response (``X-Chronicle-Reader``); other responses are left alone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response[HEADER] = reader_token(getattr(request, "user", None))
        return response

"""Flash messages: the storage is built only for requests that use it (the API never does)."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.http import HttpResponse
from django.test import RequestFactory

from config import middleware

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def built(monkeypatch):
    calls: list[object] = []
    real = middleware.default_storage

    def counting(request):
        calls.append(request)
        return real(request)

    monkeypatch.setattr(middleware, "default_storage", counting)
    return calls


def test_an_api_request_builds_no_message_storage(client, stone_match, built):
    assert client.get(f"/api/matches/{stone_match.pk}/state/").status_code == 200
    assert client.get("/api/games/").status_code == 200
    assert built == []


def test_a_message_added_by_a_view_is_stored_and_shown_on_the_next_request(built):
    from django.contrib.sessions.middleware import SessionMiddleware

    def view(request):
        messages.success(request, "Saved.")
        return HttpResponse("ok")

    def read(request):
        return HttpResponse(" ".join(str(m) for m in messages.get_messages(request)))

    factory = RequestFactory()
    session = SessionMiddleware(lambda r: HttpResponse())
    first = factory.get("/")
    session.process_request(first)
    response = middleware.LazyMessageMiddleware(view)(first)
    assert len(built) == 1 and "messages" in response.cookies  # stored (in the cookie storage)
    second = factory.get("/")
    second.COOKIES["messages"] = response.cookies["messages"].value
    session.process_request(second)
    assert middleware.LazyMessageMiddleware(read)(second).content == b"Saved."

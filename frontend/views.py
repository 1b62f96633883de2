"""Web pages: thin views that call selectors and services and render templates."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The home page."""
    return render(request, "frontend/home.html", {})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """404 page."""
    return render(request, "frontend/error.html", {"title": "Not found", "message": str(exception or "")}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """500 page."""
    return render(request, "frontend/error.html", {"title": "Something went wrong", "message": ""}, status=500)

"""Production hardening: the secret-key start-up check, Content-Security-Policy and private caching.

The HTTPS settings themselves (HSTS, SSL redirect, secure cookies, proxy header) are read from the
environment in config.settings; README › Running for real lists the production environment, under which
``manage.py check --deploy`` is clean (tests/config/test_security.py runs it).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

# Pages load nothing from elsewhere and run no inline script. Style attributes stay allowed (boards and
# bars size themselves with them; an attribute cannot run script), <style> elements do not.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# The API's documentation pages (Swagger UI, ReDoc, served locally) inject <style> elements and ReDoc runs
# a worker from a blob: URL.
API_DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
API_DOCS_PATHS = ("/api/docs/", "/api/redoc/")


def require_secret_key() -> None:
    """Refuse to start a server process without a secret key (``DJANGO_SECRET_KEY`` unset and DEBUG off).

    Called by config.wsgi, config.asgi and the Celery worker and beat at start. Management commands that
    sign nothing (migrate, makemigrations, check) still run without one.
    """
    try:
        key = settings.SECRET_KEY
    except ImproperlyConfigured:  # Django's own refusal of an empty key
        key = ""
    if not key:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it to a long random string in production "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))'), or DJANGO_DEBUG=1 for development."
        )


class SecurityHeadersMiddleware:
    """Adds the Content-Security-Policy, and ``Cache-Control: private`` to responses for a signed-in user."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path_info.startswith(API_DOCS_PATHS)
            response["Content-Security-Policy"] = API_DOCS_POLICY if docs else CONTENT_SECURITY_POLICY
        user = getattr(request, "user", None)  # DRF's token authentication sets it on this request too
        if response.status_code != 503 and user is not None and user.is_authenticated:
            patch_cache_control(response, private=True)
        return response

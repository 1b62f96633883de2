"""Production hardening: no start without a secret key, a clean `check --deploy` under the documented
production environment, HTTPS settings from the environment, a strict CSP and private caching."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.both_dbs

ROOT = Path(__file__).resolve().parents[2]

# README › Running for real: the production environment (the database and Redis do not matter to the checks)
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_HTTPS": "1",
    "DJANGO_ALLOWED_HOSTS": "chronicle.example",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://chronicle.example",
    "DJANGO_SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
}


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=180
    )


def test_check_deploy_is_clean_under_the_documented_production_environment():
    r = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        **PRODUCTION_ENV,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues" in r.stdout


def test_check_deploy_flags_a_plain_http_setup():
    r = run(["manage.py", "check", "--deploy"], DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in r.stderr


@pytest.mark.parametrize(
    "args", [["-c", "import config.wsgi"], ["-c", "import config.asgi"], ["-m", "celery", "-A", "config", "worker"]]
)
def test_servers_refuse_to_start_without_a_secret_key_when_not_debugging(args):
    r = run(args, DJANGO_DEBUG="0")
    assert r.returncode == (78 if "celery" in args else 1)  # 78 (EX_CONFIG): scripts/worker does not retry it
    assert "DJANGO_SECRET_KEY is not set" in r.stdout + r.stderr


def test_a_development_server_starts_without_a_key_in_debug():
    r = run(
        ["-c", "import config.wsgi; from django.conf import settings; print(bool(settings.SECRET_KEY))"],
        DJANGO_DEBUG="1",
    )
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr


def test_commands_that_sign_nothing_run_without_a_key():
    r = run(["manage.py", "makemigrations", "--check", "--dry-run"], DJANGO_DEBUG="0")
    assert r.returncode == 0, r.stderr


def test_https_settings_come_from_the_environment():
    show = (
        "from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_PROXY_SSL_HEADER)"
    )
    setup = "import django; django.setup(); "
    on = run(
        ["-c", setup + show], **PRODUCTION_ENV, DJANGO_SECRET_KEY="x" * 60, DJANGO_SETTINGS_MODULE="config.settings"
    )
    assert on.stdout.split() == ["True", "True", "True", "31536000", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')"]
    off = run(["-c", setup + show], DJANGO_DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings")
    assert off.stdout.split() == ["False", "False", "False", "0", "False", "None"]
    partial = run(
        ["-c", setup + show],
        DJANGO_DEBUG="1",
        DJANGO_HTTPS="1",
        DJANGO_SECURE_HSTS_SECONDS="60",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    assert partial.stdout.split()[:4] == ["False", "True", "True", "60"]


@pytest.mark.django_db
def test_ssl_redirect_and_the_proxy_header(settings, client):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    r = client.get("/matches/")
    assert r.status_code == 301 and r["Location"].startswith("https://")
    assert client.get("/matches/", HTTP_X_FORWARDED_PROTO="https").status_code == 200


PAGES = ["/", "/matches/", "/matches/new/", "/games/", "/campaigns/", "/catalogs/", "/accounts/login/"]


@pytest.fixture
def demo(db):
    """The demo data: its user, and every demo match's page and history."""
    from django.contrib.auth import get_user_model

    from matches.demo import DEMO_USER, load_demo
    from matches.models import Match

    load_demo()
    matches = list(Match.objects.all())
    pages = [f"/matches/{m.pk}/" for m in matches] + [f"/matches/{m.pk}/history/" for m in matches]
    return get_user_model().objects.get(username=DEMO_USER), pages


@pytest.mark.django_db
def test_every_page_has_a_strict_csp_and_no_inline_script_or_style_element(client, demo):
    user, pages = demo
    client.force_login(user)
    for path in PAGES + pages:
        r = client.get(path)
        assert r.status_code == 200, path
        csp = r["Content-Security-Policy"]
        # WebAssembly may be compiled (Pyodide runs the rules offline: 'wasm-unsafe-eval'), JavaScript never evaluated
        assert "script-src 'self' 'wasm-unsafe-eval';" in csp and "default-src 'self'" in csp
        assert "'unsafe-eval'" not in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
        assert "style-src 'self';" in csp and "frame-ancestors 'none'" in csp
        html = r.content.decode()
        # a JSON data block (json_script: the match page's offline seed) is data, never run
        assert not re.search(r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>', html), (
            f"inline script on {path}"
        )
        assert "<style" not in html, f"<style> element on {path}"
        assert not re.search(r"\son[a-z]+\s*=", html), f"inline event handler on {path}"
        assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html), (
            f"something loaded from elsewhere on {path}"
        )


@pytest.mark.django_db
def test_the_api_and_its_docs_have_a_policy_too(client):
    assert "default-src 'self'" in client.get("/api/games/")["Content-Security-Policy"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and "script-src 'self';" in docs["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", docs.content.decode()), "inline script in the API docs"


@pytest.mark.django_db
def test_authenticated_responses_are_private_and_anonymous_ones_are_not(client, owner, stone_match):
    from rest_framework.authtoken.models import Token

    assert "private" not in client.get("/matches/").get("Cache-Control", "")
    assert "private" not in client.get("/api/games/").get("Cache-Control", "")
    token = Token.objects.create(user=owner)
    api = client.get(f"/api/matches/{stone_match.pk}/state/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.status_code == 200 and "private" in api["Cache-Control"]
    client.force_login(owner)
    page = client.get(f"/matches/{stone_match.pk}/")
    assert page.status_code == 200 and "private" in page["Cache-Control"]

"""In real headless Chromium: the Content-Security-Policy blocks nothing the pages use (no console report of a
refused script, style or image), and the board's scripts still run under it."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pages_run_under_the_policy_without_a_violation(live_server, phone):
    from matches.demo import load_demo
    from matches.models import Match

    load_demo()
    violations: list[str] = []
    phone.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    paths = ["/", "/matches/", "/games/", "/accounts/login/", "/api/docs/"]
    paths += [f"/matches/{m.pk}/" for m in Match.objects.filter(is_public=True)]
    for path in paths:
        response = phone.goto(live_server.url + path)
        assert response is not None and response.ok, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        phone.wait_for_load_state("networkidle")
    phone.goto(live_server.url + "/api/docs/")
    phone.locator(".swagger-ui").first.wait_for()  # Swagger UI's own script ran
    assert violations == []

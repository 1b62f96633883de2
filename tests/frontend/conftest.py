"""Browser fixtures: Debian's Chromium driven by Playwright (no browser download)."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.frontend.phones import PASSWORD, phone_page, sign_in

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module: Playwright's event loop must not outlive the browser tests, since
    later tests (forked benchmark workers, threads) rely on Django's per-context connections."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run scripts/browser-deps (apt-get install chromium)")
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by tests are still synchronous
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A page the size of a 360-px-wide phone."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, device_scale_factor=1, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def keeper(django_user_model):
    """The user who keeps the table's records (signed in by ``signed_in_phone``)."""
    return django_user_model.objects.create_user(username="keeper", password=PASSWORD)


@pytest.fixture
def signed_in_phone(browser, live_server, keeper):
    """A 390×844 phone (the size of issue #13) signed in as ``keeper``."""
    page = phone_page(browser)
    sign_in(page, live_server.url, "keeper")
    yield page
    page.context.close()


@pytest.fixture(autouse=True)
def _no_engine_prefetch(request, settings):
    """A browser test here that is not about the offline engine does not fetch and start it ahead: its page would
    download Pyodide and start it in every fresh phone (about a third of such a test's CPU, docs/TESTING.md). The
    offline tests (``tests/frontend/offline/``) and a module or test marked ``engine_prefetch`` keep the default."""
    if (
        request.node.get_closest_marker("browser")
        and "offline" not in request.node.path.parts
        and not request.node.get_closest_marker("engine_prefetch")
    ):
        settings.CHRONICLE_OFFLINE_PREFETCH = False

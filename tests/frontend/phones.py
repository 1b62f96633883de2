"""Browser-test helpers shared by the modules: a 390×844 phone, signing it in, and opening a move form."""

from __future__ import annotations

import time
from typing import Any

PASSWORD = "salty-crackers-9"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}


def phone_page(browser: Any, **context_options: Any) -> Any:
    """A new page in a new 390×844 phone context (close it with ``page.context.close()``)."""
    page = browser.new_context(**PHONE, **context_options).new_page()
    page.set_default_timeout(15000)
    return page


def sign_in(page: Any, base_url: str, username: str, password: str = PASSWORD) -> None:
    """Sign ``page`` in through the sign-in form; returns on the home page."""
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(base_url + "/")


def open_form(page: Any, event_type: str) -> Any:
    """The move form of ``event_type``, its disclosure (and "Other entries" around it) opened."""
    details = page.locator("details.move-form:not(.other-entries)", has=page.locator(f"#f-{event_type}"))
    other = page.locator("details.other-entries", has=details)
    if other.count() and other.get_attribute("open") is None:
        other.locator("summary").first.click()
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    return details.locator(f"form[data-event-type={event_type}]")


def session_for(page: Any, base_url: str, user: Any) -> None:
    """Sign ``page`` in as ``user`` without the sign-in form (a session made by Django's test client): for
    tests that sign in many times and are not about signing in."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    page.goto("about:blank")  # a page left open would poll on, and its answers set cookies
    page.context.clear_cookies()
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}])


def wait_until(page: Any, expression: str, arg: Any = None, timeout: float = 30.0) -> Any:
    """Poll ``expression`` (a JavaScript function, async allowed: its promise is awaited) until it returns a
    truthy value, and return that value; ``AssertionError`` after ``timeout`` seconds. Playwright's own
    ``wait_for_function`` does not await a promise (one is truthy at once), so an async check needs this."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(100)


def waiting(page: Any, count: int) -> None:
    """Wait until ``count`` entries wait on the phone to be sent, each checked (table-draw.js counts them on
    ``<html>``: a tap is kept at once, "kept, checking…", and checked once the engine is ready)."""
    page.wait_for_function(
        "(n) => document.documentElement.dataset.offlineWaiting === String(n)"
        " && document.documentElement.dataset.offlineChecking === '0'",
        arg=count,
    )


def stones(page: Any, player: str, count: int) -> None:
    """Fill Last Stone's "Took stones" form for ``player`` and send it."""
    form = open_form(page, "stones_taken")
    form.get_by_label("Player").select_option(label=player)
    form.get_by_label("How many").fill(str(count))
    form.get_by_role("button", name="Record").click()


def stream_refused(message: Any) -> bool:
    """A console error that is the live stream's 501 on a WSGI test server (the page then polls, as designed)."""
    return "/live/" in (message.location or {}).get("url", "") and "501" in message.text

"""manage.py screenshots: regenerate docs/screenshots/ (main pages at phone and laptop width, demo data)."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

WIDTHS = {"phone": (390, 844), "laptop": (1280, 900)}  # the phone of issue #13's browser tests
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _refuse_a_move(page: Any, url: str) -> bool:
    """Send the first move form of the match page at ``url`` for a player who is not to play (or as drawn, when
    it names no player); True when the page came back with a refusal."""
    page.goto(url)
    form = page.locator("#record form[data-event-type]").first
    if not form.count():
        return False
    details = form.locator("xpath=ancestor::details[1]")
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    seat = form.locator("select[name=seat]")
    if seat.count():
        values = seat.locator("option").evaluate_all("os => os.map(o => o.value)")
        seat.select_option(next((v for v in values if v != seat.input_value()), values[0]))
    form.evaluate("f => { f.noValidate = true; }")  # sent as drawn, even where a select says "choose": the
    with page.expect_navigation():  # server's refusal is what the shot shows
        form.locator("button[type=submit]").click()
    return page.locator("#problem").count() > 0


# the pages screenshotted by name (the demo's matches, campaign and series are added as found)
PAGES = {
    "home": "/",
    "matches": "/matches/",
    "new-match": "/matches/new/",
    "games": "/games/",
    "game-get-salty": "/games/get-salty/",
    "stats-game-azul": "/games/scoresheet/?title=Azul",
    "game-salt-and-bones": "/games/salt-and-bones/",  # insights drawn from the logs
    "game-bone-wars": "/games/bone-wars/",
    "game-saltmarsh-adventure": "/games/saltmarsh-adventure/",
    "stats-players": "/stats/players/",
    "stats-me": "/stats/me/",
    "stats-import-export": "/stats/import-export/",
    "match-log": "/matches/log/",
    "catalogs": "/catalogs/",
}


class Command(BaseCommand):
    help = "Serve the demo data on a scratch SQLite database and screenshot the main pages into docs/screenshots/."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--out", default=str(Path(settings.BASE_DIR) / "docs" / "screenshots"))

    def handle(self, *args: Any, **options: Any) -> None:
        from playwright.sync_api import sync_playwright

        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        scratch = tempfile.mkdtemp(prefix="chronicle-shots-")
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(SQLITE_PATH=f"{scratch}/db.sqlite3", DJANGO_DEBUG="0")
        env.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))  # a production-like server needs one
        manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
        subprocess.run([*manage, "migrate", "-v0", "--noinput"], env=env, check=True)
        subprocess.run([*manage, "load_demo"], env=env, check=True, stdout=subprocess.DEVNULL)
        port = _free_port()
        server = subprocess.Popen([*manage, "runserver", "--noreload", f"127.0.0.1:{port}"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):  # up to a minute: a busy machine starts the server slowly
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=CHROMIUM_ARGS
                )
                for label, (width, height) in WIDTHS.items():
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    page.goto(f"{base}/accounts/login/")
                    page.screenshot(path=str(out / f"login-{label}.png"), full_page=True)
                    page.get_by_label("Username").fill("demo")
                    page.get_by_label("Password").fill("demo-pass-123")
                    page.get_by_role("button", name="Sign in").click()
                    page.wait_for_load_state()
                    shots = dict(PAGES)
                    page.goto(f"{base}/matches/")  # every demo match (home lists only the latest 20)
                    links = page.eval_on_selector_all(
                        ".match-row > a", "els => els.map(e => [e.textContent, e.getAttribute('href')])"
                    )
                    for text, href in links:
                        if not text.startswith("Demo"):
                            continue  # matches made for other demo pages (the series' evenings)
                        slug = re.sub(r"[^a-z0-9]+", "-", text.replace("Demo: ", "").split("(")[0].lower()).strip("-")
                        shots[f"match-{slug}"] = href
                        shots.setdefault("history", href + "history/")
                    if "match-the-first-spine" in shots:  # a card picked: the cells it may go to
                        shots["match-the-first-spine-pick"] = shots["match-the-first-spine"] + "?card=Squire"
                    page.goto(f"{base}/")  # the home page lists the campaigns
                    campaign = page.eval_on_selector_all(
                        "a[href^='/campaigns/']",
                        "els => els.map(e => e.getAttribute('href')).filter(h => /\\/campaigns\\/\\d+\\/$/.test(h))",
                    )
                    if campaign:
                        shots["campaign-sheet"] = campaign[0]
                        shots["campaign-ledger"] = campaign[0] + "ledger/"
                        shots["campaign-town"] = campaign[0] + "town/"
                    page.goto(f"{base}/series/")
                    series = page.eval_on_selector_all(
                        "a[href^='/series/']",
                        "els => els.map(e => e.getAttribute('href')).filter(h => /\\/series\\/\\d+\\/$/.test(h))",
                    )
                    if series:
                        shots["series"] = series[0]
                    for name, path in shots.items():
                        page.goto(base + path)
                        page.screenshot(path=str(out / f"{name}-{label}.png"), full_page=True)
                        self.stdout.write(f"{name}-{label}.png")
                    if "match-bone-wars" in shots:  # the printable "Set up the table" panel, as printed
                        page.goto(base + shots["match-bone-wars"])
                        page.emulate_media(media="print")
                        page.screenshot(path=str(out / f"bone-wars-setup-{label}.png"), full_page=True)
                        page.emulate_media(media="screen")
                        self.stdout.write(f"bone-wars-setup-{label}.png")
                    if label == "phone":  # the first screenful after a refused move: the reason and whose turn
                        for name in [n for n in shots if n.startswith("match-") and n != "match-the-first-spine-pick"]:
                            if _refuse_a_move(page, base + shots[name]):
                                page.screenshot(path=str(out / f"{name}-refused-{label}.png"))
                                self.stdout.write(f"{name}-refused-{label}.png")
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
            shutil.rmtree(scratch, ignore_errors=True)

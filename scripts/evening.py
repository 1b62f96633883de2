#!/usr/bin/env python
"""An evening at the table on three phones (issue 43), in real Chromium at 390x844 — a look, not a CI test.

Ana signs up and creates each game's match with the new-match form (public, so a third, signed-out phone can
watch); Cleo, without an account, takes her seat of the first match from its join link and signs up there; in
the later matches Ana types "Cleo" and the form seats Cleo's account openly. Each match is then played for a
few moves, each move sent by the phone of the seat that makes it (Ana records for the other seats), chosen
from the server's legal moves; after each move the script waits for the other two phones to show it without a
reload (their live update), and full-page screenshots of the three phones go to ``--shots`` after each game.
What each phone showed is printed (its turn line and any refusal or 4xx it met).

Runs its own server (``manage.py runserver``, DEBUG on, a database of its own that it migrates and empties):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/chronicle_evening .venv/bin/python scripts/evening.py

Options: ``--port`` (8765), ``--moves`` per game (8), ``--shots`` folder (/tmp/evening).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PASSWORD = "salty-crackers-9"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}
FLIP: dict[str, Any] = {}  # Salt & Bones' Field Phase is chance: its flip is sent as drawn
GAMES = ["last-stone", "get-salty", "salt-and-bones", "the-first-spine", "bone-wars"]
POST = """async ([url, body]) => {
  const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  const r = await fetch(url, {method: body ? "POST" : "GET", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json"},
    body: body ? JSON.stringify(body) : undefined});
  return [r.status, await r.json().catch(() => null)];
}"""


def server(port: int) -> subprocess.Popen[bytes]:
    """A fresh database (flushed, migrated) and ``runserver`` on ``port``, once it listens."""
    env = {**os.environ, "DJANGO_DEBUG": "1"}
    subprocess.run([PYTHON, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "manage.py", "flush", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    log = open("/tmp/evening-server.log", "wb")  # noqa: SIM115 (kept open for the server's life)
    proc = subprocess.Popen([PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)  # fmt: skip
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start: see /tmp/evening-server.log")


class Phone:
    """One phone: its page, who holds it, and what it met (4xx answers)."""

    def __init__(self, browser: Any, name: str, base: str) -> None:
        self.name, self.base = name, base
        self.page = browser.new_context(**PHONE).new_page()
        self.page.set_default_timeout(30000)
        self.met: list[str] = []
        self.page.on("response", lambda r: self.met.append(f"{r.status} {r.request.method} {r.url}")
                     if r.status >= 400 and "/version/" not in r.url else None)  # fmt: skip

    def signup(self, username: str) -> None:
        page = self.page
        if "/accounts/signup/" not in page.url:
            page.goto(self.base + "/accounts/signup/")
        page.get_by_label("Username").fill(username)
        page.locator("input[name=password1]").fill(PASSWORD)
        page.locator("input[name=password2]").fill(PASSWORD)
        page.get_by_role("button", name="Create account").click()
        page.wait_for_load_state()

    def api(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.page.evaluate(POST, [self.base + path, body])

    def version(self) -> int:
        return int(self.page.locator("#tablebar").get_attribute("data-version") or -1)

    def shot(self, folder: Path, label: str) -> None:
        self.page.screenshot(path=str(folder / f"{label}-{self.name}.png"), full_page=True)


def create(ana: Phone, game: str, cleo_known: bool) -> int:
    """Ana's new match of ``game`` (public), seats Ana, Cleo (and Bo for more): its id."""
    page = ana.page
    page.goto(f"{ana.base}/matches/new/?game={game}&seats={3 if game == 'bone-wars' else 2}")
    for i, name in enumerate(["Ana", "Cleo", "Bo", "Dee"]):
        box = page.locator(f"#id_seat_{i}")
        if box.count():
            box.fill(name)
    if cleo_known and page.locator("#id_seat_1_account").count():  # the form seats Cleo's account openly
        chosen = page.locator("#id_seat_1_account option:checked").inner_text()
        print(f"  new {game}: the form says Cleo's seat is {chosen!r}")
    page.locator("input[name=is_public]").check()
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url("**/matches/*/")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def cleo_joins(ana: Phone, cleo: Phone) -> None:
    """Ana shows the join link; Cleo's phone opens it, takes "Cleo", signs up from there."""
    page = ana.page
    page.locator("#join summary").click()
    page.get_by_role("button", name="Show a join link and QR code").click()
    link = page.locator("#join a[href*='/join/'], #join input[value*='/join/']").first
    url = link.get_attribute("href") or link.get_attribute("value")
    cleo.page.goto(url if url.startswith("http") else ana.base + url)
    cleo.page.get_by_role("button", name="I am Cleo").click()
    cleo.page.locator("main").get_by_role("link", name="Sign up").click()
    print("  Cleo's sign-up page says:", cleo.page.locator(".joining").inner_text().replace("\n", " "))
    cleo.signup("cleo")
    print("  Cleo lands on:", cleo.page.url, "|", cleo.page.locator(".messages, .message").first.inner_text()[:80]
          if cleo.page.locator(".messages, .message").count() else "")  # fmt: skip


def play(match_id: int, ana: Phone, cleo: Phone, watcher: Phone, moves: int, rng: random.Random) -> None:
    """Up to ``moves`` legal moves, each by its seat's phone; the other phones follow without a reload."""
    for phone in (ana, cleo, watcher):
        phone.page.goto(f"{phone.base}/matches/{match_id}/")
    for _ in range(moves):
        status, legal = ana.api(f"/api/matches/{match_id}/legal-moves/")
        if status == 404 and FLIP.get(ana.page.url.split("/")[-2]) is None and "Field" in ana.page.inner_text("#turn"):
            legal = [{"type": "field_card_flipped", "seat": 0, "data": {"tiles": [[0, 2], [5, 3]]}}]
        elif status != 200 or not legal:
            print(f"  legal moves: {status} {str(legal)[:120]}")
            return
        move = rng.choice(legal)
        by = cleo if move.get("seat") == 1 else ana
        if by is cleo:  # as Cleo may know them (her own secrets: Ana's list hides them)
            mine = [m for m in cleo.api(f"/api/matches/{match_id}/legal-moves/")[1] or [] if m.get("seat") == 1]
            move = rng.choice(mine) if mine else move
        before = by.version()
        status, answer = by.api(f"/api/matches/{match_id}/events/", {**move, "expected_version": before})
        if status >= 400:
            print(f"  {by.name} sent {move['type']}: {status} {str(answer)[:160]}")
            return
        version = answer["version"]
        for phone in (ana, cleo, watcher):
            try:
                phone.page.wait_for_function(
                    "v => +document.getElementById('tablebar').dataset.version >= v", arg=version, timeout=15000
                )
            except Exception:
                print(f"  {phone.name} did not show move {version} within 15 s (shows {phone.version()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--shots", type=Path, default=Path("/tmp/evening"))
    args = parser.parse_args()
    shutil.rmtree(args.shots, ignore_errors=True)
    args.shots.mkdir(parents=True)
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright

    from tests.frontend.conftest import CHROMIUM, CHROMIUM_ARGS

    proc = server(args.port)
    base = f"http://127.0.0.1:{args.port}"
    rng = random.Random(43)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            ana, cleo, watcher = (Phone(browser, n, base) for n in ("ana", "cleo", "watcher"))
            ana.signup("ana")
            for n, game in enumerate(GAMES):
                started = time.monotonic()
                print(f"{game}:")
                match_id = create(ana, game, cleo_known=n > 0)
                if n == 0:
                    cleo_joins(ana, cleo)
                play(match_id, ana, cleo, watcher, args.moves, rng)
                for phone in (ana, cleo, watcher):
                    print(f"  {phone.name}: {phone.page.locator('#turn').inner_text()[:100]!r}"
                          if phone.page.locator("#turn").count() else f"  {phone.name}: no turn line")  # fmt: skip
                    phone.shot(args.shots, f"{n + 1}-{game}")
                print(f"  ({time.monotonic() - started:.1f} s)")
            for phone in (ana, cleo, watcher):
                print(f"{phone.name} met:", phone.met or "no 4xx/5xx")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"screenshots in {args.shots}")


if __name__ == "__main__":
    main()

"""Server-drawn boards and their offline twins (``frontend/offline/board.py``): the positions the differential
tests compare, and how a page's ``#board`` is read and normalised (a fresh idempotency key per render)."""

from __future__ import annotations

import contextlib
import html as htmllib
import json
import random
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from matches.errors import DomainError
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import get_ruleset
from rulesets.offline import legal_of
from tests.frontend.forms.test_form_coverage import SCENARIOS
from tests.matches.hidden_reads import seed_of

NAMES = ["Ana", "Bo", "Cy", "Di"]
KEY = re.compile(r'(name="idempotency_key" value=")[0-9a-f]{32}')


def board_html(page: str) -> str:
    """The board partial inside a match page's ``#board`` (after the refusal box, if any)."""
    start = page.index('<section id="board"')
    start = page.index(">", start) + 1
    depth, at = 1, start
    for tag in re.finditer(r"<(/?)section\b", page[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            at = start + tag.start()
            break
    return page[start:at]


def normalised(text: str) -> str:
    """``text`` with the per-render idempotency key replaced and the whitespace at its edges dropped."""
    return KEY.sub(r"\1KEY", text).strip()


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    return found.group(1) if found else ""


def board_queries(inner: str, page_url: str, limit: int = 3) -> list[dict[str, str]]:
    """Up to ``limit`` queries the board's own links ask for (pick a token, a card, a cell…)."""
    out: list[dict[str, str]] = []
    for href in re.findall(r'<a [^>]*href="([^"]+)"', inner):
        parts = urlsplit(htmllib.unescape(href))
        if parts.path == page_url and parts.query:
            query = dict(parse_qsl(parts.query))
            if query not in out and "at" not in query:
                out.append(query)
    return out[:limit]


def new_match(owner: Any, slug: str) -> tuple[Any, list[Any]]:
    """A match of ``slug`` as its form-coverage scenario sets it up (seat 0 starts), and the scenario's script."""
    scenario = SCENARIOS[slug]
    ruleset = get_ruleset(slug)
    options = {**scenario.options}
    if ruleset.start_option:
        options[ruleset.start_option] = 0
    match = match_create(owner=owner, game=slug, seats=[{"name": n} for n in NAMES[: scenario.seats]],
                         options=options)  # fmt: skip
    return match, list(scenario.script)


def play(match: Any, owner: Any, rng: random.Random, script: list[Any]) -> bool:
    """Record the script's next entry that applies (else a random legal move); False when nothing is left."""
    ruleset = get_ruleset(match.game)
    head = store.head_load(match.stream_id, fresh=True)
    entry = _next(rng, ruleset, head.state, script)
    if entry is None:
        return False
    with contextlib.suppress(DomainError):  # a scripted entry the walk made illegal: the caller plays on
        match_event_record(match=match, user=owner, **entry)
    return True


def _next(rng: random.Random, ruleset: Any, state: dict[str, Any], script: list[Any]) -> dict[str, Any] | None:
    from tests.frontend.offline.test_browser_offline_rules import _scripted

    while script:
        planned = _scripted(script.pop(0), ruleset, state)
        if planned is not None:
            return {"type": planned["type"], "seat": planned.get("seat"), "data": planned.get("data") or {}}
    legal = legal_of(ruleset, state) or []
    if not legal:
        return None
    move = rng.choice(legal)
    return {"type": move.type, "seat": move.seat, "data": move.data}


def page_and_seed(client: Any, match: Any, query: str = "") -> tuple[str, dict[str, Any]]:
    page = client.get(f"/matches/{match.pk}/{query}").content.decode()
    return page, json.loads(seed_of(page))

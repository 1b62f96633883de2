"""The match page's board drawn with no server: the server's own board functions (``frontend.boards``) and
templates, rendered by Django's own template engine run standalone (no database, no apps, no URL resolver).

The browser runs this file in Pyodide (``static/frontend/offline/rules.js`` › ``board``), from the archive
``frontend.offline.bundle.board_archive`` serves: the template engine's modules of the installed Django, the board
modules, ``frontend.forms.inputs`` and the templates. :func:`render` takes the page's seed (``frontend.offline.seed.
offline_seed``, whose ``board`` holds the :class:`frontend.boards.shared.TableFacts` a board needs) and a position
``rulesets.offline`` answered, and returns the HTML the server would put in ``#board`` for that position.
"""

from __future__ import annotations

import functools
import html as htmllib
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from frontend.boards import shared as boards
from frontend.forms.inputs import recordable
from rulesets import Event
from rulesets.offline import reading_json
from rulesets.registry import get_ruleset

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"  # frontend/templates
# the settings the board templates depend on. The server's time zone is UTC (config/settings.py) and the times a
# seed carries are UTC: drawn as they are, they read as the server draws them, and Pyodide needs no zone database
# (USE_TZ would ask zoneinfo for "UTC", which Pyodide has only with its tzdata package)
SETTINGS = {"USE_I18N": False, "USE_TZ": False, "TIME_ZONE": "UTC", "LANGUAGE_CODE": "en-us"}


@dataclass
class Shown:
    """A position as a board reads it: the fields of ``matches.selectors.MatchState`` the boards use."""

    version: int
    latest_version: int
    state: dict[str, Any]
    outcome: dict[str, Any] | None
    turn_seats: list[int]
    phase: str = ""
    prompt: str = ""
    override_pending: bool = False
    warnings: list[str] = field(default_factory=list)
    turn_line: str = ""


@functools.cache
def engine() -> Any:
    """A standalone Django template engine over ``frontend/templates`` (configured once per interpreter; the
    server's own settings are left alone when this runs inside it, as the tests do)."""
    from django.conf import settings

    if not settings.configured:
        settings.configure(**SETTINGS)
    from django.template import Engine

    return Engine(dirs=[str(TEMPLATES)], app_dirs=False, autoescape=True)


def shown(position: dict[str, Any], seen: dict[str, Any] | None = None) -> Shown:
    """``position`` (``rulesets.offline``'s JSON) as the board reads a match's state; ``seen``: its
    ``reading_json`` when already read."""
    seen = seen if seen is not None else reading_json(position)
    turn = seen["turn"]
    version = int(position.get("version") or 0)
    return Shown(
        version=version,
        latest_version=version,
        state=seen["state"],
        outcome=turn["outcome"],
        turn_seats=list(turn["seats"]),
        phase=turn["phase"],
        prompt=turn["prompt"],
        override_pending=bool(position.get("override_pending")),
        warnings=list(turn["warnings"]),
        turn_line=turn["line"],
    )


def facts_of(seed: dict[str, Any], position: dict[str, Any], query: dict[str, str] | None) -> boards.TableFacts:
    """The board's facts from the page's seed (``TableFacts.seed``) and the link's query."""
    known = seed.get("board") or {}
    return boards.TableFacts(
        game=seed["game"],
        match=seed["match"],
        title=known.get("title", ""),
        seat_names=list(position.get("seat_names") or seed.get("seat_names") or []),
        page_url=known.get("page_url", f"/matches/{seed['match']}/"),
        record_url=known.get("record_url", f"/matches/{seed['match']}/record/"),
        query=dict(query or {}),
        reader_records=bool(known.get("reader_records")),
        sight=known.get("sight"),
        seat={"held": known.get("reader_seat")},
        times={int(k): v for k, v in (known.get("times") or {}).items()},
        moves={int(k): bool(v) for k, v in (known.get("moves") or {}).items()},
        photos=list(known.get("photos") or []),
    )


def board_context(
    seed: dict[str, Any], position: dict[str, Any], query: dict[str, str] | None = None
) -> tuple[dict[str, Any], Shown, boards.TableFacts]:
    """The board's context for ``position`` as ``frontend.views.matches.match_detail`` computes it on the server."""
    ruleset = get_ruleset(seed["game"])
    seen = reading_json(position)  # the view, the turn and the legal moves: read once
    ms = shown(position, seen)
    facts = facts_of(seed, position, query)
    can_record = bool(seed.get("can_record"))
    final = bool(ms.outcome) and not ms.outcome.get("provisional")
    legal = None
    if can_record and not final:
        listed = seen["legal"]
        moves = None if listed is None else [Event(m["type"], m.get("seat"), m.get("data") or {}) for m in listed]
        legal = recordable(ruleset, moves)
    board = boards.board_for(ruleset=ruleset, ms=ms, legal=legal, facts=facts, can_record=can_record, problem={})
    return board, ms, facts


def render(seed: dict[str, Any], position: dict[str, Any], query: dict[str, str] | None = None, csrf: str = "") -> str:
    """The HTML of the board partial (``board.template``) for ``position``: what the server draws inside
    ``#board`` with the page's ``query`` (``?pick=``…) and ``csrf`` (the page's token, for the board's forms)."""
    from django.template import Context

    board, ms, facts = board_context(seed, position, query)
    context = {
        "board": board,
        "ms": ms,
        "match": {"pk": facts.match, "title": facts.title, "game": facts.game},
        "idempotency_key": uuid.uuid4().hex,
        "csrf_token": csrf,
    }
    return engine().get_template(board["template"]).render(Context(context))


PICKS_MAX = 40  # boards drawn ahead per position (frontend.views.picks, offline/table-picks.js); past them: when tapped
LINK = re.compile(r'<a\b[^>]*?\shref="([^"]*)"')


def link_queries(html: str, page_url: str) -> list[str]:
    """The queries of ``html``'s links to its own page (a pick, a card, a cell…), as written (``pick=a&hint=1``),
    in the board's order, once each; not a replay's (``at=``)."""
    out: list[str] = []
    for href in LINK.findall(html):
        parts = urlsplit(htmllib.unescape(href))
        query = parts.query
        if not query or parts.path != page_url or query in out or any(k == "at" for k, _ in parse_qsl(query)):
            continue
        out.append(query)
    return out


def render_json(request: str) -> str:
    """:func:`render` as the browser calls it: ``{seed, position, query, csrf}`` JSON in, ``{html}`` or
    ``{error}`` JSON out."""
    import json

    try:
        asked = json.loads(request)
        html = render(asked["seed"], asked["position"], asked.get("query"), asked.get("csrf", ""))
    except Exception as exc:  # the page keeps its board: never a Python traceback in it
        return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
    return json.dumps({"html": html})

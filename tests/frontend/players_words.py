"""What a player must never read (issue 23 item 14): a game's slug, JSON, "(s)", a snake_case wire name, "null", and on a
match's pages "version 13" or "entry 16" (a match counts its entries as moves). Shared by the browser check
(``test_browser_players_words.py``) and the pages it reads, built by :func:`played`."""

from __future__ import annotations

import re
from typing import Any

from matches.services import match_create, match_event_record
from rulesets import all_rulesets, get_ruleset
from tests.frontend.forms.test_form_coverage import Scenario

SLUGS = [r.slug for r in all_rulesets() if r.slug != "series"]  # "series" is also an English word
JSON = re.compile(r'[{\[]\s*"|"\w+"\s*:|\{\s*\}|\[\s*\]')
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
NULLISH = re.compile(r"\b(?:null|undefined|NaN)\b")  # a program's words for nothing
MATCH_JARGON = re.compile(r"\b(?:[Vv]ersions? \d+|[Ee]ntry \d+|[Ee]ntries \d+)")


def developer_words(text: str, *, match_page: bool = False) -> list[str]:
    """The developer words in ``text`` (a page's visible text), whole words only."""
    found = [s for s in SLUGS if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)]
    found += [m.group(0) for m in JSON.finditer(text)]
    found += ["(s)"] * text.count("(s)")
    found += [m.group(0) for m in SNAKE.finditer(text)]
    found += NULLISH.findall(text)
    if match_page:
        found += MATCH_JARGON.findall(text)
    return found


def played(owner: Any, slug: str, scenario: Scenario, steps: int = 6) -> Any:
    """A match of ``slug`` a few entries in (the form-coverage scenario's first entries)."""
    from matches.store import events as store

    match = match_create(
        owner=owner, game=slug, seats=[{"name": n} for n in ("Ana", "Bo", "Cy", "Di")[: scenario.seats]],
        options=scenario.options, title="",
    )  # fmt: skip
    ruleset = get_ruleset(slug)
    for step in scenario.script[:steps]:
        state = store.head_load(match.stream_id, fresh=True).state
        if isinstance(step, str):
            legal = ruleset.legal_moves(state) or []
            kind = step.removeprefix("legal:")
            move = next(m for m in legal if kind in ("*", m.type))
        else:
            move = step if not callable(step) or hasattr(step, "type") else step(ruleset, state)
        match_event_record(match=match, user=owner, type=move.type, seat=move.seat, data=move.data)
    return match

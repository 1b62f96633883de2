"""Template helpers for plays: the "Played … at … · imported from …" line and a seat's score and result."""

from __future__ import annotations

import re
from typing import Any

from django import template

from matches.interop.present import play_line, seat_notes
from matches.interop.writer import SOURCE_NOTES
from rulesets import all_rulesets

register = template.Library()


@register.simple_tag
def played_line(match: Any) -> str:
    return play_line(match)


@register.filter
def source_note(reason: Any) -> bool:
    """Whether an outcome's reason is only an imported result's note ("imported from BG Stats"), which the
    played line already says."""
    return str(reason or "").strip() in {note for note in SOURCE_NOTES.values() if note}


@register.filter
def outcome_tail(reason: Any) -> str:
    """What follows "Won by Ana" in the table bar: ": the last stone taken" for a game's own reason, " · the
    result imported from BG Stats" for an imported result's note, "" for none."""
    text = str(reason or "").strip()
    if not text:
        return ""
    if source_note(text):
        return f" · the result {text}"
    return f": {text}"


@register.simple_tag
def seat_note(match: Any, index: int) -> str:
    """The seat's score and result from the match summary (the list) for ``index``."""
    summary = getattr(match, "summary", None)
    notes = seat_notes(match, getattr(summary, "scores", None), getattr(summary, "winners", None))
    return notes.get(index, "")


BAR_LINE = 72  # about three lines of the table bar's turn line on a 360-px phone, the Undo button beside it
_BREAKS = (". ", "; ", " — ", ", ", " (")


@register.simple_tag
def bar_prompt(names: Any, prompt: Any) -> tuple[str, str]:
    """The turn line's prompt split for the table bar: ``(head, rest)``. The head, shown whole (never cut with
    "…"), keeps "Ana to play — " and the prompt within about :data:`BAR_LINE` characters, ending at a sentence,
    clause or word; the rest ("" when it all fits) is behind the bar's *more*, so the bar's height stays bounded
    however long a game's prompt is (The First Spine's lists the confrontations ending the turn)."""
    text = " ".join(str(prompt or "").split())
    room = BAR_LINE - len(" or ".join(names or ())) - len(" to play — ")
    if len(text) <= room:
        return text, ""
    cut = max((text.rfind(b, 0, room) for b in _BREAKS), default=-1)
    if cut <= 0:
        cut = text.rfind(" ", 0, room)
    if cut <= 0:
        return text, ""
    if text[cut : cut + 2] in (". ", "; "):  # the sentence's own full stop stays with it
        cut += 1
    return text[:cut].rstrip(), text[cut:].strip()


_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s+")


@register.filter
def rule_words(citation: Any) -> str:
    """A rule citation as a phone shows it: the rulebook's own heading words, without the game's name,
    Chronicle's markers or section numbers ("Get Salty › Player Turn › D": "Move & Flip Cracker", "The First
    Spine › Chronicle's reading › Placing a card": "Placing a card", "Salt & Bones › 4.4.2 Chain Cards": "Chain
    Cards", "… › Game play › Confrontations › Procedure": "Confrontations: Procedure"). The citation itself stays
    the reference (the page gives it as the words' title; the API's ``rule``)."""
    text = str(citation or "").strip()
    for ruleset in all_rulesets():
        if text in ruleset.rule_headings:
            return ruleset.rule_headings[text]
    parts = [p.strip() for p in text.split("›") if p.strip()]
    games = {r.name.split(" (")[0] for r in all_rulesets()} | {"Chronicle"}
    if len(parts) > 1 and parts[0] in games:
        parts = parts[1:]
    parts = [_NUMBERED.sub("", p) for p in parts if p != "Chronicle's reading"] or [text]
    return ": ".join(parts[-2:])

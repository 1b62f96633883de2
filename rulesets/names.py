"""Players by name: rulesets write "Seat N", the server names the players, in one function.

Rulesets are pure and never know who sits where, yet the people at the table must read "It is Bo's
turn", never "seat 0". The convention, for every game:

- wherever a ruleset writes text for people it names a seat as ``"Seat N"`` (N = the seat index on the
  wire; :func:`seat_ref` writes it): :class:`~rulesets.base.RuleViolation` messages, ``describe``
  sentences, log lines kept in the state (a combat log), :class:`~rulesets.base.Outcome` reasons,
  ``warnings``, and :class:`~rulesets.base.TurnInfo` prompts;
- a turn prompt says what the seats on turn do now, without naming them ("move or flip an unsalted
  cracker"); :func:`turn_line` puts their names in front: "Bo to play — move or flip an unsalted cracker";
- the server replaces "Seat N" of an existing seat by that seat's name with :func:`name_seats` (and
  :func:`name_all` for a whole JSON state) where a match's names are known: refusals
  (``matches.services.match_event_record``), state, outcome, prompt and warnings
  (``matches.selectors.match_state``, the API's append answer), history and activity sentences
  (``rulesets.replay.describe_entry``), the projected summaries and the boards.

Names are applied when text is read, never stored, so a renamed player is renamed in old logs too, and
where no name is known (a ruleset test, a campaign stream, which has no seats) the text still reads
"Seat N".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

_SEAT = re.compile(r"\b[Ss]eat (\d+)\b")


def seat_ref(seat: int) -> str:
    """How a ruleset names ``seat`` in text for people: ``"Seat 1"`` (the server shows the player's name)."""
    return f"Seat {int(seat)}"


def name_seats(text: str, seat_names: Sequence[str]) -> str:
    """``text`` with every "Seat N" (or "seat N") of an existing seat replaced by that player's name, so
    refusals and prompts written by a ruleset (which knows seats, not people) read "It is Bo's turn"."""
    if "eat " not in text:
        return text

    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return seat_names[seat] if seat < len(seat_names) and seat_names[seat] else m.group(0)

    return _SEAT.sub(name, text)


def name_all(value: Any, seat_names: Sequence[str]) -> Any:
    """A JSON-like ``value`` with :func:`name_seats` applied to every string in it (the input is untouched).

    Containers holding nothing to rename are returned as they are, not copied.
    """
    if isinstance(value, str):
        return name_seats(value, seat_names)
    if isinstance(value, dict):
        items = {k: name_all(v, seat_names) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    if isinstance(value, list | tuple):
        seq = [name_all(v, seat_names) for v in value]
        if all(a is b for a, b in zip(seq, value, strict=True)):
            return value
        return tuple(seq) if isinstance(value, tuple) else seq
    return value


def turn_line(seats: Iterable[int], prompt: str, seat_names: Sequence[str]) -> str:
    """The turn as the table reads it: "Bo to play — <prompt>" ("Ana or Bo" when either may act).

    ``prompt`` is the ruleset's :class:`~rulesets.base.TurnInfo` prompt (seats in it are named too); with
    nobody on turn the named prompt alone.
    """
    who = " or ".join(name_seats(seat_ref(s), seat_names) for s in seats)
    what = name_seats(prompt, seat_names)
    if not who:
        return what
    return f"{who} to play — {what}" if what else f"{who} to play"


def plural(count: int, one: str, many: str = "") -> str:
    """ "1 stone", "3 stones", "2 matches" (``many`` when the plural is not ``one`` + "s"): never "stone(s)"."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def with_article(word: str) -> str:
    """``word`` with its indefinite article: "an INSTINCT", "an Architect", "a GAMBIT"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"

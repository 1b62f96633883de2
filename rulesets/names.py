"""Seat names in text: rulesets write seat *tokens*, the server renders them with the match's names.

Rulesets are pure and never know who sits where, yet the people at the table must read "It is Bo's
turn", never "seat 0". So wherever a ruleset writes text for people it names a seat with
:func:`seat_ref` (which gives the token ``"{seat:1}"``), never with a bare number:

- :class:`~rulesets.base.RuleViolation` messages: ``f"It is {seat_ref(turn)}'s turn."``;
- :class:`~rulesets.base.TurnInfo` prompts: ``to_play([seat], "move or flip an unsalted cracker")``;
- ``describe`` sentences, log lines kept in the state (a combat log), :class:`~rulesets.base.Outcome`
  reasons and ``warnings``.

The server turns tokens into names in one function, :func:`render` (and :func:`render_all` for a
whole JSON state), called at the boundary where a match's seat names are known: refusals
(``matches.services.match_event_record``), states, prompts, outcomes and warnings
(``matches.selectors.match_state``, the API's append answer), history and activity sentences
(``rulesets.replay.describe_entry``) and the projected summaries. Tokens stay in stored states, so a
renamed seat reads right in old logs too. Where no name is known (a ruleset test, a campaign stream
without seats) a token reads "Seat N".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

_TOKEN = re.compile(r"\{seat:(\d+)\}")
_MARK = "{seat:"


def seat_ref(seat: int) -> str:
    """The token naming ``seat`` in a ruleset's text (``"{seat:0}"``); rendered as that seat's name."""
    return f"{{seat:{int(seat)}}}"


def to_play(seats: Iterable[int], what: str = "") -> str:
    """A turn prompt in the house style: ``"{seat:0} to play — move or flip an unsalted cracker"``.

    ``seats``: who may act (several read "Ana or Bo"); ``what``: what they do now, in the imperative,
    without naming them again. Empty ``what`` gives just ``"{seat:0} to play"``.
    """
    who = " or ".join(seat_ref(s) for s in seats)
    if not who:
        return what
    return f"{who} to play — {what}" if what else f"{who} to play"


def render(text: str, seat_names: Sequence[str]) -> str:
    """``text`` with every seat token replaced by that seat's name ("Seat N" when no name is known)."""
    if _MARK not in text:
        return text

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1))
        if index < len(seat_names) and seat_names[index]:
            return seat_names[index]
        return f"Seat {index}"

    return _TOKEN.sub(name, text)


def render_all(value: Any, seat_names: Sequence[str]) -> Any:
    """A copy of a JSON-like ``value`` with :func:`render` applied to every string in it (keys too).

    Containers without a token are returned as they are (not copied), so rendering a large state that
    names nobody costs one walk and no allocation.
    """
    if isinstance(value, str):
        return render(value, seat_names)
    if isinstance(value, dict):
        out = {render(k, seat_names) if isinstance(k, str) else k: render_all(v, seat_names) for k, v in value.items()}
        return (
            value
            if all(a is b for a, b in zip(out.values(), value.values(), strict=True))
            and all(a is b for a, b in zip(out, value, strict=True))
            else out
        )
    if isinstance(value, list | tuple):
        items = [render_all(v, seat_names) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return type(value)(items) if isinstance(value, tuple) else items
    return value

"""A game logged after the fact from the "Log a finished game" page: one finished match ended by the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from matches.errors import InvalidInput
from matches.interop.writer import MAX_SEATS, chronicle_game
from matches.models import Match
from rulesets.replay import RESULT_RECORDED


@dataclass
class PlayRow:
    player: str
    score: float | int | None
    winner: bool
    start: bool
    order: int


@transaction.atomic
def finished_match_log(
    *, owner: AbstractBaseUser, game_name: str, rows: list[PlayRow], played: dict[str, Any], is_public: bool = False,
    bgg_id: int | None = None, highest_wins: bool = True, cooperative: bool = False, note: str = "",
) -> Match:  # fmt: skip
    """Record a game played without move entry: a finished match of the Chronicle game with this name (when its
    rules take that many players), else a score sheet, ending with ``result_recorded`` (winners and scores as
    told). ``rows`` are in seat order. Raises :class:`InvalidInput`; nothing is written then."""
    from matches.services import match_create, match_event_record

    if not 1 <= len(rows) <= MAX_SEATS:
        raise InvalidInput({"players": [f"Name 1 to {MAX_SEATS} players."]})
    seats = [{"name": r.player} for r in rows]
    title = " ".join(game_name.split())[:120]
    if not title:
        raise InvalidInput({"game": ["Name the game."]})
    slug = chronicle_game(title, bgg_id)
    match = None
    if slug is not None:
        try:
            with transaction.atomic():
                match = match_create(
                    owner=owner, game=slug, seats=seats, title=title, is_public=is_public, played=played
                )
        except InvalidInput:
            match = None  # e.g. a player count the rules do not allow: keep it as a score sheet
    if match is None:
        options = {"title": title, "bgg_id": bgg_id, "highest_wins": highest_wins, "cooperative": cooperative}
        match = match_create(
            owner=owner, game="scoresheet", seats=seats, options=options, title=title, is_public=is_public,
            played=played,
        )  # fmt: skip
    scores = {str(i): r.score for i, r in enumerate(rows) if r.score is not None}
    winners = [i for i, r in enumerate(rows) if r.winner]
    match_event_record(
        match=match,
        user=owner,
        type=RESULT_RECORDED,
        data={"winners": winners, "draw": False, "scores": scores or None, "note": note},
    )
    return match

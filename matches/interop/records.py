"""The play a source file describes, in one shape for every source (BG Stats, BGG), before it is written."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any


class PlaySkipped(ValueError):
    """This one play cannot be imported; the message is the reason shown in the report."""


class FileRefused(ValueError):
    """The file is not a play log at all (nothing is written); the message says what was expected."""


@dataclass
class SeatIn:
    """One player of a play as the source tells it. ``anonymous`` seats are never matched to a person."""

    name: str
    score: Decimal | None = None
    score_text: str = ""
    winner: bool = False
    start: bool = False
    order: int = 0
    team: str = ""
    role: str = ""
    rank: int | None = None
    new: bool = False
    color: str = ""
    position: str = ""  # BGG's startposition, as written
    username: str = ""  # the BGG username (BG Stats' bggUsername, BGG's username)
    anonymous: bool = False
    source_ref: str = ""  # the player's id in the file
    rating: int | float | None = None  # the player's rating of the game (BGG's 1 to 10), if the file has one

    def details(self) -> dict[str, Any]:
        """What the match keeps of this seat beyond its player and result (empty values left out)."""
        out = {
            "score_text": self.score_text, "team": self.team, "role": self.role, "rank": self.rank,
            "new": self.new, "color": self.color, "position": self.position, "username": self.username, "anonymous": self.anonymous,
            "start": self.start, "winner": self.winner, "ref": self.source_ref, "rating": self.rating,
        }  # fmt: skip
        return {k: v for k, v in out.items() if v not in ("", None, False)}


@dataclass
class PlayIn:
    """One play: ``key`` is its idempotency key (unique per owner), e.g. the BG Stats uuid."""

    key: str
    source: str
    game_name: str
    played_at: datetime
    played_local: (
        str  # the table's local date and time as written in the file ("2021-03-12 19:30:00", or "2021-03-12" alone)
    )
    seats: list[SeatIn]
    bgg_id: int | None = None
    bgg_name: str = ""
    cooperative: bool = False
    highest_wins: bool = True
    no_points: bool = False
    duration: int | None = None
    location: str = ""
    ignored: bool = False
    expansions: list[str] = field(default_factory=list)
    rounds: int | None = None
    comments: str = ""
    uses_teams: bool = False
    incomplete: bool = False
    nowinstats: bool = False
    board: str = ""
    rating: int | float | None = None  # the play's rating of the game, if the file has one
    warnings: list[str] = field(default_factory=list)

    def counts_wins(self) -> bool:
        """BGG: an incomplete play, or one marked "no win stats", is recorded but names no winner."""
        return not (self.incomplete or self.nowinstats)

    def details(self) -> dict[str, Any]:
        out = {
            "expansions": self.expansions, "rounds": self.rounds, "comments": self.comments,
            "uses_teams": self.uses_teams, "incomplete": self.incomplete, "nowinstats": self.nowinstats,
            "board": self.board, "bgg_id": self.bgg_id, "bgg_name": self.bgg_name, "no_points": self.no_points,
            "played_local": self.played_local, "rating": self.rating,
        }  # fmt: skip
        out = {k: v for k, v in out.items() if v not in ("", None, False, [])}
        out["seats"] = [s.details() for s in self.seats]
        return out

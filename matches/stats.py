"""Looking back: statistics per player and per game, read from the match summary read model."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from matches.errors import NotFound
from matches.models import Player, Seat
from matches.selectors import UserLike, match_visible_qs
from rulesets import UnknownGame, get_ruleset


@dataclass
class Record:
    """Played / won / drawn / lost counts (finished matches only count towards results)."""

    played: int = 0
    finished: int = 0
    won: int = 0
    drawn: int = 0

    @property
    def lost(self) -> int:
        return self.finished - self.won - self.drawn

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.won / self.finished) if self.finished else None


@dataclass
class PlayerStats:
    """A player's record overall and per game, with their latest matches."""

    player: Player
    overall: Record = field(default_factory=Record)
    by_game: dict[str, Record] = field(default_factory=dict)
    recent: list[Any] = field(default_factory=list)


def player_stats(*, user: UserLike, player_id: int) -> PlayerStats:
    """The record of player ``player_id`` over the matches ``user`` may see (404 if none are visible)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"No player {player_id}.")
    visible = match_visible_qs(user).filter(seats__player=player)
    seats = (
        Seat.objects.filter(player=player, match__in=visible)
        .select_related("match__summary")
        .order_by("-match__created_at")
    )
    stats = PlayerStats(player=player)
    for seat in seats:
        match = seat.match
        rec = stats.by_game.setdefault(match.game, Record())
        for r in (stats.overall, rec):
            r.played += 1
            summary = getattr(match, "summary", None)
            if summary is not None and summary.status == "finished":
                r.finished += 1
                if summary.draw:
                    r.drawn += 1
                elif seat.index in summary.winners:
                    r.won += 1
        if len(stats.recent) < 15:
            stats.recent.append(match)
    if not stats.overall.played and not (user.is_authenticated and player.owner_id == user.pk):
        raise NotFound(f"No player {player_id}.")
    return stats


@dataclass
class GameStats:
    """How a game goes at the tables ``user`` can see."""

    slug: str
    name: str
    matches: int = 0
    finished: int = 0
    draws: int = 0
    wins_by_seat: dict[int, int] = field(default_factory=dict)
    average_entries: float | None = None
    top_players: list[tuple[Player, Record]] = field(default_factory=list)


def game_stats(*, user: UserLike, game: str) -> GameStats:
    """Matches, results by seat (does starting help?), length, and the players with most wins."""
    try:
        ruleset = get_ruleset(game)
    except UnknownGame:
        raise NotFound(f"No game '{game}'.") from None
    stats = GameStats(slug=game, name=ruleset.name)
    matches = list(match_visible_qs(user).filter(game=game))
    wins_by_seat: Counter[int] = Counter()
    entries = []
    records: dict[int, Record] = defaultdict(Record)
    players: dict[int, Player] = {}
    for match in matches:
        stats.matches += 1
        summary = getattr(match, "summary", None)
        finished = summary is not None and summary.status == "finished"
        if finished:
            stats.finished += 1
            entries.append(summary.events_count)
            if summary.draw:
                stats.draws += 1
            wins_by_seat.update(summary.winners)
        for seat in match.seats.all():
            players[seat.player_id] = seat.player
            rec = records[seat.player_id]
            rec.played += 1
            if finished:
                rec.finished += 1
                rec.drawn += int(summary.draw)
                rec.won += int(not summary.draw and seat.index in summary.winners)
    stats.wins_by_seat = dict(sorted(wins_by_seat.items()))
    stats.average_entries = round(sum(entries) / len(entries), 1) if entries else None
    ranked = sorted(records.items(), key=lambda kv: (-kv[1].won, -kv[1].played, players[kv[0]].name))
    stats.top_players = [(players[pid], rec) for pid, rec in ranked[:10]]
    return stats

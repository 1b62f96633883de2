"""Which finished matches count in the statistics: the filter a reader asks for (a game, a date range, a group of
players who all sat) and the read-model rows it selects among the matches that reader may see."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any
from urllib.parse import quote

from django.db.models import Q, QuerySet
from django.utils import timezone

from matches.errors import InvalidInput
from matches.models import (
    Match,
    PlayedMatch,
    PlayerResult,
)
from matches.store.visibility import UserLike, private_sight_q, visible_q
from rulesets import UnknownGame, get_ruleset


@dataclass(frozen=True)
class StatsFilter:
    """Which finished matches count: a game, a date range (inclusive days), a group of players who all sat."""

    game: str | None = None
    title: str | None = None  # a score sheet's game name
    since: date | None = None
    until: date | None = None
    players: tuple[int, ...] = ()

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """The date range as aware datetimes in the current time zone: the first and last instant (None: open)."""
        tz = timezone.get_current_timezone()
        start = datetime.combine(self.since, time.min, tzinfo=tz) if self.since else None
        end = datetime.combine(self.until, time.max, tzinfo=tz) if self.until else None
        return start, end

    def query_string(self) -> str:
        parts = []
        if self.game:
            parts.append(f"game={self.game}")
        if self.title:
            parts.append("title=" + quote(self.title))
        if self.since:
            parts.append(f"since={self.since.isoformat()}")
        if self.until:
            parts.append(f"until={self.until.isoformat()}")
        if self.players:
            parts.append("players=" + ",".join(str(p) for p in self.players))
        return "&".join(parts)


def stats_filter_parse(params: Any) -> StatsFilter:
    """A :class:`StatsFilter` from query parameters (``game``, ``since``, ``until``, ``players=1,2``)."""

    def day(name: str) -> date | None:
        raw = (params.get(name) or "").strip()
        if not raw:
            return None
        try:
            return date.fromisoformat(raw)
        except ValueError:
            raise InvalidInput({name: ["Must be a date like 2026-11-30."]}) from None

    raw = params.getlist("players") if hasattr(params, "getlist") else [params.get("players") or ""]
    players: list[int] = []
    for part in filter(None, (p.strip() for chunk in raw for p in str(chunk).split(","))):
        if not (part.isascii() and part.isdigit()) or len(part) > 12:
            raise InvalidInput({"players": ["Must be player ids separated by commas, e.g. 3,7."]})
        players.append(int(part))
    if len(players) > 12:
        raise InvalidInput({"players": ["At most 12 players in a group."]})
    game = (params.get("game") or "").strip() or None
    if game is not None:
        try:
            get_ruleset(game)
        except UnknownGame:
            raise InvalidInput({"game": [f"No game '{game}'."]}) from None
    since, until = day("since"), day("until")
    if since and until and since > until:
        raise InvalidInput({"until": ["Must not be before since."]})
    title = " ".join(str(params.get("title") or "").split())[:120] or None
    return StatsFilter(game=game, title=title, since=since, until=until, players=tuple(sorted(set(players))))


def visible_match_ids(user: UserLike) -> QuerySet[Match]:
    return Match.objects.filter(visible_q(user, seated=True)).values("pk")  # (the rule: matches.store.visibility)


def visible(user: UserLike) -> Q:
    """Rows of the read models ``user`` may see, from their copied visibility (no join with matches)."""
    if not (user and user.is_authenticated):
        return Q(is_public=True)
    return Q(is_public=True) | Q(owner_id=user.pk) | Q(match_id__in=privately_seen(user))


def privately_seen(user: UserLike) -> QuerySet[Match]:
    """The ids of the matches ``user`` reads without owning them or their being public: recorded or sat at."""
    return Match.objects.filter(private_sight_q(user)).values("pk")


def _filtered(qs: QuerySet[Any], user: UserLike, f: StatsFilter) -> QuerySet[Any]:
    """Rows of either read model (they share ``game``, ``title``, ``played_at``, ``match``) that ``user`` may
    see and that pass the filter."""
    qs = qs.filter(visible(user))
    start, end = f.bounds()
    if f.game:
        qs = qs.filter(game=f.game)
    if f.title:
        qs = qs.filter(title__iexact=f.title)
    if start:
        qs = qs.filter(played_at__gte=start)
    if end:
        qs = qs.filter(played_at__lte=end)
    for player in f.players:
        qs = qs.filter(match_id__in=PlayerResult.objects.filter(player_id=player).values("match_id"))
    return qs


def played_qs(user: UserLike, f: StatsFilter) -> QuerySet[PlayedMatch]:
    """Finished matches ``user`` may see that pass the filter."""
    return _filtered(PlayedMatch.objects.all(), user, f)


def results_qs(user: UserLike, f: StatsFilter) -> QuerySet[PlayerResult]:
    """Seat results of the finished matches ``user`` may see that pass the filter."""
    return _filtered(PlayerResult.objects.all(), user, f)

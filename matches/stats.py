"""Looking back: statistics per player, per person, per game and per group, read from the ``play_stats``
read model (finished matches and each seat's result, kept by the projector; never the event log per request).

Every function takes the viewing user and a :class:`StatsFilter`; only matches the user may see count.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from matches.errors import InvalidInput, NotFound
from matches.models import Match, PlayedMatch, Player, PlayerResult
from matches.people import player_canonical
from matches.selectors import UserLike
from rulesets import UnknownGame, get_ruleset


@dataclass(frozen=True)
class StatsFilter:
    """Which finished matches count: a game, a date range (inclusive days), a group of players who all sat."""

    game: str | None = None
    since: date | None = None
    until: date | None = None
    players: tuple[int, ...] = ()

    def query_string(self) -> str:
        parts = []
        if self.game:
            parts.append(f"game={self.game}")
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
    return StatsFilter(game=game, since=since, until=until, players=tuple(sorted(set(players))))


def _visible_match_ids(user: UserLike) -> QuerySet[Match]:
    qs = Match.objects.all()
    if user and user.is_authenticated:
        qs = qs.filter(Q(is_public=True) | Q(owner=user) | Q(recorders=user))
    else:
        qs = qs.filter(is_public=True)
    return qs.values("pk")


def _bounds(f: StatsFilter) -> tuple[datetime | None, datetime | None]:
    tz = timezone.get_current_timezone()
    start = datetime.combine(f.since, time.min, tzinfo=tz) if f.since else None
    end = datetime.combine(f.until, time.max, tzinfo=tz) if f.until else None
    return start, end


def played_qs(user: UserLike, f: StatsFilter) -> QuerySet[PlayedMatch]:
    """Finished matches ``user`` may see that pass the filter."""
    qs = PlayedMatch.objects.filter(match_id__in=_visible_match_ids(user))
    start, end = _bounds(f)
    if f.game:
        qs = qs.filter(game=f.game)
    if start:
        qs = qs.filter(played_at__gte=start)
    if end:
        qs = qs.filter(played_at__lte=end)
    for player in f.players:
        qs = qs.filter(match_id__in=PlayerResult.objects.filter(player_id=player).values("match_id"))
    return qs


def results_qs(user: UserLike, f: StatsFilter) -> QuerySet[PlayerResult]:
    """Seat results of the finished matches ``user`` may see that pass the filter."""
    qs = PlayerResult.objects.filter(match_id__in=_visible_match_ids(user))
    start, end = _bounds(f)
    if f.game:
        qs = qs.filter(game=f.game)
    if start:
        qs = qs.filter(played_at__gte=start)
    if end:
        qs = qs.filter(played_at__lte=end)
    for player in f.players:
        qs = qs.filter(match_id__in=PlayerResult.objects.filter(player_id=player).values("match_id"))
    return qs


@dataclass
class Record:
    """Finished matches played / won / drawn / lost; ``win_rate`` in percent (None before any)."""

    played: int = 0
    won: int = 0
    drawn: int = 0

    @property
    def lost(self) -> int:
        return self.played - self.won - self.drawn

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.won / self.played) if self.played else None

    def add(self, won: bool, drawn: bool) -> None:
        self.played += 1
        self.won += int(won)
        self.drawn += int(drawn)

    def to_dict(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "win_rate": self.win_rate,
        }


def player_label(player: Player) -> str:
    """A name that tells same-named players apart: ``Ana (ana's table)`` when the owner is not obvious."""
    return f"{player.name} · {player.owner.username}"


def player_initials(name: str) -> str:
    parts = name.split()
    return ("".join(p[0] for p in parts[:2]) or "?").upper()


def player_colour(player_id: int) -> str:
    """A stable avatar colour per player (so two Anas differ at a glance)."""
    hues = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#7a5a00", "#56b4e9", "#8c2d04", "#4b0092")
    return hues[player_id % len(hues)]


def player_ref(player: Player) -> dict[str, Any]:
    return {
        "player": player.name,
        "player_id": player.pk,
        "owner": player.owner.username,
        "initials": player_initials(player.name),
        "colour": player_colour(player.pk),
        "user": player.user.username if player.user_id else None,
    }


# -- everyone: the players table --------------------------------------------------------------------------


def players_table(*, user: UserLike, f: StatsFilter, limit: int = 500) -> list[dict[str, Any]]:
    """Each player's record over the visible finished matches, most played first (one GROUP BY)."""
    rows = (
        results_qs(user, f)
        .values("player_id")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(won=True)),
            drawn=Count("pk", filter=Q(drawn=True)),
        )
        .order_by("-played", "-won", "player_id")[:limit]
    )
    rows = list(rows)
    players = Player.objects.select_related("owner", "user").in_bulk([r["player_id"] for r in rows])
    out = []
    for r in rows:
        rec = Record(played=r["played"], won=r["won"], drawn=r["drawn"])
        out.append({**player_ref(players[r["player_id"]]), **rec.to_dict()})
    return out


# -- one player (or one person: every player linked to a user) --------------------------------------------


@dataclass
class PlayerDashboard:
    players: list[Player]
    overall: Record = field(default_factory=Record)
    by_game: list[dict[str, Any]] = field(default_factory=list)
    by_month: list[dict[str, Any]] = field(default_factory=list)
    streaks: dict[str, Any] = field(default_factory=dict)
    head_to_head: list[dict[str, Any]] = field(default_factory=list)
    favourite_games: list[dict[str, Any]] = field(default_factory=list)
    first_player: dict[str, Any] = field(default_factory=dict)
    recent: list[Match] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        main = self.players[0]
        return {
            **player_ref(main),
            "players": [player_ref(p) for p in self.players],
            "overall": self.overall.to_dict(),
            "by_game": self.by_game,
            "by_month": self.by_month,
            "streaks": self.streaks,
            "head_to_head": self.head_to_head,
            "favourite_games": self.favourite_games,
            "first_player": self.first_player,
            "recent": [m.pk for m in self.recent],
        }


def _game_name(slug: str) -> str:
    try:
        return get_ruleset(slug).name
    except UnknownGame:
        return slug


def player_dashboard(*, user: UserLike, player_id: int, f: StatsFilter) -> PlayerDashboard:
    """One player's dashboard over the matches ``user`` may see (404 for a player ``user`` cannot see)."""
    player = Player.objects.select_related("owner", "user", "merged_into").filter(pk=player_id).first()
    if player is None:
        raise NotFound(f"No player {player_id}.")
    player = player_canonical(player)  # a merged name shows the player it was merged into
    owned = user.is_authenticated and player.owner_id == user.pk
    if not owned and not Match.objects.filter(pk__in=_visible_match_ids(user), seats__player=player).exists():
        raise NotFound(f"No player {player_id}.")  # players are as private as the matches they sat in
    return _dashboard([player], results_qs(user, f).filter(player=player))


def person_dashboard(*, user: UserLike, person: Any, f: StatsFilter) -> PlayerDashboard | None:
    """The dashboard of a person: every player (of any owner) linked to ``person``'s account."""
    players = list(Player.objects.filter(user=person).select_related("owner", "user").order_by("pk"))
    if not players:
        return None
    return _dashboard(players, results_qs(user, f).filter(player__in=players))


def _dashboard(players: list[Player], mine: QuerySet[PlayerResult]) -> PlayerDashboard:
    board = PlayerDashboard(players=players)
    rows = list(
        mine.order_by("played_at", "match_id").values(
            "match_id", "game", "played_at", "won", "drawn", "started", "seat"
        )
    )
    by_game: dict[str, Record] = defaultdict(Record)
    months: dict[str, Counter[str]] = defaultdict(Counter)
    first = Record()
    for r in rows:
        board.overall.add(r["won"], r["drawn"])
        by_game[r["game"]].add(r["won"], r["drawn"])
        months[timezone.localtime(r["played_at"]).strftime("%Y-%m")][r["game"]] += 1
        if r["started"]:
            first.add(r["won"], r["drawn"])
    board.by_game = sorted(
        ({"game": g, "name": _game_name(g), **rec.to_dict()} for g, rec in by_game.items()),
        key=lambda d: (-d["played"], d["name"]),
    )
    board.favourite_games = board.by_game[:3]
    board.by_month = [{"month": m, "games": dict(c), "plays": sum(c.values())} for m, c in sorted(months.items())]
    board.first_player = first.to_dict()
    board.streaks = _streaks([(r["won"], r["drawn"]) for r in rows])
    board.head_to_head = _head_to_head(rows, {p.pk for p in players})
    recent_ids = [r["match_id"] for r in rows[-15:]][::-1]
    recent = (
        Match.objects.filter(pk__in=recent_ids).select_related("summary", "owner").prefetch_related("seats__player")
    )
    order = {pk: i for i, pk in enumerate(recent_ids)}
    board.recent = sorted(recent, key=lambda m: order[m.pk])
    return board


def _streaks(results: list[tuple[bool, bool]]) -> dict[str, Any]:
    """Current streak (wins, or losses; a draw ends both) and the longest winning streak, oldest first."""
    longest = run = 0
    for won, _ in results:
        run = run + 1 if won else 0
        longest = max(longest, run)
    current_kind, current = None, 0
    for won, drawn in reversed(results):
        kind = "draw" if drawn else ("win" if won else "loss")
        if current_kind is None:
            current_kind = kind
        if kind != current_kind:
            break
        current += 1
    return {"current": {"kind": current_kind, "length": current}, "longest_win": longest}


def _head_to_head(rows: list[dict[str, Any]], me: set[int]) -> list[dict[str, Any]]:
    """Against each opponent: matches together, and how I did (won, lost, drawn) in them."""
    seat_of = {r["match_id"]: r for r in rows}
    others = (
        PlayerResult.objects.filter(match_id__in=list(seat_of))
        .exclude(player_id__in=me)
        .values_list("match_id", "player_id")
    )
    tally: dict[int, Record] = defaultdict(Record)
    for match_id, opponent in others:
        mine = seat_of[match_id]
        tally[opponent].add(mine["won"], mine["drawn"])
    players = Player.objects.select_related("owner", "user").in_bulk(list(tally))
    out = [{**player_ref(players[pid]), **rec.to_dict()} for pid, rec in tally.items()]
    return sorted(out, key=lambda d: (-d["played"], d["player"]))[:20]


# -- one game ---------------------------------------------------------------------------------------------


def game_dashboard(*, user: UserLike, game: str, f: StatsFilter) -> dict[str, Any]:
    """Plays over time, seat and first-player win rates with sample sizes, length, scores, insights, players."""
    try:
        ruleset = get_ruleset(game)
    except UnknownGame:
        raise NotFound(f"No game '{game}'.") from None
    f = StatsFilter(game=game, since=f.since, until=f.until, players=f.players)
    plays = list(
        played_qs(user, f).values("played_at", "seats", "first_seat", "winners", "draw", "moves", "minutes", "facts")
    )
    months: Counter[str] = Counter()
    seats: dict[int, Record] = defaultdict(Record)
    first = Record()
    moves, minutes = [], []
    insights: dict[str, Counter[str]] = defaultdict(Counter)
    for p in plays:
        months[timezone.localtime(p["played_at"]).strftime("%Y-%m")] += 1
        for seat in range(p["seats"]):
            seats[seat].add(seat in p["winners"], p["draw"])
        if p["first_seat"] is not None:
            first.add(p["first_seat"] in p["winners"], p["draw"])
        if p["moves"]:
            moves.append(p["moves"])
        if p["minutes"]:
            minutes.append(p["minutes"])
        for key, value in (p["facts"] or {}).items():
            if isinstance(value, list):
                for item in value:
                    insights[key][str(item)] += 1
            elif isinstance(value, str | int | bool):
                insights[key][str(value)] += 1
    scores = list(results_qs(user, f).exclude(score=None).values_list("score", flat=True))
    top = players_table(user=user, f=f, limit=10)
    return {
        "game": game,
        "name": ruleset.name,
        "plays": len(plays),
        "draws": sum(1 for p in plays if p["draw"]),
        "by_month": [{"month": m, "plays": n} for m, n in sorted(months.items())],
        "seats": [{"seat": s, **rec.to_dict()} for s, rec in sorted(seats.items())],
        "first_player": first.to_dict(),
        "length": {"moves": _spread(moves), "minutes": _spread(minutes)},
        "scores": _histogram(scores),
        "insights": {k: dict(c.most_common()) for k, c in sorted(insights.items())},
        "top_players": top,
    }


def _spread(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"count": 0, "mean": None, "median": None, "min": None, "max": None}
    return {
        "count": len(values),
        "mean": round(statistics.fmean(values), 1),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def _histogram(scores: list[float], bins: int = 8) -> dict[str, Any]:
    """Score distribution: summary and ``bins`` equal-width buckets (``from`` inclusive, ``to`` exclusive)."""
    summary = _spread([int(s) if float(s).is_integer() else s for s in scores])
    if not scores:
        return {**summary, "buckets": []}
    low, high = min(scores), max(scores)
    width = max((high - low) / bins, 1)
    counts = Counter(min(int((s - low) // width), bins - 1) for s in scores)
    buckets = [
        {"from": round(low + i * width, 1), "to": round(low + (i + 1) * width, 1), "count": counts.get(i, 0)}
        for i in range(bins)
        if low + i * width <= high
    ]
    return {**summary, "buckets": buckets}


def games_overview(*, user: UserLike, f: StatsFilter) -> list[dict[str, Any]]:
    """Every game with its number of finished plays (most played first)."""
    rows = played_qs(user, f).values("game").annotate(plays=Count("pk"), moves=Sum("moves")).order_by("-plays")
    return [{"game": r["game"], "name": _game_name(r["game"]), "plays": r["plays"]} for r in rows]

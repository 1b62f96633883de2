"""Looking back: statistics per player, per person, per game and per group, read from the ``play_stats``
read model (finished matches and each seat's result, kept by the projector; never the event log per request).

Every function takes the viewing user and a :class:`StatsFilter`; only matches the user may see count.
"""

from __future__ import annotations

import hashlib
import logging
import math
import statistics
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any
from urllib.parse import quote

from django.core.cache import cache
from django.db import connection
from django.db.models import Avg, Count, Max, Min, Q, QuerySet
from django.db.models.functions import TruncMonth
from django.utils import timezone

from matches.errors import InvalidInput, NotFound
from matches.models import Match, MatchFact, PlayedMatch, Player, PlayerMerge, PlayerResult, ProjectionCheckpoint
from matches.people import player_canonical
from matches.selectors import UserLike
from rulesets import UnknownGame, get_ruleset

logger = logging.getLogger(__name__)
MEMO_SECONDS = 600


@dataclass(frozen=True)
class StatsFilter:
    """Which finished matches count: a game, a date range (inclusive days), a group of players who all sat."""

    game: str | None = None
    title: str | None = None  # a score sheet's game name
    since: date | None = None
    until: date | None = None
    players: tuple[int, ...] = ()

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


def _visible_match_ids(user: UserLike) -> QuerySet[Match]:
    qs = Match.objects.all()
    if user and user.is_authenticated:
        qs = qs.filter(Q(is_public=True) | Q(owner=user) | Q(recorders=user))
    else:
        qs = qs.filter(is_public=True)
    return qs.values("pk")


def _visible(user: UserLike) -> Q:
    """Rows of the read models ``user`` may see, from their copied visibility (no join with matches)."""
    if not (user and user.is_authenticated):
        return Q(is_public=True)
    recorded = Match.recorders.through.objects.filter(user_id=user.pk).values("match_id")
    return Q(is_public=True) | Q(owner_id=user.pk) | Q(match_id__in=recorded)


def _bounds(f: StatsFilter) -> tuple[datetime | None, datetime | None]:
    tz = timezone.get_current_timezone()
    start = datetime.combine(f.since, time.min, tzinfo=tz) if f.since else None
    end = datetime.combine(f.until, time.max, tzinfo=tz) if f.until else None
    return start, end


def _filtered(qs: QuerySet[Any], user: UserLike, f: StatsFilter) -> QuerySet[Any]:
    """Rows of either read model (they share ``game``, ``title``, ``played_at``, ``match``) that ``user`` may
    see and that pass the filter."""
    qs = qs.filter(_visible(user))
    start, end = _bounds(f)
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
    return _memo("players", user, f, str(limit), lambda: _players_table(user, f, limit))


def _players_table(user: UserLike, f: StatsFilter, limit: int) -> list[dict[str, Any]]:
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
    return _dashboard([player], results_qs(user, f).filter(player=player), user, f)


def person_dashboard(*, user: UserLike, person: Any, f: StatsFilter) -> PlayerDashboard | None:
    """The dashboard of a person: every player (of any owner) linked to ``person``'s account."""
    players = list(Player.objects.filter(user=person).select_related("owner", "user").order_by("pk"))
    if not players:
        return None
    return _dashboard(players, results_qs(user, f).filter(player__in=players), user, f)


_TALLY = {
    "played": Count("pk"),
    "won": Count("pk", filter=Q(won=True)),
    "drawn": Count("pk", filter=Q(drawn=True)),
}


def _record(row: dict[str, Any]) -> Record:
    return Record(played=row["played"] or 0, won=row["won"] or 0, drawn=row["drawn"] or 0)


def _dashboard(players: list[Player], mine: QuerySet[PlayerResult], user: UserLike, f: StatsFilter) -> PlayerDashboard:
    ids = ",".join(str(p.pk) for p in players)
    figures = _memo("player", user, f, ids, lambda: _figures(players, mine))
    board = PlayerDashboard(players=players, overall=Record(**figures["overall"]))
    for name in ("by_game", "by_month", "streaks", "head_to_head", "favourite_games", "first_player"):
        setattr(board, name, figures[name])
    recent = (
        Match.objects.filter(pk__in=figures["recent"])
        .select_related("summary", "owner")
        .prefetch_related("seats__player")
    )
    order = {pk: i for i, pk in enumerate(figures["recent"])}
    board.recent = sorted(recent, key=lambda m: order[m.pk])
    return board


def _figures(players: list[Player], mine: QuerySet[PlayerResult]) -> dict[str, Any]:
    """Every figure of a dashboard, each an aggregate query over the read model (no per-match work in Python)."""
    totals = _record(mine.aggregate(**_TALLY))
    by_game = sorted(
        (
            {
                "game": r["game"],
                "title": r["title"],
                "name": r["title"] or _game_name(r["game"]),
                **_record(r).to_dict(),
            }
            for r in mine.values("game", "title").annotate(**_TALLY).order_by()
        ),
        key=lambda d: (-d["played"], d["name"]),
    )
    months: dict[str, dict[str, int]] = defaultdict(dict)
    by_month = mine.annotate(month=TruncMonth("played_at")).values("month", "game", "title").annotate(n=Count("pk"))
    for r in by_month.order_by():  # keyed by the game's name (a score sheet's own title)
        name = r["title"] or _game_name(r["game"])
        months[r["month"].strftime("%Y-%m")][name] = months[r["month"].strftime("%Y-%m")].get(name, 0) + r["n"]
    return {
        "overall": {"played": totals.played, "won": totals.won, "drawn": totals.drawn},
        "by_game": by_game,
        "favourite_games": by_game[:3],
        "by_month": [{"month": m, "games": g, "plays": sum(g.values())} for m, g in sorted(months.items())],
        "first_player": _record(mine.filter(started=True).aggregate(**_TALLY)).to_dict(),
        "streaks": _streaks(list(mine.order_by("played_at", "match_id").values_list("won", "drawn"))),
        "head_to_head": _head_to_head(mine, [p.pk for p in players]),
        "recent": list(mine.order_by("-played_at", "-match_id").values_list("match_id", flat=True)[:15]),
    }


def _generation() -> str:
    """Changes whenever the read model may have: the projector moved on, a merge or a claim was recorded."""
    checkpoint = ProjectionCheckpoint.objects.filter(name="play_stats").values_list("position", flat=True).first()
    merges = PlayerMerge.objects.aggregate(n=Max("pk"))["n"]
    claims = Player.objects.filter(user__isnull=False).count()
    return f"{checkpoint}:{merges}:{claims}"


def _memo(kind: str, user: UserLike, f: StatsFilter, extra: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept in the cache until the read model changes (keyed by its generation, the viewer and
    the filter). A cache that is down only costs the computation."""
    viewer = f"u{user.pk}" if user and user.is_authenticated else "anon"
    raw = f"{kind}|{_generation()}|{viewer}|{f.query_string()}|{extra}"
    key = "stats:" + hashlib.sha256(raw.encode()).hexdigest()
    try:
        hit = cache.get(key)
    except Exception:
        hit = None
    if hit is not None:
        return hit
    value = compute()
    try:
        cache.set(key, value, MEMO_SECONDS)
    except Exception:  # Redis down: the figures were computed, just not kept
        logger.warning("stats cache unavailable; figures computed without caching", exc_info=True)
    return value


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


def _head_to_head(mine: QuerySet[PlayerResult], me: list[int]) -> list[dict[str, Any]]:
    """Against each opponent: matches together, and how I did (won, lost, drawn) in them: one self-join of the
    read model on the match, grouped by opponent."""
    sql, params = mine.values("match_id", "won", "drawn").query.sql_with_params()
    table = PlayerResult._meta.db_table
    marks = ", ".join(["%s"] * len(me))
    query = (
        f"SELECT o.player_id, COUNT(*), SUM(CASE WHEN m.won THEN 1 ELSE 0 END), SUM(CASE WHEN m.drawn THEN 1 ELSE 0 END) "
        f"FROM ({sql}) m JOIN {table} o ON o.match_id = m.match_id "
        f"WHERE o.player_id NOT IN ({marks}) GROUP BY o.player_id ORDER BY 2 DESC, 1 LIMIT 20"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [*params, *me])
        rows = cursor.fetchall()
    players = Player.objects.select_related("owner", "user").in_bulk([r[0] for r in rows])
    return [
        {**player_ref(players[pid]), **Record(played=n, won=int(won or 0), drawn=int(drawn or 0)).to_dict()}
        for pid, n, won, drawn in rows
    ]


# -- one game ---------------------------------------------------------------------------------------------


def game_dashboard(*, user: UserLike, game: str, f: StatsFilter) -> dict[str, Any]:
    """Plays over time, seat and first-player win rates with sample sizes, length, scores, insights, players."""
    try:
        ruleset = get_ruleset(game)
    except UnknownGame:
        raise NotFound(f"No game '{game}'.") from None
    figures = _memo("game", user, f, game, lambda: _game_figures(ruleset, user, game, f))
    from campaigns.stats import campaign_figures  # campaigns build on matches: imported when needed

    campaigns = campaign_figures(user=user, match_game=game, f=f)  # its own read model: not kept in the memo
    return figures if campaigns is None else {**figures, "campaigns": campaigns}


def _game_figures(ruleset: Any, user: UserLike, game: str, f: StatsFilter) -> dict[str, Any]:
    f = StatsFilter(game=game, title=f.title, since=f.since, until=f.until, players=f.players)
    plays = played_qs(user, f)
    results = results_qs(user, f)
    totals = plays.aggregate(plays=Count("pk"), draws=Count("pk", filter=Q(draw=True)))
    months = plays.annotate(month=TruncMonth("played_at")).values("month").annotate(n=Count("pk")).order_by("month")
    seats = results.values("seat").annotate(**_TALLY).order_by("seat")
    first = results.filter(started=True).aggregate(**_TALLY)
    facts = (
        MatchFact.objects.filter(match_id__in=plays.values("match_id"))
        .values("key", "value")
        .annotate(n=Count("pk"))
        .order_by("key", "-n", "value")
    )
    insights: dict[str, dict[str, int]] = defaultdict(dict)
    for r in facts:
        insights[r["key"]][r["value"]] = r["n"]
    return {
        "game": game,
        "title": f.title,
        "name": (plays.values_list("title", flat=True).first() or f.title) if f.title else ruleset.name,
        "plays": totals["plays"],
        "draws": totals["draws"],
        "by_month": [{"month": r["month"].strftime("%Y-%m"), "plays": r["n"]} for r in months],
        "seats": [{"seat": r["seat"], **_record(r).to_dict()} for r in seats],
        "first_player": _record(first).to_dict(),
        "length": {"moves": _spread(plays.filter(moves__gt=0), "moves"), "minutes": _spread(plays, "minutes")},
        "scores": _histogram(results.exclude(score=None), "score"),
        "insights": dict(insights),
        "insight_figures": {k: counted_spread(v) for k, v in insights.items() if k in ruleset.numeric_insights},
        "top_players": players_table(user=user, f=f, limit=10),
    }


def _median(qs: QuerySet[Any], column: str, count: int) -> float | None:
    """The median of ``column``: the database orders, Python reads the middle one or two values."""
    if not count:
        return None
    middle = list(qs.order_by(column).values_list(column, flat=True)[(count - 1) // 2 : count // 2 + 1])
    return statistics.fmean(middle) if middle else None


def _tidy(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 1)


def _spread(qs: QuerySet[Any], column: str) -> dict[str, Any]:
    """Count, mean, median, min and max of a column's non-null values (aggregated by the database)."""
    qs = qs.exclude(**{column: None})
    agg = qs.aggregate(count=Count(column), mean=Avg(column), low=Min(column), high=Max(column))
    return {
        "count": agg["count"],
        "mean": None if agg["mean"] is None else round(agg["mean"], 1),
        "median": _tidy(_median(qs, column, agg["count"])),
        "min": _tidy(agg["low"]),
        "max": _tidy(agg["high"]),
    }


def _histogram(qs: QuerySet[Any], column: str, bins: int = 8) -> dict[str, Any]:
    """Distribution: the spread and up to ``bins`` equal-width buckets (``from`` inclusive, ``to`` exclusive,
    the last one closed), counted by the database in one query."""
    summary = _spread(qs, column)
    if not summary["count"]:
        return {**summary, "buckets": []}
    low, high = float(summary["min"]), float(summary["max"])
    whole = isinstance(summary["min"], int) and isinstance(summary["max"], int)
    width = max(math.ceil((high - low + 1) / bins) if whole else (high - low) / bins, 1.0)
    edges = [low + i * width for i in range(bins) if low + i * width <= high]
    last = len(edges) - 1
    counts = qs.aggregate(
        **{
            f"b{i}": Count(
                "pk",
                filter=Q(**{f"{column}__gte": edge}) & (Q(**{f"{column}__lt": edge + width}) if i < last else Q()),
            )
            for i, edge in enumerate(edges)
        }
    )
    buckets = [{"from": round(e, 1), "to": round(e + width, 1), "count": counts[f"b{i}"]} for i, e in enumerate(edges)]
    return {**summary, "buckets": buckets}


def counted_spread(counts: dict[str, int], bins: int = 8) -> dict[str, Any]:
    """The spread of a numeric insight from its tally (value → how many times): count, mean, median, min, max
    and buckets like :func:`_histogram`'s (one per value when at most ``bins`` values fit the range)."""
    pairs = sorted((float(v), n) for v, n in counts.items() if _is_number(v))
    count = sum(n for _, n in pairs)
    if not count:
        return {"count": 0, "mean": None, "median": None, "min": None, "max": None, "buckets": []}
    low, high = pairs[0][0], pairs[-1][0]
    width = max(math.ceil((high - low + 1) / bins), 1)
    edges = [low + i * width for i in range(bins) if low + i * width <= high]
    buckets = [
        {
            "from": _tidy(e),
            "to": _tidy(e + width),
            "count": sum(n for v, n in pairs if e <= v < e + width or (i == len(edges) - 1 and v >= e)),
        }
        for i, e in enumerate(edges)
    ]
    return {
        "count": count,
        "mean": round(sum(v * n for v, n in pairs) / count, 1),
        "median": _tidy(statistics.fmean([_nth(pairs, (count - 1) // 2), _nth(pairs, count // 2)])),
        "min": _tidy(low),
        "max": _tidy(high),
        "buckets": buckets,
    }


def _nth(pairs: list[tuple[float, int]], index: int) -> float:
    """The ``index``-th value (from 0) of the sorted values that ``pairs`` (value, how many) stand for."""
    for value, n in pairs:
        if index < n:
            return value
        index -= n
    return pairs[-1][0]


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def games_overview(*, user: UserLike, f: StatsFilter) -> list[dict[str, Any]]:
    """Every game with its number of finished plays (most played first)."""
    rows = played_qs(user, f).values("game", "title").annotate(plays=Count("pk")).order_by("-plays")
    return [
        {"game": r["game"], "title": r["title"], "name": r["title"] or _game_name(r["game"]), "plays": r["plays"]}
        for r in rows
    ]

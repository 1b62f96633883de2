"""Looking back: statistics per player, per person, per game and per group, read from the ``play_stats``
read model (finished matches and each seat's result, kept by the projector; never the event log per request).
Which matches count is ``filters``'; the counts are ``tallies``' (re-exported here: the stats' one door).

Every function takes the viewing user and a :class:`StatsFilter`; only matches the user may see count.
"""

from __future__ import annotations

import hashlib
import logging
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, QuerySet

from matches.errors import NotFound
from matches.models import (
    Match,
    MatchFact,
    Player,
    PlayerMerge,
    PlayerResult,
    ProjectionCheckpoint,
)
from matches.people.players import player_canonical
from matches.stats.filters import StatsFilter, played_qs, results_qs, stats_filter_parse, visible_match_ids
from matches.stats.tallies import Record, Tally, tallies_counted
from matches.store.visibility import UserLike
from rulesets import UnknownGame, get_ruleset

logger = logging.getLogger(__name__)
MEMO_SECONDS = 600


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
    """Each player's record over the visible finished matches, most played first."""
    return _memo(
        "players", user, f, str(limit), lambda: _player_rows(tallies_counted(user, f, {"player": False}), limit)
    )


def _player_rows(tallies: list[Tally], limit: int) -> list[dict[str, Any]]:
    records: dict[int, Record] = defaultdict(Record)
    for t in tallies:
        if t.kind == "player":
            records[t.player].tally(t)
    top = sorted(records.items(), key=lambda item: (-item[1].played, -item[1].won, item[0]))[:limit]
    players = Player.objects.select_related("owner", "user").in_bulk([pid for pid, _ in top])
    return [{**player_ref(players[pid]), **rec.to_dict()} for pid, rec in top]


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
    recent_ids: list[int] = field(default_factory=list)  # the latest matches, newest first
    _recent: list[Match] | None = field(default=None, repr=False)

    @property
    def recent(self) -> list[Match]:
        """The latest matches with their seats and summaries, read when first asked for (the API answers
        their ids only)."""
        if self._recent is None:
            found = (
                Match.objects.filter(pk__in=self.recent_ids)
                .select_related("summary", "owner")
                .prefetch_related("seats__player")
            )
            order = {pk: i for i, pk in enumerate(self.recent_ids)}
            self._recent = sorted(found, key=lambda m: order[m.pk])
        return self._recent

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
            "recent": list(self.recent_ids),
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
    if not owned and not Match.objects.filter(pk__in=visible_match_ids(user), seats__player=player).exists():
        raise NotFound(f"No player {player_id}.")  # players are as private as the matches they sat in
    return _dashboard([player], results_qs(user, f).filter(player=player), user, f)


def person_dashboard(*, user: UserLike, person: Any, f: StatsFilter) -> PlayerDashboard | None:
    """The dashboard of a person: every player (of any owner) linked to ``person``'s account."""
    players = list(Player.objects.filter(user=person).select_related("owner", "user").order_by("pk"))
    if not players:
        return None
    return _dashboard(players, results_qs(user, f).filter(player__in=players), user, f)


def _month_label(month: int) -> str:
    return f"{month // 100:04d}-{month % 100:02d}"


def _dashboard(players: list[Player], mine: QuerySet[PlayerResult], user: UserLike, f: StatsFilter) -> PlayerDashboard:
    ids = ",".join(str(p.pk) for p in players)
    figures = _memo("player", user, f, ids, lambda: _figures(players, mine, user, f))
    board = PlayerDashboard(players=players, overall=Record(**figures["overall"]), recent_ids=figures["recent"])
    for name in ("by_game", "by_month", "streaks", "head_to_head", "favourite_games", "first_player"):
        setattr(board, name, figures[name])
    return board


def _figures(players: list[Player], mine: QuerySet[PlayerResult], user: UserLike, f: StatsFilter) -> dict[str, Any]:
    """Every figure of a dashboard: the counts from :func:`tallies_counted`, the streaks and latest matches from the
    player's rows (``mine``)."""
    ids = {p.pk for p in players}
    totals, first = Record(), Record()
    games: dict[tuple[str, str], Record] = defaultdict(Record)
    months: dict[int, dict[str, int]] = defaultdict(dict)
    opponents: dict[int, Record] = defaultdict(Record)
    names: dict[str, str] = {}
    for t in tallies_counted(user, f, {"player": True, "pair": False}, players=ids):
        if t.kind == "player":
            totals.tally(t)
            games[(t.game, t.title)].tally(t)
            if t.started:
                first.tally(t)
            name = t.title or names.setdefault(t.game, _game_name(t.game))  # a score sheet by its own title
            months[t.month][name] = months[t.month].get(name, 0) + t.n
        elif t.other not in ids:
            opponents[t.other].tally(t)
    by_game = sorted(
        (
            {"game": game, "title": title, "name": title or _game_name(game), **rec.to_dict()}
            for (game, title), rec in sorted(games.items())
        ),
        key=lambda d: (-d["played"], d["name"]),
    )
    return {
        "overall": {"played": totals.played, "won": totals.won, "drawn": totals.drawn},
        "by_game": by_game,
        "favourite_games": by_game[:3],
        "by_month": [
            {"month": _month_label(m), "games": g, "plays": sum(g.values())} for m, g in sorted(months.items())
        ],
        "first_player": first.to_dict(),
        "streaks": _streaks(list(mine.order_by("played_at", "match_id").values_list("won", "drawn"))),
        "head_to_head": _head_to_head(opponents),
        "recent": list(mine.order_by("-played_at", "-match_id").values_list("match_id", flat=True)[:15]),
    }


def _generation() -> str:
    """Changes whenever the read model may have: the projector moved on, a merge or a claim was recorded (one
    round trip)."""
    tables = (ProjectionCheckpoint._meta.db_table, PlayerMerge._meta.db_table, Player._meta.db_table)
    sql = (
        "SELECT (SELECT position FROM {} WHERE name = %s), (SELECT MAX(id) FROM {}), "
        "(SELECT COUNT(*) FROM {} WHERE user_id IS NOT NULL)"
    ).format(*tables)
    with connection.cursor() as cursor:
        cursor.execute(sql, ["play_stats"])
        checkpoint, merges, claims = cursor.fetchone()
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


def _head_to_head(opponents: dict[int, Record]) -> list[dict[str, Any]]:
    """Against each opponent (the 20 met most): matches together, and how I did (won, lost, drawn) in them."""
    top = sorted(opponents.items(), key=lambda item: (-item[1].played, item[0]))[:20]
    players = Player.objects.select_related("owner", "user").in_bulk([pid for pid, _ in top])
    return [{**player_ref(players[pid]), **rec.to_dict()} for pid, rec in top]


# -- one game ---------------------------------------------------------------------------------------------


DashboardPart = Callable[..., dict[str, Any] | None]
# key → ``part(user=, match_game=, f=)``: figures another app adds to a game's dashboard from its own read model
# (``campaigns.saltmarsh.stats`` adds "campaigns"), registered when that app is ready; None where it has nothing to add
_DASHBOARD_PARTS: dict[str, DashboardPart] = {}


def dashboard_part_register(key: str, part: DashboardPart) -> DashboardPart:
    """Add ``part``'s figures under ``key`` to every game dashboard that it answers (not None) for."""
    _DASHBOARD_PARTS[key] = part
    return part


def game_dashboard(*, user: UserLike, game: str, f: StatsFilter) -> dict[str, Any]:
    """Plays over time, seat and first-player win rates with sample sizes, length, scores, insights, players,
    and what registered parts add (:func:`dashboard_part_register`: a campaign game's campaigns)."""
    try:
        ruleset = get_ruleset(game)
    except UnknownGame:
        raise NotFound(f"No game '{game}'.") from None
    figures = _memo("game", user, f, game, lambda: _game_figures(ruleset, user, game, f))
    for key, part in _DASHBOARD_PARTS.items():  # their own read models: not kept in the memo
        extra = part(user=user, match_game=game, f=f)
        if extra is not None:
            figures = {**figures, key: extra}
    return figures


def _game_figures(ruleset: Any, user: UserLike, game: str, f: StatsFilter) -> dict[str, Any]:
    f = StatsFilter(game=game, title=f.title, since=f.since, until=f.until, players=f.players)
    kinds = {"match": True, "seat": False, "player": False, "moves": False, "minutes": False, "score": False}
    tallies = tallies_counted(user, f, kinds)
    plays = draws = 0
    months: dict[int, int] = defaultdict(int)
    seats: dict[int, Record] = defaultdict(Record)
    first = Record()
    values: dict[str, Counter[float]] = {"moves": Counter(), "minutes": Counter(), "score": Counter()}
    for t in tallies:
        if t.kind == "match":
            plays += t.n
            draws += t.drawn
            months[t.month] += t.n
        elif t.kind == "seat":
            seats[t.seat].tally(t)
        elif t.kind == "player" and t.started:
            first.tally(t)
        elif t.kind in values:
            values[t.kind][t.value] += t.n
    played = played_qs(user, f)
    facts = (
        MatchFact.objects.filter(match_id__in=played.values("match_id"))
        .values("key", "value")
        .annotate(n=Count("pk"))
        .order_by("key", "-n", "value")
    )
    insights: dict[str, dict[str, int]] = defaultdict(dict)
    for r in facts:
        insights[r["key"]][r["value"]] = r["n"]
    moves = Counter({v: n for v, n in values["moves"].items() if v > 0})  # a match without moves has no length
    return {
        "game": game,
        "title": f.title,
        "name": (played.values_list("title", flat=True).first() or f.title) if f.title else ruleset.name,
        "plays": plays,
        "draws": draws,
        "by_month": [{"month": _month_label(m), "plays": n} for m, n in sorted(months.items())],
        "seats": [{"seat": seat, **rec.to_dict()} for seat, rec in sorted(seats.items())],
        "first_player": first.to_dict(),
        "length": {"moves": _spread(moves, exact=True), "minutes": _spread(values["minutes"], exact=True)},
        "scores": _histogram(values["score"]),
        "insights": dict(insights),
        "insight_figures": {k: counted_spread(v) for k, v in insights.items() if k in ruleset.numeric_insights},
        "top_players": _player_rows(tallies, 10),
    }


def _tidy(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 1)


def _spread(values: Counter[float], *, exact: bool = False) -> dict[str, Any]:
    """Count, mean, median, min and max of counted values (``{value: how many}``). ``exact``: the values are
    whole numbers and the mean is rounded half-even from the exact fraction (as PostgreSQL's numeric average)."""
    count = sum(values.values())
    if not count:
        return {"count": 0, "mean": None, "median": None, "min": None, "max": None}
    ordered = sorted(values.items())
    if exact:
        mean: float = float(round(Fraction(sum(int(v) * n for v, n in ordered), count), 1))
    else:
        mean = round(math.fsum(v * n for v, n in ordered) / count, 1)
    middle, seen = [], 0
    for value, n in ordered:  # the values at sorted positions (count - 1) // 2 and count // 2
        if seen <= (count - 1) // 2 < seen + n:
            middle.append(value)
        if seen <= count // 2 < seen + n:
            middle.append(value)
        seen += n
    return {
        "count": count,
        "mean": mean,
        "median": _tidy(statistics.fmean(middle)),
        "min": _tidy(ordered[0][0]),
        "max": _tidy(ordered[-1][0]),
    }


def _histogram(values: Counter[float], bins: int = 8) -> dict[str, Any]:
    """Distribution: the spread and up to ``bins`` equal-width buckets (``from`` inclusive, ``to`` exclusive,
    the last one closed)."""
    summary = _spread(values)
    if not summary["count"]:
        return {**summary, "buckets": []}
    low, high = float(summary["min"]), float(summary["max"])
    whole = isinstance(summary["min"], int) and isinstance(summary["max"], int)
    width = max(math.ceil((high - low + 1) / bins) if whole else (high - low) / bins, 1.0)
    edges = [low + i * width for i in range(bins) if low + i * width <= high]
    last = len(edges) - 1
    counts = [
        sum(n for v, n in values.items() if v >= edge and (i == last or v < edge + width))
        for i, edge in enumerate(edges)
    ]
    buckets = [{"from": round(e, 1), "to": round(e + width, 1), "count": c} for e, c in zip(edges, counts, strict=True)]
    return {**summary, "buckets": buckets}


def counted_spread(counts: dict[str, int]) -> dict[str, Any]:
    """The distribution of a numeric insight from its tally (value → how many times it was counted), shaped like
    the score histogram (:func:`_histogram`); values that are not numbers are left out."""
    values: Counter[float] = Counter()
    for value, n in counts.items():
        if _is_number(value):
            values[float(value)] += n
    return _histogram(values)


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def games_overview(*, user: UserLike, f: StatsFilter) -> list[dict[str, Any]]:
    """Every game with its number of finished plays (most played first)."""
    plays: dict[tuple[str, str], int] = defaultdict(int)
    for t in tallies_counted(user, f, {"match": False}):
        plays[(t.game, t.title)] += t.n
    rows = sorted(plays.items(), key=lambda item: (-item[1], item[0]))
    return [{"game": g, "title": title, "name": title or _game_name(g), "plays": n} for (g, title), n in rows]


__all__ = [
    "Record",
    "StatsFilter",
    "counted_spread",
    "dashboard_part_register",
    "game_dashboard",
    "games_overview",
    "person_dashboard",
    "player_dashboard",
    "player_label",
    "player_ref",
    "players_table",
    "stats_filter_parse",
]

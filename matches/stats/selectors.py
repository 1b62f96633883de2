"""Looking back: statistics per player, per person, per game and per group, read from the ``play_stats``
read model (finished matches and each seat's result, kept by the projector; never the event log per request).

Every function takes the viewing user and a :class:`StatsFilter`; only matches the user may see count.
"""

from __future__ import annotations

import hashlib
import logging
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from fractions import Fraction
from typing import Any, NamedTuple
from urllib.parse import quote

from django.core.cache import cache
from django.db import connection
from django.db.models import Case, Count, F, Q, QuerySet, Sum, Value, When
from django.db.models.functions import TruncMonth
from django.utils import timezone

from matches.errors import InvalidInput, NotFound
from matches.models import (
    Match,
    MatchFact,
    PlayedMatch,
    Player,
    PlayerMerge,
    PlayerResult,
    ProjectionCheckpoint,
    StatsRollup,
)
from matches.people.players import player_canonical
from matches.projections.rollups import month_of
from matches.store.visibility import UserLike, visible_q
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


def _visible_match_ids(user: UserLike) -> QuerySet[Match]:
    return Match.objects.filter(visible_q(user)).values("pk")  # (the rule: matches.store.visibility)


def _visible(user: UserLike) -> Q:
    """Rows of the read models ``user`` may see, from their copied visibility (no join with matches)."""
    if not (user and user.is_authenticated):
        return Q(is_public=True)
    recorded = Match.recorders.through.objects.filter(user_id=user.pk).values("match_id")
    return Q(is_public=True) | Q(owner_id=user.pk) | Q(match_id__in=recorded)


def _filtered(qs: QuerySet[Any], user: UserLike, f: StatsFilter) -> QuerySet[Any]:
    """Rows of either read model (they share ``game``, ``title``, ``played_at``, ``match``) that ``user`` may
    see and that pass the filter."""
    qs = qs.filter(_visible(user))
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


# -- counts: from the roll-ups where they answer exactly, else from the rows, both through one definition -----


class Tally(NamedTuple):
    """A count of the read model over what a user may see (see ``matches/projections/rollups.py`` for the kinds)."""

    kind: str
    month: int  # yyyymm, or 0 when the figure does not need months
    game: str
    title: str
    player: int
    other: int
    seat: int
    started: bool
    value: float
    n: int
    won: int
    drawn: int


_DIMS = ("kind", "game", "title", "player_id", "other_id", "seat", "started", "value")
_NONE = {"player_id": 0, "other_id": 0, "seat": -1, "started": False, "value": 0.0}
_KIND_DIMS = {  # what each kind's figures tell apart (a roll-up read groups by these only)
    "match": ("game", "title"),
    "player": ("game", "title", "player_id", "started"),
    "seat": ("seat",),
    "pair": ("player_id", "other_id"),
    "moves": ("value",),
    "minutes": ("value",),
    "score": ("value",),
}


def _month_start(month: int, tz: Any) -> datetime:
    return datetime(month // 100, month % 100, 1, tzinfo=tz)


def _next_month(month: int) -> int:
    return month + 1 if month % 100 < 12 else (month // 100 + 1) * 100 + 1


def _rollup_span(f: StatsFilter) -> tuple[tuple[int, int] | None, Q | None]:
    """The whole months inside the filter's days ``(first, last)`` (None: no whole month), and a filter on the
    rows of the days around them (None: no such days). Without dates: every month, no rows."""
    start, end = f.bounds()
    tz = timezone.get_current_timezone()
    first = month_of(start, tz) if start else 1
    last = month_of(end, tz) if end else 999912
    edges = []
    if start and start.day != 1:  # the first days of a month that is not whole
        first = _next_month(first)
        edges.append(Q(played_at__gte=start, played_at__lt=_month_start(first, tz)))
    if end and (end + timedelta(days=1)).day != 1:  # the last days of a month that is not whole
        last_start = _month_start(month_of(end, tz), tz)
        last = month_of(last_start - timedelta(days=1), tz)
        edges.append(Q(played_at__gte=last_start, played_at__lte=end))
    if first > last:  # the days lie inside one month (or two partial ones): all of them are rows
        return None, _dates_q(f)
    return (first, last), (edges[0] | edges[1] if len(edges) == 2 else edges[0]) if edges else None


def _dates_q(f: StatsFilter) -> Q:
    start, end = f.bounds()
    q = Q()
    if start:
        q &= Q(played_at__gte=start)
    if end:
        q &= Q(played_at__lte=end)
    return q


def _rows_q(f: StatsFilter) -> Q:
    """The filter's game, title and group (not its dates) on either table of the read model."""
    q = Q()
    if f.game:
        q &= Q(game=f.game)
    if f.title:
        q &= Q(title__iexact=f.title)
    for player in f.players:
        q &= Q(match_id__in=PlayerResult.objects.filter(player_id=player).values("match_id"))
    return q


def _rollups_answer(f: StatsFilter) -> bool:
    """Whether the roll-ups can answer ``f`` (not a group of players: no roll-up tells their matches apart;
    not under another time zone than the roll-ups' months)."""
    return not f.players and timezone.get_current_timezone_name() == timezone.get_default_timezone_name()


def _tallies(user: UserLike, f: StatsFilter, monthly: dict[str, bool], players: Collection[int] = ()) -> list[Tally]:
    """The counts of the kinds in ``monthly`` (by month where it says True) over the matches ``user`` may see
    that pass ``f``; with ``players`` (only for the kinds ``player`` and ``pair``), those players' counts.

    The roll-ups answer the matches of the user's visibility classes (public, or owned by the user) in the
    whole months of the filter; the rows answer the rest (:func:`_row_tallies`): the days at the edges of a
    date range, matches the user sees as a recorder of someone else's private match, pairs over a date range
    (rolled up for all time only), and whatever :func:`_rollups_answer` refuses."""
    out: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    everywhere = _visible(user) & _rows_q(f) & _dates_q(f)
    if not _rollups_answer(f):
        _row_tallies(out, everywhere, monthly, players)
        return _listed(out)
    if "pair" in monthly and (monthly["pair"] or f.since or f.until):  # pairs are rolled up for all time only
        _row_tallies(out, everywhere, {"pair": monthly["pair"]}, players)
        monthly = {k: m for k, m in monthly.items() if k != "pair"}
    public = Q(is_public=True)
    own = public | Q(owner_id=user.pk) if user and user.is_authenticated else public
    span, edges = _rollup_span(f)
    rows = own & edges & _rows_q(f) if edges is not None else None
    if user and user.is_authenticated and _records_others_private(user):
        recorded = Match.recorders.through.objects.filter(user_id=user.pk).values("match_id")
        extra = Q(is_public=False, match_id__in=recorded) & ~Q(owner_id=user.pk) & _rows_q(f) & _dates_q(f)
        rows = extra if rows is None else rows | extra
    if span is not None:
        base = StatsRollup.objects.filter(own, _rows_q(f), kind__in=list(monthly))  # no group here: game, title
        if players:
            base = base.filter(player_id__in=list(players))
        by_month = [k for k, m in monthly.items() if m]
        flat = [k for k, m in monthly.items() if not m]
        months = Q(month__gte=span[0], month__lte=span[1])
        where = Q(kind__in=by_month) & months if by_month else Q(pk__in=[])
        if flat:  # all time, or the sum of the whole months of a date range
            where |= Q(kind__in=flat) & (months if f.since or f.until else Q(month=0))
        used = {"kind", *(d for k in monthly for d in _KIND_DIMS[k])}
        dims = [d for d in _DIMS if d in used]
        if by_month:  # one query for both: the month where it is asked for, else 0
            month = Case(When(kind__in=by_month, then=F("month")), default=Value(0)) if flat else F("month")
            base, dims = base.annotate(month_=month), [*dims, "month_"]
        # each row's key in the order of _DIMS and the month: a column's position, or its constant for the kinds
        where_in = {d: i for i, d in enumerate(dims)}
        constants = {**_NONE, "game": "", "title": "", "month_": 0}
        pick = [(where_in.get(d), constants.get(d)) for d in (*_DIMS, "month_")]
        summed = base.filter(where).values_list(*dims).annotate(n_=Sum("n"), won_=Sum("won"), drawn_=Sum("drawn"))
        for row in summed:
            c = out[tuple(row[i] if i is not None else const for i, const in pick)]
            c[0] += row[-3]
            c[1] += row[-2]
            c[2] += row[-1]
    if rows is not None:
        _row_tallies(out, rows, monthly, players)
    return _listed(out)


def _records_others_private(user: UserLike) -> bool:
    """Whether ``user`` records a private match of someone else (those are counted from the rows)."""
    through = Match.recorders.through.objects.filter(user_id=user.pk, match__is_public=False)
    return through.exclude(match__owner_id=user.pk).exists()


def _count(out: dict[tuple[Any, ...], list[int]], got: dict[str, Any], n: int, won: int, drawn: int) -> None:
    c = out[(*(got.get(d, _NONE.get(d, "")) for d in _DIMS), got.get("month", 0))]
    c[0] += n
    c[1] += won or 0
    c[2] += drawn or 0


def _listed(out: dict[tuple[Any, ...], list[int]]) -> list[Tally]:
    return [
        Tally(kind, month, game, title, player, other, seat, started, value, n, won, drawn)
        for (kind, game, title, player, other, seat, started, value, month), (n, won, drawn) in out.items()
        if n
    ]


_RESULT_TALLY = {"n": Count("pk"), "won": Count("pk", filter=Q(won=True)), "drawn": Count("pk", filter=Q(drawn=True))}


def _row_tallies(
    out: dict[tuple[Any, ...], list[int]], q: Q, monthly: dict[str, bool], players: Collection[int]
) -> None:
    """Add the counts of the read-model rows passing ``q`` to ``out``, one GROUP BY per kind: the same counts
    the roll-ups hold (``stats_rollup.contributions``; the tests hold the two to each other)."""
    played = PlayedMatch.objects.filter(q)
    results = PlayerResult.objects.filter(q)
    mine = results.filter(player_id__in=list(players)) if players else results

    def group(qs: QuerySet[Any], dims: list[str], measures: dict[str, Any], kind: str, by_month: bool) -> None:
        if by_month:
            qs, dims = qs.annotate(month=TruncMonth("played_at")), [*dims, "month"]
        for row in qs.values(*dims).annotate(**measures).order_by():
            if by_month:
                row["month"] = row["month"].year * 100 + row["month"].month
            if "value" in row:
                row["value"] = float(row["value"])
            _count(out, {**row, "kind": kind}, row["n"], row.get("won", 0), row.get("drawn", 0))

    for kind, by_month in monthly.items():
        if kind == "match":
            match_tally = {"n": Count("pk"), "drawn": Count("pk", filter=Q(draw=True))}
            group(played, ["game", "title"], match_tally, kind, by_month)
        elif kind == "player":
            group(mine, ["game", "title", "player_id", "started"], _RESULT_TALLY, kind, by_month)
        elif kind == "seat":
            group(results, ["seat"], _RESULT_TALLY, kind, by_month)
        elif kind in ("moves", "minutes"):
            group(played.exclude(**{kind: None}).annotate(value=F(kind)), ["value"], {"n": Count("pk")}, kind, by_month)
        elif kind == "score":
            group(results.exclude(score=None).annotate(value=F("score")), ["value"], {"n": Count("pk")}, kind, by_month)
        elif kind == "pair" and not by_month:
            _row_pairs(out, mine)
        else:
            raise ValueError(f"no such count: {kind} by month={by_month}")


def _row_pairs(out: dict[tuple[Any, ...], list[int]], mine: QuerySet[PlayerResult]) -> None:
    """Each player's results in ``mine`` against every other player at the same table: one self-join."""
    sql, params = mine.values("match_id", "player_id", "won", "drawn").query.sql_with_params()
    table = PlayerResult._meta.db_table
    query = (
        "SELECT m.player_id, o.player_id, COUNT(*), SUM(CASE WHEN m.won THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN m.drawn THEN 1 ELSE 0 END) FROM ({sql}) m JOIN {table} o "
        "ON o.match_id = m.match_id AND o.player_id <> m.player_id GROUP BY m.player_id, o.player_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, params)
        for player, other, n, won, drawn in cursor.fetchall():
            _count(out, {"kind": "pair", "player_id": player, "other_id": other}, n, int(won or 0), int(drawn or 0))


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

    def tally(self, t: Tally) -> None:
        """Count a :class:`Tally`'s matches in."""
        self.played += t.n
        self.won += t.won
        self.drawn += t.drawn

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
    """Each player's record over the visible finished matches, most played first."""
    return _memo("players", user, f, str(limit), lambda: _player_rows(_tallies(user, f, {"player": False}), limit))


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
    if not owned and not Match.objects.filter(pk__in=_visible_match_ids(user), seats__player=player).exists():
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
    """Every figure of a dashboard: the counts from :func:`_tallies`, the streaks and latest matches from the
    player's rows (``mine``)."""
    ids = {p.pk for p in players}
    totals, first = Record(), Record()
    games: dict[tuple[str, str], Record] = defaultdict(Record)
    months: dict[int, dict[str, int]] = defaultdict(dict)
    opponents: dict[int, Record] = defaultdict(Record)
    names: dict[str, str] = {}
    for t in _tallies(user, f, {"player": True, "pair": False}, players=ids):
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
    tallies = _tallies(user, f, kinds)
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
    for t in _tallies(user, f, {"match": False}):
        plays[(t.game, t.title)] += t.n
    rows = sorted(plays.items(), key=lambda item: (-item[1], item[0]))
    return [{"game": g, "title": title, "name": title or _game_name(g), "plays": n} for (g, title), n in rows]

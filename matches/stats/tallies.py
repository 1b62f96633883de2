"""Counts of the statistics: from the roll-ups where they answer exactly, else from the rows, both through one
definition (``matches/projections/rollups.py`` holds the kinds), and a player's record built from them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Case, Count, F, Q, QuerySet, Sum, Value, When
from django.db.models.functions import TruncMonth
from django.utils import timezone

from matches.models import (
    Match,
    PlayedMatch,
    PlayerResult,
    StatsRollup,
)
from matches.projections.rollups import month_of
from matches.stats.filters import StatsFilter, privately_seen, visible
from matches.store.visibility import UserLike

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


def tallies_counted(
    user: UserLike, f: StatsFilter, monthly: dict[str, bool], players: Collection[int] = ()
) -> list[Tally]:
    """The counts of the kinds in ``monthly`` (by month where it says True) over the matches ``user`` may see
    that pass ``f``; with ``players`` (only for the kinds ``player`` and ``pair``), those players' counts.

    The roll-ups answer the matches of the user's visibility classes (public, or owned by the user) in the
    whole months of the filter; the rows answer the rest (:func:`_row_tallies`): the days at the edges of a
    date range, matches the user sees as a recorder of someone else's private match, pairs over a date range
    (rolled up for all time only), and whatever :func:`_rollups_answer` refuses."""
    out: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    everywhere = visible(user) & _rows_q(f) & _dates_q(f)
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
    if user and user.is_authenticated and _reads_others_private(user):
        extra = Q(is_public=False, match_id__in=privately_seen(user)) & ~Q(owner_id=user.pk) & _rows_q(f) & _dates_q(f)
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


def _reads_others_private(user: UserLike) -> bool:
    """Whether ``user`` records or sits at a private match of someone else (those are counted from the rows)."""
    return Match.objects.filter(pk__in=privately_seen(user), is_public=False).exclude(owner_id=user.pk).exists()


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

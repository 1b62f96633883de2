"""Roll-ups of the ``play_stats`` read model: what the dashboards count, counted once by the projector.

:func:`contributions` defines the counts the projector keeps: from finished matches (:class:`PlayedMatch`
rows) and seat results (:class:`PlayerResult` rows) it gives ``{key: [n, won, drawn]}`` where a key is the
:class:`StatsRollup` key (``kind``, ``month``, ``game``, ``title``, ``is_public``, ``owner_id``, ``player_id``,
``other_id``, ``seat``, ``started``, ``value``). The ``StatsRollup`` table holds the sum of the contributions of
every row of the read model; the projector (and a player merge) keep it so by adding the difference between
the contributions of the rows they write and of the rows they replace (:func:`rollup_apply`). Reads that the
table cannot answer exactly (a group filter, the edges of a date range, matches seen as a recorder) count the
rows with one GROUP BY per kind (``matches/stats/tallies.py``, ``_row_tallies``); the tests hold the two to each other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from datetime import datetime, tzinfo
from typing import Any

from django.db.models import Q
from django.utils import timezone

from matches.models import PlayedMatch, PlayerResult, StatsRollup
from matches.projections.projectors import projection_lock
from matches.store.rows import ids_among, rows_insert

KINDS = frozenset({"match", "player", "seat", "pair", "moves", "minutes", "score"})
MONTHLY = KINDS - {"pair"}  # pairs are kept for all time only (by month they would be half of the table)
ALL_TIME = 0
KEY_COLUMNS = ("kind", "month", "game", "title", "is_public", "owner_id", "player_id", "other_id", "seat", "started",
               "value")  # fmt: skip
Key = tuple[str, int, str, str, bool, int, int, int, int, bool, float]  # in the order of KEY_COLUMNS
Counts = dict[Key, list[int]]
_PLAYED = ("match_id", "game", "title", "is_public", "owner_id", "played_at", "draw", "moves", "minutes")
_RESULTS = ("match_id", "game", "title", "is_public", "owner_id", "played_at", "player_id", "seat", "won", "drawn",
            "started", "score")  # fmt: skip


def month_of(at: datetime, tz: tzinfo | None = None) -> int:
    """``at``'s month as yyyymm, in ``tz`` (default: the project's ``TIME_ZONE``, the roll-ups' grain)."""
    local = timezone.localtime(at, tz or timezone.get_default_timezone())
    return local.year * 100 + local.month


def contributions(
    played: Iterable[Any], results: Iterable[Any], *, monthly: Collection[str] = MONTHLY,
    all_time: Collection[str] = KINDS, tz: tzinfo | None = None,
) -> Counts:  # fmt: skip
    """The counts of these read-model rows (objects with the fields of ``PlayedMatch`` / ``PlayerResult``):
    for each kind in ``monthly`` at its month, for each kind in ``all_time`` at month 0. ``results`` must hold
    every seat of the matches it touches (a ``pair`` counts each other seat of the match)."""
    out: Counts = defaultdict(lambda: [0, 0, 0])
    tz = tz or timezone.get_default_timezone()

    def add(kind: str, row: Any, months: tuple[int, ...], player: int = 0, other: int = 0, seat: int = -1,
            started: bool = False, value: float = 0.0, won: bool = False, drawn: bool = False) -> None:  # fmt: skip
        for month in months:
            c = out[
                (kind, month, row.game, row.title, row.is_public, row.owner_id, player, other, seat, started, value)
            ]
            c[0] += 1
            c[1] += won
            c[2] += drawn

    month_at: dict[datetime, int] = {}  # a match's rows share its time: its month is worked out once

    def grains(kind: str, at: datetime) -> tuple[int, ...]:
        if kind not in monthly:
            return (ALL_TIME,) if kind in all_time else ()
        month = month_at.get(at)
        if month is None:
            month = month_at[at] = month_of(at, tz)
        return (month, ALL_TIME) if kind in all_time else (month,)

    wanted = set(monthly) | set(all_time)
    for p in played:
        if "match" in wanted:
            add("match", p, grains("match", p.played_at), drawn=p.draw)
        if "moves" in wanted:
            add("moves", p, grains("moves", p.played_at), value=float(p.moves))
        if "minutes" in wanted and p.minutes is not None:
            add("minutes", p, grains("minutes", p.played_at), value=float(p.minutes))
    if not wanted & {"player", "seat", "pair", "score"}:
        return out
    results = list(results)
    seated: dict[int, list[int]] = defaultdict(list)
    for r in results:
        seated[r.match_id].append(r.player_id)
    for r in results:
        if "player" in wanted:
            add("player", r, grains("player", r.played_at), player=r.player_id, started=r.started, won=r.won,
                drawn=r.drawn)  # fmt: skip
        if "seat" in wanted:
            add("seat", r, grains("seat", r.played_at), seat=r.seat, won=r.won, drawn=r.drawn)
        if "score" in wanted and r.score is not None:
            add("score", r, grains("score", r.played_at), value=float(r.score))
        if "pair" in wanted:
            months = grains("pair", r.played_at)
            for other in seated[r.match_id]:
                if other != r.player_id:
                    add("pair", r, months, player=r.player_id, other=other, won=r.won, drawn=r.drawn)
    return out


def rows_of(match_ids: Collection[int]) -> tuple[list[Any], list[Any]]:
    """The read-model rows of these matches, as :func:`contributions` reads them (two queries)."""
    played = list(
        PlayedMatch.objects.filter(ids_among(PlayedMatch, "match_id", match_ids)).values_list(*_PLAYED, named=True)
    )
    if not played:
        return played, []
    results = PlayerResult.objects.filter(ids_among(PlayerResult, "match_id", match_ids))
    return played, list(results.values_list(*_RESULTS, named=True))


def rows_where(q: Q) -> tuple[list[Any], list[Any]]:
    """The read-model rows passing ``q`` (a filter on the fields both tables share)."""
    played = list(PlayedMatch.objects.filter(q).values_list(*_PLAYED, named=True))
    results = list(PlayerResult.objects.filter(q).values_list(*_RESULTS, named=True)) if played else []
    return played, results


def difference(new: Counts, old: Counts) -> Counts:
    """``new - old``, without the keys whose counts did not move."""
    out: Counts = {}
    for key in new.keys() | old.keys():
        a, b = new.get(key, (0, 0, 0)), old.get(key, (0, 0, 0))
        delta = [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
        if any(delta):
            out[key] = delta
    return out


def rollup_apply(delta: Counts) -> None:
    """Add ``delta`` to the roll-ups (upserts adding to the counts) and drop the rows that fall to zero.

    One statement on PostgreSQL whatever the size (the rows as one JSON document, ``rows_insert``: a VALUES
    list of thousands of placeholders, or one array per column, costs more to bind than to run)."""
    if not delta:
        return
    table = StatsRollup._meta.db_table
    upsert = f"ON CONFLICT ({', '.join(KEY_COLUMNS)}) DO UPDATE SET " + ", ".join(
        f"{c} = {table}.{c} + excluded.{c}" for c in ("n", "won", "drawn")
    )
    # in the unique index's order: the upsert then walks the index forward instead of jumping about it
    rows = [(*key, *delta[key]) for key in sorted(delta)]
    rows_insert(StatsRollup, (*KEY_COLUMNS, "n", "won", "drawn"), rows, on_conflict=upsert)
    if any(counts[0] < 0 for counts in delta.values()):
        StatsRollup.objects.filter(n=0).delete()


def rollup_refresh(match_ids: Collection[int], change: Callable[[], None]) -> None:
    """Run ``change`` (which rewrites read-model rows of ``match_ids``) and move the roll-ups with it. Call it in
    a transaction: it holds the ``play_stats`` projector's lock to the commit, so no projector batch rewrites
    those rows in between."""
    projection_lock("play_stats")
    before = contributions(*rows_of(match_ids))
    change()
    rollup_apply(difference(contributions(*rows_of(match_ids)), before))


def rollup_table() -> Counts:
    """The roll-ups as stored (for checks and tests: it must equal the contributions of every row)."""
    fields = (*KEY_COLUMNS, "n", "won", "drawn")
    return {tuple(row[:11]): list(row[11:]) for row in StatsRollup.objects.values_list(*fields)}  # type: ignore[misc]


def rollup_drift() -> Counts:
    """Where the roll-ups differ from the contributions of the whole read model (empty when they agree)."""
    played, results = rows_where(Q())
    return difference(rollup_table(), dict(contributions(played, results)))


def rollup_reset() -> None:
    """Empty the roll-ups (with the rest of the read model, before a replay)."""
    StatsRollup.objects.all().delete()

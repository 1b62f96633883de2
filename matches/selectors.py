"""Match reads: lists, state at any version, legal moves, the log (who may read what: ``matches.store.visibility``)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from psycopg.types.numeric import Int8

from config.db import prepared_fetch
from matches.errors import InvalidInput, NotFound
from matches.models import Event as EventRow
from matches.models import Match, Player, Stream
from matches.store import events as store
from matches.store.visibility import UserLike, Viewer, can_view, recording_q, visible_q
from rulesets import Event, get_ruleset
from rulesets.names import name_all, name_seats, turn_line
from rulesets.offline import turn_of
from rulesets.replay import outcome_of


def match_visible_qs(user: UserLike) -> QuerySet[Match]:
    """Every match ``user`` may see."""
    qs = Match.objects.select_related("summary", "stream", "owner").prefetch_related("seats__player__user")
    qs = qs.filter(visible_q(user, seated=True))
    return qs.distinct() if user and user.is_authenticated else qs


def match_list(
    *, user: UserLike, game: str | None = None, player: str | None = None, status: str | None = None,
    mine: bool = False,
) -> QuerySet[Match]:  # fmt: skip
    """Visible matches, the most recently played first (:func:`played_order`), filtered by game slug, player name
    (or id) and status."""
    qs = match_visible_qs(user)
    if game:
        qs = qs.filter(game=game)
    if player:
        if player.isascii() and player.isdigit() and len(player) <= 18:  # an id ('²' is a digit, not an id)
            qs = qs.filter(seats__player_id=int(player))
        else:
            qs = qs.filter(seats__player__name__iexact=player)
    if status:
        if status not in {Match.STATUS_IN_PROGRESS, Match.STATUS_FINISHED}:
            raise InvalidInput({"status": ["Must be 'in_progress' or 'finished'."]})
        qs = qs.filter(status=status)
    if mine and user.is_authenticated:
        qs = qs.filter(recording_q(user) | Q(seats__player__user=user)).distinct()
    return qs.order_by(*played_order())


def played_order() -> tuple[Any, ...]:
    """How lists of matches sort: by when the game was played, newest first: an imported or logged play's date
    (``Match.played_at``), else when the match was started (``created_at``); ties by the newest id."""
    return (Coalesce("played_at", "created_at").desc(), "-pk")


def match_get(*, user: UserLike, match_id: int) -> Match:
    """The match if ``user`` may see it, else :class:`NotFound` (private matches do not leak existence)."""
    match = Match.objects.select_related("stream", "owner", "summary").filter(pk=match_id).first()
    if match is None or not can_view(user, match):
        raise NotFound(f"No match {match_id}.")
    return match


def _in_model_order(model: type[Any], names: set[str]) -> tuple[str, ...]:
    """``names`` in the model's field order, the order ``Model.from_db`` expects values of a partial row in."""
    return tuple(f.attname for f in model._meta.concrete_fields if f.attname in names)


_BRIEF_MATCH = _in_model_order(Match, {"id", "stream_id", "game", "owner_id", "is_public", "status", "campaign_id"})
_STREAM_COLUMNS = {"id", "kind", "game", "options", "seat_count", "version", "override_pending", "ruleset_version"}
_BRIEF_STREAM = {
    False: _in_model_order(Stream, _STREAM_COLUMNS),
    True: _in_model_order(Stream, {*_STREAM_COLUMNS, "state"}),
}


@functools.cache
def _brief_sql(with_state: bool, vendor: str) -> str:
    """The match lookup of the hot paths, composed once per process."""
    stream_cols = _BRIEF_STREAM[with_state]
    seat_names = (  # the seat names the answer is written with, in the same query (PostgreSQL; else read apart)
        "(SELECT coalesce(json_agg(p.name ORDER BY seat.index), '[]') FROM matches_seat seat "
        "JOIN matches_player p ON p.id = seat.player_id WHERE seat.match_id = m.id)"
        if vendor == "postgresql"
        else "NULL"
    )
    return (
        f"SELECT {', '.join(f'm.{c}' for c in _BRIEF_MATCH)}, {', '.join(f's.{c}' for c in stream_cols)}, "
        f"{seat_names} FROM matches_match m JOIN matches_stream s ON s.id = m.stream_id WHERE m.id = %s"
    )


def _match_brief(match_id: int, *, with_state: bool) -> Match | None:
    """One hand-written query for the hot paths: the columns they read, the stream row joined in."""
    stream_cols = _BRIEF_STREAM[with_state]
    sql = _brief_sql(with_state, connection.vendor)
    if not -(2**63) <= match_id < 2**63:  # no such id (a 64-bit parameter could not even hold it)
        return None
    if connection.vendor == "postgresql":
        row = prepared_fetch(sql, [Int8(match_id)])
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, [match_id])
            row = cursor.fetchone()
    if row is None:
        return None
    *row, names = row
    values = [json.loads(v) if isinstance(v, str) and c in ("options", "state") else v
              for c, v in zip(stream_cols, row[len(_BRIEF_MATCH):], strict=True)]  # fmt: skip
    match = Match.from_db(connection.alias, list(_BRIEF_MATCH), row[: len(_BRIEF_MATCH)])
    match.stream = Stream.from_db(connection.alias, list(stream_cols), values)
    if names is not None:
        match.seat_names_read = json.loads(names) if isinstance(names, str) else list(names)
    return match


def match_get_brief(*, user: UserLike, match_id: int) -> Match:
    """``match_get`` for the append endpoint: one query without building SQL, reading only what an append uses.

    The match's other fields are deferred (read on access); its stream comes without its state (the store
    keeps heads in memory). Same visibility rule and :class:`NotFound` as ``match_get``.
    """
    match = _match_brief(match_id, with_state=False)
    if match is None or not can_view(user, match):
        raise NotFound(f"No match {match_id}.")
    return match


def match_get_with_head(*, user: UserLike, match_id: int) -> tuple[Match, store.Head]:
    """Like ``match_get_brief``, with the stream's head read in the same query (for state reads)."""
    match = _match_brief(match_id, with_state=True)
    if match is None or not can_view(user, match):
        raise NotFound(f"No match {match_id}.")
    return match, store.head_from_row(match.stream)


@dataclass(frozen=True)
class MatchState:
    """A match's state at ``version`` as ``seat`` may see it, with the outcome and whose turn it is.

    Every text in it names the players (``rulesets.names``); ``turn_line`` is the whole turn sentence,
    "Bo to play — move or flip an unsalted cracker", ``prompt`` the ruleset's part of it.
    """

    version: int
    latest_version: int
    state: dict[str, Any]
    outcome: dict[str, Any] | None
    turn_seats: list[int]
    phase: str
    prompt: str
    override_pending: bool
    warnings: list[str]
    turn_line: str = ""
    rules_version: int = 0  # the rules the match is judged under (docs/ARCHITECTURE.md › Rule versions)
    current_rules: int = 0  # its game's current rules version


def match_state(*, match: Match, viewer: Viewer, at: int | None = None, head: store.Head | None = None) -> MatchState:
    """The state at version ``at`` (latest when None) as ``viewer`` may see it (see ``matches.store.visibility``).

    Raises :class:`NotFound` past the latest version. ``head``: the stream's head if the caller has just
    read it (``match_get_with_head``); else it is read fresh.
    """
    head = head or store.head_load(match.stream_id, fresh=True)
    if at is None:
        at = head.version
    if at < 0:
        raise InvalidInput({"at": ["Must be a version ≥ 0."]})
    pos = store.position_at(match.stream_id, at, _head=head)
    ruleset = get_ruleset(match.game)
    outcome = outcome_of(ruleset, pos.state)
    turn = turn_of(ruleset, pos.state)  # the table bar's words, the same offline (rulesets.offline)
    shown = viewer.state(ruleset, pos.state)
    warnings = ruleset.warnings(shown)  # advice from what this reader sees, never from a secret
    names = match_seat_names(match)  # every text read names the players (rulesets.names)
    return MatchState(
        version=pos.version,
        latest_version=head.version,
        state=name_all(shown, names),
        outcome=name_all(outcome.to_dict(), names) if outcome else None,
        turn_seats=list(turn.seats),
        phase=turn.phase,
        prompt=name_seats(turn.prompt, names),
        turn_line=turn_line(turn.seats, turn.prompt, names),
        override_pending=pos.override_pending,
        warnings=[name_seats(w, names) for w in warnings],
        rules_version=head.rules_version or ruleset.version,
        current_rules=ruleset.version,
    )


def match_legal_moves(*, match: Match, viewer: Viewer) -> list[Event] | None:
    """Every event the rules accept now as ``viewer`` may know them, or None where the game cannot list them."""
    head = store.head_load(match.stream_id, fresh=True)
    return viewer.moves(get_ruleset(match.game), head.state)  # [] after a result (rulesets.offline.legal_of)


def stream_times(*, stream_id: int, versions: list[int]) -> dict[int, Any]:
    """When the entries at ``versions`` were recorded (version → datetime)."""
    rows = EventRow.objects.filter(stream_id=stream_id, version__in=versions).values_list("version", "recorded_at")
    return dict(rows)


def match_seat_names(match: Match) -> list[str]:
    """Seat names in seat order (already read with the match by ``match_get_brief`` / ``match_get_with_head``)."""
    read = getattr(match, "seat_names_read", None)
    if read is not None:
        return list(read)
    return [s.player.name for s in match.seats.select_related("player").order_by("index")]


def players_known(*, owner: UserLike) -> QuerySet[Player]:
    """Names this user has already seated, for suggestions."""
    if not owner.is_authenticated:
        return Player.objects.none()
    return Player.objects.filter(owner=owner, merged_into__isnull=True).select_related("user").order_by("name")

"""Writing imported plays: each play one finished match, ended by ``result_recorded``, appended through the
store's own path. A play is written whole or not at all (its own savepoint inside the batch's transaction);
its key (``Match.source_uuid``, unique per owner) makes a re-run skip what is already in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from matches.errors import DomainError, InvalidInput
from matches.interop.records import PlayIn, PlaySkipped, SeatIn
from matches.interop.scores import score_number
from matches.models import Match, MatchSummary, Player, Seat, Stream
from matches.store import events as store
from matches.store.rows import rows_insert
from rulesets import Ruleset, all_rulesets, get_ruleset
from rulesets.replay import RESULT_RECORDED, final_outcome_of

MAX_SEATS = 12
SOURCE_NOTES = {"bgstats": "imported from BG Stats", "bgg": "imported from BoardGameGeek", "": ""}


def chronicle_game(name: str, bgg_id: int | None = None) -> str | None:
    """The slug of the Chronicle match game with this name (or BGG id), if any."""
    folded = name.casefold()
    for r in all_rulesets(kind="match"):
        if r.slug == "scoresheet":
            continue
        if folded in (r.name.casefold(), r.slug) or (bgg_id and getattr(r, "bgg_id", None) == bgg_id):
            return r.slug
    return None


@dataclass
class WriteCache:
    """What a run of writes looks up once: the owner's players by name, games by name, keys already in."""

    owner: AbstractBaseUser
    players: dict[str, Player] = field(default_factory=dict)
    games: dict[tuple[str, int | None], str | None] = field(default_factory=dict)
    known: set[str] | None = None

    def known_keys(self) -> set[str]:
        if self.known is None:
            from matches.interop.export import native_play_uuid

            rows = Match.objects.filter(owner=self.owner)
            self.known = set(rows.filter(source_uuid__isnull=False).values_list("source_uuid", flat=True))
            self.known |= {native_play_uuid(pk) for pk in rows.values_list("pk", flat=True)}
        return self.known

    def player(self, seat: SeatIn, play_key: str, index: int) -> Player | str:
        """The owner's player of this name; an anonymous seat gets a player of its own (never merged), named
        here and found or created with its play (:func:`plays_write`, all of a batch's in one statement)."""
        from matches.services import player_get_or_create

        if seat.anonymous:
            return " ".join(f"Anonymous · {play_key[:40]} · {index + 1}".split())
        folded = seat.name.casefold()
        cached = self.players.get(folded)
        if cached is None:
            cached = self.players[folded] = player_get_or_create(owner=self.owner, name=seat.name)
        return cached


def _ruleset_options(play: PlayIn, cache: WriteCache) -> tuple[Ruleset, dict[str, Any]]:
    from matches.services import options_clean

    game_key = (play.game_name.casefold(), play.bgg_id)
    if game_key not in cache.games:
        cache.games[game_key] = chronicle_game(play.game_name, play.bgg_id)
    slug = cache.games[game_key]
    n = len(play.seats)
    if slug is not None:
        ruleset = get_ruleset(slug)
        if n in ruleset.seats:
            try:
                return ruleset, options_clean(ruleset, {}, n)
            except InvalidInput:
                pass  # e.g. options the game needs: keep the play as a score sheet
    sheet = get_ruleset("scoresheet")
    options = {"title": play.game_name, "bgg_id": play.bgg_id, "highest_wins": play.highest_wins,
               "cooperative": play.cooperative}  # fmt: skip
    return sheet, options_clean(sheet, options, n)


@dataclass
class Prepared:
    """A play checked and ready to write: its stream (with the result entry) and its match row."""

    play: PlayIn
    stream: store.NewStream
    match: dict[str, Any]
    players: list[Player | str]  # a str: an anonymous seat's own player, by name, written with the play


def play_prepare(play: PlayIn, cache: WriteCache) -> Prepared | None:
    """Check one play and find (or create) its players; None when its key is already in. Raises
    :class:`PlaySkipped` with the reason. Writes only the players it names for the first time."""
    from matches.store.streams import event_clean

    if play.key in cache.known_keys():
        return None
    if not 1 <= len(play.seats) <= MAX_SEATS:
        raise PlaySkipped(f"Name 1 to {MAX_SEATS} players.")
    try:
        ruleset, options = _ruleset_options(play, cache)
        n = len(play.seats)
        winners = [i for i, s in enumerate(play.seats) if s.winner] if play.counts_wins() else []
        scores = {str(i): score_number(s.score) for i, s in enumerate(play.seats) if s.score is not None}
        data = {"winners": winners, "draw": False, "scores": scores or None, "note": SOURCE_NOTES[play.source]}
        try:
            event = event_clean(ruleset, n, RESULT_RECORDED, None, data)
        except DomainError as exc:
            if not scores:
                raise
            # a score never drops a play: the game refused the numbers, the seats keep them as typed
            play.warnings.append(f"The scores were refused ({exc.detail}): the play is kept without them.")
            event = event_clean(ruleset, n, RESULT_RECORDED, None, {**data, "scores": None})
    except DomainError as exc:
        raise PlaySkipped(str(exc.detail)) from None
    starts = [i for i, s in enumerate(play.seats) if s.start]
    meta = store.Metadata(recorded_by_id=cache.owner.pk, request_id="import")
    new = store.NewStream(Stream.KIND_MATCH, ruleset.slug, options, n, (event,), meta)
    match = {
        "game": ruleset.slug, "title": play.game_name[:120], "owner": cache.owner, "is_public": False,
        "status": Match.STATUS_FINISHED, "played_at": play.played_at, "duration_min": play.duration,
        "location": play.location[:120], "first_seat": starts[0] if starts else None, "source_uuid": play.key,
        "source": play.source, "ignored": play.ignored, "details": play.details(),
    }  # fmt: skip
    players = [cache.player(s, play.key, i) for i, s in enumerate(play.seats)]
    return Prepared(play, new, match, players)


_MATCH_COLUMNS = ("stream_id", "game", "title", "owner_id", "is_public", "status", "campaign_id", "played_at",
                  "duration_min", "location", "first_seat", "source_uuid", "source", "ignored", "details", "created_at",
                  "updated_at")  # fmt: skip


def plays_write(prepared: list[Prepared], cache: WriteCache) -> list[int]:
    """Write prepared plays together: their streams born with the result entry (``store``'s batched append),
    matches, seats and summaries, a fixed number of statements for the lot, in one transaction; returns the new
    matches' ids in the plays' order. Raises :class:`PlaySkipped` (a result that does not end its match),
    ``RuleBroken`` or ``IntegrityError`` (a key written meanwhile): nothing is written then."""
    if not prepared:
        return []
    with transaction.atomic():
        streams = store.streams_create_with_events([p.stream for p in prepared])
        for stream in streams:
            if final_outcome_of(get_ruleset(stream.game), stream.state) is None:
                raise PlaySkipped("The recorded result does not end the match.")
        now = timezone.now()
        rows = []
        for p, stream in zip(prepared, streams, strict=True):
            m = p.match
            rows.append((
                stream.pk, m["game"], m["title"], cache.owner.pk, m["is_public"], m["status"], None, m["played_at"],
                m["duration_min"], m["location"], m["first_seat"], m["source_uuid"], m["source"], m["ignored"],
                m["details"], now, now,
            ))  # fmt: skip
        ids = [pk for (pk,) in rows_insert(Match, _MATCH_COLUMNS, rows, returning=("id",))]
        anonymous = _players_named(cache.owner, {n for p in prepared for n in p.players if isinstance(n, str)}, now)
        rows_insert(
            Seat,
            ("match_id", "index", "player_id"),
            [
                (pk, i, anonymous[player] if isinstance(player, str) else player.pk)
                for pk, p in zip(ids, prepared, strict=True)
                for i, player in enumerate(p.players)
            ],
        )
        rows_insert(
            MatchSummary,
            ("match_id", "version", "status", "winners", "draw", "reason", "scores", "events_count", "voided_count",
             "last_activity"),
            [(pk, 0, Match.STATUS_IN_PROGRESS, [], False, "", None, 0, 0, now) for pk in ids],
        )  # fmt: skip
    cache.known_keys().update(p.play.key for p in prepared)
    return ids


def _players_named(owner: AbstractBaseUser, names: set[str], now: Any) -> dict[str, int]:
    """The owner's players with these names (as ``services.player_get_or_create`` finds them: case-insensitive,
    a merged one counting as the player it was merged into), the missing ones created, in two statements."""
    from matches.projections.merges import canonical_id, players_merged_into

    if not names:
        return {}
    lowered = {n.lower(): n for n in names}
    found: dict[str, int] = {}
    merged: dict[int, int] = {}
    rows = Player.objects.annotate(lowered=Lower("name")).filter(owner=owner, lowered__in=list(lowered))
    for pk, name, into in rows.values_list("pk", "lowered", "merged_into_id"):
        found[lowered[name]] = pk
        if into is not None:
            merged[pk] = into
    merged.update(players_merged_into(set(merged.values())))
    out = {name: canonical_id(pk, merged) for name, pk in found.items()}
    missing = [(owner.pk, n, None, None, now) for n in sorted(names) if n not in out]
    created = rows_insert(Player, ("owner_id", "name", "user_id", "merged_into_id", "created_at"), missing,
                          returning=("id", "name"))  # fmt: skip
    out.update({name: pk for pk, name in created})
    return out


def play_write(play: PlayIn, cache: WriteCache) -> Match | None:
    """Write one play as a finished match of ``cache.owner`` (whole, or nothing of it); None when its key is
    already in. Raises :class:`PlaySkipped` with the reason."""
    prepared = play_prepare(play, cache)
    if prepared is None:
        return None
    try:
        return Match.objects.get(pk=plays_write([prepared], cache)[0])
    except DomainError as exc:
        raise PlaySkipped(str(exc.detail)) from None
    except IntegrityError:
        if Match.objects.filter(owner=cache.owner, source_uuid=play.key).exists():
            cache.known_keys().add(play.key)
            return None  # written meanwhile by another run of the same job
        raise

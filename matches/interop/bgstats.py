"""Reading a BG Stats export (the app's JSON backup) as a stream: the whole file is never held as objects.

Two passes over the stored file: :func:`bgstats_scan` collects the small lists (games, players, locations,
the owner) and counts the plays; :func:`bgstats_plays` then yields one play at a time. A play that cannot be
imported comes out as a :class:`PlaySkipped` with its reason; only a file that is not a BG Stats export at
all raises :class:`FileRefused`. Unknown fields are ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import ijson

from matches.interop.records import FileRefused, PlayIn, PlaySkipped, SeatIn
from matches.interop.scores import score_read, score_text
from matches.interop.text import (
    UNSTORABLE,
    clean_text,
    flag,
    local_datetime,
    optional_rating,
    optional_text,
    optional_whole,
)

SOURCE = "bgstats"
CHUNK = 256 * 1024
_PLAY_KEY = b'"playerScores"'
MAX_SEATS = 12


@dataclass
class BgStatsIndex:
    """The file's games, players and locations by id, the owner's player id, and how many plays it has."""

    games: dict[Any, dict[str, Any]] = field(default_factory=dict)
    players: dict[Any, dict[str, Any]] = field(default_factory=dict)
    locations: dict[Any, dict[str, Any]] = field(default_factory=dict)
    me_ref: Any = None
    plays: int = 0
    has_games: bool = False

    @property
    def owner_name(self) -> str:
        player = self.players.get(self.me_ref) if self.me_ref is not None else None
        try:
            return clean_text(player.get("name"), limit=80, what="name") if player else ""
        except PlaySkipped:
            return ""

    def to_json(self) -> dict[str, Any]:
        """The index as JSON (kept on the job, so the run needs no second scan)."""
        import json
        from decimal import Decimal

        def plain(value: Any) -> Any:
            if isinstance(value, Decimal):
                return int(value) if value == value.to_integral_value() else float(value)
            raise TypeError(type(value).__name__)

        def storable(value: Any) -> Any:  # text the database cannot hold is marked, and refused where used
            if isinstance(value, str) and ("\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value)):
                return {UNSTORABLE: True}
            if isinstance(value, dict):
                return {storable(k) if isinstance(k, str) else k: storable(v) for k, v in value.items()}
            if isinstance(value, list):
                return [storable(v) for v in value]
            return value

        lists = {"games": list(self.games.values()), "players": list(self.players.values()),
                 "locations": list(self.locations.values())}  # fmt: skip
        doc = {**lists, "me_ref": self.me_ref, "plays": self.plays, "has_games": self.has_games}
        return storable(json.loads(json.dumps(doc, default=plain)))

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> BgStatsIndex:
        index = cls(me_ref=doc.get("me_ref"), plays=doc.get("plays", 0), has_games=doc.get("has_games", False))
        for name in ("games", "players", "locations"):
            getattr(index, name).update({_ref(item["id"]): item for item in doc.get(name, [])})
        return index


def _ref(value: Any) -> Any:
    """An id as a dict key (ids are numbers in the app's files; text ids are accepted too)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | str):
        return value
    try:
        return int(value) if value == int(value) else None
    except (TypeError, ValueError, OverflowError):
        return None


def bgstats_scan(fp: IO[bytes]) -> BgStatsIndex:
    """First pass: the lists plays refer to, and the number of plays (counted by their ``playerScores`` key: the
    job's progress total, made exact as the plays are read). Raises :class:`FileRefused` when the file is not
    JSON, or not an object with the ``games`` / ``plays`` lists of a BG Stats export."""
    index = BgStatsIndex()
    sinks: dict[str, list[Any]] = {name: ijson.sendable_list() for name in ("games", "players", "locations", "me")}
    coros = {
        "games": ijson.items_coro(sinks["games"], "games.item"),
        "players": ijson.items_coro(sinks["players"], "players.item"),
        "locations": ijson.items_coro(sinks["locations"], "locations.item"),
        "me": ijson.items_coro(sinks["me"], "userInfo.meRefId"),
    }
    tail = b""  # the plays are counted by their one ``playerScores`` key each (a progress total, not a parse)
    targets = {"games": index.games, "players": index.players, "locations": index.locations}
    first = True
    try:
        while True:
            chunk = fp.read(CHUNK)
            if first:
                if not chunk.lstrip()[:1] == b"{":
                    raise FileRefused("Not a BG Stats export: expected a JSON object (games, players, plays).")
                first = False
            window = tail + chunk
            index.plays += window.count(_PLAY_KEY) - tail.count(_PLAY_KEY)
            tail = window[-len(_PLAY_KEY) :]
            for name, coro in coros.items():
                if chunk:
                    coro.send(chunk)
                else:
                    coro.close()
                sink = sinks[name]
                if name == "me":
                    if sink:
                        index.me_ref = _ref(sink[-1])
                else:
                    for item in sink:
                        if isinstance(item, dict) and _ref(item.get("id")) is not None:
                            targets[name][_ref(item["id"])] = item
                    index.has_games = index.has_games or (name == "games" and bool(sink))
                del sink[:]
            if not chunk:
                break
    except ijson.JSONError as exc:
        raise FileRefused(f"Not a BG Stats export: the JSON is malformed ({exc}).") from None
    except UnicodeDecodeError:
        raise FileRefused("Not a BG Stats export: the file is not UTF-8 text.") from None
    if not index.has_games and not index.plays:
        raise FileRefused("Not a BG Stats export: it has no games and no plays (export it again from BG Stats).")
    return index


def bgstats_plays(fp: IO[bytes], index: BgStatsIndex) -> Iterator[tuple[int, PlayIn | PlaySkipped]]:
    """Second pass: each play in file order, as ``(i, PlayIn)`` or ``(i, PlaySkipped)``."""
    try:
        for i, raw in enumerate(ijson.items(fp, "plays.item")):
            try:
                yield i, bgstats_play(raw, index, i)
            except PlaySkipped as skipped:
                yield i, skipped
    except ijson.JSONError as exc:  # the file changed between the passes, or is cut short
        raise FileRefused(f"The file is malformed after play {index.plays}: {exc}") from None


def _game_name(game: dict[str, Any]) -> str:
    return clean_text(game.get("name") or game.get("bggName"), limit=120, what="The game's name")


def bgstats_play(raw: Any, index: BgStatsIndex, i: int) -> PlayIn:
    """One play of the file as a :class:`PlayIn`. Raises :class:`PlaySkipped` with the reason only for what a
    play cannot be without (its uuid, game, date and players); a score or an optional field that cannot be read
    is left out (a score keeps its text) and said in ``PlayIn.warnings``: it never drops the play."""
    if not isinstance(raw, dict):
        raise PlaySkipped("Not a play (expected an object).")
    uid = raw.get("uuid")
    if not isinstance(uid, str) or not 1 <= len(uid) <= 60 or not uid.isprintable():
        raise PlaySkipped("The play has no uuid (1 to 60 characters).")
    game = index.games.get(_ref(raw.get("gameRefId")))
    if game is None:
        raise PlaySkipped(f"gameRefId {raw.get('gameRefId')!r} names no game of the file.")
    name = _game_name(game)
    if not name:
        raise PlaySkipped("The play's game has no name.")
    played_at, local = local_datetime(raw.get("playDate"))
    rows = raw.get("playerScores")
    if not isinstance(rows, list) or not rows:
        raise PlaySkipped("The play has no players.")
    if len(rows) > MAX_SEATS:
        raise PlaySkipped(f"{len(rows)} players: Chronicle keeps at most {MAX_SEATS} per play.")
    warnings: list[str] = []
    seats = [_seat(row, index, j, warnings) for j, row in enumerate(rows)]
    seats.sort(key=lambda s: s.order)
    named = [s.name.casefold() for s in seats if not s.anonymous]
    if len(set(named)) != len(named):
        raise PlaySkipped("The same player is listed twice in this play.")
    location_ref = raw.get("locationRefId")
    place = index.locations.get(_ref(location_ref)) if location_ref is not None else None
    if location_ref is not None and place is None:
        warnings.append(f"locationRefId {location_ref!r} names no location: kept without a place.")
    expansions = []
    expansion_rows = raw.get("expansionPlays")
    for exp in expansion_rows if isinstance(expansion_rows, list) else []:
        ref = exp.get("gameRefId") if isinstance(exp, dict) else None
        exp_game = index.games.get(_ref(ref))
        if exp_game is not None:
            expansions.append(optional_text(exp_game.get("name") or exp_game.get("bggName"), warnings, limit=120,
                                            what="An expansion's name"))  # fmt: skip
    return PlayIn(
        key=uid,
        source=SOURCE,
        game_name=name,
        played_at=played_at,
        played_local=local,
        seats=seats,
        bgg_id=optional_whole(game.get("bggId"), warnings, what="bggId", hi=10**9) or None,
        bgg_name=optional_text(game.get("bggName"), warnings, limit=120, what="bggName"),
        cooperative=flag(game.get("cooperative")),
        highest_wins=flag(game.get("highestWins", True)),
        no_points=flag(game.get("noPoints")),
        duration=optional_whole(raw.get("durationMin"), warnings, what="durationMin") or None,
        location=optional_text(place.get("name"), warnings, limit=120, what="The location") if place else "",
        ignored=flag(raw.get("ignored")),
        expansions=[e for e in expansions if e],
        rounds=optional_whole(raw.get("rounds"), warnings, what="rounds") or None,
        comments=optional_text(raw.get("comments"), warnings, limit=2000, what="The comments", multiline=True),
        uses_teams=flag(raw.get("usesTeams")) or any(s.team for s in seats),
        board=optional_text(raw.get("board"), warnings, limit=120, what="The board"),
        rating=optional_rating(raw.get("rating"), warnings, what="The play's rating"),
        warnings=warnings,
    )


def _seat(row: Any, index: BgStatsIndex, j: int, warnings: list[str]) -> SeatIn:
    if not isinstance(row, dict):
        raise PlaySkipped(f"Player {j + 1} is not an object.")
    ref = _ref(row.get("playerRefId"))
    player = index.players.get(ref)
    if player is None:
        raise PlaySkipped(f"playerRefId {row.get('playerRefId')!r} names no player of the file.")
    anonymous = flag(player.get("isAnonymous"))
    name = clean_text(player.get("name"), limit=80, what=f"Player {ref}'s name") or ("Anonymous" if anonymous else "")
    if not name:
        raise PlaySkipped(f"Player {ref} has no name.")
    score, problem = score_read(row.get("score"), name)
    if problem:
        warnings.append(problem)
    order = row.get("seatOrder")
    return SeatIn(
        name=name,
        score=score,
        score_text=score_text(row.get("score")),
        winner=flag(row.get("winner")),
        start=flag(row.get("startPlayer")),
        order=order if isinstance(order, int) and not isinstance(order, bool) else j,
        team=optional_text(row.get("team"), warnings, limit=60, what=f"{name}'s team"),
        role=optional_text(row.get("role"), warnings, limit=120, what=f"{name}'s role"),
        rank=optional_whole(row.get("rank"), warnings, what=f"{name}'s rank", hi=10_000) or None,
        new=flag(row.get("newPlayer")),
        username=optional_text(player.get("bggUsername"), warnings, limit=60, what=f"{name}'s BGG username"),
        anonymous=anonymous,
        source_ref=str(ref),
        rating=optional_rating(row.get("rating"), warnings, what=f"{name}'s rating"),
    )

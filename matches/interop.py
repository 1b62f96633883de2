"""Plays moving between apps: BG Stats JSON export/import and a BoardGameGeek-style play log CSV.

A play is a finished match. Export covers every finished match the user owns; import turns each play into a
finished match (of the Chronicle game with that name, else a ``scoresheet`` match) that ends with
``result_recorded``, keyed by the play's uuid so importing the same file twice adds nothing.
"""

from __future__ import annotations

import csv
import io
import math
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from config.text import spreadsheet_safe
from matches.errors import DomainError, InvalidInput
from matches.models import Match, Seat
from rulesets import all_rulesets, get_ruleset
from rulesets.replay import RESULT_RECORDED, final_outcome_of

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
MAX_PLAYS = 5000
MAX_SEATS = 12
NATIVE_NAMESPACE = uuid.UUID("5b0f3f8e-6f7c-4d47-9d25-0c7e3c1f2a10")


def native_play_uuid(match_id: int) -> str:
    """The stable uuid a match recorded in Chronicle carries in exports."""
    return str(uuid.uuid5(NATIVE_NAMESPACE, f"match:{match_id}"))


def play_uuid(match: Match) -> str:
    return match.source_uuid or native_play_uuid(match.pk)


# -- export ------------------------------------------------------------------------------------------------


@dataclass
class _Play:
    match: Match
    game_key: tuple[str, str]
    seats: list[Seat]


def _finished_plays(owner: AbstractBaseUser) -> list[_Play]:
    matches = (
        Match.objects.filter(owner=owner, status=Match.STATUS_FINISHED)
        .select_related("stream")
        .prefetch_related("seats__player")
        .order_by("pk")
    )
    plays = []
    for m in matches:
        options = m.stream.options or {}
        title = options.get("title") if m.game == "scoresheet" else ""
        plays.append(_Play(m, (m.game, str(title or "")), sorted(m.seats.all(), key=lambda s: s.index)))
    return plays


def _game_entry(key: tuple[str, str], match: Match, ref: int) -> dict[str, Any]:
    slug, title = key
    options = match.stream.options or {}
    if slug == "scoresheet":
        return {
            "id": ref,
            "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"game:scoresheet:{title.casefold()}")),
            "name": title or "Unnamed game",
            "bggId": options.get("bgg_id") or 0,
            "cooperative": bool(options.get("cooperative")),
            "highestWins": bool(options.get("highest_wins", True)),
        }
    ruleset = get_ruleset(slug)
    return {
        "id": ref,
        "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"game:{slug}")),
        "name": ruleset.name,
        "bggId": getattr(ruleset, "bgg_id", 0) or 0,
        "cooperative": bool(getattr(ruleset, "cooperative", False)),
        "highestWins": True,
    }


def _score_text(value: Any) -> str | None:
    if value is None:
        return None
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def bgstats_export(*, owner: AbstractBaseUser) -> dict[str, Any]:
    """A BG Stats-compatible document of every finished match ``owner`` owns."""
    games: dict[tuple[str, str], dict[str, Any]] = {}
    players: dict[int, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    out_plays = []
    for play in _finished_plays(owner):
        m = play.match
        game = games.get(play.game_key)
        if game is None:
            game = games[play.game_key] = _game_entry(play.game_key, m, len(games) + 1)
        location_ref = None
        if m.location:
            loc = locations.setdefault(
                m.location.casefold(),
                {
                    "id": len(locations) + 1,
                    "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"location:{owner.pk}:{m.location.casefold()}")),
                    "name": m.location,
                },
            )
            location_ref = loc["id"]
        outcome = final_outcome_of(get_ruleset(m.game), m.stream.state)  # the head: no projector lag
        winners = set(outcome.winners) if outcome and not outcome.draw else set()
        scores = (outcome.scores or {}) if outcome else {}
        first = m.first_seat if m.first_seat is not None else (m.stream.options or {}).get("first_seat")
        rows = []
        for seat in play.seats:
            p = players.setdefault(
                seat.player_id,
                {
                    "id": len(players) + 1,
                    "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"player:{seat.player_id}")),
                    "name": seat.player.name,
                },
            )
            rows.append(
                {
                    "playerRefId": p["id"],
                    "score": _score_text(scores.get(seat.index)),
                    "winner": seat.index in winners,
                    "startPlayer": first == seat.index,
                    "seatOrder": seat.index,
                }
            )
        played_at = m.played_at or m.created_at
        out_plays.append(
            {
                "uuid": play_uuid(m),
                "gameRefId": game["id"],
                "playDate": timezone.localtime(played_at).strftime(DATE_FORMAT),
                "durationMin": m.duration_min or 0,
                "locationRefId": location_ref,
                "ignored": False,
                "comments": m.title,
                "playerScores": rows,
            }
        )
    return {
        "about": "Chronicle export in the BG Stats format",
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": list(locations.values()),
        "plays": out_plays,
    }


def bgg_csv(*, owner: AbstractBaseUser) -> str:
    """BoardGameGeek play-log fields as CSV, one row per finished match.

    ``players`` holds ``name/start position/score/new/win`` per player, separated by ``;`` (start position
    1 for the first player, else blank; new 1 on a player's first play of that game).
    """
    doc = bgstats_export(owner=owner)
    games = {g["id"]: g for g in doc["games"]}
    names = {p["id"]: p["name"] for p in doc["players"]}
    places = {loc["id"]: loc["name"] for loc in doc["locations"]}
    seen: set[tuple[int, int]] = set()
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["date", "game", "bgg_id", "length", "location", "players"])
    for play in sorted(doc["plays"], key=lambda p: p["playDate"]):
        game = games[play["gameRefId"]]
        people = []
        for row in play["playerScores"]:
            new = (row["playerRefId"], game["id"]) not in seen
            seen.add((row["playerRefId"], game["id"]))
            fields = [
                names[row["playerRefId"]].replace("/", "-").replace(";", ","),
                "1" if row["startPlayer"] else "",
                row["score"] or "",
                "1" if new else "0",
                "1" if row["winner"] else "0",
            ]
            people.append("/".join(fields))
        row = [
            play["playDate"][:10],
            game["name"],
            game["bggId"] or "",
            play["durationMin"] or "",
            places.get(play["locationRefId"], ""),
            ";".join(people),
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in row])
    return buf.getvalue()


# -- import ------------------------------------------------------------------------------------------------


class ImportRefused(InvalidInput):
    """The file does not have the BG Stats shape; ``path`` is the first bad place in it."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__({path: [message]})
        self.detail = f"The file is not a BG Stats export: {path}: {message} Nothing was imported."


@dataclass
class ImportReport:
    imported: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"imported": self.imported, "skipped": self.skipped, "errors": self.errors}


def _ref(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and 0 < len(value) < 64)


def _text(value: Any, path: str, *, limit: int = 120, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ImportRefused(path, "Must be a non-empty string.")
    if len(value) > limit:
        raise ImportRefused(path, f"At most {limit} characters.")
    if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise ImportRefused(path, "Contains a character that is not allowed.")
    return " ".join(value.split())


def _score(value: Any, path: str) -> float | int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ImportRefused(path, "Must be a number.")
    if isinstance(value, str):
        try:
            value = float(value.strip().replace(",", "."))
        except ValueError:
            raise ImportRefused(path, "Must be a number.") from None
    if not isinstance(value, int | float) or not math.isfinite(value) or abs(value) > 1e9:
        raise ImportRefused(path, "Must be a number.")
    return int(value) if float(value).is_integer() else value


def _index(items: Any, path: str, name_limit: int = 120) -> dict[Any, dict[str, Any]]:
    if items is None:
        return {}
    if not isinstance(items, list):
        raise ImportRefused(path, "Must be a list.")
    out: dict[Any, dict[str, Any]] = {}
    for i, item in enumerate(items):
        here = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise ImportRefused(here, "Must be an object.")
        if not _ref(item.get("id")):
            raise ImportRefused(f"{here}.id", "Must be a number or a short string.")
        out[item["id"]] = {**item, "name": _text(item.get("name"), f"{here}.name", limit=name_limit)}
    return out


@dataclass
class PlayRow:
    player: str
    score: float | int | None
    winner: bool
    start: bool
    order: int


@dataclass
class _ParsedPlay:
    uuid: str
    game: dict[str, Any]
    played_at: datetime
    duration: int | None
    location: str
    rows: list[PlayRow]


def _parse(doc: Any) -> list[_ParsedPlay]:
    """Check the whole document before anything is written; raises :class:`ImportRefused`."""
    if not isinstance(doc, dict):
        raise ImportRefused("body", "Send the BG Stats export: a JSON object with games, players and plays.")
    games = _index(doc.get("games"), "games")
    players = _index(doc.get("players"), "players", name_limit=80)
    places = _index(doc.get("locations"), "locations")
    plays = doc.get("plays")
    if not isinstance(plays, list):
        raise ImportRefused("plays", "Must be a list.")
    if len(plays) > MAX_PLAYS:
        raise ImportRefused("plays", f"At most {MAX_PLAYS} plays per file.")
    parsed = []
    for i, play in enumerate(plays):
        here = f"plays[{i}]"
        if not isinstance(play, dict):
            raise ImportRefused(here, "Must be an object.")
        uid = play.get("uuid")
        if not isinstance(uid, str) or not 1 <= len(uid) <= 64 or not uid.isprintable():
            raise ImportRefused(f"{here}.uuid", "Must be the play's uuid (1 to 64 characters).")
        if play.get("gameRefId") not in games:
            raise ImportRefused(f"{here}.gameRefId", "Names no game of the file's games.")
        try:
            played = datetime.strptime(str(play.get("playDate")), DATE_FORMAT)
        except ValueError:
            raise ImportRefused(f"{here}.playDate", 'Must be a date like "2026-11-30 20:15:00".') from None
        duration = play.get("durationMin")
        if duration is not None and (
            not isinstance(duration, int) or isinstance(duration, bool) or not 0 <= duration <= 100_000
        ):
            raise ImportRefused(f"{here}.durationMin", "Must be a whole number of minutes.")
        loc = play.get("locationRefId")
        if loc is not None and loc not in places:
            raise ImportRefused(f"{here}.locationRefId", "Names no location of the file's locations.")
        scores = play.get("playerScores")
        if not isinstance(scores, list) or not scores:
            raise ImportRefused(f"{here}.playerScores", "Must be a non-empty list.")
        rows = []
        for j, row in enumerate(scores):
            at = f"{here}.playerScores[{j}]"
            if not isinstance(row, dict):
                raise ImportRefused(at, "Must be an object.")
            if row.get("playerRefId") not in players:
                raise ImportRefused(f"{at}.playerRefId", "Names no player of the file's players.")
            for flag in ("winner", "startPlayer"):
                if row.get(flag) is not None and not isinstance(row.get(flag), bool):
                    raise ImportRefused(f"{at}.{flag}", "Must be true or false.")
            order = row.get("seatOrder", j)
            if not isinstance(order, int) or isinstance(order, bool):
                raise ImportRefused(f"{at}.seatOrder", "Must be a whole number.")
            rows.append(
                PlayRow(
                    player=players[row["playerRefId"]]["name"],
                    score=_score(row.get("score"), f"{at}.score"),
                    winner=bool(row.get("winner")),
                    start=bool(row.get("startPlayer")),
                    order=order,
                )
            )
        rows.sort(key=lambda r: r.order)
        parsed.append(
            _ParsedPlay(
                uuid=uid,
                game=games[play["gameRefId"]],
                played_at=timezone.make_aware(played) if timezone.is_naive(played) else played,
                duration=duration or None,
                location=places[loc]["name"] if loc is not None else "",
                rows=rows,
            )
        )
    return parsed


def _chronicle_game(game: dict[str, Any]) -> str | None:
    """The slug of the Chronicle match game with this name or BGG id, if any."""
    name = str(game.get("name", "")).casefold()
    bgg = game.get("bggId")
    for r in all_rulesets(kind="match"):
        if r.slug == "scoresheet":
            continue
        if name in (r.name.casefold(), r.slug) or (bgg and getattr(r, "bgg_id", None) == bgg):
            return r.slug
    return None


def _import_one(owner: AbstractBaseUser, play: _ParsedPlay) -> None:
    starts = [i for i, r in enumerate(play.rows) if r.start]
    played = {
        "played_at": play.played_at,
        "duration_min": play.duration,
        "location": play.location[:120],
        "first_seat": starts[0] if starts else None,
        "source_uuid": play.uuid,
    }
    bgg = play.game.get("bggId")
    finished_match_log(
        owner=owner,
        game_name=play.game["name"],
        rows=play.rows,
        played=played,
        bgg_id=bgg if isinstance(bgg, int) and not isinstance(bgg, bool) and bgg > 0 else None,
        highest_wins=bool(play.game.get("highestWins", True)),
        cooperative=bool(play.game.get("cooperative", False)),
        note="imported from BG Stats",
    )


@transaction.atomic
def finished_match_log(
    *, owner: AbstractBaseUser, game_name: str, rows: list[PlayRow], played: dict[str, Any], is_public: bool = False,
    bgg_id: int | None = None, highest_wins: bool = True, cooperative: bool = False, note: str = "",
) -> Match:  # fmt: skip
    """Record a game played without move entry: a finished match of the Chronicle game with this name (when its
    rules take that many players), else a score sheet, ending with ``result_recorded`` (winners and scores as
    told). ``rows`` are in seat order. Raises :class:`InvalidInput`; nothing is written then."""
    from matches.services import match_create, match_event_record

    if not 1 <= len(rows) <= MAX_SEATS:
        raise InvalidInput({"players": [f"Name 1 to {MAX_SEATS} players."]})
    seats = [{"name": r.player} for r in rows]
    title = " ".join(game_name.split())[:120]
    if not title:
        raise InvalidInput({"game": ["Name the game."]})
    slug = _chronicle_game({"name": title, "bggId": bgg_id})
    match = None
    if slug is not None:
        try:
            with transaction.atomic():
                match = match_create(
                    owner=owner, game=slug, seats=seats, title=title, is_public=is_public, played=played
                )
        except InvalidInput:
            match = None  # e.g. a player count the rules do not allow: keep it as a score sheet
    if match is None:
        options = {"title": title, "bgg_id": bgg_id, "highest_wins": highest_wins, "cooperative": cooperative}
        match = match_create(
            owner=owner,
            game="scoresheet",
            seats=seats,
            options=options,
            title=title,
            is_public=is_public,
            played=played,
        )
    scores = {str(i): r.score for i, r in enumerate(rows) if r.score is not None}
    winners = [i for i, r in enumerate(rows) if r.winner]
    match_event_record(
        match=match,
        user=owner,
        type=RESULT_RECORDED,
        data={"winners": winners, "draw": False, "scores": scores or None, "note": note},
    )
    return match


def bgstats_import(*, owner: AbstractBaseUser, doc: Any) -> ImportReport:
    """Import every play of a BG Stats document as a finished match of ``owner``.

    The whole file is checked first (:class:`ImportRefused`, nothing written); then each play is imported
    on its own (a play Chronicle cannot take is listed in ``errors``). Plays already imported (by uuid),
    and Chronicle's own exported matches, are skipped.
    """
    plays = _parse(doc)
    report = ImportReport()
    known = set(Match.objects.filter(owner=owner, source_uuid__isnull=False).values_list("source_uuid", flat=True))
    known |= {native_play_uuid(pk) for pk in Match.objects.filter(owner=owner).values_list("pk", flat=True)}
    with transaction.atomic():
        for i, play in enumerate(plays):
            if play.uuid in known:
                report.skipped += 1
                continue
            try:
                with transaction.atomic():
                    _import_one(owner, play)
            except DomainError as exc:
                report.errors.append(f"plays[{i}] ({play.game['name']}, {play.uuid}): {exc.detail}")
                continue
            known.add(play.uuid)
            report.imported += 1
    return report

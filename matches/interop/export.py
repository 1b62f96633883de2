"""Chronicle's plays out: a BG Stats-compatible JSON document, and BGG's ``plays`` XML.

A play is a finished match the user owns. Imported plays give back what their source told (the local play
date, each score as typed, teams, roles, ranks, expansions, rounds, comments, ignored) so that a file
exported here re-imports into another account with equal plays and equal stats.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from matches.errors import StreamUnreplayable
from matches.interop.bgg import bgg_xml_lines
from matches.interop.scores import score_text
from matches.models import Match, Player
from matches.store import events as store
from rulesets import get_ruleset
from rulesets.replay import final_outcome_of

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
NATIVE_NAMESPACE = uuid.UUID("5b0f3f8e-6f7c-4d47-9d25-0c7e3c1f2a10")
CHUNK = 500


def native_play_uuid(match_id: int) -> str:
    """The stable uuid a match recorded in Chronicle carries in exports."""
    return str(uuid.uuid5(NATIVE_NAMESPACE, f"match:{match_id}"))


def play_uuid(match: Match) -> str:
    return match.source_uuid or native_play_uuid(match.pk)


def _plays(owner: AbstractBaseUser) -> Iterator[Match]:
    """Every finished match of ``owner``, by play date, read in chunks."""
    qs = (
        Match.objects.filter(owner=owner, status=Match.STATUS_FINISHED)
        .select_related("stream")
        .prefetch_related("seats__player")
        .order_by("played_at", "pk")
    )
    yield from qs.iterator(chunk_size=CHUNK)


def _local(match: Match) -> str:
    """The play's date and time on the table's clock, as the file wrote it (else the server's local time)."""
    text = str((match.details or {}).get("played_local") or "")
    if len(text) == 19:
        return text
    if len(text) == 10:
        return text + " 00:00:00"
    return timezone.localtime(match.played_at or match.created_at).strftime(DATE_FORMAT)


def _result(match: Match) -> tuple[set[int], dict[int, Any]] | None:
    """Winners and scores of ``match``; None when its stream cannot be replayed (the export goes on without it)."""
    # the head (no projector lag), rebuilt when an older ruleset produced it: under the rules the match is judged
    # under (docs/ARCHITECTURE.md › Rule versions)
    try:
        head = store.head_from_row(match.stream)
    except StreamUnreplayable:
        return None
    outcome = final_outcome_of(get_ruleset(match.game), head.state)
    winners = set(outcome.winners) if outcome and not outcome.draw else set()
    return winners, (outcome.scores or {}) if outcome else {}


def _game(match: Match) -> dict[str, Any]:
    details = match.details or {}
    options = match.stream.options or {}
    if match.game == "scoresheet":
        name = str(options.get("title") or match.title or "Unnamed game")
        return {
            "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"game:scoresheet:{name.casefold()}")),
            "name": name, "bggName": details.get("bgg_name") or "", "bggId": options.get("bgg_id") or 0,
            "cooperative": bool(options.get("cooperative")), "highestWins": bool(options.get("highest_wins", True)),
            "noPoints": bool(details.get("no_points")),
        }  # fmt: skip
    ruleset = get_ruleset(match.game)
    return {
        "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"game:{match.game}")), "name": ruleset.name,
        "bggName": details.get("bgg_name") or "", "bggId": getattr(ruleset, "bgg_id", 0) or details.get("bgg_id") or 0,
        "cooperative": bool(getattr(ruleset, "cooperative", False)), "highestWins": True, "noPoints": False,
    }  # fmt: skip


def bgstats_export(*, owner: AbstractBaseUser) -> dict[str, Any]:
    """A BG Stats-compatible document of every finished match ``owner`` owns."""
    games: dict[str, dict[str, Any]] = {}
    players: dict[int, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    out = []
    me = Player.objects.filter(owner=owner, user=owner, merged_into__isnull=True).values_list("pk", flat=True)
    me_id = next(iter(me), None)
    for m in _plays(owner):
        details = m.details or {}
        entry = _game(m)
        game = games.setdefault(entry["uuid"], {"id": len(games) + 1, **entry})
        expansion_refs = []
        for name in details.get("expansions") or []:
            key = str(uuid.uuid5(NATIVE_NAMESPACE, f"game:expansion:{name.casefold()}"))
            exp = games.setdefault(key, {"id": len(games) + 1, "uuid": key, "name": name, "isExpansion": True})
            expansion_refs.append({"gameRefId": exp["id"]})
        location_ref = None
        if m.location:
            loc = locations.setdefault(m.location.casefold(), {
                "id": len(locations) + 1,
                "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"location:{owner.pk}:{m.location.casefold()}")),
                "name": m.location,
            })  # fmt: skip
            location_ref = loc["id"]
        result = _result(m)
        if result is None:
            continue
        winners, scores = result
        first = m.first_seat if m.first_seat is not None else (m.stream.options or {}).get("first_seat")
        seat_details = details.get("seats") or []
        rows = []
        for seat in sorted(m.seats.all(), key=lambda s: s.index):
            more = seat_details[seat.index] if seat.index < len(seat_details) else {}
            p = players.get(seat.player_id)
            if p is None:
                p = players[seat.player_id] = {
                    "id": len(players) + 1, "uuid": str(uuid.uuid5(NATIVE_NAMESPACE, f"player:{seat.player_id}")),
                    "name": "Anonymous" if more.get("anonymous") else seat.player.name,
                    "isAnonymous": bool(more.get("anonymous")), "bggUsername": more.get("username") or "",
                }  # fmt: skip
            elif more.get("username") and not p["bggUsername"]:
                p["bggUsername"] = more["username"]
            row = {
                "playerRefId": p["id"],
                "score": more.get("score_text") or score_text(scores.get(seat.index)) or None,
                "winner": seat.index in winners,
                "startPlayer": first == seat.index,
                "seatOrder": seat.index,
                "newPlayer": bool(more.get("new")),
            }
            for key, name in (("team", "team"), ("role", "role"), ("rank", "rank"), ("rating", "rating")):
                if more.get(key) not in (None, ""):
                    row[name] = more[key]
            rows.append(row)
        play = {
            "uuid": play_uuid(m), "gameRefId": game["id"], "playDate": _local(m), "durationMin": m.duration_min or 0,
            "locationRefId": location_ref, "ignored": m.ignored, "comments": details.get("comments") or "",
            "rounds": details.get("rounds") or 0, "board": details.get("board") or "",
            "usesTeams": bool(details.get("uses_teams")), "expansionPlays": expansion_refs, "playerScores": rows,
        }  # fmt: skip
        if details.get("rating"):
            play["rating"] = details["rating"]
        out.append(play)
    me_ref = players[me_id]["id"] if me_id in players else None
    return {
        "about": "Chronicle export in the BG Stats format",
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": list(locations.values()),
        "plays": out,
        "userInfo": {"meRefId": me_ref} if me_ref else {},
    }


def bgg_xml_export(*, owner: AbstractBaseUser) -> Iterator[str]:
    """Every finished match of ``owner`` as one page of BGG's ``plays`` XML (``username`` the account's)."""
    first_play: set[tuple[int, str]] = set()
    plays = []
    for m in _plays(owner):
        details = m.details or {}
        result = _result(m)
        if result is None:
            continue
        winners, scores = result
        seat_details = details.get("seats") or []
        game = _game(m)
        rows = []
        for seat in sorted(m.seats.all(), key=lambda s: s.index):
            more = seat_details[seat.index] if seat.index < len(seat_details) else {}
            if "new" in more:
                new = bool(more["new"])
            else:
                new = (seat.player_id, game["uuid"]) not in first_play
            first_play.add((seat.player_id, game["uuid"]))
            position = more.get("position") or ("1" if m.first_seat == seat.index else "")
            rows.append({
                "username": more.get("username") or "", "userid": "",
                "name": "Anonymous player" if more.get("anonymous") else seat.player.name,
                "startposition": position, "color": more.get("color") or "",
                "score": more.get("score_text") or score_text(scores.get(seat.index)), "new": int(new),
                "rating": more.get("rating") or 0,
                "win": int(seat.index in winners),
            })  # fmt: skip
        bgg_key = m.source_uuid or ""
        plays.append({
            "id": bgg_key.split(":")[1] if m.source == "bgg" and bgg_key.count(":") == 2 else m.pk,
            "chronicle": play_uuid(m), "date": _local(m)[:10], "length": m.duration_min,
            "location": m.location, "incomplete": bool(details.get("incomplete")),
            "nowinstats": bool(details.get("nowinstats")) or m.ignored, "game": game["name"],
            "objectid": game["bggId"], "comments": details.get("comments") or "", "players": rows,
        })  # fmt: skip
    yield from bgg_xml_lines(owner.get_username(), plays)

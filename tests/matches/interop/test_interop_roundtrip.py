"""Round trip: Chronicle's BG Stats export of an imported file re-imports into a fresh account with equal plays
(every field) and equal stats."""

from __future__ import annotations

import json

import pytest

from matches.models import Match
from tests.matches.interop.builders import project, quirky_bgstats

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def plays_of(owner):
    """Every imported play of ``owner`` with every field the import keeps, comparable across accounts."""
    out = {}
    for m in Match.objects.filter(owner=owner).select_related("stream").prefetch_related("seats__player"):
        seats = [s.player.name if not s.player.name.startswith("Anonymous") else "anon" for s in m.seats.all()]
        details = dict(m.details)
        for seat in details.get("seats", []):
            seat.pop("ref", None)  # the file's own player ids differ between files
        out[m.source_uuid] = (
            m.game, m.title, m.ignored, m.location, m.duration_min, m.first_seat, m.played_at, seats, details,
            m.stream.state.get("recorded_result"), {k: v for k, v in m.stream.options.items()},
        )  # fmt: skip
    return out


def stats_of(client):
    return sorted((r["player"], r["played"], r["won"]) for r in client.get("/api/stats/players/").json()
                  if not r["player"].startswith("Anonymous"))  # fmt: skip


def test_export_reimports_with_equal_plays_and_stats(api, owner, client_for, make_user):
    api.post("/api/import/bgstats/", quirky_bgstats().bytes(), content_type="application/json")
    exported = api.get("/api/export/bgstats/").json()
    assert exported["userInfo"] == {}  # nobody is "me" yet
    friend = make_user("friend")
    other = client_for(friend)
    r = other.post("/api/import/bgstats/", json.dumps(exported).encode(), content_type="application/json")
    assert r.status_code == 201 and r.json()["imported"] == 8 and r.json()["errors"] == []
    project()
    mine, theirs = plays_of(owner), plays_of(friend)
    assert mine.keys() == theirs.keys()
    for key in mine:
        assert mine[key] == theirs[key], key
    assert stats_of(api) == stats_of(other)
    again = other.get("/api/export/bgstats/").json()
    assert resolved(again) == resolved(exported)  # and the second export says the same as the first


def resolved(doc):
    """The plays of a BG Stats document with every reference replaced by what it names."""
    games = {g["id"]: g for g in doc["games"]}
    players = {p["id"]: p for p in doc["players"]}
    places = {p["id"]: p["name"] for p in doc["locations"]}
    out = []
    for play in doc["plays"]:
        play = dict(play)
        game = games[play.pop("gameRefId")]
        play["game"] = {k: v for k, v in game.items() if k != "id"}
        play["location"] = places.get(play.pop("locationRefId"))
        play["expansions"] = [games[e["gameRefId"]]["name"] for e in play.pop("expansionPlays")]
        rows = []
        for row in play.pop("playerScores"):
            row = dict(row)
            who = players[row.pop("playerRefId")]
            row["player"] = {k: v for k, v in who.items() if k not in ("id", "uuid")}
            rows.append(row)
        play["rows"] = rows
        out.append(json.dumps(play, sort_keys=True))
    return sorted(out)

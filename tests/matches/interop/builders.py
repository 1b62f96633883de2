"""Play-log files built in code for the import tests: BG Stats exports and BGG XML pages with every quirk,
and the counts each source's own rules give for them (what BG Stats / BGG would show)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any
from xml.sax.saxutils import escape, quoteattr


class BgStatsFile:
    """A BG Stats export under construction: ``game``/``player``/``location`` return ids for ``play``."""

    def __init__(self) -> None:
        self.doc: dict[str, Any] = {"games": [], "players": [], "locations": [], "plays": [], "userInfo": {}}

    def game(self, name: str, **fields: Any) -> int:
        gid = len(self.doc["games"]) + 1
        self.doc["games"].append({"id": gid, "uuid": f"g-{gid}", "name": name, "bggId": 0, **fields})
        return gid

    def player(self, name: str, **fields: Any) -> int:
        pid = 100 + len(self.doc["players"])
        self.doc["players"].append({"id": pid, "uuid": f"pl-{pid}", "name": name, **fields})
        return pid

    def location(self, name: str) -> int:
        lid = 500 + len(self.doc["locations"])
        self.doc["locations"].append({"id": lid, "uuid": f"loc-{lid}", "name": name})
        return lid

    def me(self, pid: int) -> None:
        self.doc["userInfo"] = {"meRefId": pid, "bggUsername": "someone"}

    def play(self, game: int, rows: list[dict[str, Any]], *, date: str = "2021-03-12 19:30:00", **fields: Any) -> str:
        uid = f"play-{len(self.doc['plays']) + 1:06d}"
        self.doc["plays"].append({"uuid": uid, "gameRefId": game, "playDate": date, "playerScores": rows, **fields})
        return uid

    def bytes(self) -> bytes:
        return json.dumps(self.doc).encode()


def bgstats_counts(doc: dict[str, Any]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """BG Stats' own numbers for a file: plays and wins per player name (anonymous players left out), plays
    per game name, all without the ignored plays."""
    players = {p["id"]: p for p in doc["players"]}
    games = {g["id"]: g["name"] for g in doc["games"]}
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    per_game: Counter[str] = Counter()
    for play in doc["plays"]:
        if play.get("ignored"):
            continue
        per_game[games[play["gameRefId"]]] += 1
        for row in play["playerScores"]:
            p = players[row["playerRefId"]]
            if p.get("isAnonymous"):
                continue
            played[p["name"]] += 1
            won[p["name"]] += bool(row.get("winner"))
    return played, won, per_game


def quirky_bgstats() -> BgStatsFile:
    """A file with every quirk: sum scores, decimals, empty/null scores, teams, co-op, rank, roles, new and
    start players, anonymous players, ignored plays, expansions, a missing location, rounds, comments."""
    f = BgStatsFile()
    azul = f.game("Azul", bggId=230802, bggName="Azul", highestWins=True)
    pandemic = f.game("Pandemic", bggId=30549, cooperative=True)
    codenames = f.game("Codenames", bggId=178900, usesTeams=True)
    golf = f.game("Golf", highestWins=False)
    salty = f.game("Get Salty")
    exp = f.game("Azul: Crystal Mosaic", isExpansion=True)
    ana = f.player("Ana", bggUsername="ana_bgg")
    bo = f.player("Bo")
    cy = f.player("Cy")
    di = f.player("Di")
    anon = f.player("Anonymous player", isAnonymous=True)
    f.me(ana)
    kitchen = f.location("the Kitchen")
    f.play(azul, [
        {"playerRefId": ana, "score": "87+77", "winner": True, "startPlayer": True, "seatOrder": 0, "newPlayer": False},
        {"playerRefId": bo, "score": "15+16+8-30", "winner": False, "seatOrder": 1, "newPlayer": True},
        {"playerRefId": cy, "score": "12.5", "winner": False, "seatOrder": 2},
    ], locationRefId=kitchen, durationMin=70, expansionPlays=[{"gameRefId": exp}], rounds=5,
        comments="Great game\nrematch soon", unknownField={"x": 1}, date="2021-03-12 19:30:00")  # fmt: skip
    f.play(pandemic, [  # co-op win: everyone wins
        {"playerRefId": ana, "score": None, "winner": True},
        {"playerRefId": bo, "score": "", "winner": True, "role": "Medic"},
        {"playerRefId": anon, "winner": True},
    ], date="2021-03-13 20:00:00")  # fmt: skip
    f.play(pandemic, [  # co-op loss: everyone loses; two anonymous seats in one play
        {"playerRefId": ana, "winner": False},
        {"playerRefId": anon, "winner": False},
        {"playerRefId": anon, "winner": False},
    ], date="2021-03-14 20:00:00")  # fmt: skip
    f.play(codenames, [  # teams
        {"playerRefId": ana, "team": "Red", "winner": True},
        {"playerRefId": bo, "team": "Red", "winner": True},
        {"playerRefId": cy, "team": "Blue", "winner": False},
        {"playerRefId": di, "team": "Blue", "winner": False},
    ], usesTeams=True, locationRefId=9999, date="2021-04-01 21:00:00")  # fmt: skip
    f.play(golf, [  # ranked, lowest wins
        {"playerRefId": cy, "score": 31, "rank": 2, "winner": False},
        {"playerRefId": di, "score": 28, "rank": 1, "winner": True},
    ], date="2021-04-02 10:00:00")  # fmt: skip
    f.play(azul, [  # ignored for stats
        {"playerRefId": bo, "score": 60, "winner": True},
        {"playerRefId": di, "score": 40, "winner": False},
    ], ignored=True, date="2021-04-03 10:00:00")  # fmt: skip
    f.play(salty, [
        {"playerRefId": cy, "winner": True, "startPlayer": True},
        {"playerRefId": di, "winner": False},
    ], durationMin=20, date="2021-04-04 18:30:00")  # fmt: skip
    f.play(azul, [{"playerRefId": ana, "score": "lots", "winner": True}], date="2021-04-05 10:00:00")  # kept, warned
    return f


# -- BGG ------------------------------------------------------------------------------------------------------


def bgg_play(pid: int, game: str, objectid: int, players: list[dict[str, Any]] | None, *, date: str = "2021-03-12",
             quantity: int = 1, **attrs: Any) -> str:  # fmt: skip
    head = {"id": pid, "date": date, "quantity": quantity, "length": 0, "incomplete": 0, "nowinstats": 0,
            "location": "", **attrs}  # fmt: skip
    out = "<play" + "".join(f" {k}={quoteattr(str(v))}" for k, v in head.items()) + ">"
    out += f'<item name={quoteattr(game)} objecttype="thing" objectid="{objectid}"><subtypes><subtype value="boardgame"/></subtypes></item>'
    comments = attrs.get("_comments")
    if comments:
        out += f"<comments>{escape(comments)}</comments>"
    if players is not None:
        out += "<players>"
        for p in players:
            defaults = {"username": "", "userid": 0, "name": "", "startposition": "", "color": "", "score": "",
                        "new": 0, "rating": 0, "win": 0}  # fmt: skip
            out += "<player" + "".join(f" {k}={quoteattr(str(v))}" for k, v in {**defaults, **p}.items()) + "/>"
        out += "</players>"
    return out + "</play>"


def bgg_page(username: str, plays: list[str], page: int = 1, total: int | None = None) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<plays username="{username}" userid="42" total="{total or len(plays)}" page="{page}" '
        'termsofuse="https://boardgamegeek.com/xmlapi/termsofuse">\n' + "\n".join(plays) + "\n</plays>\n"
    )


def bgg_counts(data: bytes) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """BoardGameGeek's own numbers for saved ``plays`` pages: a play counts ``quantity`` times, for its game and
    for each player in it (a play with no players is the log owner's own: the player with the owner's
    username); a win counts unless the play is ``incomplete`` or ``nowinstats``."""
    import xml.etree.ElementTree as ET

    pages = [ET.fromstring(page.split("?>", 1)[1]) for page in data.decode().split("<?xml")[1:]]
    names = {p.get("username"): p.get("name") for page in pages for p in page.iter("player") if p.get("username")}
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    per_game: Counter[str] = Counter()
    for page in pages:
        owner = names.get(page.get("username"), page.get("username"))
        for play in page.iter("play"):
            n = int(play.get("quantity") or 1)
            wins_count = play.get("incomplete") != "1" and play.get("nowinstats") != "1"
            per_game[play.find("item").get("name")] += n
            found = play.find("players")
            seats = [(p.get("name"), p.get("win") == "1") for p in found.iter("player")] if found is not None else []
            for name, win in seats or [(owner, False)]:
                played[name] += n
                won[name] += n * (win and wins_count)
    return played, won, per_game


def quirky_bgg() -> bytes:
    """Two pages saved one after another: quantity, incomplete, nowinstats, no players, scores, colours."""
    page1 = bgg_page("ana_bgg", [
        bgg_play(1001, "Azul", 230802, [
            {"username": "ana_bgg", "name": "Ana", "startposition": "1", "color": "blue", "score": "72", "win": 1},
            {"name": "Bo", "startposition": "2", "color": "red", "score": "61", "new": 1},
        ], location="the Kitchen", length=45, _comments="first game"),
        bgg_play(1002, "Azul", 230802, [
            {"name": "Ana", "score": "70", "win": 1}, {"name": "Bo", "score": "50"},
        ], quantity=3, date="2021-03-13"),
        bgg_play(1003, "Azul", 230802, [
            {"name": "Ana", "score": "10", "win": 1}, {"name": "Bo", "score": "5"},
        ], incomplete=1, date="2021-03-14"),
    ], page=1, total=6)  # fmt: skip
    page2 = bgg_page("ana_bgg", [
        bgg_play(1004, "Get Salty", 0, [{"name": "Ana", "win": 1}, {"name": "Bo"}], nowinstats=1, date="2021-03-15"),
        bgg_play(1005, "Wingspan", 266192, None, date="2021-03-16", length=60),
        bgg_play(1006, "Wingspan", 266192, [{"name": "Ana", "score": "88", "win": 1}, {"name": "Cy", "score": "9x"}],
                 date="2021-03-17"),
    ], page=2, total=6)  # fmt: skip
    return (page1 + page2).encode()


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<plays username="x"><play id="1" date="2021-01-01"><item name="&lol4;" objectid="1"/></play></plays>
"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<plays username="x"><play id="1" date="2021-01-01"><item name="&xxe;" objectid="1"/></play></plays>
"""


def project() -> None:
    """Run the projectors inside the test's own transaction. On PostgreSQL the log reader only reads events of
    transactions older than every one in flight; a test's own transaction is the newest until some later one
    ends, so one is ended first (a rolled-back savepoint that wrote: its sub-transaction id completes)."""
    from django.db import connection, transaction

    from matches.projections.tasks import project_all

    if connection.vendor == "postgresql":
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("CREATE TEMP TABLE chronicle_test_tick (i int)")
                raise _Rollback
        except _Rollback:
            pass
    project_all()


class _Rollback(Exception):
    pass

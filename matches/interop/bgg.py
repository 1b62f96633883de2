"""BoardGameGeek play logs: the XML that BGG's XML API2 serves for ``plays?username=NAME`` (100 plays a page),
read as a stream and safely, and the same shape written back out.

A file may hold several pages saved one after another (each its own ``<?xml?>`` and ``<plays>``): the reader
joins them. XML is parsed by defusedxml with DTDs, entities and external references forbidden; a DTD is
refused before the parser sees it. ``quantity`` N is N plays keyed ``bgg:<play id>:<k>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from matches.interop.records import FileRefused, PlayIn, PlaySkipped, SeatIn
from matches.interop.scores import score_read, score_text
from matches.interop.text import clean_text, flag, local_datetime, optional_rating, optional_text, optional_whole, whole

SOURCE = "bgg"
CHUNK = 256 * 1024
MAX_QUANTITY = 1000
MAX_SEATS = 12
_DECLARATION = re.compile(rb"<\?xml[^>]*\?>")
_FORBIDDEN = (b"<!DOCTYPE", b"<!ENTITY", b"<!doctype", b"<!entity")
_ROOT = b"chronicle-pages"


class _Pages:
    """A file-like view of the upload as one document: each page's XML declaration (and byte-order mark)
    dropped, all pages inside one root element. Refuses any DTD (:class:`FileRefused`)."""

    def __init__(self, fp: IO[bytes]) -> None:
        self.fp = fp
        self.out = b"<" + _ROOT + b">"
        self.carry = b""
        self.ended = False

    def _fill(self) -> None:
        chunk = self.fp.read(CHUNK)
        data = self.carry + chunk
        if not chunk:
            self.out += _DECLARATION.sub(b"", data).replace(b"\xef\xbb\xbf", b"") + b"</" + _ROOT + b">"
            self.carry = b""
            self.ended = True
            return
        cut = max(0, len(data) - 64)  # a declaration or a DTD keyword may straddle two chunks
        start = data.rfind(b"<", cut)
        if start != -1 and data.find(b">", start) == -1:
            cut = start
        else:
            cut = len(data)
        head, self.carry = data[:cut], data[cut:]
        if any(word in head for word in _FORBIDDEN):
            raise FileRefused("The XML has a DTD or entity declarations: refused (BGG play logs have none).")
        self.out += _DECLARATION.sub(b"", head).replace(b"\xef\xbb\xbf", b"")

    def read(self, n: int = -1) -> bytes:
        while not self.ended and (n < 0 or len(self.out) < n):
            self._fill()
        if self.ended and any(word in self.out for word in _FORBIDDEN):
            raise FileRefused("The XML has a DTD or entity declarations: refused (BGG play logs have none).")
        if n < 0:
            n = len(self.out)
        part, self.out = self.out[:n], self.out[n:]
        return part


@dataclass
class BggIndex:
    """The log's owner (``username`` of ``<plays>``), its pages, and how many plays (quantities added up)."""

    username: str = ""
    display: str = ""  # the name the owner has in their own plays (the player whose username is the log's)
    pages: int = 0
    plays: int = 0
    entries: int = 0

    @property
    def owner_name(self) -> str:
        return self.display or self.username


def _events(fp: IO[bytes]) -> Iterator[tuple[str, Element]]:
    try:
        yield from iterparse(_Pages(fp), events=("start", "end"), forbid_dtd=True, forbid_entities=True)
    except DefusedXmlException as exc:
        raise FileRefused(f"The XML is not safe to read ({type(exc).__name__}): refused.") from None
    except ParseError as exc:
        raise FileRefused(f"Not a BGG play log: the XML is malformed ({exc}).") from None


def _walk(fp: IO[bytes]) -> Iterator[tuple[str, Element, Element | None]]:
    """``("page", plays_element, None)`` at each page's start and ``("play", play, page)`` at each play's end,
    with the elements cleared behind the reader so memory stays flat."""
    depth = 0
    root: Element | None = None
    page: Element | None = None
    for event, elem in _events(fp):
        if event == "start":
            depth += 1
            if depth == 1:
                root = elem
            elif depth == 2:
                if elem.tag != "plays":
                    raise FileRefused(f"Not a BGG play log: found <{elem.tag}> where <plays> was expected.")
                page = elem
                yield "page", elem, None
            continue
        depth -= 1
        if depth == 2 and elem.tag == "play":
            yield "play", elem, page
            elem.clear()
            if page is not None:
                page.remove(elem)
        elif depth == 1 and root is not None:
            root.remove(elem)


def bgg_scan(fp: IO[bytes]) -> BggIndex:
    """First pass: the owner, the pages and the number of plays. Raises :class:`FileRefused`."""
    index = BggIndex()
    for kind, elem, _ in _walk(fp):
        if kind == "page":
            index.pages += 1
            index.username = index.username or clean_text(elem.get("username"), limit=60, what="username")
        else:
            index.entries += 1
            if not index.display and index.username:
                for row in elem.iter("player"):
                    if row.get("username") == index.username and (row.get("name") or "").strip():
                        index.display = clean_text(row.get("name"), limit=80, what="name")
                        break
            try:
                index.plays += max(1, min(MAX_QUANTITY, whole(elem.get("quantity"), what="quantity") or 1))
            except PlaySkipped:
                index.plays += 1
    if not index.pages:
        raise FileRefused("Not a BGG play log: expected <plays> pages (BGG's XML API2 plays?username=NAME).")
    return index


def bgg_plays(fp: IO[bytes], index: BggIndex) -> Iterator[tuple[int, PlayIn | PlaySkipped]]:
    """Second pass: each play (a ``quantity`` of N gives N plays), numbered from 0 in file order."""
    n = 0
    for kind, elem, page in _walk(fp):
        if kind != "play":
            continue
        owner = clean_text(page.get("username") if page is not None else "", limit=60, what="username")
        owner = owner or index.username
        try:
            plays = bgg_play(elem, owner, index.display if owner == index.username else "")
        except PlaySkipped as skipped:
            yield n, skipped
            n += 1
            continue
        for play in plays:
            yield n, play
            n += 1


def bgg_play(elem: Element, owner: str, owner_name: str = "") -> list[PlayIn]:
    """One ``<play>`` as its ``quantity`` plays. Raises :class:`PlaySkipped` with the reason only for what a play
    cannot be without (its id, game, date and players); a score or an optional field that cannot be read (a
    length, a location, a rating, a quantity: then one play) is left out and said in the play's warnings."""
    play_id = (elem.get("id") or "").strip()
    chronicle_key = (elem.get("chronicle") or "").strip()  # Chronicle's own export names its plays
    if not play_id.isdigit() and not chronicle_key:
        raise PlaySkipped("The play has no BGG play id.")
    item = elem.find("item")
    if item is None:
        raise PlaySkipped(f"Play {play_id} names no game (<item>).")
    name = clean_text(item.get("name"), limit=120, what="The game's name")
    if not name:
        raise PlaySkipped(f"Play {play_id}'s game has no name.")
    played_at, local = local_datetime(elem.get("date"), what="The play date")
    warnings: list[str] = []
    quantity = optional_whole(elem.get("quantity"), warnings, what="quantity", lo=0, hi=MAX_QUANTITY) or 1
    incomplete = flag(elem.get("incomplete"))
    nowinstats = flag(elem.get("nowinstats"))
    players = elem.find("players")
    rows = list(players.iter("player")) if players is not None else []
    if len(rows) > MAX_SEATS:
        raise PlaySkipped(f"{len(rows)} players: Chronicle keeps at most {MAX_SEATS} per play.")
    if not rows:  # a play with no players is the log owner's own
        if not owner:
            raise PlaySkipped(f"Play {play_id} has no players and the log names no owner.")
        seats = [SeatIn(name=owner_name or owner, username=owner, order=0)]
    else:
        seats = [_seat(row, j, warnings) for j, row in enumerate(rows)]
    named = [s.name.casefold() for s in seats if not s.anonymous]
    if len(set(named)) != len(named):
        raise PlaySkipped(f"Play {play_id} lists the same player twice.")
    comments_elem = elem.find("comments")
    objectid = optional_whole(item.get("objectid"), warnings, what="objectid", hi=10**9) or None
    common = {
        "source": SOURCE, "game_name": name, "played_at": played_at, "played_local": local, "bgg_id": objectid,
        "bgg_name": name, "duration": optional_whole(elem.get("length"), warnings, what="length") or None,
        "location": optional_text(elem.get("location"), warnings, limit=120, what="The location"),
        "comments": optional_text(comments_elem.text if comments_elem is not None else "", warnings, limit=2000,
                                  what="The comments", multiline=True),
        "incomplete": incomplete, "nowinstats": nowinstats,
    }  # fmt: skip
    if chronicle_key and quantity == 1:
        keys = [chronicle_key[:64]]
    else:
        keys = [f"bgg:{play_id}:{k}" for k in range(quantity)]
    out = []
    for key in keys:
        play = PlayIn(key=key, seats=[SeatIn(**vars(s)) for s in seats], warnings=list(warnings), **common)
        out.append(play)
    return out


def _seat(row: Element, j: int, warnings: list[str]) -> SeatIn:
    username = optional_text(row.get("username"), warnings, limit=60, what=f"Player {j + 1}'s username")
    name = clean_text(row.get("name"), limit=80, what="A player's name") or username
    anonymous = not name or name.casefold() in ("anonymous", "anonymous player")
    raw_score = row.get("score")
    score, problem = score_read(raw_score, name or "A player")
    if problem:
        warnings.append(problem)
    position = optional_text(row.get("startposition"), warnings, limit=20, what=f"{name}'s startposition")
    return SeatIn(
        name=name or "Anonymous",
        score=score,
        score_text=score_text(raw_score),
        winner=flag(row.get("win")),
        start=position == "1",
        order=j,
        color=optional_text(row.get("color"), warnings, limit=60, what=f"{name}'s color"),
        position=position,
        new=flag(row.get("new")),
        username=username,
        anonymous=anonymous,
        rating=optional_rating(row.get("rating"), warnings, what=f"{name}'s rating"),
    )


# -- export -------------------------------------------------------------------------------------------------


def _attrs(values: dict[str, Any]) -> str:
    from xml.sax.saxutils import quoteattr

    return "".join(f" {k}={quoteattr(str(v))}" for k, v in values.items())


def bgg_xml_lines(username: str, plays: list[dict[str, Any]]) -> Iterator[str]:
    """The plays as one page of BGG's ``plays`` XML (the shape its XML API2 serves); each play is a dict with
    ``id``, ``chronicle``, ``date``, ``length``, ``location``, ``incomplete``, ``nowinstats``, ``game``,
    ``objectid``, ``comments`` and ``players`` (dicts of the ``<player>`` attributes)."""
    from xml.sax.saxutils import escape

    yield '<?xml version="1.0" encoding="utf-8"?>\n'
    yield f"<plays{_attrs({'username': username, 'userid': '', 'total': len(plays), 'page': 1})}>\n"
    for p in plays:
        head = {
            "id": p["id"], "date": p["date"], "quantity": 1, "length": p["length"] or 0,
            "incomplete": int(p["incomplete"]), "nowinstats": int(p["nowinstats"]), "location": p["location"],
            "chronicle": p["chronicle"],
        }  # fmt: skip
        yield f"  <play{_attrs(head)}>\n"
        item = {"name": p["game"], "objecttype": "thing", "objectid": p["objectid"] or 0}
        yield f'    <item{_attrs(item)}><subtypes><subtype value="boardgame"/></subtypes></item>\n'
        if p["comments"]:
            yield f"    <comments>{escape(p['comments'])}</comments>\n"
        yield "    <players>\n"
        for row in p["players"]:
            yield f"      <player{_attrs(row)}/>\n"
        yield "    </players>\n  </play>\n"
    yield "</plays>\n"

"""Board partials: each game may draw its own state; otherwise a readable generic view is used.

A board function takes ``(ruleset, ms, legal, can_record, facts)`` (and ``problem``, the refused entry being
shown again, if it names that parameter) and returns a dict with the ``template`` to include and any context it
needs. Everything a board knows of the match beyond its position comes in ``facts`` (:class:`TableFacts`: seat
names, URLs, the page's query, who reads): no board reads the database or the request, so the very same
functions draw the board in the browser (``frontend/offline/board.py``, Pyodide). Register it in ``BOARDS`` by
game slug, and its stylesheet in ``STYLESHEETS``: the page links it in ``<head>``, so the board never draws
before its styles.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from rulesets import Event
from rulesets.names import plural
from rulesets.replay import RESULT_KEY


def move_json(event: Event) -> str:
    """A move as a board's button posts it (the ``move`` field): the event's wire form, compact, keys sorted, so
    one move is always one text."""
    return json.dumps(event.to_dict(), separators=(",", ":"), sort_keys=True)


def board_href(page_url: str, params: Mapping[str, Any], keep: Mapping[str, str] | None = None) -> str:
    """A board link: the page's URL with ``params`` as its query (then ``keep``), to ``#board``. A parameter that
    is None or "" is left out; every other value is kept, 0 included: a seat is its index on the wire, and seat 0
    is the first seat."""
    query = {k: v for k, v in params.items() if v is not None and v != ""}
    query.update(keep or {})
    return page_url + (("?" + urlencode(query)) if query else "") + "#board"


def board_links(page_url: str, keep: Mapping[str, str] | None = None) -> Callable[..., str]:
    """``href(**params)``: :func:`board_href` for one board's page (``keep``: parameters every link carries)."""
    return lambda **params: board_href(page_url, params, keep)


BoardFunction = Callable[..., dict[str, Any]]

# slug → "module:function"; imported lazily so a page only loads the board it draws
BOARDS: dict[str, str] = {
    "get-salty": "frontend.boards.get_salty:board",
    "salt-and-bones": "frontend.boards.salt_and_bones:board",
    "saltmarsh-adventure": "frontend.boards.saltmarsh_adventure:board",
    "bone-wars": "frontend.boards.bone_wars:board",
    "the-first-spine": "frontend.boards.the_first_spine:board",
    "scoresheet": "frontend.boards.scoresheet:board",
    "last-stone": "frontend.boards.last_stone:board",
}

# games whose own board draws a recorded result (the score sheet shows the scores in its table)
OWN_RESULT_BOARD = frozenset({"scoresheet"})

# boards that ask who reads (Get Salty's hint): their seed carries the reader's seat even when not asked yet
READER_BOARDS = frozenset({"get-salty"})

# slug → the board's stylesheet (a static path)
STYLESHEETS: dict[str, str] = {
    "get-salty": "frontend/get-salty.css",
    "salt-and-bones": "frontend/salt-and-bones.css",
    "saltmarsh-adventure": "frontend/saltmarsh.css",
    "bone-wars": "frontend/bone-wars.css",
    "the-first-spine": "frontend/the-first-spine.css",
}


@dataclass
class TableFacts:
    """What a board knows of its match besides the position, as plain values: on the server
    :func:`table_facts` reads them once (database, request); in the browser they come with the page's seed
    (:meth:`seed`, ``frontend/offline/board.py``).

    ``query``: the page's query (``?pick=``, ``?card=``, ``?hint=``…, last value of each name);
    ``reader_records``: whether the reader may record; ``sight``: the seats whose secrets they may record
    (``matches.store.visibility.writer_sight``; None: every seat's); :meth:`reader_seat`: the seat they hold
    (``matches.store.visibility.held_seat``); ``times`` / ``moves``: what :meth:`times_of` and :meth:`moves_recorded`
    answered (version → when it was recorded, as ISO text or a datetime; upto → whether a game entry was
    recorded). What is not known yet is asked of the ``load_*`` callables (the database), once.
    """

    game: str
    match: int | str  # a match started offline is "local-<uuid>" until the server creates it
    title: str
    seat_names: list[str]
    page_url: str
    record_url: str
    query: Mapping[str, str] = field(default_factory=dict)
    reader_records: bool = False
    sight: list[int] | None = None
    seat: dict[str, int | None] = field(default_factory=dict)  # {"held": seat} once known
    times: dict[int, Any] = field(default_factory=dict)
    moves: dict[int, bool] = field(default_factory=dict)
    load_times: Callable[[list[int]], Mapping[int, Any]] | None = None
    load_moves: Callable[[int], bool] | None = None
    load_seat: Callable[[], int | None] | None = None
    photos: list[dict[str, Any]] | None = None  # the match's shown photos, newest first (frontend.views.photos)
    load_photos: Callable[[], list[dict[str, Any]]] | None = None

    def records_secrets_of(self, seat: int) -> bool:
        """Whether the reader may record an entry that sets or depends on ``seat``'s secrets (a board offers
        such a move only then)."""
        return self.sight is None or seat in self.sight

    def reader_seat(self) -> int | None:
        """The seat the reader holds at this match, or None."""
        if "held" not in self.seat:
            self.seat["held"] = self.load_seat() if self.load_seat is not None else None
        return self.seat["held"]

    def times_of(self, versions: list[int]) -> dict[int, datetime]:
        """When the entries at ``versions`` were recorded (only those known)."""
        missing = [v for v in versions if v not in self.times]
        if missing and self.load_times is not None:
            found = self.load_times(missing)
            self.times.update({v: found.get(v) for v in missing})
        out = {}
        for v in versions:
            when = self.times.get(v)
            if when is not None:
                out[v] = datetime.fromisoformat(when) if isinstance(when, str) else when
        return out

    def moves_recorded(self, upto: int) -> bool:
        """Whether a game entry (not a result, void, override or draw) was recorded up to version ``upto``
        (not known and nothing to ask: whether the position is past version 0)."""
        if upto not in self.moves:
            self.moves[upto] = self.load_moves(upto) if self.load_moves is not None else upto > 0
        return self.moves[upto]

    def photo_list(self) -> list[dict[str, Any]]:
        """The match's shown photos, newest first (``{id, version, at, caption, thumb, display}``)."""
        if self.photos is None:
            self.photos = list(self.load_photos()) if self.load_photos is not None else []
        return self.photos

    def seed(self) -> dict[str, Any]:
        """The facts as JSON for the page's offline seed (the query and the loaders stay here; the times and
        answers asked so far go with it)."""
        return {
            "title": self.title,
            "page_url": self.page_url,
            "record_url": self.record_url,
            "reader_seat": self.reader_seat() if self.game in READER_BOARDS else self.seat.get("held"),
            "reader_records": self.reader_records,
            "sight": self.sight,
            "times": {str(v): (w.isoformat() if isinstance(w, datetime) else w) for v, w in self.times.items()},
            "moves": {str(v): m for v, m in self.moves.items()},
            "photos": [
                {k: p[k] for k in ("id", "version", "at", "caption", "thumb", "display")} for p in (self.photos or [])
            ],
        }


def table_facts(match: Any, request: Any, *, records: bool, sight: frozenset[int] | None = None) -> TableFacts:
    """The facts of ``match`` as ``request``'s reader sees them (the server's side: database and request);
    ``records``: whether they may record (``matches.store.visibility.can_record``, which the page has asked);
    ``sight``: the seats whose secrets they may record (``writer_sight``, which the page has asked)."""
    from django.urls import reverse

    from frontend.selectors import moves_recorded
    from matches.selectors import match_seat_names, stream_times
    from matches.store.visibility import held_seat

    return TableFacts(
        game=match.game,
        match=match.pk,
        title=match.title,
        seat_names=match_seat_names(match),
        page_url=reverse("match", args=[match.pk]),
        record_url=reverse("match-record", args=[match.pk]),
        query={k: request.GET.get(k) for k in request.GET},
        reader_records=records,
        sight=None if sight is None else sorted(sight),
        load_seat=lambda: held_seat(request.user, match),
        load_times=lambda versions: stream_times(stream_id=match.stream_id, versions=versions),
        load_moves=lambda upto: moves_recorded(stream_id=match.stream_id, upto=upto),
        load_photos=lambda: _photos(match),
    )


def _photos(match: Any) -> list[dict[str, Any]]:
    """The shown photos of ``match``, newest first, with the URLs the app serves them at."""
    from django.urls import reverse

    from matches.photos.services import photos_of

    return [
        {
            "id": p.id, "version": p.version, "at": p.at, "caption": p.caption,
            "thumb": reverse("match-photo", args=[match.pk, p.id, "thumb"]),
            "display": reverse("match-photo", args=[match.pk, p.id, "display"]),
        }
        for p in reversed(photos_of(match.stream_id))
    ]  # fmt: skip


def _flatten(value: Any, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """Key/value rows for the generic state view (nested dicts become dotted keys)."""
    rows: list[tuple[str, str]] = []
    if isinstance(value, dict) and depth < 2:
        for k, v in value.items():
            rows.extend(_flatten(v, f"{prefix}{k}.", depth + 1))
        return rows
    label = prefix.rstrip(".").replace("_", " ")
    if isinstance(value, list):
        text = (
            ", ".join(str(v) for v in value)
            if all(not isinstance(v, (dict, list)) for v in value)
            else plural(len(value), "item")
        )
    else:
        text = "—" if value is None else str(value)
    rows.append((label, text))
    return rows


def generic_board(**kwargs: Any) -> dict[str, Any]:
    """Any game: the state as labelled rows."""
    return {"template": "frontend/boards/generic.html", "rows": _flatten(kwargs["ms"].state)}


def result_board(**kwargs: Any) -> dict[str, Any]:
    """A game logged after it was played (``result_recorded``): the result and the scores as the table told
    them, with no move entry; the game's own board below, read-only, only when moves were recorded before."""
    facts: TableFacts = kwargs["facts"]
    ms = kwargs["ms"]
    result = ms.state[RESULT_KEY]
    names = facts.seat_names
    scores = {int(k): v for k, v in (result.get("scores") or {}).items()}
    winners = set(result.get("winners") or [])
    rows = [{"name": name, "score": scores.get(seat, ""), "winner": seat in winners} for seat, name in enumerate(names)]
    played = None
    if facts.moves_recorded(ms.version):
        played = _game_board(**{**kwargs, "legal": None, "can_record": False})
    return {
        "template": "frontend/boards/result.html",
        "rows": rows,
        "scored": bool(scores),
        "draw": bool(result.get("draw")),
        "note": result.get("note", ""),
        "played": played,
    }


def board_for(**kwargs: Any) -> dict[str, Any]:
    """The board partial for the match's game (``ruleset, ms, legal, can_record, facts, problem``: see the
    module's docstring; the same call on the server and in the browser) (the generic one if the game has none or it fails to import);
    a result the table recorded instead of the moves is drawn as :func:`result_board`."""
    ms = kwargs["ms"]
    if ms.state.get(RESULT_KEY) is not None and kwargs["facts"].game not in OWN_RESULT_BOARD:
        return result_board(**kwargs)
    return _game_board(**kwargs)


def _game_board(**kwargs: Any) -> dict[str, Any]:
    facts: TableFacts = kwargs["facts"]
    target = BOARDS.get(facts.game)
    drawn = None
    if target:
        module_name, func = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            module = None
        if module is not None:
            draw = getattr(module, func)
            accepted = inspect.signature(draw).parameters
            drawn = draw(**{k: v for k, v in kwargs.items() if k in accepted})
    if drawn is None:
        drawn = generic_board(**kwargs)
    return {"record_url": facts.record_url, "page_url": facts.page_url, **drawn}

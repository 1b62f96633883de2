"""Every read of a match, for the hidden-information tests: one list, so a new read path is added here once.

``match_reads(match)`` names every URL that shows something of a match (API, pages at every version, the
live update and the news it leads to, exports, the admin); ``table(...)`` builds the people around a table who
read them, and says which seats' secrets each may see on each URL (``Reader.sees``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Permission
from django.test import Client

from matches.models import Event, Match

SEED = "#offline-seed"  # a read of the match page's offline seed alone (its JSON data block)


def match_reads(match: Match, *, brief: bool = False) -> list[str]:
    """Every URL that reads ``match``: state, log, legal moves, pages (at each version), the live update and
    the news it shows, exports, admin. ``brief``: the latest version only (a finished match's exports)."""
    mid = match.pk
    latest = match.stream.version
    if brief:
        return [f"/api/matches/{mid}/state/", f"/api/matches/{mid}/events/", f"/matches/{mid}/", f"/matches/{mid}/{SEED}",
                f"/matches/{mid}/history/", "/", "/matches/", "/api/export/bgstats/", "/api/export/bgg/"]  # fmt: skip
    replays = sorted({1, latest // 2, latest - 1} & set(range(latest)))  # replay pages: a few versions suffice
    urls = [
        f"/api/matches/{mid}/",
        f"/api/matches/{mid}/state/",
        *(f"/api/matches/{mid}/state/?at={v}" for v in range(latest + 1)),
        f"/api/matches/{mid}/state/?at={latest}&seat=0",
        f"/api/matches/{mid}/events/",
        *(f"/api/matches/{mid}/events/?after={v}&limit=1" for v in range(latest)),  # every page of one entry
        f"/api/matches/{mid}/events/?after=0&limit=200",
        f"/api/matches/{mid}/legal-moves/",
        f"/matches/{mid}/",
        f"/matches/{mid}/{SEED}",  # the page's seed for the offline rules alone (frontend.offline.seed.offline_seed)
        *(f"/matches/{mid}/?at={v}" for v in replays),  # the replay pages
        f"/matches/{mid}/history/",
        *(f"/matches/{mid}/history/?before={v}" for v in range(2, latest + 1)),  # every older page
        f"/matches/{mid}/history/?player=0",
        f"/matches/{mid}/history/?player=1",
        f"/matches/{mid}/version/",  # the live update's poll
        f"/matches/{mid}/?seen=0",  # the page it reloads: what was recorded since
        "/",  # recent activity
        "/matches/",  # the list (each match's summary; the API's list answers /api/matches/{id}/ for each)
        "/api/export/bgstats/",  # the reader's own finished matches
        "/api/export/bgg/",
        f"/admin/matches/stream/{match.stream_id}/change/",
        "/admin/matches/event/",
    ]
    urls += [
        f"/admin/matches/event/{pk}/change/"
        for pk in Event.objects.filter(stream=match.stream_id).values_list("pk", flat=True)
    ]
    return urls


@dataclass
class Reader:
    """One person at (or away from) the table: a signed-in or anonymous ``client``; ``seat`` the seat they hold
    (None: none); ``recorder``: may record; ``shows``: the seat whose secrets they reveal on their device
    (a seatless recorder's phone); ``admin``: may open the admin."""

    name: str
    client: Client
    seat: int | None = None
    recorder: bool = False
    shows: int | None = None
    admin: bool = False
    revealed: set[int] = field(default_factory=set)  # the matches the reveal was made on

    def sees(self, url: str) -> set[int]:
        """The seats whose secrets this reader may see on ``url`` (matches.store.visibility): a seat holder their own;
        a seatless recorder the table seat they reveal (a seat an account holds is that account's alone, even
        when an API read names it with ``seat=``)."""
        if self.seat is not None:
            return {self.seat}
        if self.recorder and self.shows is not None:
            return {self.shows}
        return set()

    def reveal_on(self, match: Match) -> None:
        """Make this reader's reveal on ``match`` (before reading it; the next entry would end it)."""
        if self.shows is not None and match.pk not in self.revealed:
            response = self.client.post(f"/matches/{match.pk}/reveal/", {"seat": self.shows})
            assert response.status_code == 302, response.content[:300]
            self.revealed.add(match.pk)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def table(*, owner: Any, seat_users: list[Any], staff_user: Any) -> list[Reader]:
    """The readers of a match whose seats are held by ``seat_users`` (who also record) and whose ``owner``
    holds no seat: each seat holder, the owner's phone passed round the table (which may show no seat's secrets:
    every seat is an account's), a spectator (anonymous) and a staff user allowed to view events and streams in
    the admin (not a superuser, not a recorder)."""
    staff_user.is_staff = True
    staff_user.save()
    staff_user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="matches", codename__in=["view_event", "view_stream"])
    )
    readers = [Reader(f"seat {i} holder", signed_in(u), seat=i, recorder=True) for i, u in enumerate(seat_users)]
    readers += [
        Reader("seatless recorder", signed_in(owner), recorder=True),
        Reader("spectator", Client()),
        Reader("staff", signed_in(staff_user), admin=True),
    ]
    return readers


def read_all(
    client: Client, urls: list[str], *, admin: bool = False, done: dict[str, str] | None = None
) -> dict[str, str]:
    """``url → body`` for every read; any answer but 200 fails, except the admin's redirect to its login for
    readers without ``admin`` access. ``done``: bodies already read (not read again)."""
    out = {}
    for url in urls:
        if done and url in done:
            out[url] = done[url]
            continue
        response = client.get(url.removesuffix(SEED))
        allowed = {200, 404} if url.endswith("/legal-moves/") else {200}  # 404 not_listable where a game can't list
        if url.startswith("/api/export/"):
            allowed = {200, 401}  # one's own matches: nobody's when signed out
        if url.startswith("/admin/") and not admin:
            allowed = {302}
        assert response.status_code in allowed, (url, response.status_code, response.content[:300])
        out[url] = seed_of(body_of(response)) if url.endswith(SEED) else body_of(response)
    return out


def seed_of(html: str) -> str:
    """The match page's offline seed (``{{ offline_seed|json_script:"offline-seed" }}``) as JSON text."""
    match = re.search(r'<script id="offline-seed" type="application/json">(.*?)</script>', html, re.S)
    assert match is not None, "the match page has no offline seed"
    return json.dumps(json.loads(match.group(1)), ensure_ascii=False)


def body_of(response: Any) -> str:
    """A response's body, streamed (the exports) or not."""
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode()
    return response.content.decode()

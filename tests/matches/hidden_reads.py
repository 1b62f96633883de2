"""Every read of a match, for the hidden-information tests: one list, so a new read path is added here once.

``match_reads(match)`` names every URL that shows something of a match (API, pages at every version,
exports, the admin); ``readers(...)`` builds the people who read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Permission
from django.test import Client

from matches.models import Event, Match


def match_reads(match: Match) -> list[str]:
    """Every URL that reads ``match``: state, log, legal moves, pages (at each version), exports, admin."""
    mid = match.pk
    latest = match.stream.version
    urls = [
        f"/api/matches/{mid}/",
        f"/api/matches/{mid}/state/",
        *(f"/api/matches/{mid}/state/?at={v}" for v in range(latest + 1)),
        *(f"/api/matches/{mid}/state/?at={v}&seat=0" for v in range(latest + 1)),
        f"/api/matches/{mid}/events/",
        *(f"/api/matches/{mid}/events/?after={v}&limit=1" for v in range(latest)),  # every page of one entry
        f"/api/matches/{mid}/events/?after=0&limit=200",
        f"/api/matches/{mid}/legal-moves/",
        f"/matches/{mid}/",
        *(f"/matches/{mid}/?at={v}" for v in range(latest + 1)),  # the replay pages
        f"/matches/{mid}/history/",
        *(f"/matches/{mid}/history/?before={v}" for v in range(2, latest + 1)),  # every older page
        f"/matches/{mid}/history/?player=0",
        f"/matches/{mid}/history/?player=1",
        "/",  # recent activity
        f"/admin/matches/stream/{match.stream_id}/change/",
        "/admin/matches/event/",
    ]
    urls += [
        f"/admin/matches/event/{pk}/change/"
        for pk in Event.objects.filter(stream=match.stream_id).values_list("pk", flat=True)
    ]
    return urls


@dataclass
class Readers:
    """Clients for the people around a table: ``recorder`` (owner), ``spectator`` (anonymous), ``other_seat``
    (the user seated at seat 1, not a recorder), ``staff`` (admin access, not a superuser, not a recorder)."""

    recorder: Client
    spectator: Client
    other_seat: Client
    staff: Client

    def hiding(self) -> dict[str, Client]:
        """The readers who must not see seat 0's hidden information."""
        return {"spectator": self.spectator, "other seat": self.other_seat, "staff": self.staff}


def readers(*, owner: Any, seat_user: Any, staff_user: Any) -> Readers:
    """Signed-in clients for the owner, the user at seat 1 and a staff user allowed to view events and streams."""
    staff_user.is_staff = True
    staff_user.save()
    staff_user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="matches", codename__in=["view_event", "view_stream"])
    )

    def signed_in(user: Any) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return Readers(signed_in(owner), Client(), signed_in(seat_user), signed_in(staff_user))


def read_all(client: Client, urls: list[str], *, admin: bool = False) -> dict[str, str]:
    """``url → body`` for every read; any answer but 200 fails, except the admin's redirect to its login for
    readers without ``admin`` access."""
    out = {}
    for url in urls:
        response = client.get(url)
        allowed = {200, 404} if url.endswith("/legal-moves/") else {200}  # 404 not_listable where a game can't list
        if url.startswith("/admin/") and not admin:
            allowed = {302}
        assert response.status_code in allowed, (url, response.status_code, response.content[:300])
        out[url] = response.content.decode()
    return out

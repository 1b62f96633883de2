"""Taking a seat by a join link (the QR code "Scan to take a seat"); what the match page shows its owner.

The rules are ``matches.people.joins``'; these views only ask and answer. A friend signed out picks a seat
first: the pick is kept in their session and they sign in or up on the way; the sign-in's own POST takes it
(``take_kept_seat``, on ``user_logged_in``) and ``?next=`` brings them back here, then on to the match. No GET
writes (a read replica may serve it). A join is idempotent: taking it twice takes one seat.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from frontend.forms.schema import int_or_none
from matches.errors import DomainError, InvalidInput
from matches.models import Match
from matches.people import joins
from matches.store.visibility import held_seat

PENDING_KEY = "chronicle_join"  # the seat a signed-out friend picked: {"token", "seat"}
JOINED_KEY = "chronicle_joined"  # the token whose kept seat the sign-in just took (its words are said)


def qr_svg(url: str) -> SafeString:
    """``url`` as a QR code, an inline SVG drawn on the server (no script, no outside image): black on white
    whatever the page's colours, so a phone's camera reads it in dark mode too."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=5, dark="#000", light="#fff", title="Scan to take a seat", svgclass="join-qr")
    return mark_safe(svg)  # segno's own markup of a URL made here: no text of a user reaches it


def join_box(request: HttpRequest, match: Match, *, finished: bool) -> dict[str, Any] | None:
    """What the match page shows its owner under "Seat a friend": the link that is on (its address and QR
    code) or the button to show one; None for anyone else, and once the match is finished."""
    if not request.user.is_authenticated or request.user.pk != match.owner_id or finished:
        return None
    seats = joins.join_seats(match)
    link = joins.join_link_current(match)
    box: dict[str, Any] = {"free": [s.name for s in seats if s.free], "link": link, "held": joins.seats_held(match.pk)}
    if link is not None:
        box["url"] = request.build_absolute_uri(reverse("match-join", args=[link.token]))
        box["qr"] = qr_svg(box["url"])
    return box


def words_of(exc: DomainError) -> str:
    """A refusal's plain words (an invalid input's messages, joined)."""
    if isinstance(exc, InvalidInput):
        return " ".join(m for v in exc.errors.values() for m in v)
    return exc.detail


def join_page(request: HttpRequest, token: str) -> HttpResponse:
    """The page a join link opens: the match, its seats, one button per free seat (a POST takes it). Signed
    out, the seat picked is kept and the page asks to sign up or sign in; the sign-in (a POST) takes it
    (:func:`take_kept_seat`) and comes back here, which sends a seat holder on to the match. A GET writes
    nothing."""
    link = joins.join_link_get(token)  # an unknown token: the 404 page says the link is not valid
    if request.method == "POST":
        seat = int_or_none(request.POST.get("seat"))
        if not request.user.is_authenticated:
            request.session[PENDING_KEY] = {"token": token, "seat": seat}
            return redirect("match-join", token=token)
        return _take(request, link, token, seat)
    if request.user.is_authenticated:
        held = held_seat(request.user, link.match)
        if held is not None:  # seated (just now, by signing in, or before): the match is where they go
            if request.session.pop(JOINED_KEY, None) != token:
                name = next((s.name for s in joins.join_seats(link.match) if s.index == held), "")
                messages.info(request, f"You already sit at {name}'s seat.")
            return redirect("match", match_id=link.match_id)
    return _page(request, link, token)


def owner_name(match: Match, seats: list[joins.JoinSeat] | None = None) -> str:
    """The match's owner as the join page names them: the name of the owner's seat when they play, else their
    account's full name, else its username."""
    seats = joins.join_seats(match) if seats is None else seats
    own = next((s.name for s in seats if s.owners), "")
    return own or match.owner.get_full_name() or match.owner.get_username()


def kept_join(request: HttpRequest) -> dict[str, str] | None:
    """What the sign-up and sign-in pages say of the seat a signed-out friend picked on a join page (kept in
    the session): ``{seat, match, owner}`` in words, or None (no pick kept, or its link is off or unknown)."""
    pending = request.session.get(PENDING_KEY) if hasattr(request, "session") else None
    if not isinstance(pending, dict):
        return None
    try:
        link = joins.join_link_get(pending.get("token"))
    except DomainError:
        return None
    if link.revoked_at is not None:
        return None
    seats = joins.join_seats(link.match)
    seat = next((s for s in seats if s.index == pending.get("seat")), None)
    if seat is None:
        return None
    match = link.match
    title = match.title or match.game_name
    return {"seat": seat.name, "match": title, "owner": owner_name(match, seats)}


def take_kept_seat(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """On sign-in or sign-up (``user_logged_in``, inside that POST): take the seat a signed-out friend picked
    on a join page (kept in the session, which signing in keeps), once; a refusal is told on the join page the
    sign-in goes back to."""
    session = getattr(request, "session", None)
    pending = session.pop(PENDING_KEY, None) if session is not None else None
    if not isinstance(pending, dict):
        return
    token = pending.get("token")
    try:
        joined = joins.join_take(user=user, token=token, seat=pending.get("seat"))
    except DomainError as exc:
        messages.error(request, f"The seat was not taken: {words_of(exc)} Nothing was written.")
        return
    session[JOINED_KEY] = token
    messages.success(request, _joined_words(joined, user))


def _joined_words(joined: joins.Joined, user: Any) -> str:
    may = "" if joined.match.owner_id == user.pk else " You may record its moves from this phone."
    if joined.already:
        return f"You already sit at {joined.name}'s seat.{may}"
    return f"You took {joined.name}'s seat.{may}"


def _take(request: HttpRequest, link: Any, token: str, seat: Any) -> HttpResponse:
    try:
        joined = joins.join_take(user=request.user, token=token, seat=seat)
    except DomainError as exc:
        link.refresh_from_db()
        return _page(request, link, token, problem=words_of(exc), status=exc.status_code)
    (messages.info if joined.already else messages.success)(request, _joined_words(joined, request.user))
    return redirect("match", match_id=joined.match.pk)


def _page(request: HttpRequest, link: Any, token: str, *, problem: str = "", status: int = 200) -> HttpResponse:
    if link.revoked_at is not None:  # a link that is off tells only that: no match, owner or seat
        context = {"off": True, "refusal": joins.join_refusal(link, []), "problem": problem}
        return render(request, "frontend/join.html", context, status=status)
    match = Match.objects.select_related("owner").get(pk=link.match_id)
    link.match = match
    seats = joins.join_seats(match)
    pending = request.session.get(PENDING_KEY)
    kept = pending.get("seat") if isinstance(pending, dict) and pending.get("token") == token else None
    here = reverse("match-join", args=[token])
    context = {
        "match": match,
        "owner_name": owner_name(match, seats),
        "seats": seats,
        "refusal": joins.join_refusal(link, seats),
        "problem": problem,
        "kept": next((s for s in seats if s.index == kept), None),
        "here": here,
        "sign_in_next": here,  # the menu's "Sign in" and "Sign up" come back here too
    }
    return render(request, "frontend/join.html", context, status=status)

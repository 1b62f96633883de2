"""Taking a seat by a join link (the QR code "Scan to take a seat"); what the match page shows its owner.

The rules are ``matches.people.joins``'; these views only ask and answer. A friend signed out picks a seat
first: the pick is kept in their session and they sign in or up on the way (``?next=`` brings them back here),
then the kept pick is taken on their return (a join is idempotent: taking it twice takes one seat).
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
    box: dict[str, Any] = {"free": [s.name for s in seats if s.free], "link": link}
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
    """The page a join link opens: the match, its seats, one button per free seat. Signed out, the seat picked
    is kept and the page asks to sign up or sign in; back here signed in, the kept seat is taken."""
    link = joins.join_link_get(token)  # an unknown token: the 404 page says the link is not valid
    if request.method == "POST":
        seat = int_or_none(request.POST.get("seat"))
        if not request.user.is_authenticated:
            request.session[PENDING_KEY] = {"token": token, "seat": seat}
            return redirect("match-join", token=token)
        return _take(request, link, token, seat)
    pending = request.session.get(PENDING_KEY)
    if request.user.is_authenticated and isinstance(pending, dict) and pending.get("token") == token:
        del request.session[PENDING_KEY]  # the pick made before signing in (a POST), taken now, once
        return _take(request, link, token, pending.get("seat"))
    return _page(request, link, token)


def _take(request: HttpRequest, link: Any, token: str, seat: Any) -> HttpResponse:
    try:
        joined = joins.join_take(user=request.user, token=token, seat=seat)
    except DomainError as exc:
        link.refresh_from_db()
        return _page(request, link, token, problem=words_of(exc), status=exc.status_code)
    may = "" if joined.match.owner_id == request.user.pk else " You may record its moves from this phone."
    if joined.already:
        messages.info(request, f"You already sit at {joined.name}'s seat.{may}")
    else:
        messages.success(request, f"You took {joined.name}'s seat.{may}")
    return redirect("match", match_id=joined.match.pk)


def _page(request: HttpRequest, link: Any, token: str, *, problem: str = "", status: int = 200) -> HttpResponse:
    match = Match.objects.select_related("owner").get(pk=link.match_id)
    link.match = match
    seats = joins.join_seats(match)
    pending = request.session.get(PENDING_KEY)
    kept = pending.get("seat") if isinstance(pending, dict) and pending.get("token") == token else None
    here = reverse("match-join", args=[token])
    context = {
        "match": match,
        "seats": seats,
        "refusal": joins.join_refusal(link, seats),
        "problem": problem,
        "held": None,
        "kept": next((s for s in seats if s.index == kept), None),
        "here": here,
        "sign_in_next": here,  # the menu's "Sign in" and "Sign up" come back here too
    }
    if request.user.is_authenticated:
        held = held_seat(request.user, match)
        context["held"] = next((s for s in seats if s.index == held), None)
    return render(request, "frontend/join.html", context, status=status)

"""Pages every stream kind shares, built once on ``matches.streams``: the history timeline and undo.

A kind's URL module makes its views with :func:`history_view` and :func:`undo_view`, naming its page (the
URL that takes the object's id) and the view that redraws it with a refusal explained.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from frontend.forms import posted_void, record_or_rerender
from matches.streams import kind_get, stream_get, stream_history, stream_undo
from matches.visibility import can_record
from rulesets import get_ruleset

Redraw = Callable[..., HttpResponse]  # (request, pk, *, problem, status) -> the kind's page


def history_view(
    kind: str, page: str, *, anchor: str = "", template: str = "frontend/stream_history.html"
) -> Callable[[HttpRequest, int], HttpResponse]:
    """The log of a ``kind`` object as a timeline (hidden information removed for the reader), each entry
    linked to ``page`` at that version. ``template`` gets ``obj`` (also under the kind's name), ``lines``,
    ``ruleset``, ``page_url``, ``anchor`` and ``can_record``."""

    def history(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        obj = stream_get(kind=kind, user=request.user, pk=_pk(kwargs))
        context = {
            "obj": obj,
            kind: obj,
            "noun": kind_get(kind).noun,
            "lines": stream_history(obj=obj, user=request.user, session=request.session),
            "ruleset": get_ruleset(obj.stream.game),
            "page_url": reverse(page, args=[obj.pk]),
            "anchor": anchor,
            "can_record": can_record(request.user, obj),
        }
        return render(request, template, context)

    history.__doc__ = f"The {kind}'s history timeline."
    return history


def undo_view(
    kind: str, page: str, redraw: Redraw, *, anchor: str = "", entry_noun: str = "entry"
) -> Callable[[HttpRequest, int], HttpResponse]:
    """Void the last entry that still counts (a new ``event_voided`` entry; the history keeps both) once
    confirmed (``confirm`` posted non-empty: the button's dialog, or the page's own "Yes, undo it"); the reason
    is optional. Unconfirmed (no JavaScript), the page is redrawn asking to confirm (``problem.confirm_undo``);
    a refusal redraws it with the refusal explained (``problem.origin == "undo"``)."""

    @login_required
    @require_POST
    def undo(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        pk = _pk(kwargs)
        obj = stream_get(kind=kind, user=request.user, pk=pk)
        data = posted_void(request)
        problem: dict[str, Any] = {"form": "undo", "origin": "undo"}
        if not request.POST.get("confirm"):
            problem["confirm_undo"] = True
            return redraw(request, pk, problem=problem, status=200)
        result, refused = record_or_rerender(
            request,
            lambda **guards: stream_undo(obj=obj, user=request.user, **data, **guards),
            problem,
            lambda problem, status: redraw(request, pk, problem=problem, status=status),
        )
        if refused:
            return refused
        messages.success(request, f"Undone: the last {entry_noun}; the history keeps it, struck through.")
        linked_words(request, result)
        return redirect(reverse(page, args=[obj.pk]) + anchor)

    undo.__doc__ = f"Undo the {kind}'s last entry."
    return undo


def linked_words(request: HttpRequest, result: Any) -> None:
    """Say which other streams the same action wrote (an adventure match carrying its result to the campaign)."""
    for write in result.linked:
        entries = ", ".join(str(v) for v in write.versions)
        noun = "entry" if len(write.versions) == 1 else "entries"
        messages.info(request, f"The {write.kind} was updated in the same step ({noun} {entries}).")


def _pk(kwargs: dict[str, Any]) -> int:
    """The object's id from the URL, whatever the route names it (``pk``, ``match_id``, ``campaign_id``…)."""
    (value,) = kwargs.values()
    return int(value)

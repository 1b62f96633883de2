"""Pages every stream kind shares, built once on ``matches.store.streams``: the list with its "new" form, the
history timeline and undo.

A kind's view module makes its views with :func:`list_view`, :func:`history_view` and :func:`undo_view`, naming its
page (the URL that takes the object's id) and the view that redraws it with a refusal explained.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from frontend.forms.schema import posted_void, record_or_rerender
from frontend.views.photos import photo_list
from matches.errors import InvalidInput
from matches.store.history import HistoryLine, cursor_clean, history_page
from matches.store.streams import kind_get, stream_get, stream_list, stream_undo
from matches.store.visibility import can_record, viewer_for
from rulesets import get_ruleset

PHOTO_KINDS = ("match", "campaign")  # the kinds with photo routes (frontend.views.photos.photo_urls)

Redraw = Callable[..., HttpResponse]  # (request, pk, *, problem, status) -> the kind's page
Errors = dict[str, list[str]]
LIST_MAX = 100  # objects a list page shows


def list_view(
    kind: str, page: str, template: str, *, listed_as: str, read: Callable[[Any], tuple[Any, dict[str, Any], Errors]],
    create: Callable[..., Any], created: str, context: Callable[[HttpRequest, Any, Errors], dict[str, Any]],
) -> Callable[[HttpRequest], HttpResponse]:  # fmt: skip
    """The list of the ``kind`` objects the reader may see (in ``template`` as ``listed_as``, most recently active
    first) and, signed in, the form that starts one. A POST from a reader not signed in goes to the sign-in page;
    else ``read(request.POST)`` gives ``(form, entry, errors)``: the form as typed, what ``create(owner=, **entry)``
    takes, the errors of reading it. Created: ``created`` is said and the new object's ``page`` follows; refused
    (the reading's errors, or the service's ``InvalidInput``), the page again with status 400.
    ``context(request, form, errors)`` draws the form (``form`` None: a fresh one)."""

    def view(request: HttpRequest) -> HttpResponse:
        form: Any = None
        errors: Errors = {}
        if request.method == "POST":
            if not request.user.is_authenticated:
                return redirect(f"{reverse('login')}?next={request.path}")
            form, entry, errors = read(request.POST)
            if not errors:
                try:
                    obj = create(owner=request.user, **entry)
                except InvalidInput as exc:
                    errors = exc.errors
                else:
                    messages.success(request, created)
                    return redirect(reverse(page, args=[obj.pk]))
        values = context(request, form, errors)
        values[listed_as] = list(stream_list(kind=kind, user=request.user)[:LIST_MAX])
        return render(request, template, values, status=400 if errors else 200)

    view.__doc__ = f"Every visible {kind} the reader may see, and (signed in) the form that starts one."
    return view


def history_view(
    kind: str, page: str, *, anchor: str = "", template: str = "frontend/stream_history.html"
) -> Callable[[HttpRequest, int], HttpResponse]:
    """The log of a ``kind`` object as a timeline, one page at a time, newest first (``?before=<version>``: the
    older page; ``?player=<seat>``: one player's entries), grouped by round or turn where the kind has seats;
    hidden information removed for the reader. ``template`` gets ``obj`` (also under the kind's name),
    ``lines`` and ``groups`` (``[{label, lines}]``) of the page, ``players``, ``player``, ``older_url``,
    ``newer_url``, ``ruleset``, ``page_url``, ``anchor`` and ``can_record``."""

    def history(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        obj = stream_get(kind=kind, user=request.user, pk=_pk(kwargs), without_state=True)
        names = kind_get(kind).seat_names(obj)
        try:
            before = cursor_clean(request.GET.get("before"), "before")
            player = cursor_clean(request.GET.get("player"), "player")
            if player is not None and player >= len(names):
                raise InvalidInput({"player": [f"There is no player {player} here."]})
        except InvalidInput as exc:
            message = " ".join(m for ms in exc.errors.values() for m in ms)
            context = {"title": "That page of the history does not exist", "message": message}
            return render(request, "frontend/error.html", context, status=400)
        history = history_page(
            stream_id=obj.stream_id, game=obj.stream.game, seat_names=names, viewer=viewer_for(request.user, obj, session=request.session),
            before=before, newest_first=True, seat=player, groups=bool(names),
        )  # fmt: skip
        here = request.path
        keep = {"player": player} if player is not None else {}
        context = {
            "obj": obj,
            kind: obj,
            "noun": kind_get(kind).noun,
            "lines": [h.line for h in history.lines],
            "groups": _grouped(history.lines),
            "players": list(enumerate(names)),
            "player": player,
            "player_name": names[player] if player is not None else "",
            "older_url": f"{here}?{urlencode({**keep, 'before': history.next})}" if history.next else "",
            "newer_url": f"{here}?{urlencode(keep)}" if before is not None else "",
            "ruleset": get_ruleset(obj.stream.game),
            "page_url": reverse(page, args=[obj.pk]),
            "anchor": anchor,
            "can_record": can_record(request.user, obj),
            **_photos_shown(kind, obj),
        }
        return render(request, template, context)

    history.__doc__ = f"The {kind}'s history timeline."
    return history


def _photos_shown(kind: str, obj: Any) -> dict[str, Any]:
    """For the timeline: each shown photo's thumbnail and picture by its entry (``photo_lines``: version → URLs);
    a removed or undone photo's entry keeps its words, without the picture."""
    if kind not in PHOTO_KINDS:
        return {"photo_lines": {}}
    return {"photo_lines": {str(p["version"]): p for p in photo_list(kind, obj)}}


def _grouped(lines: list[HistoryLine]) -> list[dict[str, Any]]:
    """Runs of lines with the same round or turn label, in page order: ``[{label, lines}]``."""
    groups: list[dict[str, Any]] = []
    for h in lines:
        if not groups or groups[-1]["label"] != h.group:
            groups.append({"label": h.group, "lines": []})
        groups[-1]["lines"].append(h.line)
    return groups


def undo_view(
    kind: str, page: str, redraw: Redraw, *, anchor: str = "", entry_noun: str = "entry"
) -> Callable[[HttpRequest, int], HttpResponse]:
    """Void the last entry that still counts (a new ``event_voided`` entry; the history keeps both) once
    confirmed (``confirm`` posted non-empty: the button's dialog, or the page's own "Yes, undo it"); the reason
    is optional. Unconfirmed (no JavaScript), the page is redrawn asking to confirm (``problem.confirm_undo``);
    a refusal redraws it with the refusal explained (``problem.origin == "undo"``). Done, it answers the page's own
    htmx (:func:`answered_in_place`) with the redrawn page at once (no redirect: no ``#anchor`` added to the
    address, the thumb kept where it was by ``app.js``), anything else with the redirect to the page."""

    @login_required
    @require_POST
    def undo(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        pk = _pk(kwargs)
        obj = stream_get(kind=kind, user=request.user, pk=pk)
        data = posted_void(request)
        problem: dict[str, Any] = {"origin": "undo"}
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
        if answered_in_place(request):  # the page's htmx: its changed part at once, as after a recorded move
            return redraw(request, pk)
        return redirect(reverse(page, args=[obj.pk]) + anchor)

    undo.__doc__ = f"Undo the {kind}'s last entry."
    return undo


def answered_in_place(request: HttpRequest) -> bool:
    """Whether the request comes from the match page's own htmx (a move, a board tap, an undo, a live update),
    which swaps only ``#match-live``: it gets that fragment, not the whole page. A history restore gets the page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and htmx.target == "match-live" and not htmx.history_restore_request


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

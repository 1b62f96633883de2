"""Series pages: the list (and a new series), the standings with the points chart and the matches, adding or
removing a match, the standings as CSV. History and undo are the shared stream pages (``stream_views``)."""

from __future__ import annotations

import csv
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from campaigns.series import selectors
from campaigns.series import services as series_services
from frontend.charts import points_chart
from frontend.forms.schema import int_or_none, record_or_rerender
from frontend.selectors import last_undoable_version
from frontend.views import streams as stream_views
from frontend.views.spreadsheets import spreadsheet_safe
from matches.errors import NotFound
from matches.store.streams import stream_record
from matches.store.visibility import can_record
from rulesets import all_rulesets, get_ruleset
from rulesets.replay import RULE_OVERRIDDEN
from rulesets.series import DEFAULT_PLACE_POINTS

ENTRY_TYPES = ("match_added", "match_removed", RULE_OVERRIDDEN)


def _place_points(text: str) -> list[int] | None:
    """``"5, 3, 1"`` → ``[5, 3, 1]``; blank → None (the default); anything else raises ValueError."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    return [int(p) for p in parts] if parts else None


def _new_series(post: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, list[str]]]:
    """The "new series" form as posted: ``(form, entry, errors)`` (``frontend.views.streams.list_view``)."""
    form: dict[str, Any] = {k: post.get(k, "") for k in ("name", "game", "place_points")}
    form["is_public"] = post.get("is_public") == "on"
    entry = {k: form[k] for k in ("name", "game", "is_public")}
    try:
        points = _place_points(form["place_points"])
    except ValueError:
        return form, entry, {"options.place_points": ["Write whole numbers separated by commas, e.g. 3, 2, 1."]}
    return form, {**entry, "options": {} if points is None else {"place_points": points}}, {}


def _series_list_context(
    request: HttpRequest, form: dict[str, Any] | None, errors: dict[str, list[str]]
) -> dict[str, Any]:
    """What the list page's "new series" form shows: the match games, what was typed, the errors in words."""
    return {
        "games": all_rulesets(kind="match"),
        "form": form or {"name": "", "game": "", "place_points": "", "is_public": False},  # private unless ticked
        "errors": {k.split("[")[0]: " ".join(v) for k, v in errors.items()},
        "points_error": " ".join(m for k, v in errors.items() if k.startswith("options") for m in v),
        "default_points": ", ".join(str(p) for p in DEFAULT_PLACE_POINTS),
    }


series_list = stream_views.list_view(
    "series", "series-detail", "frontend/series/list.html", listed_as="series_list", read=_new_series,
    create=series_services.series_create, created="Series created. Add finished matches below.",
    context=_series_list_context,
)  # fmt: skip


def series_detail(
    request: HttpRequest, series_id: int, *, problem: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    """Standings at ``?at=N`` (latest by default), the points chart, the matches, and the forms of recorders."""
    series = selectors.series_get(user=request.user, series_id=series_id)
    recorder = can_record(request.user, series)
    at = int_or_none(request.GET.get("at"))
    try:
        table = selectors.series_standings(series=series, user=request.user, at=at if at is None or at >= 0 else None)
    except NotFound:
        table = selectors.series_standings(series=series, user=request.user)
    replaying = table.version != table.latest_version
    context: dict[str, Any] = {
        "series": series,
        "game_name": get_ruleset(series.game).name,
        "table": table,
        "ranked": _ranked(table.rows),
        "chart": points_chart(table.chart),
        "at": table.version,
        "latest": table.latest_version,
        "replaying": replaying,
        "can_record": recorder,
        "problem": problem or {},
        "idempotency_key": uuid.uuid4().hex,
    }
    if recorder and not replaying:
        candidates = selectors.series_candidates(series=series, user=request.user, members=table.members)
        context["candidates"] = list(candidates.prefetch_related("seats__player")[:100])
        context["undo_version"] = last_undoable_version(stream_id=series.stream_id)
    return render(request, "frontend/series/detail.html", context, status=status)


def _ranked(rows: list[Any]) -> list[tuple[int, Any]]:
    """Rows with their rank: tied points and total score share the better rank."""
    return [(1 + sum(1 for o in rows if (o.points, o.total_score) > (r.points, r.total_score)), r) for r in rows]


@login_required
@require_POST
def series_record(request: HttpRequest, series_id: int) -> HttpResponse:
    """Add or remove a match (or note a house rule); a refusal redraws the page with the rule named."""
    series = selectors.series_get(user=request.user, series_id=series_id)
    type_ = request.POST.get("type", "")
    match_id = int_or_none(request.POST.get("match"))
    problem: dict[str, Any] = {"origin": "form", "type": type_}
    if type_ not in ENTRY_TYPES:
        problem["detail"] = f"Unknown entry {type_!r}."
        return series_detail(request, series_id, problem=problem, status=400)
    if type_ == RULE_OVERRIDDEN:
        data: dict[str, Any] = {"reason": request.POST.get("data.reason", "")}
    elif match_id is None:
        problem["detail"] = "Pick a match first."
        return series_detail(request, series_id, problem=problem, status=400)
    else:
        data = {"match": match_id}
    result, refused = record_or_rerender(
        request,
        lambda **guards: stream_record(obj=series, user=request.user, type=type_, data=data, **guards),
        problem,
        lambda problem, status: series_detail(request, series_id, problem=problem, status=status),
    )
    if refused:
        return refused
    done = {"match_added": f"Match {match_id} added.", "match_removed": f"Match {match_id} removed."}
    messages.success(request, done.get(type_, f"Recorded entry {result.version}."))
    return redirect(reverse("series-detail", args=[series.pk]) + "#standings")


def series_csv(request: HttpRequest, series_id: int) -> HttpResponse:
    """The standings at ``?at=N`` as CSV: rank, player, played, wins, points, total_score, best_score."""
    series = selectors.series_get(user=request.user, series_id=series_id)
    at = int_or_none(request.GET.get("at"))
    table = selectors.series_standings(series=series, user=request.user, at=at if at is None or at >= 0 else None)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="series-{series.pk}-v{table.version}.csv"'
    writer = csv.writer(response)
    writer.writerow(["rank", "player", "played", "wins", "points", "total_score", "best_score"])
    for rank, r in _ranked(table.rows):
        best = "" if r.best_score is None else r.best_score
        writer.writerow([rank, spreadsheet_safe(r.player), r.played, r.wins, r.points, r.total_score, best])
    return response


series_history = stream_views.history_view("series", "series-detail", anchor="#standings")
series_undo = stream_views.undo_view("series", "series-detail", series_detail, anchor="#standings")

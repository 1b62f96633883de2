"""Log a finished game in one form (date, length, place, players, scores, winner): for tables that only want
the result. Thin: read the form, call ``matches.interop.logged.finished_match_log``, redirect or re-render."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from matches.errors import InvalidInput
from matches.interop.logged import PlayRow, finished_match_log
from matches.models import Match
from matches.selectors import players_known
from rulesets import all_rulesets

ROWS = 8


def _number(raw: str, field: str, errors: dict[str, list[str]]) -> float | int | None:
    raw = raw.strip().replace(",", ".")
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        errors.setdefault(field, []).append(f"'{raw}' is not a number.")
        return None
    return int(value) if value.is_integer() else value


def _read(post: Any) -> tuple[dict[str, Any], dict[str, list[str]]]:
    errors: dict[str, list[str]] = {}
    rows: list[PlayRow] = []
    start = post.get("start", "")
    for i in range(ROWS):
        name = " ".join(post.get(f"name_{i}", "").split())
        if not name:
            continue
        score = _number(post.get(f"score_{i}", ""), f"Score of {name}", errors)
        rows.append(
            PlayRow(
                player=name[:80], score=score, winner=post.get(f"winner_{i}") == "on", start=start == str(i), order=i
            )
        )
    if not rows:
        errors["Players"] = ["Name at least one player."]
    when = timezone.now()
    raw_date = post.get("date", "").strip()
    if raw_date:
        try:
            when = timezone.make_aware(datetime.fromisoformat(raw_date))
        except ValueError:
            errors["Date"] = ["Must be a date and time, e.g. 2026-11-30 20:15."]
    duration = _number(post.get("duration", ""), "Length (minutes)", errors)
    if duration is not None and not (isinstance(duration, int) and 0 <= duration <= 100_000):
        errors["Length (minutes)"] = ["Must be a whole number of minutes."]
    cooperative = post.get("cooperative") == "on"
    if cooperative:  # won or lost together: every row gets the table's result
        won = post.get("coop_won") == "on"
        rows = [PlayRow(r.player, r.score, won, r.start, r.order) for r in rows]
    elif rows and not any(r.winner for r in rows) and any(r.score is not None for r in rows):
        best = max(r.score for r in rows if r.score is not None)
        rows = [PlayRow(r.player, r.score, r.score == best, r.start, r.order) for r in rows]
    starts = [i for i, r in enumerate(rows) if r.start]
    form = {
        "game_name": post.get("game", ""),
        "rows": rows,
        "played": {
            "played_at": when,
            "duration_min": duration,
            "location": " ".join(post.get("location", "").split())[:120],
            "first_seat": starts[0] if starts else None,
        },
        "is_public": post.get("is_public") == "on",
        "cooperative": cooperative,
        "highest_wins": post.get("lowest_wins") != "on",
    }
    return form, errors


def _row_values(post: Any, i: int) -> dict[str, Any]:
    """What was typed in row ``i`` (kept after a refusal)."""
    return {
        "i": i,
        "n": i + 1,
        "name": post.get(f"name_{i}", ""),
        "score": post.get(f"score_{i}", ""),
        "winner": post.get(f"winner_{i}") == "on",
        "start": post.get("start") == str(i),
    }


@login_required
def match_log(request: HttpRequest) -> HttpResponse:
    """GET the form; POST records the finished game and opens it (or shows what to fix, keeping the input)."""
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        form, errors = _read(request.POST)
        if not errors:
            try:
                match = finished_match_log(
                    owner=request.user, game_name=form["game_name"], rows=form["rows"], played=form["played"],
                    is_public=form["is_public"], cooperative=form["cooperative"], highest_wins=form["highest_wins"],
                    note="logged after the game",
                )  # fmt: skip
                return redirect("match", match.pk)
            except InvalidInput as exc:
                errors = {k.replace("players", "Players").replace("game", "Game"): v for k, v in exc.errors.items()}
    names = sorted(
        {r.name for r in all_rulesets(kind="match") if r.slug != "scoresheet"}
        | set(Match.objects.filter(owner=request.user, game="scoresheet").values_list("title", flat=True)[:200])
    )
    context = {
        "errors": errors,
        "rows": [_row_values(request.POST if request.method == "POST" else {}, i) for i in range(ROWS)],
        "post": request.POST if request.method == "POST" else {},
        "game_names": [n for n in names if n],
        "known_players": players_known(owner=request.user),
        "now": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
    }
    return render(request, "frontend/match_log.html", context, status=400 if errors else 200)

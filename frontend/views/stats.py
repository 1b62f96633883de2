"""Look-back pages: dashboards of a player, of me, of a game and of a group (import and export: interop_views).

Thin: parse the filter, call a stats selector (which reads the ``play_stats`` read model), shape charts, render.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from campaigns.saltmarsh.stats import CHART_CAMPAIGNS
from frontend.charts import bar_chart, gp_text, line_chart
from matches.errors import DomainError, InvalidInput
from matches.models import Player
from matches.people import players as people
from matches.stats import selectors as stats
from rulesets import all_rulesets


def _filter(request: HttpRequest) -> tuple[stats.StatsFilter, list[str]]:
    """The page's filter from the query string; a bad value is shown as a message, not an error page."""
    try:
        return stats.stats_filter_parse(request.GET), []
    except InvalidInput as exc:
        return stats.StatsFilter(), [f"{_FILTER_LABELS.get(k, k)}: {' '.join(v)}" for k, v in exc.errors.items()]


_FILTER_LABELS = {"since": "From", "until": "To", "players": "Players", "game": "Game", "title": "Title"}


def _filter_context(request: HttpRequest, f: stats.StatsFilter, problems: list[str]) -> dict[str, Any]:
    known = Player.objects.filter(owner=request.user).order_by("name") if request.user.is_authenticated else []
    return {
        "f": f,
        "filter_problems": problems,
        "filter_games": [(r.slug, r.name) for r in all_rulesets(kind="match")],
        "filter_players": known,
        "query": f.query_string(),
        "filter_on": bool(f.since or f.until or f.players or (f.game and f.game != "scoresheet")),
    }


def _months_chart(by_month: list[dict[str, Any]], title: str) -> dict[str, Any] | None:
    if not by_month:
        return None
    games = sorted({g for m in by_month for g in m["games"]})
    series = {g: [m["games"].get(g, 0) for m in by_month] for g in games}
    return bar_chart([m["month"] for m in by_month], series, title=title, y_label="plays")


def _dashboard_page(
    request: HttpRequest,
    board: stats.PlayerDashboard | None,
    heading: str,
    f: stats.StatsFilter,
    problems: list[str],
    **extra: Any,
) -> HttpResponse:
    context = {
        **extra,
        "heading": heading,
        "board": board,
        "data": board.to_dict() if board else None,
        "months_chart": _months_chart(board.to_dict()["by_month"], "Plays per month, by game") if board else None,
        **_filter_context(request, f, problems),
    }
    return render(request, "frontend/stats/player.html", context)


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """One player's dashboard: record, plays over time, per game, streaks, head-to-head, first player.

    The owner also gets the people tools: an invitation link to claim the player, and merging a duplicate.
    """
    if request.method == "POST":
        return _player_tools(request, player_id)
    f, problems = _filter(request)
    board = stats.player_dashboard(user=request.user, player_id=player_id, f=f)
    player = board.players[0]
    if player.pk != player_id:
        return redirect("player", player.pk)  # a merged name: the player it now counts as
    owned = request.user.is_authenticated and player.owner_id == request.user.pk
    others = Player.objects.filter(owner=player.owner, merged_into__isnull=True).exclude(pk=player.pk) if owned else []
    return _dashboard_page(request, board, player.name, f, problems, owned=owned, merge_choices=others)


@login_required
def _player_tools(request: HttpRequest, player_id: int) -> HttpResponse:
    player = people.player_owned(user=request.user, player_id=player_id)
    try:
        if request.POST.get("action") == "invite":
            token = people.player_invite_token(user=request.user, player=player)
            link = request.build_absolute_uri(reverse("player-claim", args=[token]))
            messages.success(request, f"Send this link to {player.name}: {link}")
        elif request.POST.get("action") == "merge":
            raw = request.POST.get("into", "")
            target = people.player_owned(
                user=request.user, player_id=int(raw) if raw.isascii() and raw.isdigit() else 0
            )
            people.players_merge(user=request.user, source=player, target=target, reason=request.POST.get("reason", ""))
            messages.success(request, f"{player.name} is now counted as {target.name}; the match logs are unchanged.")
            return redirect("player", target.pk)
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect("player", player.pk)


@login_required
def player_claim_page(request: HttpRequest, token: str) -> HttpResponse:
    """Open an invitation: confirm, then link the invited player to my account."""
    if request.method == "POST":
        try:
            player = people.player_claim(user=request.user, token=token)
        except DomainError as exc:
            messages.error(request, exc.detail)
            return redirect("stats-me")
        messages.success(request, f"You now play as {player.name} in {player.owner.username}'s matches.")
        return redirect("stats-me")
    return render(request, "frontend/stats/claim.html", {"token": token})


@login_required
def my_page(request: HttpRequest) -> HttpResponse:
    """My dashboard: every player linked to my account, across every owner's matches I may see."""
    f, problems = _filter(request)
    board = stats.person_dashboard(user=request.user, person=request.user, f=f)
    return _dashboard_page(request, board, f"{request.user.username}: my plays", f, problems)


def players_page(request: HttpRequest) -> HttpResponse:
    """Everyone's record (filterable to a group and a period): who plays, who wins."""
    f, problems = _filter(request)
    rows = stats.players_table(user=request.user, f=f)
    return render(request, "frontend/stats/players.html", {"rows": rows, **_filter_context(request, f, problems)})


def game_index(request: HttpRequest) -> HttpResponse:
    """Every game with how often it was played."""
    f, problems = _filter(request)
    overview = stats.games_overview(user=request.user, f=f)
    plays = {g["game"]: g["plays"] for g in overview if g["game"] != "scoresheet"}
    games = [
        {"slug": r.slug, "title": "", "name": r.name, "plays": plays.get(r.slug, 0)}
        for r in all_rulesets(kind="match")
        if r.slug != "scoresheet"
    ]
    # every game kept on score sheets counts on its own, by the name on the sheet
    games += [
        {"slug": "scoresheet", "title": g["title"], "name": g["name"], "plays": g["plays"]}
        for g in overview
        if g["game"] == "scoresheet"
    ]
    games.sort(key=lambda g: (-g["plays"], g["name"]))
    return render(request, "frontend/stats/games.html", {"games": games, **_filter_context(request, f, problems)})


def game_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One game's dashboard: plays over time, seats, first player, length, scores, insights, top players."""
    f, problems = _filter(request)
    data = stats.game_dashboard(user=request.user, game=slug, f=f)
    months = (
        bar_chart(
            [m["month"] for m in data["by_month"]],
            {"plays": [m["plays"] for m in data["by_month"]]},
            title="Plays per month",
        )
        if data["by_month"]
        else None
    )
    buckets = data["scores"]["buckets"]
    scores = (
        bar_chart(
            [f"{b['from']:g}–{b['to']:g}" for b in buckets],
            {"scores": [b["count"] for b in buckets]},
            title="Score distribution",
        )
        if buckets
        else None
    )
    context = {
        "data": data,
        "months_chart": months,
        "scores_chart": scores,
        "insight_blocks": _insight_blocks(data),
        "gold_chart": _gold_chart(data.get("campaigns")),
        "gold_rows": [
            {**a, "campaign_id": c["campaign_id"], "name": c["name"], "gold": gp_text(a["party_gold"])}
            for c in (data.get("campaigns") or {}).get("campaigns", [])
            for a in c["adventures"]
        ],
        **_filter_context(request, f, problems),
    }
    return render(request, "frontend/stats/game.html", context)


def _insight_blocks(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each insight of the game as a chart with its table: a numeric one as a distribution (with its mean and
    median), any other as a tally of its values with each one's share."""
    blocks = []
    for n, (name, counts) in enumerate(data["insights"].items()):
        figures = data.get("insight_figures", {}).get(name)
        if figures is not None:
            labels = [
                f"{b['from']:g}" if b["to"] - b["from"] == 1 else f"{b['from']:g}–{b['to'] - 1:g}"
                for b in figures["buckets"]
            ]
            chart = bar_chart(labels, {"count": [b["count"] for b in figures["buckets"]]}, title=name.capitalize())
            blocks.append({"name": name, "id": f"insight-{n}", "figures": figures, "chart": chart})
            continue
        total = sum(counts.values())
        rows = [
            {"value": _capitalised(v), "n": c, "share": round(100 * c / total) if total else 0}
            for v, c in counts.items()
        ]
        chart = bar_chart([r["value"] for r in rows], {"count": [r["n"] for r in rows]}, title=name.capitalize())
        blocks.append({"name": name, "id": f"insight-{n}", "rows": rows, "total": total, "chart": chart})
    return blocks


def _capitalised(value: Any) -> Any:
    """An insight's value as a table row heads it: a word starts with a capital ("color" → "Color")."""
    return value[:1].upper() + value[1:] if isinstance(value, str) else value


def _gold_chart(campaigns: dict[str, Any] | None) -> dict[str, Any] | None:
    """The party's gold after each concluded adventure, one line per campaign (the most recently active)."""
    if not campaigns or not campaigns["campaigns"]:
        return None
    series = [
        {"label": c["name"], "values": [a["party_gold"] for a in c["adventures"]]}
        for c in campaigns["campaigns"][:CHART_CAMPAIGNS]
    ]
    return line_chart(
        series, title="Party gold after each adventure", x_label="Adventures concluded", y_label="Party gold (gp)",
        empty="No adventure concluded yet.", unit=("gp", "gp"), steps=("adventure", "adventures"),
    )  # fmt: skip

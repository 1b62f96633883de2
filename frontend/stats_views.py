"""Look-back pages: a player's record and a game's statistics (thin: selectors do the reading)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from matches.stats import game_stats, player_stats
from rulesets import all_rulesets


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """Overall and per-game record of one player, and their latest matches."""
    stats = player_stats(user=request.user, player_id=player_id)
    names = {r.slug: r.name for r in all_rulesets()}
    by_game = [(names.get(slug, slug), slug, rec) for slug, rec in sorted(stats.by_game.items())]
    return render(request, "frontend/stats/player.html", {"stats": stats, "by_game": by_game})


def game_index(request: HttpRequest) -> HttpResponse:
    """Every game with how often it was played."""
    games = [game_stats(user=request.user, game=r.slug) for r in all_rulesets(kind="match")]
    return render(request, "frontend/stats/games.html", {"games": games})


def game_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One game's statistics: results by seat, length, top players."""
    stats = game_stats(user=request.user, game=slug)
    total = max(1, stats.finished - stats.draws)
    seats = [(seat, wins, round(100 * wins / total)) for seat, wins in stats.wins_by_seat.items()]
    return render(request, "frontend/stats/game.html", {"stats": stats, "seats": seats})

"""REST endpoints for the statistics (thin: parse the filter, call a stats selector, render)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.stats import selectors as stats
from matches.stats.shapes import MY_DASHBOARD, GameDashboardOutput, PlayerDashboardOutput, PlayerRecordOutput
from rulesets import all_rulesets

DAY = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "maxLength": 0}]}  # a real day, or empty
FILTERS = [
    OpenApiParameter(
        "game", str, description="a game's slug (empty: every game)", enum=["", *(r.slug for r in all_rulesets())]
    ),
    OpenApiParameter("since", DAY, description="first day, YYYY-MM-DD (empty: no limit)"),
    OpenApiParameter("until", DAY, description="last day, YYYY-MM-DD, not before since (empty: no limit)"),
    OpenApiParameter(
        "players",
        str,
        description="a group: up to 12 player ids who all sat, comma-separated",
        pattern=r"^([0-9]{1,12}(,[0-9]{1,12}){0,11})?$",
    ),
]


class PlayerStatsListApi(APIView):
    """GET each player's record over the finished matches the user may see."""

    @extend_schema(
        operation_id="stats_players_list", parameters=FILTERS, responses={200: PlayerRecordOutput(many=True)}
    )
    def get(self, request: Request) -> Response:
        f = stats.stats_filter_parse(request.query_params)
        return Response(stats.players_table(user=request.user, f=f))


class PlayerStatsDetailApi(APIView):
    """GET one player's dashboard: record, per game, per month, streaks, head-to-head, first-player results."""

    @extend_schema(parameters=FILTERS, responses={200: PlayerDashboardOutput})
    def get(self, request: Request, player_id: int) -> Response:
        f = stats.stats_filter_parse(request.query_params)
        return Response(stats.player_dashboard(user=request.user, player_id=player_id, f=f).to_dict())


class MyStatsApi(APIView):
    """GET the signed-in person's dashboard: every player linked to their account, across owners."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=FILTERS, responses={200: MY_DASHBOARD})
    def get(self, request: Request) -> Response:
        f = stats.stats_filter_parse(request.query_params)
        board = stats.person_dashboard(user=request.user, person=request.user, f=f)
        return Response(board.to_dict() if board else {"players": [], "overall": stats.Record().to_dict()})


class GameStatsApi(APIView):
    """GET one game's dashboard: plays over time, seats, first player, length, scores, insights, top players."""

    @extend_schema(parameters=FILTERS[1:], responses={200: GameDashboardOutput})
    def get(self, request: Request, slug: str) -> Response:
        f = stats.stats_filter_parse(request.query_params)
        return Response(stats.game_dashboard(user=request.user, game=slug, f=f))

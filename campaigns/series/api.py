"""REST endpoints for series: create and list, one series (the shared endpoints of ``matches.api.streams``,
configured), standings; its entries use the shared event endpoint."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.series import selectors, services
from config.api import JsonInput, Shape
from matches.api.common import ERRORS, parse
from matches.api.streams import StreamDetailApi, StreamListCreateApi


class SeriesCreateInput(JsonInput):
    name = serializers.CharField(max_length=120)
    game = serializers.CharField(max_length=64, help_text="slug of the game every match of the series plays")
    options = serializers.JSONField(
        required=False, default=dict, help_text='{"place_points": [3, 2, 1]}: points for 1st, 2nd, 3rd… place'
    )
    is_public = serializers.BooleanField(required=False, default=False)
    recorders = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, default=list, max_length=20
    )


class SeriesOutput(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    is_public = serializers.BooleanField()
    place_points = serializers.ListField(child=serializers.IntegerField(), source="stream.options.place_points")
    version = serializers.IntegerField(source="stream.version")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class StandingRowOutput(Shape):
    player = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    total_score = serializers.FloatField()
    best_score = serializers.FloatField(allow_null=True)


class MatchResultOutput(Shape):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.FloatField(allow_null=True)


class MatchLineOutput(Shape):
    """``MatchLine.to_dict()``: a visible match of the series (``results`` empty until it is finished)."""

    id = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.CharField()
    finished = serializers.BooleanField()
    results = MatchResultOutput(many=True)


class StandingsOutput(Shape):
    version = serializers.IntegerField()
    latest_version = serializers.IntegerField()
    place_points = serializers.ListField(child=serializers.IntegerField())
    standings = StandingRowOutput(many=True)
    matches = MatchLineOutput(many=True)
    hidden_matches = serializers.IntegerField(help_text="matches of the series the reader may not see (left out)")


class StandingsQuery(Shape):
    at = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)


class SeriesListCreateApi(StreamListCreateApi):
    """GET visible series; POST create one (signed-in users)."""

    kind, output, create_input = "series", SeriesOutput, SeriesCreateInput
    service = staticmethod(services.series_create)


class SeriesDetailApi(StreamDetailApi):
    """GET one series."""

    kind, lookup, output = "series", "series_id", SeriesOutput


class SeriesStandingsApi(APIView):
    """GET the standings over the series' finished matches, at series version ``at`` (latest by default)."""

    @extend_schema(parameters=[StandingsQuery], responses={200: StandingsOutput, 404: ERRORS[404]})
    def get(self, request: Request, series_id: int) -> Response:
        series = selectors.series_get(user=request.user, series_id=series_id)
        query = parse(StandingsQuery, request.query_params.dict())
        table = selectors.series_standings(series=series, user=request.user, at=query["at"])
        return Response(table.to_dict())

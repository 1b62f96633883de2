"""REST endpoints moving plays between apps: BG Stats JSON out and in, a BGG-style CSV out."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import BoundedJSONParser
from matches.errors import InvalidInput
from matches.interop import bgg_csv, bgstats_export, bgstats_import

MAX_UPLOAD = 20 * 1024 * 1024

ImportOutput = inline_serializer(
    "ImportOutput",
    {
        "imported": serializers.IntegerField(),
        "skipped": serializers.IntegerField(),
        "errors": serializers.ListField(child=serializers.CharField()),
    },
)


def uploaded_json(request: Request) -> Any:
    """The BG Stats document from a JSON body or from an uploaded ``file`` field."""
    upload = request.FILES.get("file") if hasattr(request, "FILES") else None
    if upload is None:
        return request.data
    if upload.size > MAX_UPLOAD:
        raise InvalidInput({"file": [f"At most {MAX_UPLOAD // (1024 * 1024)} MB."]})
    try:
        return json.loads(upload.read().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidInput({"file": [f"Not a JSON file: {exc}"]}) from None


class BgStatsExportApi(APIView):
    """GET every finished match the user owns as a BG Stats-compatible JSON document."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiResponse(description="BG Stats JSON (games, players, locations, plays)")})
    def get(self, request: Request) -> Response:
        response = Response(bgstats_export(owner=request.user))
        response["Content-Disposition"] = 'attachment; filename="chronicle-bgstats.json"'
        return response


class BgStatsImportApi(APIView):
    """POST a BG Stats export (JSON body, or a ``file`` upload): each new play becomes a finished match."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [BoundedJSONParser, MultiPartParser]

    @extend_schema(request=dict, responses={201: ImportOutput})
    def post(self, request: Request) -> Response:
        report = bgstats_import(owner=request.user, doc=uploaded_json(request))
        return Response(report.to_dict(), status=status.HTTP_201_CREATED)


class BggCsvExportApi(APIView):
    """GET the user's finished matches as BoardGameGeek play-log fields (CSV)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={(200, "text/csv"): OpenApiResponse(description="one row per play")})
    def get(self, request: Request) -> HttpResponse:
        response = HttpResponse(bgg_csv(owner=request.user), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="chronicle-plays.csv"'
        return response

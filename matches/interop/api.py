"""REST endpoints moving plays between apps: BG Stats JSON and BGG XML, out and in (as import jobs)."""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import ErrorOutput
from matches.errors import InvalidInput, NotFound
from matches.interop.export import bgg_xml_export, bgstats_export
from matches.interop.jobs import import_job_create, import_job_progress, import_report, max_bytes
from matches.interop.me import player_claim_own
from matches.interop.models import ImportJob
from matches.interop.tasks import import_job_start

ImportOutput = inline_serializer(
    "ImportOutput",
    {
        "imported": serializers.IntegerField(),
        "skipped": serializers.IntegerField(help_text="plays already here"),
        "errors": serializers.ListField(child=serializers.CharField(), help_text="each play not imported, why"),
        "warnings": serializers.ListField(child=serializers.CharField()),
        "job": serializers.IntegerField(),
        "status": serializers.CharField(),
        "total": serializers.IntegerField(),
    },
)


ImportQueuedOutput = inline_serializer(
    "ImportQueuedOutput",
    {
        "job": serializers.IntegerField(),
        "status": serializers.CharField(),
        "total": serializers.IntegerField(),
        "url": serializers.CharField(help_text="GET it to follow the job"),
    },
)
ImportJobOutput = inline_serializer(
    "ImportJobOutput",
    {
        "id": serializers.IntegerField(),
        "status": serializers.CharField(),
        "source": serializers.CharField(),
        "file_name": serializers.CharField(),
        "total": serializers.IntegerField(),
        "done": serializers.IntegerField(),
        "imported": serializers.IntegerField(),
        "already": serializers.IntegerField(),
        "skipped": serializers.IntegerField(),
        "percent": serializers.IntegerField(),
        "seconds_left": serializers.IntegerField(allow_null=True),
        "message": serializers.CharField(),
        "owner_ref": serializers.JSONField(),
        "skipped_plays": serializers.ListField(child=serializers.JSONField()),
        "warnings": serializers.ListField(child=serializers.CharField()),
        "skipped_more": serializers.IntegerField(),
        "warnings_more": serializers.IntegerField(),
    },
)


def upload_job(request: Request, source: str) -> ImportJob:
    """The job of the file in this request: a multipart ``file`` field, else the raw body, streamed to disk
    (not held in memory, and not bound by ``CHRONICLE_MAX_BODY``: by ``CHRONICLE_IMPORT_MAX_BYTES``)."""
    django_request = request._request
    length = django_request.META.get("CONTENT_LENGTH") or "0"
    if length.isdecimal() and int(length) > max_bytes() + 64 * 1024:
        raise InvalidInput({"file": [f"At most {max_bytes() // (1024 * 1024)} MB per file."]})
    if django_request.content_type == "multipart/form-data":
        upload = django_request.FILES.get("file")
        if upload is None:
            raise InvalidInput({"file": ["Send the file as the multipart field 'file', or as the request body."]})
        return import_job_create(owner=request.user, fp=upload, file_name=upload.name or "", source=source)
    return import_job_create(owner=request.user, fp=django_request, file_name="", source=source)


def _answer(job: ImportJob) -> Response:
    if job.status == ImportJob.DONE:
        return Response(import_report(job), status=status.HTTP_201_CREATED)
    body = {"job": job.pk, "status": job.status, "total": job.total, "url": f"/api/import/jobs/{job.pk}/"}
    return Response(body, status=status.HTTP_202_ACCEPTED)


class BgStatsExportApi(APIView):
    """GET every finished match the user owns as a BG Stats-compatible JSON document."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiResponse(description="BG Stats JSON (games, players, locations, plays)")})
    def get(self, request: Request) -> Response:
        response = Response(bgstats_export(owner=request.user))
        response["Content-Disposition"] = 'attachment; filename="chronicle-bgstats.json"'
        return response


class _ImportApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    parser_classes: list = []  # the body is streamed to a file by upload_job, never parsed into memory
    source = ""

    @extend_schema(
        request={
            "application/json": OpenApiTypes.OBJECT,
            "application/xml": OpenApiTypes.STR,
            "multipart/form-data": inline_serializer("ImportUpload", {"file": serializers.FileField()}),
        },
        responses={
            201: ImportOutput,
            202: OpenApiResponse(ImportQueuedOutput, description="queued: follow the job at `url`"),
            400: OpenApiResponse(description="not a play log of that source, unsafe XML, too big; nothing written"),
        },
    )
    def post(self, request: Request) -> Response:
        return _answer(import_job_start(upload_job(request, self.source)))


class BgStatsImportApi(_ImportApi):
    """POST a BG Stats export (the JSON body, or a multipart ``file``): each new play becomes a finished match.
    201 with the report when the job ran in the request, else 202 with the job to follow."""

    source = ImportJob.SOURCE_BGSTATS


class BggImportApi(_ImportApi):
    """POST a BoardGameGeek play log (XML API2 ``plays`` pages, the body or a multipart ``file``)."""

    source = ImportJob.SOURCE_BGG


class ImportJobApi(APIView):
    """GET one of my import jobs: progress (done of total, seconds left) and its report."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiResponse(ImportJobOutput, description="the job's progress and report")})
    def get(self, request: Request, pk: int) -> Response:
        job = ImportJob.objects.filter(pk=pk, owner=request.user).first()
        if job is None:
            raise NotFound(f"No import job {pk} of yours.")
        return Response(import_job_progress(job))


class ThisIsMeApi(APIView):
    """POST {"player": id}: link one of my players (e.g. the file's owner) to my account."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=inline_serializer("ThisIsMeInput", {"player": serializers.IntegerField(help_text="one of my players")}),
        responses={
            200: inline_serializer(
                "ThisIsMeOutput",
                {
                    "player": serializers.IntegerField(),
                    "name": serializers.CharField(),
                    "user": serializers.CharField(),
                },
            ),
            404: OpenApiResponse(ErrorOutput, description="no such player of yours"),
        },
    )
    def post(self, request: Request) -> Response:
        pid = request.data.get("player") if isinstance(request.data, dict) else None
        if not isinstance(pid, int) or isinstance(pid, bool):
            raise InvalidInput({"player": ["Name the player by id."]})
        player = player_claim_own(user=request.user, player_id=pid)
        return Response({"player": player.pk, "name": player.name, "user": request.user.get_username()})


class BggXmlExportApi(APIView):
    """GET the user's finished matches as BGG's plays XML (the shape of XML API2 ``plays?username=``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={(200, "application/xml"): OpenApiResponse(description="one <play> per match")})
    def get(self, request: Request) -> HttpResponse:
        response = StreamingHttpResponse(
            bgg_xml_export(owner=request.user), content_type="application/xml; charset=utf-8"
        )
        response["Content-Disposition"] = 'attachment; filename="chronicle-plays.xml"'
        return response

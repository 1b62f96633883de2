"""The photo endpoints every stream kind shares: list and upload (multipart ``file`` + ``caption``), remove,
and the pictures themselves, served only to a reader who may see the stream (``matches.photos``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import parsers, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import BoundedJSONParser, JsonInput, Shape
from matches.api.common import ERRORS, header_key, parse
from matches.errors import InvalidInput
from matches.photos import services as photos
from matches.photos.processing import megabytes
from matches.store.streams import stream_get

BODY_SLACK = 64 * 1024  # the multipart envelope and the caption around the file
PHOTO_ID = {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,40}$"}  # ``secrets.token_urlsafe``, as photo_added holds it


class PhotoOutput(Shape):
    id = serializers.CharField()
    version = serializers.IntegerField(help_text="the photo_added entry")
    at = serializers.IntegerField(help_text="the entry the photo was taken at (0: before the first)")
    caption = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    bytes = serializers.IntegerField()
    recorded_at = serializers.CharField()
    urls = serializers.DictField(child=serializers.CharField(), help_text="size (display, thumb) → its URL")


class PhotoUploadInput(serializers.Serializer):
    file = serializers.FileField(help_text="the picture: JPEG, PNG, WebP or HEIC")
    caption = serializers.CharField(required=False, allow_blank=True, max_length=300)


class PhotoAddedOutput(Shape):
    version = serializers.IntegerField()
    photo = PhotoOutput()


class PhotoRemoveInput(JsonInput):
    reason = serializers.CharField(
        max_length=500, help_text="why the photo is removed (kept in the log)",
        error_messages={"blank": "Say why the photo is removed.", "required": "Say why the photo is removed."},
    )  # fmt: skip
    delete_file = serializers.BooleanField(
        required=False, default=False, help_text="delete the stored file too (the owner only); else it is kept"
    )


class VersionOutput(Shape):
    version = serializers.IntegerField(help_text="the entry recorded")


class StreamPhotosApi(APIView):
    """GET: the stream's photos (the reader must see the stream). POST (multipart: ``file``, ``caption``):
    add a photo as a ``photo_added`` entry; 201 with the photo, a refusal 400/413 and nothing stored."""

    kind: str = ""
    lookup: str = "pk"
    parser_classes = [parsers.MultiPartParser, parsers.FormParser]

    def get_permissions(self) -> list[Any]:
        return [permissions.IsAuthenticated()] if self.request.method == "POST" else [permissions.AllowAny()]

    def urls(self, pk: int, photo: photos.Photo) -> dict[str, str]:
        name = f"api-{self.kind}-photo-file"
        return {s: reverse(name, args=[pk, photo.id, s]) for s in photos.SIZES}

    @extend_schema(responses={200: PhotoOutput(many=True), 404: ERRORS[404]})
    def get(self, request: Request, **kwargs: Any) -> Response:
        pk = kwargs[self.lookup]
        obj = stream_get(kind=self.kind, user=request.user, pk=pk, without_state=True)
        return Response([photos.photo_json(p, self.urls(pk, p)) for p in photos.photos_of(obj.stream_id)])

    @extend_schema(
        request={"multipart/form-data": PhotoUploadInput},
        responses={201: PhotoAddedOutput, 200: PhotoAddedOutput, **ERRORS},
    )
    def post(self, request: Request, **kwargs: Any) -> Response:
        pk = kwargs[self.lookup]
        obj = stream_get(kind=self.kind, user=request.user, pk=pk, without_state=True)
        length = request.META.get("CONTENT_LENGTH") or ""
        limit = settings.CHRONICLE_PHOTO_MAX_BYTES
        if length.isdecimal() and int(length) > limit + BODY_SLACK:  # refused before the body is read
            raise photos.PhotoNotTaken(
                "too_large", f"This upload is {megabytes(int(length))}; the limit is {megabytes(limit)} per photo."
            )
        if not (request.content_type or "").startswith("multipart/form-data"):
            raise InvalidInput({"file": ["Send the photo as multipart/form-data, in the field 'file'."]})
        result, photo = photos.photo_add(
            obj=obj, user=request.user, upload=request.FILES.get("file"), caption=request.data.get("caption", ""),
            request_id=getattr(request, "request_id", ""), idempotency_key=header_key(request.META),
        )  # fmt: skip
        body = {"version": result.version, "photo": photos.photo_json(photo, self.urls(pk, photo))}
        return Response(body, status=status.HTTP_200_OK if result.repeated else status.HTTP_201_CREATED)


class StreamPhotoRemoveApi(APIView):
    """POST ``{reason, delete_file}``: remove a photo (a ``photo_removed`` entry); its file is deleted (the
    owner only) or kept."""

    kind: str = ""
    lookup: str = "pk"
    parser_classes = [BoundedJSONParser]
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PhotoRemoveInput,
        responses={201: VersionOutput, **ERRORS},
        parameters=[OpenApiParameter("photo_id", PHOTO_ID, OpenApiParameter.PATH)],
    )
    def post(self, request: Request, **kwargs: Any) -> Response:
        obj = stream_get(kind=self.kind, user=request.user, pk=kwargs[self.lookup], without_state=True)
        body = parse(PhotoRemoveInput, request.data)
        result = photos.photo_remove(
            obj=obj, user=request.user, photo_id=kwargs["photo_id"], reason=body["reason"],
            delete_file=body["delete_file"], request_id=getattr(request, "request_id", ""),
        )  # fmt: skip
        return Response({"version": result.version}, status=status.HTTP_201_CREATED)


class _PictureSchema(AutoSchema):
    """The picture's operation is named apart from the photo list's (their paths differ only by parameters)."""

    def get_operation_id(self) -> str:
        return super().get_operation_id() + "_picture"


class StreamPhotoFileApi(APIView):
    """GET one picture of a photo (``display`` or ``thumb``), to a reader who may see the stream; 404 else."""

    kind: str = ""
    lookup: str = "pk"
    permission_classes = [permissions.AllowAny]
    schema = _PictureSchema()

    @extend_schema(
        responses={(200, "image/jpeg"): bytes, 304: None, 404: ERRORS[404]},
        parameters=[
            OpenApiParameter("photo_id", PHOTO_ID, OpenApiParameter.PATH),
            OpenApiParameter("size", str, OpenApiParameter.PATH, enum=list(photos.SIZES)),
        ],
    )
    def get(self, request: Request, **kwargs: Any) -> Any:
        obj = stream_get(kind=self.kind, user=request.user, pk=kwargs[self.lookup], without_state=True)
        return photos.photo_response(request, obj.stream_id, kwargs["photo_id"], kwargs["size"])


def photo_routes(prefix: str, kind: str, lookup: str) -> list[Any]:
    """The three photo routes of a stream kind under ``prefix`` (e.g. ``matches/<int:match_id>/``)."""
    from django.urls import path

    opts = {"kind": kind, "lookup": lookup}
    return [
        path(f"{prefix}photos/", StreamPhotosApi.as_view(**opts), name=f"api-{kind}-photos"),
        path(
            f"{prefix}photos/<str:photo_id>/remove/", StreamPhotoRemoveApi.as_view(**opts),
            name=f"api-{kind}-photo-remove",
        ),
        path(
            f"{prefix}photos/<str:photo_id>/<str:size>/", StreamPhotoFileApi.as_view(**opts),
            name=f"api-{kind}-photo-file",
        ),
    ]  # fmt: skip

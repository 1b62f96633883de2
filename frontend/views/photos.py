"""The photo pages every stream kind with photos shares (a match, a campaign): add one from the page's form,
remove one, and serve the pictures to a reader who may see the stream (``matches.photos``).

A kind's URL module takes its routes from :func:`photo_urls`, naming its page and the view that redraws it with
a refusal explained (``problem.origin == "photo"``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_POST

from matches.errors import DomainError
from matches.photos import services as photos
from matches.photos.processing import megabytes
from matches.store.streams import stream_get

Redraw = Callable[..., HttpResponse]  # (request, pk, *, problem, status) -> the kind's page
BODY_SLACK = 64 * 1024


def photo_list(kind: str, obj: Any, *, upto: int | None = None) -> list[dict[str, Any]]:
    """The photos of ``obj`` shown on its pages, newest first, with their URLs (``upto``: a replay shows only
    those recorded up to that entry)."""
    out = []
    for p in reversed(photos.photos_of(obj.stream_id)):
        if upto is not None and p.version > upto:
            continue
        out.append(
            {
                "id": p.id, "version": p.version, "at": p.at, "caption": p.caption, "width": p.width,
                "height": p.height, "recorded_at": p.recorded_at,
                "thumb": reverse(f"{kind}-photo", args=[obj.pk, p.id, "thumb"]),
                "display": reverse(f"{kind}-photo", args=[obj.pk, p.id, "display"]),
                "remove": reverse(f"{kind}-photo-remove", args=[obj.pk, p.id]),
            }
        )  # fmt: skip
    return out


def photo_context(kind: str, obj: Any, user: Any, *, upto: int | None = None, can_add: bool = False) -> dict[str, Any]:
    """What ``frontend/_photos.html`` draws: the photos, the form's URL, whether the reader may add (and, the
    owner, delete files), the limits in words."""
    return {
        "photos": photo_list(kind, obj, upto=upto),
        "photo_add_url": reverse(f"{kind}-photo-add", args=[obj.pk]),
        "photo_can_add": can_add,
        "photo_is_owner": bool(user and user.is_authenticated and user.pk == obj.owner_id),
        "photo_limit": megabytes(settings.CHRONICLE_PHOTO_MAX_BYTES),
    }


def photo_urls(kind: str, prefix: str, page: str, redraw: Redraw) -> list[Any]:
    """The three photo routes of ``kind`` under ``prefix`` (``matches/<int:pk>/``): add, remove, picture."""
    return [
        path(f"{prefix}photos/", _add_view(kind, page, redraw), name=f"{kind}-photo-add"),
        path(f"{prefix}photos/<str:photo_id>/remove/", _remove_view(kind, page, redraw), name=f"{kind}-photo-remove"),
        path(f"{prefix}photos/<str:photo_id>/<str:size>.jpg", _file_view(kind), name=f"{kind}-photo"),
    ]


def _refused(redraw: Redraw, request: HttpRequest, pk: int, exc: DomainError) -> HttpResponse:
    problem = {"detail": exc.detail, "origin": "photo"}
    return redraw(request, pk, problem=problem, status=exc.status_code)


def _add_view(kind: str, page: str, redraw: Redraw) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    def add(request: HttpRequest, pk: int) -> HttpResponse:
        obj = stream_get(kind=kind, user=request.user, pk=pk, without_state=True)
        length = request.META.get("CONTENT_LENGTH") or ""
        limit = settings.CHRONICLE_PHOTO_MAX_BYTES
        try:
            if length.isdecimal() and int(length) > limit + BODY_SLACK:  # refused before the body is read
                raise photos.PhotoNotTaken(
                    "too_large", f"This upload is {megabytes(int(length))}; the limit is {megabytes(limit)} per photo."
                )
            _, photo = photos.photo_add(
                obj=obj, user=request.user, upload=request.FILES.get("photo"), caption=request.POST.get("caption", ""),
                request_id=getattr(request, "request_id", ""),
                idempotency_key=(request.POST.get("idempotency_key") or None),
            )  # fmt: skip
        except DomainError as exc:
            return _refused(redraw, request, pk, exc)
        messages.success(
            request, f"Photo added as entry {photo.version}" + (f": {photo.caption}" if photo.caption else ".")
        )
        return redirect(reverse(page, args=[pk]) + "#photos")

    add.__doc__ = f"Add a photo to a {kind} (multipart: photo, caption)."
    return add


def _remove_view(kind: str, page: str, redraw: Redraw) -> Callable[..., HttpResponse]:
    @login_required
    @require_POST
    def remove(request: HttpRequest, pk: int, photo_id: str) -> HttpResponse:
        obj = stream_get(kind=kind, user=request.user, pk=pk, without_state=True)
        delete = request.POST.get("file") == "deleted"
        try:
            photos.photo_remove(
                obj=obj, user=request.user, photo_id=photo_id, reason=request.POST.get("reason", ""),
                delete_file=delete, request_id=getattr(request, "request_id", ""),
            )  # fmt: skip
        except DomainError as exc:
            return _refused(redraw, request, pk, exc)
        messages.success(request, "Photo removed; its file was " + ("deleted." if delete else "kept."))
        return redirect(reverse(page, args=[pk]) + "#photos")

    remove.__doc__ = f"Remove a photo of a {kind} (reason; file deleted or kept)."
    return remove


def _file_view(kind: str) -> Callable[..., HttpResponse]:
    @require_GET
    def picture(request: HttpRequest, pk: int, photo_id: str, size: str) -> HttpResponse:
        obj = stream_get(kind=kind, user=request.user, pk=pk, without_state=True)
        return photos.photo_response(request, obj.stream_id, photo_id, size)

    picture.__doc__ = f"One picture of a {kind}'s photo, to a reader who may see the {kind}."
    return picture

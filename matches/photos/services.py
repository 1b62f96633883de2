"""Photos of the table as entries of a stream (a match of any game, a campaign; a Bone Wars sitting is its
match's stream): upload, list, serve, remove.

A photo is two JPEG files (display size and thumbnail, :mod:`matches.photos.processing`) stored through Django's
storage API (``default_storage``: the filesystem under ``MEDIA_ROOT``, or S3 with django-storages) under a random
name, and one ``photo_added`` entry holding their keys, the caption, the sizes and ``at``: the entry the photo was
taken at (the last entry of the log that is not a photo). ``photo_removed`` hides it again, with a reason, and
says whether the file was deleted or kept. The files are never reachable by a URL of their own: only through
the app, after the same visibility check as the stream's page (``frontend.views.photos``).

Contracts: whoever may record on the stream may add a photo (and remove one keeping its file); only the owner
may have the file deleted. A refused upload stores nothing: neither file nor entry.

Limits count what is stored, not what is shown: a photo's files are stored from its ``photo_added`` until a
``photo_removed`` that deletes them (a removal keeping the file, a voided entry, still hold their files). An
entry takes at most ``CHRONICLE_PHOTOS_PER_ENTRY`` stored photos, and an account (the one that added them) at
most ``CHRONICLE_PHOTO_QUOTA_BYTES`` of stored photo files, wherever they are.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Max

from matches.errors import DomainError, InvalidInput, NotAllowed, NotFound
from matches.models import Event as EventRow
from matches.photos.processing import PhotoRefused, megabytes, process
from matches.store import events as store
from matches.store.streams import kind_of, stream_record
from matches.store.visibility import UserLike, can_record
from rulesets.replay import EVENT_VOIDED, PHOTO_ADDED, PHOTO_REMOVED, PHOTO_TYPES

SIZES = ("display", "thumb")
FOLDER = "photos"


class PhotoNotTaken(DomainError):
    """An upload refused before anything was stored (``code`` ``photo_refused``; ``reason`` says why:
    ``not_an_image``, ``too_large`` (413), ``too_many_pixels``, ``too_many_photos``, ``quota_full`` (413),
    ``no_file``)."""

    code = "photo_refused"

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.status_code = 413 if reason in ("too_large", "quota_full") else 400

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class Photo:
    """One photo that is shown: ``version`` of its ``photo_added`` entry, ``at`` the entry it was taken at."""

    id: str
    version: int
    at: int
    caption: str
    display: str
    thumb: str
    width: int
    height: int
    bytes: int
    recorded_by_id: int | None
    recorded_at: datetime


def limits() -> tuple[int, int, int]:
    """``(max bytes per photo, max pixels, photos per entry)`` from the settings."""
    return (
        settings.CHRONICLE_PHOTO_MAX_BYTES, settings.CHRONICLE_PHOTO_MAX_PIXELS, settings.CHRONICLE_PHOTOS_PER_ENTRY
    )  # fmt: skip


# -- reads --------------------------------------------------------------------------------------------------


def photos_of(stream_id: int) -> list[Photo]:
    """The photos of a stream that are shown, oldest first: added, not voided, not removed (a removal that is
    voided brings its photo back, unless its file was deleted)."""
    rows = list(  # through the partial index of photo entries: a stream without photos costs one empty probe
        EventRow.objects.filter(stream_id=stream_id, type__in=tuple(sorted(PHOTO_TYPES)))
        .order_by("version")
        .values_list("version", "type", "data", "recorded_by_id", "recorded_at")
    )
    if not rows:
        return []
    wanted = {v for v, *_ in rows}
    voids = EventRow.objects.filter(stream_id=stream_id, type=EVENT_VOIDED, version__gt=rows[0][0])
    voided = {int(d["version"]) for d in voids.values_list("data", flat=True)} & wanted
    gone: set[str] = set()
    for version, type_, data, _, _ in rows:
        if type_ == PHOTO_REMOVED and (version not in voided or data.get("file") == "deleted"):
            gone.add(data["photo"])
    return [
        Photo(
            id=d["photo"],
            version=v,
            at=d["at"],
            caption=d.get("caption", ""),
            display=d["display"],
            thumb=d["thumb"],
            width=d["width"],
            height=d["height"],
            bytes=d["bytes"],
            recorded_by_id=by,
            recorded_at=at_,
        )
        for v, t, d, by, at_ in rows
        if t == PHOTO_ADDED and v not in voided and d["photo"] not in gone
    ]


def photo_get(stream_id: int, photo_id: str) -> Photo:
    """A shown photo of the stream, else :class:`NotFound` (a removed one, another stream's, a made-up id)."""
    found = next((p for p in photos_of(stream_id) if p.id == photo_id), None)
    if found is None:
        raise NotFound("No such photo here.")
    return found


def photo_file(photo: Photo, size: str) -> IO[bytes]:
    """The stored JPEG of ``photo`` in ``size`` (``display`` or ``thumb``), open for reading; NotFound when the
    store no longer has it."""
    if size not in SIZES:
        raise NotFound("No such photo size.")
    name = photo.display if size == "display" else photo.thumb
    try:
        return default_storage.open(name, "rb")
    except (FileNotFoundError, OSError):
        raise NotFound("This photo's file is no longer stored.") from None


def _deleted(rows: Any) -> set[str]:
    """The photo ids of ``rows`` (photo entries) whose files a removal deleted."""
    return {d["photo"] for t, d in rows if t == PHOTO_REMOVED and d.get("file") == "deleted"}


def stored_at(stream_id: int, at: int) -> int:
    """How many photos taken at entry ``at`` of the stream have their files stored (shown, removed keeping the
    file, or voided: everything added there and not deleted)."""
    rows = list(
        EventRow.objects.filter(stream_id=stream_id, type__in=tuple(sorted(PHOTO_TYPES))).values_list("type", "data")
    )
    gone = _deleted(rows)
    return sum(1 for t, d in rows if t == PHOTO_ADDED and d.get("at") == at and d["photo"] not in gone)


def stored_bytes(user: UserLike) -> int:
    """The bytes of photo files ``user`` added that are still stored, across every stream."""
    added = list(EventRow.objects.filter(recorded_by_id=user.pk, type=PHOTO_ADDED).values_list("stream_id", "data"))
    if not added:
        return 0
    removals = EventRow.objects.filter(stream_id__in={s for s, _ in added}, type=PHOTO_REMOVED)
    gone = _deleted((PHOTO_REMOVED, d) for d in removals.values_list("data", flat=True))
    return sum(int(d.get("bytes", 0)) for _, d in added if d["photo"] not in gone)


def taken_at(stream_id: int) -> int:
    """The entry a photo taken now belongs to: the last version that is not a photo entry (0 before any)."""
    found = EventRow.objects.filter(stream_id=stream_id).exclude(type__in=PHOTO_TYPES).aggregate(v=Max("version"))
    return int(found["v"] or 0)


# -- writes -------------------------------------------------------------------------------------------------


def _read(upload: IO[bytes] | bytes | None, max_bytes: int) -> bytes:
    if upload is None:
        raise PhotoNotTaken("no_file", "Choose a photo to add (no file was sent).")
    if isinstance(upload, bytes):
        return upload
    size = getattr(upload, "size", None)
    if size is not None and size > max_bytes:
        raise PhotoNotTaken(
            "too_large", f"This photo is {megabytes(size)}; the limit is {megabytes(max_bytes)} per photo."
        )
    return upload.read(max_bytes + 1)


def photo_add(
    *, obj: Any, user: UserLike, upload: IO[bytes] | bytes | None, caption: str = "", request_id: str = "",
    idempotency_key: str | None = None,
) -> tuple[store.AppendResult, Photo]:  # fmt: skip
    """Process ``upload``, store its two files and record ``photo_added`` on ``obj``'s stream.

    Raises :class:`NotAllowed` (not a recorder), :class:`PhotoNotTaken` (the file, its size, its pixels, the
    photos per entry), ``InvalidInput`` (the caption); then nothing is stored. A repeated ``idempotency_key``
    returns the first upload's entry and stores nothing more."""
    spec = kind_of(obj)
    if not can_record(user, obj):
        raise NotAllowed(f"Only the {spec.noun}'s owner and the recorders they named may add photos.")
    caption = caption if isinstance(caption, str) else ""
    caption = caption.strip()
    if len(caption) > 300:
        raise InvalidInput({"caption": ["At most 300 characters."]})
    if idempotency_key is not None:  # a retried upload: the first one's entry, nothing processed or stored
        first = EventRow.objects.filter(stream_id=obj.stream_id, idempotency_key=idempotency_key).first()
        if first is not None and first.type == PHOTO_ADDED:
            pos = store.position_at(obj.stream_id, first.version)
            replayed = store.AppendResult(first.position, first.version, pos.state, pos.override_pending, repeated=True)
            return replayed, _photo_shown_or_gone(obj.stream_id, first)
    max_bytes, max_pixels, per_entry = limits()
    at = taken_at(obj.stream_id)
    already = stored_at(obj.stream_id, at)
    if already >= per_entry:
        raise PhotoNotTaken(
            "too_many_photos",
            f"This entry has {already} photos stored already (removed ones whose files were kept count); at most "
            f"{per_entry} photos per entry.",
        )
    data = _read(upload, max_bytes)
    try:
        processed = process(
            data, max_bytes=max_bytes, max_pixels=max_pixels, max_decoded=settings.CHRONICLE_PHOTO_MAX_DECODED_BYTES
        )
    except PhotoRefused as refused:
        raise PhotoNotTaken(refused.code, refused.message) from None
    _check_quota(user, len(processed.display.data) + len(processed.thumb.data))
    photo_id = secrets.token_urlsafe(18)
    names: list[str] = []
    try:
        for size, rendition in (("display", processed.display), ("thumb", processed.thumb)):
            names.append(
                default_storage.save(f"{FOLDER}/{obj.stream_id}/{photo_id}-{size}.jpg", ContentFile(rendition.data))
            )
        payload = {
            "photo": photo_id, "caption": caption, "at": at, "display": names[0], "thumb": names[1],
            "width": processed.display.width, "height": processed.display.height,
            "bytes": len(processed.display.data) + len(processed.thumb.data), "source": processed.source_format,
        }  # fmt: skip
        with transaction.atomic():
            result = stream_record(
                obj=obj, user=user, type=PHOTO_ADDED, data=payload, request_id=request_id,
                idempotency_key=idempotency_key, photo=True,
            )  # fmt: skip
    except BaseException:
        _delete(names)
        raise
    return result, photo_get(obj.stream_id, photo_id)


def _check_quota(user: UserLike, adding: int) -> None:
    """Refuse (``quota_full``) when ``adding`` bytes would take ``user``'s stored photos over the quota."""
    quota = settings.CHRONICLE_PHOTO_QUOTA_BYTES
    used = stored_bytes(user)
    if used + adding > quota:
        raise PhotoNotTaken(
            "quota_full",
            f"Your photos take {megabytes(used)} of your {megabytes(quota)}; this one does not fit. Delete photos you no longer need, or ask "
            "the owners to (a photo removed keeping its file still counts).",
        )


def _photo_shown_or_gone(stream_id: int, row: EventRow) -> Photo:
    """The photo of a ``photo_added`` row (NotFound when it was removed since)."""
    return photo_get(stream_id, row.data["photo"])


def photo_remove(
    *, obj: Any, user: UserLike, photo_id: str, reason: str, delete_file: bool, request_id: str = ""
) -> store.AppendResult:
    """Record ``photo_removed`` (``reason`` required); with ``delete_file`` (the owner only) its files are deleted
    from the store once the entry is committed, else kept. Raises NotAllowed, NotFound, InvalidInput."""
    spec = kind_of(obj)
    if not can_record(user, obj):
        raise NotAllowed(f"Only the {spec.noun}'s owner and the recorders they named may remove photos.")
    if delete_file and user.pk != obj.owner_id:
        raise NotAllowed(f"Only the {spec.noun}'s owner may delete a photo's file; remove it keeping the file.")
    photo = photo_get(obj.stream_id, photo_id)
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise InvalidInput({"reason": ["Say why the photo is removed."]})
    data = {"photo": photo.id, "reason": reason, "file": "deleted" if delete_file else "kept"}
    with transaction.atomic():
        result = stream_record(obj=obj, user=user, type=PHOTO_REMOVED, data=data, request_id=request_id, photo=True)
        if delete_file:
            transaction.on_commit(lambda: _delete([photo.display, photo.thumb]))
    return result


def _delete(names: list[str]) -> None:
    for name in names:
        with contextlib.suppress(OSError):  # a store that cannot delete now keeps an unreachable file
            default_storage.delete(name)


def photo_json(photo: Photo, urls: dict[str, str]) -> dict[str, Any]:
    """What a client is told of a photo (``urls``: size → where the app serves it); never a storage key."""
    return {
        "id": photo.id, "version": photo.version, "at": photo.at, "caption": photo.caption, "width": photo.width,
        "height": photo.height, "bytes": photo.bytes, "recorded_at": photo.recorded_at.isoformat(), "urls": urls,
    }  # fmt: skip


def photo_response(request: Any, stream_id: int, photo_id: str, size: str) -> Any:
    """The HTTP answer serving a photo's ``size`` to a reader already allowed to see its stream: the JPEG with
    ``Cache-Control: private, no-cache`` and an ETag (a browser keeps it but asks again each time, so a reader
    who lost access, e.g. when the match is made private, gets a 404 instead of the cached picture)."""
    from django.http import FileResponse, HttpResponseNotModified

    photo = photo_get(stream_id, photo_id)
    etag = f'"{photo.id}-{size}"'
    if request.META.get("HTTP_IF_NONE_MATCH") == etag:
        response: Any = HttpResponseNotModified()
    else:
        response = FileResponse(photo_file(photo, size), content_type="image/jpeg")
        response["Content-Disposition"] = f'inline; filename="photo-{photo.version}-{size}.jpg"'
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response

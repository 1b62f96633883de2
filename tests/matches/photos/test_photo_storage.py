"""What photos may take (issue 41, around the seats): the per-entry limit counts what is stored, an account has a
storage quota, and decoding is bounded in memory whatever the file's shape. Refusals are clear 4xx answers and
store nothing. Over HTTP."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from matches.models import Event as EventRow
from matches.photos import processing
from matches.services import match_create
from tests.matches.photos.pictures import phone_jpeg

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


def stored(media: Path) -> list[Path]:
    return sorted(p for p in media.rglob("*") if p.is_file())


def upload(client, match_id, data, name="IMG.jpg"):
    body = {"caption": "", "file": SimpleUploadedFile(name, data, content_type="image/jpeg")}
    return client.post(f"/api/matches/{match_id}/photos/", body, format="multipart")


def remove(client, match_id, photo_id, delete_file=False):
    body = {"reason": "blurred", "delete_file": delete_file}
    return client.post(f"/api/matches/{match_id}/photos/{photo_id}/remove/", body, format="json")


@pytest.fixture
def sheet(owner):
    return match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)


def test_removing_keeping_the_file_does_not_free_the_entry(api, sheet, media, settings):
    settings.CHRONICLE_PHOTOS_PER_ENTRY = 2
    ids = [upload(api, sheet.pk, phone_jpeg()).json()["photo"]["id"] for _ in range(2)]
    assert remove(api, sheet.pk, ids[0]).status_code == 201  # removed, its file kept: still stored
    r = upload(api, sheet.pk, phone_jpeg())
    assert r.status_code == 400 and r.json()["reason"] == "too_many_photos"
    assert "removed ones whose files were kept count" in r.json()["detail"] and "at most 2" in r.json()["detail"]
    assert len(stored(media)) == 4
    assert remove(api, sheet.pk, ids[1], delete_file=True).status_code == 201  # deleted: that frees a place
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 201


def test_an_account_has_a_storage_quota(api, sheet, media, settings, owner):
    first = upload(api, sheet.pk, phone_jpeg())
    size = first.json()["photo"]["bytes"]
    settings.CHRONICLE_PHOTO_QUOTA_BYTES = size * 2 + size // 2
    other = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    assert upload(api, other.pk, phone_jpeg()).status_code == 201  # the quota is the account's, across matches
    before = EventRow.objects.count()
    r = upload(api, sheet.pk, phone_jpeg())
    assert r.status_code == 413 and r.json()["code"] == "photo_refused" and r.json()["reason"] == "quota_full"
    assert "does not fit" in r.json()["detail"] and "MB" in r.json()["detail"]
    assert len(stored(media)) == 4 and EventRow.objects.count() == before  # nothing stored
    assert remove(api, sheet.pk, first.json()["photo"]["id"]).status_code == 201  # kept file: still counted
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 413
    assert remove(api, other.pk, upload_id(other), delete_file=True).status_code == 201
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 201  # a deleted file frees its bytes


def upload_id(match):
    return EventRow.objects.filter(stream_id=match.stream_id, type="photo_added").values_list("data", flat=True)[0][
        "photo"
    ]


def test_the_quota_is_the_uploaders(api, sheet, media, settings, make_user, client_for):
    bo = make_user("bo")
    sheet.recorders.add(bo)
    size = upload(api, sheet.pk, phone_jpeg()).json()["photo"]["bytes"]
    settings.CHRONICLE_PHOTO_QUOTA_BYTES = size + size // 2
    assert upload(client_for(bo), sheet.pk, phone_jpeg()).status_code == 201  # Bo's own quota
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 413


def test_the_quota_default_is_settable_and_generous(settings):
    assert settings.CHRONICLE_PHOTO_QUOTA_BYTES >= 100 * 1024 * 1024


# -- decoding, bounded -----------------------------------------------------------------------------------------


def png_of(mode: str, side: int, **save) -> bytes:
    buf = io.BytesIO()
    Image.new(mode, (side, side)).save(buf, "PNG", optimize=True, **save)
    return buf.getvalue()


@pytest.mark.parametrize("mode", ["LA", "RGBA", "RGB"])
def test_a_picture_that_would_take_too_much_memory_is_refused_before_decoding(api, sheet, media, mode):
    data = png_of(mode, 7700)  # 59 MP: under the pixel limit, 237 MB decoded at 4 bytes a pixel
    assert len(data) < 1_000_000
    r = upload(api, sheet.pk, data, name="big.png")
    assert r.status_code == 400 and r.json()["reason"] == "too_many_pixels", r.json()
    assert "send it as a JPEG, or smaller" in r.json()["detail"] and "7700 × 7700" in r.json()["detail"]
    assert stored(media) == [] and not EventRow.objects.filter(stream_id=sheet.stream_id).exists()


@pytest.mark.parametrize("mode", ["L", "P", "I;16", "LA", "P+transparency"])
def test_a_large_picture_within_the_budget_is_reduced_first(api, sheet, media, mode):
    side = 5000 if mode[0] in ("L", "P") and mode != "LA" else 4000
    extra = {"transparency": 0} if mode == "P+transparency" else {}
    r = upload(api, sheet.pk, png_of(mode.split("+")[0], side, **extra), name="large.png")
    assert r.status_code == 201, r.json()
    assert r.json()["photo"]["width"] == 1600 and r.json()["photo"]["height"] == 1600


def test_a_large_jpeg_is_decoded_reduced(monkeypatch):
    img = Image.new("RGB", (6000, 4000), (10, 120, 200))
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=70)
    loaded = []
    real = Image.Image.load

    def spy(self):
        loaded.append(self.size)
        return real(self)

    monkeypatch.setattr(Image.Image, "load", spy)
    out = processing.process(buf.getvalue(), max_bytes=10**8, max_pixels=10**8, max_decoded=25 * 1024 * 1024)
    assert out.display.width == 1600 and max(loaded) <= (3000, 2000)  # libjpeg's 1/2 scale: 24 MB, not 96


def test_decoded_bytes_per_mode():
    assert processing.decoded_bytes("L", 10, 10) == 100
    assert processing.decoded_bytes("I;16", 10, 10) == 200
    assert processing.decoded_bytes("LA", 10, 10) == processing.decoded_bytes("RGB", 10, 10) == 400

"""Processing an upload (matches.photos.processing): orientation applied, every piece of metadata gone (GPS above
all), two sizes kept, HEIC accepted, and every refusal said in words."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from matches.photos.processing import PhotoRefused, process
from tests.matches.photos.pictures import NOT_AN_IMAGE, bomb, fake_jpeg, heic, phone_jpeg, png

pytestmark = pytest.mark.pure

LIMITS = {"max_bytes": 5 * 1024 * 1024, "max_pixels": 50_000_000}


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_gps_exif_and_xmp_are_gone_and_orientation_applied():
    source = phone_jpeg(400, 200, orientation=6)
    assert _open(source).getexif().get_ifd(0x8825)  # the upload has a GPS position
    out = process(source, **LIMITS)
    for rendition in (out.display, out.thumb):
        img = _open(rendition.data)
        assert img.format == "JPEG"
        assert "exif" not in img.info and "xmp" not in img.info and "icc_profile" not in img.info
        assert len(img.getexif()) == 0
        assert b"Exif" not in rendition.data and b"xmpmeta" not in rendition.data and b"Phone 15" not in rendition.data
    display = _open(out.display.data).convert("RGB")
    assert display.size == (200, 400)  # orientation 6: turned a quarter clockwise
    top, bottom = display.getpixel((100, 20)), display.getpixel((100, 380))
    assert top[0] > 150 and top[2] < 100  # the red left half is now on top
    assert bottom[2] > 150 and bottom[0] < 100


def test_display_and_thumbnail_sizes():
    out = process(phone_jpeg(4000, 3000, orientation=1), **LIMITS)
    assert (out.display.width, out.display.height) == (1600, 1200)
    assert (out.thumb.width, out.thumb.height) == (320, 240)
    assert (out.source_width, out.source_height, out.source_format) == (4000, 3000, "JPEG")
    small = process(phone_jpeg(300, 100, orientation=1), **LIMITS)
    assert (small.display.width, small.display.height) == (300, 100)  # never enlarged


def test_heic_is_accepted_and_stripped():
    out = process(heic(), **LIMITS)
    assert out.source_format == "HEIC"
    img = _open(out.display.data)
    assert img.format == "JPEG" and len(img.getexif()) == 0 and img.size == (300, 200)


def test_transparent_png_is_laid_on_white():
    out = process(png(), **LIMITS)
    assert _open(out.display.data).convert("RGB").getpixel((10, 10)) == pytest.approx((255, 255, 255), abs=3)


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (NOT_AN_IMAGE, "not_an_image", "not a picture"),
        (b"", "not_an_image", "empty"),
        (fake_jpeg(), "not_an_image", "damaged or not really a picture"),
        (bomb(), "too_many_pixels", "at most 50 megapixels"),
    ],
)
def test_refusals(data, code, words):
    with pytest.raises(PhotoRefused) as refused:
        process(data, **LIMITS)
    assert refused.value.code == code
    assert words in refused.value.message


def test_over_the_byte_limit_says_the_limit():
    with pytest.raises(PhotoRefused) as refused:
        process(phone_jpeg(), max_bytes=1000, max_pixels=50_000_000)
    assert refused.value.code == "too_large"
    assert "the limit is" in refused.value.message and "MB" in refused.value.message


def test_a_bomb_over_pillows_own_limit_is_a_refusal_too(monkeypatch):
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    with pytest.raises(PhotoRefused) as refused:
        process(phone_jpeg(400, 200), **LIMITS)
    assert refused.value.code == "too_many_pixels"


def test_a_picture_format_that_is_not_a_photo_is_refused():
    buf = io.BytesIO()
    Image.new("RGB", (10, 10)).save(buf, "TIFF")
    with pytest.raises(PhotoRefused) as refused:
        process(buf.getvalue(), **LIMITS)
    assert refused.value.code == "not_an_image" and "TIFF" in refused.value.message

"""Pictures built in code for the photo tests: a phone JPEG with GPS, orientation and XMP, HEIC, bombs, fakes."""

from __future__ import annotations

import io

from PIL import ExifTags, Image

GPS = {1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)}  # a home's coordinates


def phone_jpeg(width: int = 400, height: int = 200, *, orientation: int = 6, gps: bool = True) -> bytes:
    """A JPEG as a phone writes it: EXIF with an orientation, a GPS position and a camera model, and XMP.
    The left half is red and the right half blue, so a test can see where the picture was turned."""
    img = Image.new("RGB", (width, height), (220, 20, 20))
    img.paste((20, 20, 220), (width // 2, 0, width, height))
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x0110] = "Phone 15"
    if gps:
        exif.get_ifd(ExifTags.IFD.GPSInfo).update(GPS)
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif, xmp=b'<x:xmpmeta xmlns:x="adobe:ns:meta/">at home</x:xmpmeta>', quality=90)
    return buf.getvalue()


def heic(width: int = 300, height: int = 200) -> bytes:
    """An HEIC picture as an iPhone sends it (with EXIF GPS)."""
    import pillow_heif  # noqa: F401  (registers the HEIF plugin)

    img = Image.new("RGB", (width, height), (20, 180, 20))
    exif = Image.Exif()
    exif.get_ifd(ExifTags.IFD.GPSInfo).update(GPS)
    buf = io.BytesIO()
    img.save(buf, "HEIF", exif=exif.tobytes())
    return buf.getvalue()


def png(width: int = 64, height: int = 48) -> bytes:
    buf = io.BytesIO()
    Image.new("RGBA", (width, height), (0, 0, 0, 0)).save(buf, "PNG")
    return buf.getvalue()


def bomb(width: int = 20000, height: int = 20000) -> bytes:
    """A small PNG (a few hundred KB) that decodes to ``width × height`` pixels."""
    buf = io.BytesIO()
    Image.new("1", (width, height)).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def fake_jpeg() -> bytes:
    """A file that starts as a JPEG and then is not one."""
    whole = phone_jpeg(800, 600)
    return whole[: len(whole) // 2]  # the header is whole, the pixels are cut off


NOT_AN_IMAGE = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"

"""Turning an uploaded file into the two pictures Chronicle keeps, or refusing it (pure: Pillow only).

Contract of :func:`process`: the camera's orientation is applied, then the picture is re-encoded from its
pixels alone, so nothing of the original's metadata survives (no EXIF, above all no GPS position, no XMP, no
ICC profile: a profile other than sRGB is converted to sRGB first); a display size (``DISPLAY_SIDE`` on the
long side) and a thumbnail (``THUMB_SIDE``) are returned as JPEG bytes. Anything that is not a picture Chronicle
can read, is over ``max_bytes``, or would decode to more than ``max_pixels`` (a decompression bomb) raises
:class:`PhotoRefused` with a sentence for people; nothing is decoded past the header in those cases.

Memory is bounded whatever the file's shape (docs/ARCHITECTURE.md › Photos): a JPEG is decoded already reduced
(``Image.draft``, libjpeg's 1/2, 1/4, 1/8 scaling); any other picture is decoded once and at once reduced
(``Image.reduce``, or a nearest-pixel resize for palette and 16-bit modes) to under twice the display size,
before any conversion. What one decode may take (the pixels × the bytes Pillow keeps per pixel of that mode,
:func:`decoded_bytes`) is capped by ``max_decoded`` (``CHRONICLE_PHOTO_MAX_DECODED_BYTES``): a picture that would
take more is refused like a bomb, before its pixels are read.
"""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

try:  # HEIC/HEIF from iPhones
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - pinned in requirements.txt
    pass

MAX_DECODED = 100 * 1024 * 1024  # what one decode may take (the setting's default)
# bytes Pillow keeps per pixel of a decoded frame: one-band 8-bit modes 1, 16-bit modes 2, every other mode 4
_BYTES_PER_PIXEL = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2, "I;16N": 2}
_NEAREST_MODES = {"1", "P", "PA", "I;16", "I;16B", "I;16L", "I;16N"}  # Image.reduce refuses or mixes them
DISPLAY_SIDE = 1600
THUMB_SIDE = 320
QUALITY = 82
THUMB_QUALITY = 78
# what a camera or a gallery hands over; anything else Pillow could read (PSD, TIFF, ...) is not a photo here
FORMATS = {"JPEG": "JPEG", "MPO": "JPEG", "PNG": "PNG", "WEBP": "WebP", "HEIF": "HEIC", "GIF": "GIF"}
KINDS = "JPEG, PNG, WebP, HEIC/HEIF or GIF"


class PhotoRefused(Exception):
    """The upload is not stored. ``code``: ``not_an_image``, ``too_large``, ``too_many_pixels``;
    ``message``: what to tell the person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Rendition:
    """One stored picture: JPEG bytes and its size in pixels."""

    data: bytes
    width: int
    height: int


@dataclass(frozen=True)
class Processed:
    """What an upload becomes: the display picture, the thumbnail, and what the original was."""

    display: Rendition
    thumb: Rendition
    source_format: str
    source_width: int
    source_height: int


def megabytes(n: int) -> str:
    """``n`` bytes in words ("10 MB", "1.5 MB")."""
    mb = n / (1024 * 1024)
    return f"{mb:.0f} MB" if mb >= 10 or mb == int(mb) else f"{mb:.1f} MB"


def decoded_bytes(mode: str, width: int, height: int) -> int:
    """The memory one decoded frame of ``mode`` and this size takes in Pillow."""
    return width * height * _BYTES_PER_PIXEL.get(mode, 4)


def process(
    data: bytes, *, max_bytes: int, max_pixels: int, display_side: int = DISPLAY_SIDE, thumb_side: int = THUMB_SIDE,
    max_decoded: int = MAX_DECODED,
) -> Processed:  # fmt: skip
    """The display picture and thumbnail of the uploaded ``data``; raises :class:`PhotoRefused`. No decode takes
    more than ``max_decoded`` bytes (module docstring)."""
    if len(data) > max_bytes:
        raise PhotoRefused(
            "too_large", f"This photo is {megabytes(len(data))}; the limit is {megabytes(max_bytes)} per photo."
        )
    if not data:
        raise PhotoRefused("not_an_image", "The file is empty: choose a photo.")
    image = _open(data, max_pixels)
    source = FORMATS[image.format or ""]
    width, height = image.size
    try:
        if image.format in ("JPEG", "MPO"):  # decode at 1/2, 1/4 or 1/8 when that still covers the display size
            scale = min(1.0, display_side / max(width, height))
            image.draft("RGB", (math.ceil(width * scale), math.ceil(height * scale)))
        if decoded_bytes(image.mode, *image.size) > max_decoded:
            raise _too_big_to_decode(image, max_decoded)
        image.load()
        image = _reduced(image, display_side)
        image = ImageOps.exif_transpose(image)
        pixels = _srgb_pixels(image)
    except PhotoRefused:
        raise
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise PhotoRefused("not_an_image", f"This {source} file is damaged or not really a picture ({exc}).") from None
    display = _fit(pixels, display_side)
    thumb = _fit(display, thumb_side)
    return Processed(
        display=_jpeg(display, QUALITY), thumb=_jpeg(thumb, THUMB_QUALITY), source_format=source,
        source_width=width, source_height=height,
    )  # fmt: skip


def _open(data: bytes, max_pixels: int) -> Image.Image:
    """The image's header read (no pixels decoded yet); refused when not a known picture or too many pixels."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _bomb(max_pixels) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise PhotoRefused("not_an_image", f"This file is not a picture Chronicle can read ({KINDS}).") from None
    if image.format not in FORMATS:
        raise PhotoRefused("not_an_image", f"{image.format} files are not taken as photos; send {KINDS}.")
    width, height = image.size
    if width < 1 or height < 1 or width * height > max_pixels:
        raise _bomb(max_pixels, width, height)
    return image


def _reduced(image: Image.Image, side: int) -> Image.Image:
    """``image`` reduced by a whole factor while its long side stays at least ``side`` (itself when it is that
    small already); the decoded original can then be freed before any conversion."""
    factor = max(image.size) // side
    if factor < 2:
        return image
    if image.mode in _NEAREST_MODES:
        return image.resize((max(1, image.width // factor), max(1, image.height // factor)), Image.Resampling.NEAREST)
    if image.mode in ("LA", "RGBA"):  # Image.reduce would first copy the whole picture premultiplied: band by band
        bands = [image.getchannel(i).reduce(factor) for i in range(len(image.getbands()))]
        return Image.merge(image.mode, bands)
    return image.reduce(factor)


def _too_big_to_decode(image: Image.Image, max_decoded: int) -> PhotoRefused:
    width, height = image.size
    most = max_decoded // _BYTES_PER_PIXEL.get(image.mode, 4)
    return PhotoRefused(
        "too_many_pixels",
        f"This picture has too many pixels for its kind ({width} × {height}); at most {most / 1e6:.0f} megapixels "
        "are taken in this format: send it as a JPEG, or smaller.",
    )


def _bomb(max_pixels: int, width: int = 0, height: int = 0) -> PhotoRefused:
    size = f" ({width} × {height})" if width else ""
    return PhotoRefused(
        "too_many_pixels",
        f"This picture has too many pixels{size}; at most {max_pixels / 1e6:.0f} megapixels are taken.",
    )


def _srgb_pixels(image: Image.Image) -> Image.Image:
    """A fresh RGB image holding only the pixels (converted to sRGB when the original carried a profile);
    transparency is laid on white. Nothing of ``image.info`` is carried over."""
    if getattr(image, "n_frames", 1) > 1:
        image.seek(0)
    icc = image.info.get("icc_profile")
    if image.mode not in ("RGB", "L"):
        rgba = image.convert("RGBA")
        image = Image.new("RGB", rgba.size, (255, 255, 255))
        image.paste(rgba, mask=rgba.getchannel("A"))
    elif image.mode == "L":
        image = image.convert("RGB")
    if icc:
        image = _to_srgb(image, icc)
    clean = Image.new("RGB", image.size)
    clean.paste(image)
    return clean


def _to_srgb(image: Image.Image, icc: bytes) -> Image.Image:
    try:
        from PIL import ImageCms

        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"), outputMode="RGB")
    except Exception:  # a broken or unsupported profile: keep the pixels as they are
        return image


def _fit(image: Image.Image, side: int) -> Image.Image:
    if max(image.size) <= side:
        return image.copy()
    out = image.copy()
    out.thumbnail((side, side), Image.Resampling.LANCZOS, reducing_gap=2.0)
    return out


def _jpeg(image: Image.Image, quality: int) -> Rendition:
    buf = io.BytesIO()
    image.save(buf, "JPEG", quality=quality, optimize=True, progressive=True)
    return Rendition(buf.getvalue(), image.width, image.height)

"""manage.py bench photos: what a photo of the table costs (docs/PERFORMANCE.md, *Photos*).

1. The time to process a 12-megapixel phone JPEG (4000 × 3000, EXIF with orientation and GPS) into the two
   stored pictures (``matches.photos.processing.process``), median of ``--repeat`` runs, against the same run's
   baseline: a plain Pillow decode of the same file and a save at full size (what any re-encoding costs).
2. The bytes stored per photo (display picture + thumbnail) against the upload's own size.
3. The page weight of a match history with ``--photos`` (50) photos on its first page: the HTML, and the
   thumbnails it refers to
   (``loading="lazy"``: a phone fetches those near its screen, the rest as it scrolls).

Step 3 writes a user, a match and its photos inside a transaction that is rolled back at the end, the files in
a temporary folder (removed), so it may run against any database. Exit code 0 whatever the figures.
"""

from __future__ import annotations

import io
import tempfile
import time
from typing import Any

from django.db import transaction

from benchmarks.harness import Out, median_ms, test_client_open

HELP = "Benchmark photo processing, bytes stored per photo and a 50-photo history page."
POSTGRES = ""


def phone_photo(width: int = 4000, height: int = 3000) -> bytes:
    """A phone-like JPEG: a smooth scene with grain (what a camera's noise costs an encoder), quality 90,
    with EXIF (orientation 6, a GPS position, a camera model)."""
    from PIL import ExifTags, Image

    scene = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    grain = Image.effect_noise((width, height), 24).convert("RGB")
    img = Image.blend(scene, grain, 0.35)
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x0110] = "Bench phone"
    exif.get_ifd(ExifTags.IFD.GPSInfo).update({1: "N", 2: (48.0, 51.0, 24.0), 3: "E", 4: (2.0, 21.0, 3.0)})
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=90, exif=exif)
    return buf.getvalue()


class _Rollback(Exception):
    pass


def add_arguments(parser: Any) -> None:
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median)")
    parser.add_argument("--photos", type=int, default=50, help="photos on the history page")


def run(options: dict[str, Any], out: Out) -> None:
    from PIL import Image

    from matches.photos.processing import process

    repeat = max(1, options["repeat"])
    source = phone_photo()
    out(f"source: 4000 × 3000 JPEG (12 MP), {len(source):,} bytes, EXIF with GPS")

    def baseline() -> None:
        img = Image.open(io.BytesIO(source))
        img.load()
        img.save(io.BytesIO(), "JPEG", quality=82)

    limits = {"max_bytes": 50 * 1024 * 1024, "max_pixels": 60_000_000}
    base_ms = median_ms(baseline, repeat)
    ms = median_ms(lambda: process(source, **limits), repeat)
    made = process(source, **limits)
    out(f"baseline, plain Pillow decode + save at full size: {base_ms:.0f} ms (median of {repeat})")
    out(f"process (orient, strip, 1600 px + 320 px JPEG): {ms:.0f} ms ({ms / base_ms:.2f} × baseline)")
    stored = len(made.display.data) + len(made.thumb.data)
    out(
        f"stored per photo: {stored:,} bytes (display {made.display.width}×{made.display.height} "
        f"{len(made.display.data):,} + thumbnail {made.thumb.width}×{made.thumb.height} {len(made.thumb.data):,}); "
        f"{stored / len(source):.1%} of the upload"
    )
    _history(out, options["photos"], source)


def _history(out: Out, count: int, source: bytes) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client, override_settings

    from matches.photos.services import photo_add, photos_of
    from matches.services import match_create, match_event_record

    scratch = {"MEDIA_ROOT": "", "ALLOWED_HOSTS": ["*"], "CHRONICLE_PHOTOS_PER_ENTRY": count}
    with (
        tempfile.TemporaryDirectory() as media,
        test_client_open(),
        override_settings(**{**scratch, "MEDIA_ROOT": media}),
    ):
        try:
            with transaction.atomic():
                user = get_user_model().objects.create_user(username="bench-photos-user", password="x-bench-9")
                match = match_create(owner=user, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
                start = time.perf_counter()
                match_event_record(match=match, user=user, type="points_scored", seat=0, data={"points": 1})
                for i in range(count):  # one page of the history (50 entries): every photo on it
                    photo_add(obj=match, user=user, upload=source, caption=f"Photo {i + 1} of the table")
                took = time.perf_counter() - start
                client = Client()
                client.force_login(user)
                html = client.get(f"/matches/{match.pk}/history/").content
                shown = photos_of(match.stream_id)
                thumbs = sum(_size(p.thumb) for p in shown)
                on_page = html.count(b'loading="lazy"')
                lines = [
                    f"history with {count} photos ({count + 1} entries; {count} uploads in {took:.1f} s, "
                    f"{took / count * 1000:.0f} ms each through the service):",
                    f"  the page's HTML: {len(html):,} bytes, {on_page} thumbnails on the page, lazy-loaded",
                    f"  its thumbnails: {thumbs:,} bytes in all ({thumbs // max(1, len(shown)):,} each)",
                    f"  page weight with every thumbnail fetched: {len(html) + thumbs:,} bytes",
                    f"  on a phone's first screen (HTML + 3 thumbnails): "
                    f"{len(html) + 3 * thumbs // max(1, len(shown)):,} bytes",
                ]
                out("\n".join(lines))
                raise _Rollback
        except _Rollback:
            pass


def _size(name: str) -> int:
    from django.core.files.storage import default_storage

    return default_storage.size(name)

"""manage.py bench photo_memory: the peak memory of processing the worst-shaped photos (docs/PERFORMANCE.md,
*Photo memory*).

Each picture is built here, written to a temporary file, and processed in a fresh Python process of its own
(``matches.photos.processing.process`` with the server's limits), which reports the growth of its peak resident
memory (``VmHWM`` after, minus ``VmRSS`` before, the peak reset first through ``/proc/self/clear_refs``). The
shapes: grey+alpha, 16-bit grey, palette, 1-bit, RGBA, huge-but-tiny PNGs and GIFs (a few hundred KB that decode
to up to 60 megapixels), a huge JPEG. The baseline, in the same run: a plain Pillow decode of an ordinary photo
(a 12-megapixel phone JPEG, decoded at full size); each figure is given as a ratio of it. Linux only (it reads
``/proc``). Writes nothing to the database. Exit code 0 whatever the figures.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings

from benchmarks.harness import Out

HELP = "Peak memory of processing the worst-shaped photos, against a plain decode of an ordinary photo."
POSTGRES = ""

_CHILD = r"""
import gc, io, json, sys
from pathlib import Path

def status(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
    return 0

from PIL import Image
from matches.photos import processing
path, how, limits = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
data = Path(path).read_bytes()
gc.collect()
try:
    Path("/proc/self/clear_refs").write_text("5")  # reset the peak (VmHWM) to the current size
except OSError:
    pass
before = status("VmRSS")
outcome = "processed"
if how == "plain":
    img = Image.open(io.BytesIO(data))
    img.load()
    outcome = f"decoded {img.size[0]} x {img.size[1]} {img.mode}"
else:
    try:
        processing.process(data, **limits)
    except processing.PhotoRefused as refused:
        outcome = f"refused ({refused.code})"
print(json.dumps({"peak": status("VmHWM") - before, "outcome": outcome}))
"""


def _png(mode: str, side: int, **save: Any) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new(mode, (side, side)).save(buf, "PNG", optimize=True, **save)
    return buf.getvalue()


def _gif(side: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("P", (side, side)).save(buf, "GIF")
    return buf.getvalue()


def _jpeg(width: int, height: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 160)).save(buf, "JPEG", quality=60)
    return buf.getvalue()


def shapes() -> list[tuple[str, Any]]:
    """``(label, builder)`` for each shape measured (built one at a time: some take a few hundred MB to build)."""
    return [
        ("grey+alpha PNG 7700 × 7700 (the issue's file)", lambda: _png("LA", 7700)),
        ("grey+alpha PNG 5000 × 5000", lambda: _png("LA", 5000)),
        ("16-bit grey PNG 7000 × 7000", lambda: _png("I;16", 7000)),
        ("palette PNG 7700 × 7700", lambda: _png("P", 7700)),
        ("palette PNG with transparency 7700 × 7700", lambda: _png("P", 7700, transparency=0)),
        ("1-bit PNG 7700 × 7700", lambda: _png("1", 7700)),
        ("RGBA PNG 5100 × 5100", lambda: _png("RGBA", 5100)),
        ("palette GIF 7700 × 7700", lambda: _gif(7700)),
        ("JPEG 9000 × 6600 (59 MP)", lambda: _jpeg(9000, 6600)),
    ]


def add_arguments(parser: Any) -> None:
    parser.add_argument("--only", default="", help="measure only the shapes whose label contains this text")


def run(options: dict[str, Any], out: Out) -> None:
    from benchmarks.photos_bench import phone_photo

    limits = {
        "max_bytes": settings.CHRONICLE_PHOTO_MAX_BYTES,
        "max_pixels": settings.CHRONICLE_PHOTO_MAX_PIXELS,
        "max_decoded": settings.CHRONICLE_PHOTO_MAX_DECODED_BYTES,
    }
    with tempfile.TemporaryDirectory() as folder:
        ordinary = phone_photo()
        base = _measure(Path(folder), ordinary, "plain", limits)
        out(
            f"baseline: plain Pillow decode of a 12 MP phone JPEG ({len(ordinary):,} bytes): "
            f"{base['peak'] / 2**20:.0f} MB ({base['outcome']})"
        )
        rows = [("process: the same 12 MP phone JPEG", ordinary)]
        for label, build in shapes():
            if options["only"] in label:
                rows.append((label, build()))
                _row(out, Path(folder), *rows.pop(), base["peak"], limits)
        if rows:
            _row(out, Path(folder), *rows[0], base["peak"], limits)


def _row(out: Out, folder: Path, label: str, data: bytes, base: int, limits: dict[str, int]) -> None:
    got = _measure(folder, data, "process", limits)
    out(
        f"{label}, {len(data):,} bytes: peak {got['peak'] / 2**20:.0f} MB, "
        f"{got['peak'] / max(1, base):.2f} × baseline, {got['outcome']}"
    )


def _measure(folder: Path, data: bytes, how: str, limits: dict[str, int]) -> dict[str, Any]:
    path = folder / "picture"
    path.write_bytes(data)
    root = str(Path(settings.BASE_DIR))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), how, json.dumps(limits)],
        capture_output=True, text=True, cwd=root, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])

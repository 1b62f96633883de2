"""The rulesets the server runs, served to the browser as one archive (Pyodide runs them offline).

``rulesets_archive()`` zips the *installed* ``rulesets`` package (every ``.py`` file under its directory, nothing
else) once per process; its URL carries the first 12 hex digits of the archive's SHA-256, so a service worker
may keep it forever and a new deployment's rules get a new URL. ``/offline/rulesets.json`` names the current
URLs (``offline_urls``), as does the match page's seed (``frontend.selectors.offline_seed``).
"""

from __future__ import annotations

import functools
import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import path, reverse
from django.views.decorators.http import require_GET

import rulesets

PYODIDE_VERSION = "314.0.8"
PYODIDE_DIR = "frontend/vendor/pyodide/"  # static path of the vendored Pyodide (frontend/static/…)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
FOREVER = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Archive:
    """The rulesets archive: its bytes, SHA-256 (hex) and the package files in it (paths in the zip)."""

    data: bytes
    sha256: str
    files: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"rulesets-{self.sha256[:12]}.zip"


def package_sources(root: Path | None = None) -> dict[str, bytes]:
    """Every ``.py`` file of the installed ``rulesets`` package, by its path in the archive (``rulesets/…``)."""
    root = root or Path(rulesets.__file__).resolve().parent
    return {
        f"rulesets/{p.relative_to(root).as_posix()}": p.read_bytes()
        for p in sorted(root.rglob("*.py"))
        if "__pycache__" not in p.parts
    }


@functools.cache
def rulesets_archive() -> Archive:
    """The archive of the rulesets this process runs, built once (the same bytes for the same sources)."""
    sources = package_sources()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, content in sources.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # no clock: same sources, same bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, content)
    data = buffer.getvalue()
    return Archive(data=data, sha256=hashlib.sha256(data).hexdigest(), files=tuple(sources))


def offline_urls() -> dict[str, str]:
    """Where the browser finds the rules: the archive's URL (content-addressed), Pyodide's directory and every
    file of it a page loads (for a service worker to keep)."""
    archive = rulesets_archive()
    return {
        "rulesets_url": reverse("offline-rulesets", args=[archive.sha256[:12]]),
        "rulesets_sha256": archive.sha256,
        "pyodide_url": static(PYODIDE_DIR),
        "pyodide_version": PYODIDE_VERSION,
        "pyodide_files": [static(PYODIDE_DIR + name) for name in PYODIDE_FILES],
    }


@require_GET
def rulesets_zip(request: HttpRequest, sha: str) -> HttpResponse:
    """The archive under its content address; any other address is a 404 (an old deployment's rules)."""
    archive = rulesets_archive()
    if sha != archive.sha256[:12]:
        raise Http404("No such rulesets archive (the rules have changed: ask /offline/rulesets.json).")
    response = HttpResponse(archive.data, content_type="application/zip")
    response["Cache-Control"] = FOREVER
    response["ETag"] = f'"{archive.sha256}"'
    return response


@require_GET
def rulesets_json(request: HttpRequest) -> JsonResponse:
    """The current archive's URL (stable address; never cached for long: it changes with a deployment)."""
    response = JsonResponse(offline_urls())
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [
    path("rulesets-<str:sha>.zip", rulesets_zip, name="offline-rulesets"),
    path("rulesets.json", rulesets_json, name="offline-rulesets-json"),
]

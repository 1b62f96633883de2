"""The rulesets the server runs, served to the browser as one archive (Pyodide runs them offline), and a second
archive with what draws the boards (``frontend/offline/board.py``).

``rulesets_archive()`` zips the *installed* ``rulesets`` package (every ``.py`` file under its directory, nothing
else) once per process; its URL carries the first 12 hex digits of the archive's SHA-256, so a service worker
may keep it forever and a new deployment's rules get a new URL. ``board_archive()`` is built the same way from
the board modules, their templates and the modules of the installed Django its template engine imports when run
standalone (``ENGINE_MODULES``); the page fetches it only when it draws a board offline. ``/offline/rulesets.json``
names the current URLs (``offline_urls``), as does the match page's seed (``frontend.selectors.offline_seed``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
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


# What Django's template engine imports when frontend/offline/board.py configures it and every board template is
# compiled and drawn, in an interpreter that imported nothing else (tests/frontend/test_offline_bundle.py finds the
# set again and holds it equal): no ORM models, no apps, no contrib, no locale but English's formats. asgiref
# comes with django.utils.autoreload (imported by the template engine).
ENGINE_MODULES = (
    "asgiref", "asgiref.current_thread_executor", "asgiref.local", "asgiref.sync",
    "django", "django.apps", "django.apps.config", "django.apps.registry", "django.conf",
    "django.conf.global_settings", "django.conf.locale", "django.conf.locale.en", "django.conf.locale.en.formats",
    "django.core", "django.core.cache", "django.core.cache.backends", "django.core.cache.backends.base",
    "django.core.cache.backends.filebased", "django.core.checks", "django.core.checks.async_checks",
    "django.core.checks.caches", "django.core.checks.commands", "django.core.checks.compatibility",
    "django.core.checks.compatibility.django_4_0", "django.core.checks.database", "django.core.checks.files",
    "django.core.checks.messages", "django.core.checks.model_checks", "django.core.checks.registry",
    "django.core.checks.security", "django.core.checks.security.base", "django.core.checks.security.csrf",
    "django.core.checks.security.sessions", "django.core.checks.templates", "django.core.checks.translation",
    "django.core.checks.urls", "django.core.exceptions", "django.core.files", "django.core.files.base",
    "django.core.files.locks", "django.core.files.move", "django.core.files.utils", "django.core.signals",
    "django.core.validators", "django.db", "django.db.utils", "django.dispatch", "django.dispatch.dispatcher",
    "django.template", "django.template.autoreload", "django.template.backends", "django.template.backends.base",
    "django.template.backends.django", "django.template.base", "django.template.context",
    "django.template.defaultfilters", "django.template.defaulttags", "django.template.engine",
    "django.template.exceptions", "django.template.library", "django.template.loader_tags",
    "django.template.loaders", "django.template.loaders.base", "django.template.loaders.cached",
    "django.template.loaders.filesystem", "django.template.smartif", "django.template.utils", "django.utils",
    "django.utils._os", "django.utils.autoreload", "django.utils.connection", "django.utils.datastructures",
    "django.utils.dateformat", "django.utils.dates", "django.utils.deconstruct", "django.utils.deprecation",
    "django.utils.encoding", "django.utils.formats", "django.utils.functional", "django.utils.hashable",
    "django.utils.html", "django.utils.http", "django.utils.inspect", "django.utils.ipv6",
    "django.utils.lorem_ipsum", "django.utils.module_loading", "django.utils.numberformat",
    "django.utils.regex_helper", "django.utils.safestring", "django.utils.text", "django.utils.timesince",
    "django.utils.timezone", "django.utils.translation", "django.utils.translation.trans_null",
    "django.utils.translation.trans_real", "django.utils.version",
)  # fmt: skip
# our modules the offline board runs: the entry point, the dispatcher, the pure forms, every game's board
BOARD_MODULES = (
    "frontend", "frontend.boards", "frontend.boards.shared", "frontend.forms", "frontend.forms.inputs",
    "frontend.offline", "frontend.offline.board",
)  # fmt: skip
BOARD_TEMPLATES = ("frontend/boards/*.html", "frontend/_input.html")  # under frontend/templates/


@dataclass(frozen=True)
class Archive:
    """An archive: its bytes, SHA-256 (hex) and the files in it (paths in the zip); ``kind``: rulesets or boards."""

    data: bytes
    sha256: str
    files: tuple[str, ...]
    kind: str = "rulesets"

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.sha256[:12]}.zip"


def package_sources(root: Path | None = None) -> dict[str, bytes]:
    """Every ``.py`` file of the installed ``rulesets`` package, by its path in the archive (``rulesets/…``)."""
    root = root or Path(rulesets.__file__).resolve().parent
    return {
        f"rulesets/{p.relative_to(root).as_posix()}": p.read_bytes()
        for p in sorted(root.rglob("*.py"))
        if "__pycache__" not in p.parts
    }


def _zip(sources: dict[str, bytes], kind: str) -> Archive:
    """``sources`` (path in the zip → bytes) zipped with no clock in it: the same sources give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, content in sources.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # no clock: same sources, same bytes
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, content)
    data = buffer.getvalue()
    return Archive(data=data, sha256=hashlib.sha256(data).hexdigest(), files=tuple(sources), kind=kind)


@functools.cache
def rulesets_archive() -> Archive:
    """The archive of the rulesets this process runs, built once (the same bytes for the same sources)."""
    return _zip(package_sources(), "rulesets")


def module_file(name: str) -> tuple[str, Path]:
    """The installed module ``name``'s source: its path in an archive (``django/template/base.py``) and on disk."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise LookupError(f"{name} has no Python source to bundle")
    origin = Path(spec.origin)
    parts = name.split(".")
    inside = "/".join(parts) + ("/__init__.py" if origin.name == "__init__.py" else ".py")
    return inside, origin


def board_sources() -> dict[str, bytes]:
    """Every file the offline board needs besides the rulesets (path in the archive → bytes): the engine's
    modules, ours (``BOARD_MODULES`` and every game's board module) and the board templates."""
    from frontend.boards.shared import BOARDS

    names = [*ENGINE_MODULES, *BOARD_MODULES, *sorted({t.split(":")[0] for t in BOARDS.values()})]
    sources = {}
    for name in names:
        inside, origin = module_file(name)
        sources[inside] = origin.read_bytes()
    templates = Path(__file__).resolve().parents[1] / "templates"  # frontend/templates
    for pattern in BOARD_TEMPLATES:
        for file in sorted(templates.glob(pattern)):
            sources[f"frontend/templates/{file.relative_to(templates).as_posix()}"] = file.read_bytes()
    return dict(sorted(sources.items()))


@functools.cache
def board_archive() -> Archive:
    """The archive the page draws boards with offline, built once per process."""
    return _zip(board_sources(), "boards")


def offline_urls() -> dict[str, str]:
    """Where the browser finds the rules: the archive's URL (content-addressed), Pyodide's directory and every
    file of it a page loads (for a service worker to keep)."""
    archive = rulesets_archive()
    return {
        "rulesets_url": reverse("offline-rulesets", args=[archive.sha256[:12]]),
        "rulesets_sha256": archive.sha256,
        "boards_url": reverse("offline-boards", args=[board_archive().sha256[:12]]),
        "boards_sha256": board_archive().sha256,
        "pyodide_url": static(PYODIDE_DIR),
        "pyodide_version": PYODIDE_VERSION,
        "pyodide_files": [static(PYODIDE_DIR + name) for name in PYODIDE_FILES],
    }


def _archive_response(archive: Archive, sha: str) -> HttpResponse:
    if sha != archive.sha256[:12]:
        raise Http404(f"No such {archive.kind} archive (it has changed: ask /offline/rulesets.json).")
    response = HttpResponse(archive.data, content_type="application/zip")
    response["Cache-Control"] = FOREVER
    response["ETag"] = f'"{archive.sha256}"'
    return response


@require_GET
def rulesets_zip(request: HttpRequest, sha: str) -> HttpResponse:
    """The archive under its content address; any other address is a 404 (an old deployment's rules)."""
    return _archive_response(rulesets_archive(), sha)


@require_GET
def boards_zip(request: HttpRequest, sha: str) -> HttpResponse:
    """The boards archive under its content address (as :func:`rulesets_zip`)."""
    return _archive_response(board_archive(), sha)


@require_GET
def rulesets_json(request: HttpRequest) -> JsonResponse:
    """The current archive's URL (stable address; never cached for long: it changes with a deployment)."""
    response = JsonResponse(offline_urls())
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [
    path("rulesets-<str:sha>.zip", rulesets_zip, name="offline-rulesets"),
    path("boards-<str:sha>.zip", boards_zip, name="offline-boards"),
    path("rulesets.json", rulesets_json, name="offline-rulesets-json"),
]

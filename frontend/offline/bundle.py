"""The rulesets the server runs, served to the browser as one archive (Pyodide runs them offline), and a second
archive with what draws the boards (``frontend/offline/board.py``).

``rulesets_archive()`` zips the *installed* ``rulesets`` package (every ``.py`` file under its directory, nothing
else) once per process; its URL carries the first 12 hex digits of the archive's SHA-256, so a service worker
may keep it forever and a new deployment's rules get a new URL. ``board_archive()`` is built the same way from
the board modules, their templates and the modules of the installed Django its template engine imports when run
standalone (``ENGINE_MODULES``); the page fetches it only when it draws a board offline. ``/offline/rulesets.json``
names the current URLs (``offline_urls``), as does the match page's seed (``frontend.selectors.offline_seed``).

``stdlib_archive()`` is Pyodide's standard library (the vendored ``python_stdlib.zip``) trimmed to the modules the
offline code imports in Pyodide (``STDLIB_MODULES``), which the page hands to ``loadPyodide({stdLibURL})`` instead
of the whole one. Every archive is a stored zip (no deflate inside) sent with Brotli or gzip as the request
accepts (``Content-Encoding``, ``Vary: Accept-Encoding``), each encoding made once per process and archive
(``encoded``): one compression over the whole archive beats deflating each file.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import importlib.util
import io
import threading
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import path, reverse
from django.views.decorators.http import require_GET

import rulesets
from config.static import brotli_compress

PYODIDE_VERSION = "314.0.8"
PYODIDE_DIR = "frontend/vendor/pyodide/"  # static path of the vendored Pyodide (frontend/static/…)
# the files of it a page loads (not python_stdlib.zip: the page loads ``stdlib_archive()`` instead)
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
PYODIDE_STDLIB = "python_stdlib.zip"
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

# The standard library's modules the offline code imports in Pyodide (Pyodide's own start included): every one
# imported once every game's moves, refusals, undos, boards and new matches have run there with the whole
# library (``manage.py bench offline --stdlib-imports`` lists them again). The browser tests run on this list
# alone (tests/frontend/test_browser_offline_rules.py); a module missing from it fails to import there.
STDLIB_MODULES: tuple[str, ...] = (
    "__future__", "_collections_abc", "_colorize", "_compat_pickle", "_markupbase", "_opcode_metadata",
    "_py_warnings", "_pyodide", "_pyodide._base", "_pyodide._core_docs", "_pyodide._future_helper",
    "_pyodide._importhook", "_pyodide.docs_argspec", "_pyodide.docstring", "_pyodide.jsbind", "_sitebuiltins", "_ssl",
    "_sysconfigdata__emscripten_wasm32-emscripten", "_weakrefset", "abc", "annotationlib", "ast", "asyncio",
    "asyncio.base_events", "asyncio.base_futures", "asyncio.base_subprocess", "asyncio.base_tasks",
    "asyncio.constants", "asyncio.coroutines", "asyncio.events", "asyncio.exceptions", "asyncio.format_helpers",
    "asyncio.futures", "asyncio.graph", "asyncio.locks", "asyncio.log", "asyncio.mixins", "asyncio.protocols",
    "asyncio.queues", "asyncio.runners", "asyncio.selector_events", "asyncio.sslproto", "asyncio.staggered",
    "asyncio.streams", "asyncio.subprocess", "asyncio.taskgroups", "asyncio.tasks", "asyncio.threads",
    "asyncio.timeouts", "asyncio.transports", "asyncio.trsock", "asyncio.unix_events", "base64", "bisect", "bz2",
    "calendar", "codecs", "codeop", "collections", "compression", "compression._common",
    "compression._common._streams", "compression.zstd", "compression.zstd._zstdfile", "concurrent",
    "concurrent.futures", "concurrent.futures._base", "concurrent.futures.thread", "contextlib", "contextvars",
    "copy", "copyreg", "dataclasses", "datetime", "decimal", "dis", "email", "email._encoded_words",
    "email._parseaddr", "email._policybase", "email.base64mime", "email.charset", "email.encoders", "email.errors",
    "email.header", "email.iterators", "email.message", "email.quoprimime", "email.utils", "encodings",
    "encodings.aliases", "encodings.cp437", "encodings.utf_8", "enum", "fnmatch", "functools", "genericpath",
    "gettext", "glob", "gzip", "hashlib", "heapq", "hmac", "html", "html.entities", "html.parser", "importlib",
    "importlib._abc", "importlib._bootstrap", "importlib._bootstrap_external", "importlib.abc", "importlib.machinery",
    "importlib.util", "inspect", "io", "ipaddress", "json", "json.decoder", "json.encoder", "json.scanner", "keyword",
    "linecache", "locale", "logging", "lzma", "ntpath", "numbers", "opcode", "operator", "os", "pathlib",
    "pathlib._os", "pickle", "pkgutil", "posixpath", "pprint", "pyodide", "pyodide._package_loader", "pyodide._state",
    "pyodide.code", "pyodide.common", "pyodide.ffi", "pyodide.webloop", "queue", "quopri", "random", "re",
    "re._casefix", "re._compiler", "re._constants", "re._parser", "reprlib", "secrets", "selectors", "shutil",
    "signal", "site", "socket", "ssl", "stat", "string", "struct", "subprocess", "sysconfig", "tempfile", "textwrap",
    "threading", "token", "tokenize", "traceback", "types", "typing", "urllib", "urllib.parse", "uuid", "warnings",
    "weakref", "zipfile", "zipfile._path", "zipfile._path.glob", "zipimport", "zoneinfo", "zoneinfo._common",
    "zoneinfo._tzpath",
)  # fmt: skip


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


def _zip(sources: dict[str, bytes], kind: str, compression: int = zipfile.ZIP_STORED) -> Archive:
    """``sources`` (path in the zip → bytes) in a stored zip (the response compresses it whole: ``encoded``; or
    deflated, ``compression``) with no clock in it: the same sources give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression, compresslevel=9) as zf:
        for name, content in sources.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))  # no clock: same sources, same bytes
            info.compress_type = compression
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


def vendored_stdlib() -> Path:
    """Pyodide's whole standard library, as vendored (``frontend/static/frontend/vendor/pyodide/``)."""
    found = finders.find(PYODIDE_DIR + PYODIDE_STDLIB)
    if not isinstance(found, str):
        raise LookupError(f"{PYODIDE_DIR}{PYODIDE_STDLIB} is not among the static files")
    return Path(found)


def stdlib_sources(modules: tuple[str, ...] = STDLIB_MODULES) -> dict[str, bytes]:
    """The files of ``modules`` in the vendored standard library (a package's ``__init__.py``; its submodules
    only where listed), by their path in the zip; a name it does not have is a LookupError."""
    sources = {}
    with zipfile.ZipFile(vendored_stdlib()) as zf:
        present = set(zf.namelist())
        for name in modules:
            base = name.replace(".", "/")
            inside = next((p for p in (base + ".py", base + "/__init__.py") if p in present), None)
            if inside is None:
                raise LookupError(f"{name} is not in Pyodide's {PYODIDE_STDLIB}")
            sources[inside] = zf.read(inside)
    return dict(sorted(sources.items()))


@functools.cache
def stdlib_archive() -> Archive:
    """The trimmed standard library the page starts Pyodide with, built once per process."""
    return _zip(stdlib_sources(), "stdlib")


def offline_urls() -> dict[str, Any]:
    """Where the browser finds the rules: the archive's URL (content-addressed), Pyodide's directory and every
    file of it a page loads (for a service worker to keep); ``prefetch``: whether a recorder's page fetches them
    ahead (``settings.CHRONICLE_OFFLINE_PREFETCH``)."""
    archive = rulesets_archive()
    return {
        "rulesets_url": reverse("offline-rulesets", args=[archive.sha256[:12]]),
        "rulesets_sha256": archive.sha256,
        "boards_url": reverse("offline-boards", args=[board_archive().sha256[:12]]),
        "boards_sha256": board_archive().sha256,
        "stdlib_url": reverse("offline-stdlib", args=[stdlib_archive().sha256[:12]]),
        "stdlib_sha256": stdlib_archive().sha256,
        "pyodide_url": static(PYODIDE_DIR),
        "pyodide_version": PYODIDE_VERSION,
        "pyodide_files": [static(PYODIDE_DIR + name) for name in PYODIDE_FILES],
        "prefetch": settings.CHRONICLE_OFFLINE_PREFETCH,
    }


ENCODINGS = ("br", "gzip")  # preferred first
_encoded: dict[tuple[str, str], bytes] = {}
_encoding = threading.Lock()
_encoding_locks: dict[tuple[str, str], threading.Lock] = {}


def accepted_encodings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (``q=0`` refuses one; ``*`` is any of ours)."""
    accepted = set()
    for part in header.split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding and quality > 0:
            accepted |= set(ENCODINGS) if coding == "*" else {coding.lower()}
    return accepted


def encoded(archive: Archive, encoding: str) -> bytes:
    """``archive``'s bytes in ``encoding`` (br or gzip), compressed once per process and archive (Brotli's
    quality 11 under 1 MB; 10 above, where 11 would cost seconds for a few per cent)."""
    key = (archive.sha256, encoding)
    with _encoding:
        lock = _encoding_locks.setdefault(key, threading.Lock())
    with lock:  # one compression per archive and encoding, the others' requests not held up
        if key not in _encoded:
            if encoding == "br":
                _encoded[key] = brotli_compress(archive.data, big=1_000_000)  # compressed on a request: 1 MB
            else:
                _encoded[key] = gzip.compress(archive.data, compresslevel=9, mtime=0)
    return _encoded[key]


@functools.cache
def _brotli_installed() -> bool:
    return importlib.util.find_spec("brotli") is not None


def _archive_response(request: HttpRequest, archive: Archive, sha: str) -> HttpResponse:
    if sha != archive.sha256[:12]:
        raise Http404(f"No such {archive.kind} archive (it has changed: ask /offline/rulesets.json).")
    accepted = accepted_encodings(request.headers.get("Accept-Encoding", ""))
    encoding = next((e for e in ENCODINGS if e in accepted and (e != "br" or _brotli_installed())), None)
    response = HttpResponse(encoded(archive, encoding) if encoding else archive.data, content_type="application/zip")
    response["Cache-Control"] = FOREVER
    response["Vary"] = "Accept-Encoding"
    response["ETag"] = f'"{archive.sha256}-{encoding}"' if encoding else f'"{archive.sha256}"'
    if encoding:
        response["Content-Encoding"] = encoding
    return response


@require_GET
def rulesets_zip(request: HttpRequest, sha: str) -> HttpResponse:
    """The archive under its content address; any other address is a 404 (an old deployment's rules)."""
    return _archive_response(request, rulesets_archive(), sha)


@require_GET
def boards_zip(request: HttpRequest, sha: str) -> HttpResponse:
    """The boards archive under its content address (as :func:`rulesets_zip`)."""
    return _archive_response(request, board_archive(), sha)


@require_GET
def stdlib_zip(request: HttpRequest, sha: str) -> HttpResponse:
    """The trimmed standard library under its content address (as :func:`rulesets_zip`)."""
    return _archive_response(request, stdlib_archive(), sha)


@require_GET
def rulesets_json(request: HttpRequest) -> JsonResponse:
    """The current archive's URL (stable address; never cached for long: it changes with a deployment)."""
    response = JsonResponse(offline_urls())
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [
    path("rulesets-<str:sha>.zip", rulesets_zip, name="offline-rulesets"),
    path("boards-<str:sha>.zip", boards_zip, name="offline-boards"),
    path("stdlib-<str:sha>.zip", stdlib_zip, name="offline-stdlib"),
    path("rulesets.json", rulesets_json, name="offline-rulesets-json"),
]

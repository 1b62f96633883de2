"""Static files sent compressed: collectstatic's copies under STATIC_ROOT with their precompressed ``.br`` and
``.gz`` variants, chosen by the request's Accept-Encoding (``Vary: Accept-Encoding``), and the app's own copy
(``STATICFILES_FINDERS``) for a file never collected or changed since (development without collectstatic).

``StaticFilesMiddleware`` replaces WhiteNoise's middleware (``config.settings.MIDDLEWARE``). WhiteNoise with
``WHITENOISE_USE_FINDERS`` serves the app's copies before STATIC_ROOT's, so it never sends the variants
collectstatic wrote; here a collected copy wins whenever it is up to date (the rule collectstatic itself uses to
skip a copy: not older than the app's file, and the same size), and a variant is sent only when it was written
for the collected copy as it is now (WhiteNoise's compressor gives it the file's modification time).
``CompressedStorage`` (``STORAGES["staticfiles"]``) is WhiteNoise's compressing storage that compresses only what
changed since the last collectstatic and leaves out tiny files (docs/ARCHITECTURE.md › Offline at the table).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from wsgiref.headers import Headers

from django.contrib.staticfiles import finders
from whitenoise.compress import Compressor
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.responders import MissingFileError, StaticFile
from whitenoise.storage import CompressedStaticFilesStorage

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
MIN_SIZE = 1024  # bytes: a smaller file is sent as it is (the headers outweigh what compression saves)
# Brotli's quality: 11 (the best, WhiteNoise's) up to BIG; 10 above, where 11 costs much more time for little:
# Pyodide's 9.6 MB WebAssembly takes 18 s at 11, 11 s at 10, for 2 % more bytes (docs/PERFORMANCE.md)
BIG = 4_000_000
SAME_TIME = 0.001  # s: a variant's mtime is its file's (WhiteNoise's compressor sets it, through a float)


def variant_is_current(variant: Path, original: os.stat_result) -> bool:
    """Whether ``variant`` (a ``.br`` or ``.gz`` beside a file) was written for the file as it is now."""
    try:
        return abs(variant.stat().st_mtime - original.st_mtime) < SAME_TIME
    except OSError:
        return False


def brotli_compress(data: bytes, *, big: int = BIG) -> bytes:
    """``data`` in Brotli: quality 11 (the best) up to ``big`` bytes, 10 above (11 costs much more time there
    for a few per cent). The static files' compressor and the offline archives (frontend/offline/bundle.py)."""
    import brotli

    return brotli.compress(data, quality=11 if len(data) <= big else 10)


# Compressed copies (Brotli and gzip) of the big static files that never change (Pyodide's WebAssembly and loader,
# the API docs' bundles: about 45 s of a busy machine's first collectstatic), shipped in the repository and named
# by the SHA-256 of the file they compress, so a changed file (an upgrade) finds none and is compressed as any
# other. `ship_static` writes them again (once per upgrade; a test fails while one is missing).
SHIPPED = Path(__file__).resolve().parent.parent / "frontend" / "vendor-compressed"
SHIP_OVER = 1_000_000  # bytes: a static file above this has its compressed copies shipped (ship_static)
SAY_OVER = 1_000_000  # bytes: collectstatic says which big file it compresses (scripts/dev shows the wait)


def shipped_copy(data: bytes, suffix: str) -> bytes | None:
    """The shipped ``suffix`` (".br", ".gz") copy of ``data`` (by its SHA-256), when there is one and it decodes
    to ``data``."""
    import gzip

    import brotli

    path = SHIPPED / (hashlib.sha256(data).hexdigest() + suffix)
    if not path.is_file():
        return None
    compressed = path.read_bytes()
    try:
        decoded = brotli.decompress(compressed) if suffix == ".br" else gzip.decompress(compressed)
    except (brotli.error, OSError, EOFError):
        return None
    return compressed if decoded == data else None


def big_static_files() -> list[Path]:
    """The static files over ``SHIP_OVER`` that collectstatic compresses (found by the finders; not the archives,
    images or fonts it skips)."""
    from django.conf import settings

    skip = tuple("." + ext for ext in settings.WHITENOISE_SKIP_COMPRESS_EXTENSIONS)
    found = {}
    for finder in finders.get_finders():
        for name, storage in finder.list(["CVS", ".*", "*~"]):
            path = Path(storage.path(name))
            if name not in found and not name.endswith(skip) and path.stat().st_size > SHIP_OVER:
                found[name] = path
    return sorted(found.values())


def ship_static() -> list[Path]:
    """Write the Brotli and gzip copies of ``big_static_files`` into ``SHIPPED`` by their SHA-256, and drop the
    copies of files that are gone (``.venv/bin/python manage.py shell -c "from config.static import ship_static;
    ship_static()"``); the copies written."""
    SHIPPED.mkdir(parents=True, exist_ok=True)
    compressor = Compressor(quiet=True)
    written, keep = [], set()
    for path in big_static_files():
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        for suffix, make in ((".br", brotli_compress), (".gz", compressor.compress_gzip)):
            target = SHIPPED / (digest + suffix)
            keep.add(target.name)
            if not target.exists():
                target.write_bytes(make(data))
                written.append(target)
    for old in SHIPPED.iterdir():
        if old.name not in keep:
            old.unlink()
    return written


class _ChangedOnlyCompressor(Compressor):
    """WhiteNoise's compressor (Brotli where ``brotli`` is importable, then gzip, each kept only when it saves 5 %),
    skipping a file under ``MIN_SIZE`` and a file whose variants are current (collectstatic hands over every file
    on every run; only a copied one has changed), Brotli's quality 10 for a file over ``BIG``, and a shipped
    copy taken as it is (``SHIPPED``). A big file compressed here is said on the output as it starts."""

    def compress_brotli(self, data: bytes) -> bytes:  # an instance's method: WhiteNoise calls it on self
        return shipped_copy(data, ".br") or brotli_compress(data)

    def compress_gzip(self, data: bytes) -> bytes:
        return shipped_copy(data, ".gz") or super().compress_gzip(data)

    def compress(self, path: str) -> list[str]:
        stat = os.stat(path)
        if stat.st_size < MIN_SIZE:
            return []
        wanted = [path + suffix for suffix, on in ((".br", self.use_brotli), (".gz", self.use_gzip)) if on]
        if wanted and all(variant_is_current(Path(v), stat) for v in wanted):
            return wanted
        if stat.st_size > SAY_OVER:
            with open(path, "rb") as f:
                data = f.read()
            if not (shipped_copy(data, ".br") and shipped_copy(data, ".gz")):
                print(f"  compressing {Path(path).name} ({stat.st_size / 1e6:.1f} MB)…", flush=True)
        return super().compress(path)


class CompressedStorage(CompressedStaticFilesStorage):
    """collectstatic's storage: the files copied, then ``.br`` and ``.gz`` beside each that gains from it (not
    images, archives or fonts: ``Compressor.SKIP_COMPRESS_EXTENSIONS``; not under ``MIN_SIZE``), written again
    only for a file that changed."""

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return _ChangedOnlyCompressor(**kwargs)


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, serving STATIC_ROOT's collected copy (and its current compressed variants) where it is up to
    date, else the app's copy; both when DEBUG rescans on each request (``autorefresh``) and when the files are
    listed once at start."""

    def collected_path(self, url: str) -> Path | None:
        """Where collectstatic put the file of ``url`` (None: not a static URL, or no STATIC_ROOT)."""
        if not self.static_root or not url.startswith(self.static_prefix):
            return None
        return Path(self.static_root) / url[len(self.static_prefix) :]

    @staticmethod
    def is_up_to_date(collected: Path, source: str) -> bool:
        """Whether ``collected`` is the copy of ``source`` collectstatic would leave (not older, same size)."""
        try:
            mine, theirs = collected.stat(), os.stat(source)
        except OSError:
            return False
        return mine.st_mtime >= theirs.st_mtime and mine.st_size == theirs.st_size

    def app_files(self) -> Iterator[tuple[str, str]]:
        """Every file the finders know, as (URL, path); the first finder's file for a name, as Django's."""
        seen = set()
        for finder in finders.get_finders():
            for name, storage in finder.list(None):
                prefix = (getattr(storage, "prefix", None) or "").strip("/")
                url = self.static_prefix + (prefix + "/" if prefix else "") + name.replace("\\", "/")
                if url not in seen:
                    seen.add(url)
                    yield url, storage.path(name)

    def add_files_from_finders(self) -> None:
        """At start (no autorefresh): STATIC_ROOT's files are listed already; an app file replaces its collected
        copy only when that copy is stale, and is added where nothing was collected."""
        for url, source in self.app_files():
            collected = self.collected_path(url)
            if url in self.files and collected is not None and self.is_up_to_date(collected, source):
                continue
            self.add_file_to_dictionary(url, source)

    def candidate_paths_for_url(self, url: str) -> Iterator[str]:
        """On each request (autorefresh): the collected copy first when up to date, then the app's, then the
        roots WhiteNoise was given (STATIC_ROOT included: a collected file no app has any more)."""
        collected = self.collected_path(url)
        source = finders.find(url[len(self.static_prefix) :]) if self.use_finders and collected else None
        if collected is not None and source and self.is_up_to_date(collected, source):
            yield str(collected)
        if source:
            yield source
        yield from super(WhiteNoiseMiddleware, self).candidate_paths_for_url(url)

    def get_static_file(self, path: str, url: str, stat_cache: dict[str, os.stat_result] | None = None) -> StaticFile:
        """As WhiteNoise's, offering only the variants written for the file as it is (a stale ``.br`` left by an
        earlier collectstatic is never sent for a newer file)."""
        try:
            original = (stat_cache or {}).get(path) or os.stat(path)
        except OSError:
            raise MissingFileError(path) from None
        encodings = {
            name: path + suffix for name, suffix in ENCODINGS if variant_is_current(Path(path + suffix), original)
        }
        headers = Headers([])
        self.add_mime_headers(headers, path, url)
        self.add_cache_headers(headers, path, url)
        if self.allow_all_origins:
            headers["Access-Control-Allow-Origin"] = "*"
        if self.add_headers_function is not None:
            self.add_headers_function(headers, path, url)
        return StaticFile(path, headers.items(), stat_cache=stat_cache, encodings=encodings)

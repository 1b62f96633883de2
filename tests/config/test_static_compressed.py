"""Static files as production (and ``scripts/dev``) send them: collectstatic's ``.br`` and ``.gz`` copies chosen by
Accept-Encoding (``config/static.py``), the app's copy for what was never collected or changed since. One small
collected tree per module (a few files, not the whole of collectstatic's minute)."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client, override_settings

from config.static import MIN_SIZE, CompressedStorage, StaticFilesMiddleware

pytestmark = pytest.mark.pure

COLLECTED = (
    "frontend/app.js",
    "frontend/offline/rules.js",
    "frontend/vendor/pyodide/pyodide.mjs",
    "frontend/favicon.svg",
)
NOT_COLLECTED = "frontend/app.css"
BROWSER = "gzip, deflate, br, zstd"


def _collect(root: Path, names: tuple[str, ...]) -> None:
    """What collectstatic does for ``names``: copy each app file, then the storage's post-processing."""
    storage = CompressedStorage(location=str(root))
    for name in names:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(finders.find(name), target)  # a fresh copy: newer than the app's file, as collectstatic's
    list(storage.post_process({name: (storage, name) for name in names}))


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("staticfiles")
    _collect(root, COLLECTED)
    return root


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _app(name: str) -> bytes:
    return Path(finders.find(name)).read_bytes()


def test_production_uses_the_compressed_middleware_and_storage_and_brotli_is_installed():
    assert "config.static.StaticFilesMiddleware" in settings.MIDDLEWARE
    assert "whitenoise.middleware.WhiteNoiseMiddleware" not in settings.MIDDLEWARE
    assert settings.STORAGES["staticfiles"]["BACKEND"] == "config.static.CompressedStorage"
    requirements = (Path(settings.BASE_DIR) / "requirements.txt").read_text()
    assert "\nBrotli==1.2.1" in requirements and brotli.compress(b"x")
    dev = (Path(settings.BASE_DIR) / "scripts" / "dev").read_text()  # scripts/dev serves the compressed copies too
    assert dev.index("manage.py collectstatic --noinput") < dev.index("exec scripts/serve")


def test_collectstatic_writes_brotli_and_gzip_beside_each_file_but_tiny_ones(collected):
    for name in COLLECTED:
        size = (collected / name).stat().st_size
        for suffix, decode in ((".br", brotli.decompress), (".gz", gzip.decompress)):
            variant = collected / (name + suffix)
            assert variant.exists() == (size >= MIN_SIZE), (name, suffix)
            if variant.exists():
                assert decode(variant.read_bytes()) == _app(name)


def test_a_second_collectstatic_compresses_only_what_changed(collected, tmp_path):
    root = tmp_path / "again"
    _collect(root, COLLECTED[:2])
    kept = root / (COLLECTED[0] + ".br")
    kept.write_bytes(b"not written again")
    os.utime(kept, ns=(kept.stat().st_atime_ns, (root / COLLECTED[0]).stat().st_mtime_ns))
    storage = CompressedStorage(location=str(root))
    list(storage.post_process({name: (storage, name) for name in COLLECTED[:2]}))
    assert kept.read_bytes() == b"not written again"  # current: left alone
    (root / COLLECTED[1]).write_bytes(_app(COLLECTED[1]) + b"\n// changed")  # copied again: compressed again
    list(storage.post_process({name: (storage, name) for name in COLLECTED[:2]}))
    assert brotli.decompress((root / (COLLECTED[1] + ".br")).read_bytes()).endswith(b"// changed")


@pytest.mark.parametrize("debug", [False, True], ids=["production", "scripts-dev"])
def test_the_precompressed_copy_is_sent_by_accept_encoding(collected, debug):
    """Production (files listed at start) and ``scripts/dev`` (DEBUG: looked up on each request) alike."""
    with override_settings(STATIC_ROOT=str(collected), DEBUG=debug, WHITENOISE_AUTOREFRESH=debug):
        client = Client()  # a new handler: the middleware built under these settings
        for name in ("frontend/app.js", "frontend/vendor/pyodide/pyodide.mjs"):
            url = (
                settings.STATIC_URL + name if settings.STATIC_URL.startswith("/") else "/" + settings.STATIC_URL + name
            )
            br = client.get(url, headers={"accept-encoding": BROWSER})
            assert br.status_code == 200 and br["Content-Encoding"] == "br" and br["Vary"] == "Accept-Encoding"
            assert brotli.decompress(_body(br)) == _app(name)
            assert int(br["Content-Length"]) < len(_app(name)) / 2
            gz = client.get(url, headers={"accept-encoding": "gzip"})
            assert gz["Content-Encoding"] == "gzip" and gzip.decompress(_body(gz)) == _app(name)
            plain = client.get(url)
            assert not plain.has_header("Content-Encoding") and _body(plain) == _app(name)
            assert plain["Vary"] == "Accept-Encoding"
        tiny = client.get("/static/frontend/favicon.svg", headers={"accept-encoding": BROWSER})
        assert tiny.status_code == 200 and not tiny.has_header("Content-Encoding")
        # never collected: the app's copy, as it is
        app = client.get("/static/" + NOT_COLLECTED, headers={"accept-encoding": BROWSER})
        assert app.status_code == 200 and not app.has_header("Content-Encoding") and _body(app) == _app(NOT_COLLECTED)
        assert client.get("/static/frontend/no-such-file.js").status_code == 404
        assert client.get("/static/frontend/app.js.br").status_code == 404  # a variant is no address of its own


@pytest.mark.parametrize("debug", [False, True], ids=["production", "scripts-dev"])
def test_a_stale_collected_copy_gives_way_to_the_apps_and_a_stale_variant_is_never_sent(tmp_path, debug):
    _collect(tmp_path, COLLECTED[:2])
    stale, newer = tmp_path / COLLECTED[0], tmp_path / COLLECTED[1]
    stale.write_bytes(b"// an old deployment's file")
    os.utime(stale, (1, 1))  # older than the app's file: collectstatic would copy it again
    os.utime(newer, (newer.stat().st_atime, newer.stat().st_mtime + 10))  # copied again, its variants not written
    with override_settings(STATIC_ROOT=str(tmp_path), DEBUG=debug, WHITENOISE_AUTOREFRESH=debug):
        client = Client()
        app = client.get("/static/" + COLLECTED[0], headers={"accept-encoding": BROWSER})
        assert not app.has_header("Content-Encoding") and _body(app) == _app(COLLECTED[0])
        got = client.get("/static/" + COLLECTED[1], headers={"accept-encoding": BROWSER})
        assert not got.has_header("Content-Encoding") and _body(got) == _app(COLLECTED[1])
        assert "Vary" not in got  # no variant offered


def test_the_middleware_knows_a_collected_path_only_under_the_static_prefix(collected):
    with override_settings(STATIC_ROOT=str(collected)):
        middleware = StaticFilesMiddleware(lambda request: None)
    assert middleware.collected_path("/static/frontend/app.js") == collected / "frontend/app.js"
    assert middleware.collected_path("/offline/rulesets.json") is None


def test_every_big_static_file_has_its_compressed_copies_shipped_by_hash():
    """Pyodide's big files (and the API docs' bundles) are not compressed on a fresh clone's first collectstatic:
    their Brotli and gzip copies are shipped (``frontend/vendor-compressed``, named by the file's SHA-256) and
    decode to the file; a file changed without shipping its copies (``config.static.ship_static``) fails here."""
    from config.static import big_static_files, shipped_copy

    big = big_static_files()
    assert {p.name for p in big} >= {"pyodide.asm.wasm", "pyodide.asm.mjs"}
    for path in big:
        data = path.read_bytes()
        assert shipped_copy(data, ".br") is not None and shipped_copy(data, ".gz") is not None, path


def test_a_shipped_copy_is_taken_only_for_the_very_bytes_it_compresses(tmp_path, monkeypatch):
    """The compressor takes a shipped copy as it is (no compression run) when it is named by the data's hash and
    decodes to it; a copy that decodes to other bytes, or none, and the data is compressed here."""
    import hashlib

    import config.static as static

    data = b"stones " * 4000
    other = b"pebbles " * 4000
    monkeypatch.setattr(static, "SHIPPED", tmp_path)
    compressor = static._ChangedOnlyCompressor(quiet=True)
    calls = []
    monkeypatch.setattr(static, "brotli_compress", lambda d: calls.append(d) or brotli.compress(d))
    assert brotli.decompress(compressor.compress_brotli(data)) == data and calls == [data]  # none shipped
    shipped = brotli.compress(data, quality=1)
    (tmp_path / (hashlib.sha256(data).hexdigest() + ".br")).write_bytes(shipped)
    assert compressor.compress_brotli(data) == shipped and len(calls) == 1  # taken as it is
    (tmp_path / (hashlib.sha256(other).hexdigest() + ".br")).write_bytes(shipped)  # a copy of something else
    assert brotli.decompress(compressor.compress_brotli(other)) == other and len(calls) == 2
    zipped = gzip.compress(data, compresslevel=1)
    (tmp_path / (hashlib.sha256(data).hexdigest() + ".gz")).write_bytes(zipped)
    assert compressor.compress_gzip(data) == zipped
    assert gzip.decompress(compressor.compress_gzip(other)) == other

"""The offline rules' server side: the rulesets archive is exactly the package the server imports, served under
its content hash, and the match page's seed is the head as the reader may see it (no secret in it)."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli
import pytest

import rulesets
from frontend.boards import shared as boards
from frontend.offline.bundle import (
    BOARD_MODULES,
    ENGINE_MODULES,
    PYODIDE_STDLIB,
    STDLIB_MODULES,
    accepted_encodings,
    board_archive,
    encoded,
    module_file,
    offline_urls,
    rulesets_archive,
    stdlib_archive,
    vendored_stdlib,
)
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import all_rulesets
from rulesets.offline import record
from tests.matches.hidden_reads import seed_of

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

PACKAGE = Path(rulesets.__file__).resolve().parent
ROOT = Path(__file__).resolve().parents[3]


def test_the_archive_holds_exactly_the_rulesets_sources_the_server_runs():
    for ruleset in all_rulesets():  # every game's modules imported, as a serving process has them
        assert ruleset.slug
    archive = zipfile.ZipFile(io.BytesIO(rulesets_archive().data))
    names = set(archive.namelist())
    on_disk = {f"rulesets/{p.relative_to(PACKAGE).as_posix()}" for p in PACKAGE.rglob("*.py")}
    assert names == on_disk and all(n.endswith(".py") for n in names)
    imported = {name: mod for name, mod in sys.modules.items() if name == "rulesets" or name.startswith("rulesets.")}
    assert len(imported) > 20
    for name, module in imported.items():  # byte for byte the files the server imported
        path = Path(module.__file__).resolve().relative_to(PACKAGE.parent).as_posix()
        assert archive.read(path) == Path(module.__file__).read_bytes(), name
    assert rulesets_archive() is rulesets_archive()  # built once per process


def test_the_archive_is_served_under_its_hash_and_named_by_a_stable_address(client):
    urls = client.get("/offline/rulesets.json").json()
    assert urls == offline_urls() and urls["rulesets_url"] == f"/offline/{rulesets_archive().name}"
    assert re.fullmatch(r"/offline/rulesets-[0-9a-f]{12}\.zip", urls["rulesets_url"])
    response = client.get(urls["rulesets_url"])
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response.content == rulesets_archive().data and "immutable" in response["Cache-Control"]
    assert client.get("/offline/rulesets-000000000000.zip").status_code == 404
    folder = Path(__file__).resolve().parents[3] / "frontend" / "static" / "frontend" / "vendor" / "pyodide"
    vendored = sorted(p.name for p in folder.iterdir() if p.name != PYODIDE_STDLIB)  # the trimmed one instead
    assert sorted(u.rsplit("/", 1)[1] for u in urls["pyodide_files"]) == vendored
    for url in urls["pyodide_files"]:  # the vendored files are all a page loads, and all served
        assert url.startswith(urls["pyodide_url"]) and client.get(url).status_code == 200


def seed(client, match) -> dict:
    return json.loads(seed_of(client.get(f"/matches/{match.pk}/").content.decode()))


def test_the_seed_is_the_head_and_checks_a_move_as_the_server_does(client, owner):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 2})
    client.force_login(owner)
    s = seed(client, match)
    head = store.head_load(match.stream_id, fresh=True)
    assert (s["version"], s["state"], s["override_pending"]) == (head.version, head.state, head.override_pending)
    assert s["complete"] and s["can_record"] and s["seat_names"] == ["Ana", "Bo"] and s["game"] == "last-stone"
    assert s["rulesets_url"] == offline_urls()["rulesets_url"] and s["events_url"] == f"/api/matches/{match.pk}/events/"
    refused = record(s, {"type": "stones_taken", "seat": 0, "data": {"count": 1}})
    assert refused["body"] == {"code": "rule_violation", "violation": "not_your_turn", "rule": "Last Stone › Turns",
                               "detail": "It is Bo's turn.", "overridable": True}  # fmt: skip
    answer = record(s, {"type": "stones_taken", "seat": 1, "data": {"count": 3}})
    assert answer["ok"] and answer["words"] == "Bo took 3 stones" and answer["turn"]["line"].startswith("Ana to play")


def test_a_seed_with_a_secret_hidden_from_its_reader_is_incomplete_and_holds_no_secret(client, owner, make_user):
    from tests.matches.store.test_hidden_information import _table  # the ruleset tests' Table helper

    bo = make_user("bo")
    table = _table("the_first_spine")(2, board=[4, 5])
    table.setup(origins=("healer", "priest"))
    match = match_create(owner=owner, game="the-first-spine", options=table.options, is_public=True,
                         seats=[{"name": "Ana"}, {"name": "Bo", "user": bo}])  # fmt: skip
    for event in table.events:  # Bo's secret is his to record (the rule of sight); Ana's seat is the table's
        user = bo if event.seat == 1 else owner
        match_event_record(match=match, user=user, type=event.type, seat=event.seat, data=event.data)
    client.force_login(owner)  # holds no seat: a spectator's view
    s = seed(client, match)
    assert not s["complete"] and [p["origin"] for p in s["state"]["players"]] == [None, None]
    assert record(s, {"type": "turn_ended", "seat": 0, "data": {}})["ok"] is None  # the server will judge it
    assert record(s, {"type": "teleported", "seat": 0})["body"]["code"] == "invalid"  # the shape still checked here
    assert client.post(f"/matches/{match.pk}/reveal/", {"seat": 0}).status_code == 302  # the phone shows Ana's
    s = seed(client, match)
    assert [p["origin"] for p in s["state"]["players"]] == ["healer", None]
    assert s["viewer"] == {"everything": False, "seat": 0, "revealed": True} and s["reader_seat"] == 0
    client.force_login(bo)  # Bo sees his own origin, not Ana's
    s = seed(client, match)
    assert not s["complete"] and [p["origin"] for p in s["state"]["players"]] == [None, "priest"]
    assert s["viewer"] == {"everything": False, "seat": 1, "revealed": False} and s["reader_seat"] == 1


# what a clean interpreter imports to draw every board: frontend.offline.board, each game's board module, every
# board template compiled and a date drawn as the Bone Wars sittings are
CLEAN_DRAW = """
import datetime, importlib, json, sys
from frontend.boards import shared as boards
from frontend.offline import board as offline_board
for target in boards.BOARDS.values():
    importlib.import_module(target.split(":")[0])
from django.template import Context
engine = offline_board.engine()
for name in sorted(p.name for p in (offline_board.TEMPLATES / "frontend" / "boards").glob("*.html")):
    engine.get_template("frontend/boards/" + name)
when = datetime.datetime(2026, 1, 2, tzinfo=datetime.UTC)
engine.from_string("{{ w|date:'c' }} {{ w|date:'j M Y' }}").render(Context({"w": when}))
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("django", "asgiref"))))
"""


def test_the_boards_archive_holds_the_template_engine_the_board_modules_and_their_templates():
    archive = zipfile.ZipFile(io.BytesIO(board_archive().data))
    names = set(archive.namelist())
    assert names == set(board_archive().files) and board_archive() is board_archive()
    for name in [*ENGINE_MODULES, *BOARD_MODULES, *{t.split(":")[0] for t in boards.BOARDS.values()}]:
        inside, origin = module_file(name)
        assert archive.read(inside) == origin.read_bytes(), name  # the installed files, byte for byte
    templates = {n for n in names if n.endswith(".html")}
    assert "frontend/templates/frontend/_input.html" in templates
    assert {n.rsplit("/", 1)[1] for n in templates if "/boards/" in n} == {
        p.name for p in (ROOT / "frontend" / "templates" / "frontend" / "boards").glob("*.html")
    }
    assert not [n for n in names if n.startswith(("django/contrib/", "django/db/models/", "django/conf/locale/fr"))]
    # exactly what the engine imports when it runs standalone: nothing left out, nothing more
    run = subprocess.run([sys.executable, "-c", CLEAN_DRAW], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"})  # fmt: skip
    assert json.loads(run.stdout.strip().splitlines()[-1]) == sorted(ENGINE_MODULES)


def test_the_boards_archive_is_served_under_its_hash(client):
    urls = client.get("/offline/rulesets.json").json()
    assert urls["boards_url"] == f"/offline/{board_archive().name}" and urls["boards_sha256"] == board_archive().sha256
    assert re.fullmatch(r"/offline/boards-[0-9a-f]{12}\.zip", urls["boards_url"])
    response = client.get(urls["boards_url"])
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response.content == board_archive().data and "immutable" in response["Cache-Control"]
    assert client.get("/offline/boards-000000000000.zip").status_code == 404


def test_the_trimmed_stdlib_holds_exactly_the_listed_modules_as_pyodide_ships_them(client):
    archive = zipfile.ZipFile(io.BytesIO(stdlib_archive().data))
    with zipfile.ZipFile(vendored_stdlib()) as whole:
        for name in archive.namelist():  # byte for byte Pyodide's own files
            assert archive.read(name) == whole.read(name), name
        assert len(archive.namelist()) == len(STDLIB_MODULES) < len(whole.namelist()) / 2
    assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}  # the response compresses it
    assert "rulesets/__init__.py" not in archive.namelist() and "json/__init__.py" in archive.namelist()
    urls = client.get("/offline/rulesets.json").json()
    assert (
        urls["stdlib_url"] == f"/offline/{stdlib_archive().name}" and urls["stdlib_sha256"] == stdlib_archive().sha256
    )
    response = client.get(urls["stdlib_url"])
    assert response.status_code == 200 and response.content == stdlib_archive().data
    assert client.get("/offline/stdlib-000000000000.zip").status_code == 404


# the standard library modules the offline code imports in CPython, beyond what the interpreter had at start:
# every game's moves (stdin: made by the test), refusals and undos, a new match and every board drawn (what
# Pyodide runs, minus Pyodide's own start)
SERVERS_PYTHON_ONLY = {"platform"}  # imported by CPython 3.11's uuid, not by Pyodide's 3.14 (sys.platform there)
CLEAN_RULES = """
import json, sys
before = set(sys.modules)
from frontend.offline import board as offline_board
from rulesets.offline import fold_entries, handle, record, start_json
facts = {"title": "", "page_url": "/matches/1/", "record_url": "/matches/1/record/", "reader_seat": None,
         "reader_records": True, "times": {}, "moves": {}}
for game in json.load(sys.stdin):
    folded = fold_entries(game["start"], game["entries"])["position"]
    for entry in game["refused"]:
        record(game["start"], entry)
    handle(json.dumps({"op": "void", "args": [folded, None, 1, ""]}))
    start_json({"game": folded["game"], "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    seed = {**folded, "match": 1, "can_record": True, "complete": True, "board": facts}
    offline_board.render(seed, seed, {}, "token")
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def test_every_stdlib_module_the_offline_code_imports_in_cpython_is_listed():
    """A cheap guard beside the browser's proof (the differential test runs on the trimmed library): a new
    import of the standard library in the rules or the boards fails here first."""
    import random

    from benchmarks.offline_sequences import GAMES, made_up_entry, sequence
    from rulesets import get_ruleset

    rng, games = random.Random(1), []
    for slug in GAMES:
        start, entries = sequence(slug, 12)
        seats = len(start["seat_names"])
        refused = [made_up_entry(rng, get_ruleset(slug), start["state"], seats) for _ in range(10)]
        games.append({"start": start, "entries": entries, "refused": refused})
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run([sys.executable, "-c", CLEAN_RULES], cwd=ROOT, capture_output=True, text=True, env=env,
                         input=json.dumps(games))  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    with zipfile.ZipFile(vendored_stdlib()) as whole:
        shipped = set(whole.namelist())
    imported = json.loads(run.stdout.strip().splitlines()[-1])
    in_pyodide = [n for n in imported if {n.replace(".", "/") + ".py", n.replace(".", "/") + "/__init__.py"} & shipped]
    assert len(in_pyodide) > 10
    assert sorted(set(in_pyodide) - set(STDLIB_MODULES) - SERVERS_PYTHON_ONLY) == []


def test_the_archives_are_sent_compressed_as_the_client_accepts(client):
    """Brotli where accepted (checked on the smallest archive: quality 11 costs a second per megabyte; the browser
    tests fetch the others so), else gzip, else as they are; one entity tag per representation."""
    for archive in (rulesets_archive(), board_archive(), stdlib_archive()):
        url = f"/offline/{archive.name}"
        if archive.kind == "rulesets":
            br = client.get(url, headers={"accept-encoding": "gzip, deflate, br, zstd"})
            assert (
                br["Content-Encoding"] == "br"
                and br["Vary"] == "Accept-Encoding"
                and "immutable" in br["Cache-Control"]
            )
            assert brotli.decompress(br.content) == archive.data and len(br.content) < len(archive.data) / 3
            assert encoded(archive, "br") is encoded(archive, "br")  # compressed once per process
            assert br["ETag"] != client.get(url)["ETag"]
        gz = client.get(url, headers={"accept-encoding": "gzip, deflate"})
        assert gz["Content-Encoding"] == "gzip" and gzip.decompress(gz.content) == archive.data
        assert gz["Vary"] == "Accept-Encoding" and gz["ETag"] != client.get(url)["ETag"]
        for refused in ("br;q=0, gzip;q=0", "identity", "", "compress, x-gzip;q=1"):
            plain = client.get(url, headers={"accept-encoding": refused})
            assert not plain.has_header("Content-Encoding") and plain.content == archive.data, refused
    assert accepted_encodings("*") == {"br", "gzip"} and accepted_encodings("br;q=bad, GZIP;q=0.5") == {"gzip"}

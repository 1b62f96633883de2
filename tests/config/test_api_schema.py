"""The OpenAPI schema says what the API does, checked two ways against ``scripts/serve`` (granian, DEBUG off, the
throttles and sign-in limits raised for this server only, through their environment variables):

- **schemathesis, every phase** (examples, coverage, fuzzing, stateful), every check plus Chronicle's own
  (``tests/config/schemathesis_hooks.py``: every refusal has a ``code`` and a ``detail``), configured in
  ``tests/config/schemathesis.toml``, which says what it allows and why (writes are judged beyond their shape).
- **a generated client plays a match**: openapi-python-client builds a Python package from ``/api/schema/``, and
  with it alone a stranger signs in, creates a Get Salty match, records it to its end, reads a refusal as a typed
  error with its rule, reads the state at a version and pages the log.

Both share one server and the world it serves (a user with a token, a match with a photo and a join link, a
campaign, a series). Figures: docs/TESTING.md › The API schema.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.processes import free_port, wait_listening

pytestmark = pytest.mark.one_db

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PASSWORD = "pass-word-123"
MAX_EXAMPLES = 2  # per operation in the fuzzing phase (the stateful scenarios: schemathesis.toml); docs/TESTING.md
RAISED = {  # this server's limits only: the fuzzer's requests would otherwise meet 429s instead of the API's logic
    "CHRONICLE_THROTTLE_ANON": "1000000/min", "CHRONICLE_THROTTLE_USER": "1000000/min",
    "CHRONICLE_LOGIN_FAILURES": "1000000", "CHRONICLE_LOGIN_FAILURES_PER_ADDRESS": "1000000",
    "CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT": "1000000",
}  # fmt: skip


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory) -> Iterator[dict[str, str]]:
    """``scripts/serve`` on the test database, DEBUG off, the limits raised: its base ``url`` and ``media`` folder."""
    if connection.vendor != "postgresql":
        pytest.skip("serves the PostgreSQL test database")
    port, media = free_port(), str(tmp_path_factory.mktemp("media"))
    db = connection.settings_dict
    env = {
        **os.environ, **RAISED, "VIRTUAL_ENV": str(BIN.parent), "HOST": "127.0.0.1", "PORT": str(port),
        "WEB_CONCURRENCY": "1", "WEB_THREADS": "2", "DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "CHRONICLE_ACCESS_LOG": "0", "CHRONICLE_MEDIA_ROOT": media,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }  # fmt: skip
    # the logs go to a file, not a pipe: nobody reads them while it runs (a full pipe would stall the server)
    with open(Path(media).parent / "serve.log", "wb") as log:
        proc = subprocess.Popen([str(ROOT / "scripts" / "serve")], env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_listening(port, proc, what="scripts/serve")
            yield {"url": f"http://127.0.0.1:{port}", "media": media}
        finally:
            proc.terminate()
            proc.wait(timeout=30)


@pytest.fixture
def world(server, transactional_db, settings) -> dict[str, Any]:
    """What the server reads: a signed-up user (hashed as the server hashes, not with this process's test hasher)
    with a token, and what a stranger's client reaches by id: a Get Salty match with a photo and a join link, a
    campaign, a series."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from rest_framework.authtoken.models import Token

    from campaigns.saltmarsh.services import campaign_create
    from campaigns.series.services import series_create
    from matches.people.joins import join_link_on
    from matches.photos.services import photo_add
    from matches.services import match_create
    from tests.matches.photos.pictures import phone_jpeg

    settings.MEDIA_ROOT = server["media"]
    user = get_user_model().objects.create(
        username="stranger", password=PBKDF2PasswordHasher().encode(PASSWORD, "schema-salt")
    )
    match = match_create(owner=user, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=False)
    _, photo = photo_add(obj=match, user=user, upload=phone_jpeg(), caption="the table")
    return {
        "user": user, "token": Token.objects.create(user=user).key, "match": match.pk, "photo": photo.id,
        "join": join_link_on(match=match, user=user).token, "player": match.seats.first().player_id,
        "campaign": campaign_create(owner=user, name="Saltmarsh").pk,
        "series": series_create(owner=user, name="Autumn", game="get-salty").pk,
    }  # fmt: skip


def test_schemathesis_every_phase_finds_the_api_as_its_schema_says(server, world, tmp_path) -> None:
    ids = {"match_id": world["match"], "campaign_id": world["campaign"], "series_id": world["series"],
           "photo_id": world["photo"], "token": world["join"], "player_id": world["player"], "slug": "get-salty"}  # fmt: skip
    parameters = "[parameters]\n" + "".join(f"{name} = {json.dumps(value)}\n" for name, value in ids.items())
    config = (ROOT / "tests" / "config" / "schemathesis.toml").read_text()
    (tmp_path / "st.toml").write_text(config.replace("[generation]", parameters + "\n[generation]", 1))
    run = subprocess.run(
        [str(BIN / "st"), "--config-file", str(tmp_path / "st.toml"), "--no-color", "run", f"{server['url']}/api/schema/",
         "--phases", "examples,coverage,fuzzing,stateful", "--checks", "all", "--max-examples", str(MAX_EXAMPLES),
         "--seed", "45", "--header", f"Authorization: Token {world['token']}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    phases = run.stdout[run.stdout.find("Examples (in") : run.stdout.find("=== WARNINGS")]
    print(phases, run.stdout[run.stdout.find("SUMMARY") :])  # per phase (links covered) and the totals
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-3000:]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field, value",
    [("is_public", 0), ("is_public", "true"), ("title", 5), ("seats", {"name": "A"}), ("recorders", [7])],
)
def test_json_bodies_must_have_the_documented_types(api, field, value):
    body = {"game": "last-stone", "seats": [{"name": "A"}, {"name": "B"}], field: value}
    r = api.post("/api/matches/", body, format="json")
    assert r.status_code == 400 and field in r.json()["errors"], r.content


@pytest.mark.django_db
def test_event_fields_must_have_the_documented_types(api, stone_match):
    r = api.post(
        f"/api/matches/{stone_match.pk}/events/",
        {"type": "stones_taken", "seat": "0", "data": {"count": 1}},
        format="json",
    )
    assert r.status_code == 400 and "seat" in r.json()["errors"]
    r = api.post(
        f"/api/matches/{stone_match.pk}/events/",
        {"type": "stones_taken", "seat": 0, "data": {"count": 1}, "expected_version": 0.0},
        format="json",
    )
    assert r.status_code == 400 and "expected_version" in r.json()["errors"]


@pytest.mark.django_db
def test_the_create_bodies_examples_are_accepted(api, stone_match):
    from drf_spectacular.generators import SchemaGenerator

    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    for component, path in (("MatchCreateInputRequest", "/api/matches/"), ("SeriesCreateInputRequest", "/api/series/"),
                            ("CampaignCreateInputRequest", "/api/campaigns/")):  # fmt: skip
        for example in schemas[component]["examples"]:
            r = api.post(path, example, format="json")
            assert r.status_code == 201, (example, r.content)
    r = api.post(
        f"/api/matches/{stone_match.pk}/join-link/", schemas["JoinLinkInputRequest"]["examples"][0], format="json"
    )
    assert r.status_code in (200, 201), r.content


@pytest.mark.django_db
@pytest.mark.parametrize("path, body", [("join-link/", {"new": 0}), ("join-link/", {"new": "true"})])
def test_join_link_bodies_must_have_the_documented_types(api, stone_match, path, body):
    r = api.post(f"/api/matches/{stone_match.pk}/{path}", body, format="json")
    assert r.status_code == 400 and set(body) <= set(r.json()["errors"]), r.content


def _loose(node: Any, path: str, components: dict[str, Any], seen: frozenset[str], found: list[str]) -> None:
    """Every object schema under ``node`` that says nothing of its keys (no properties, any extra key), by path."""
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                _loose(components[name], name, components, seen | {name}, found)
            return
        says_nothing = not node.get("properties") and node.get("additionalProperties", True) in (True, {})
        if node.get("type") == "object" and says_nothing and node.get("maxProperties") != 0:
            found.append(path)
        for key, value in node.items():
            _loose(value, f"{path}.{key}", components, seen, found)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _loose(value, f"{path}[{i}]", components, seen, found)


def test_every_answer_says_what_it_holds():
    """No 2xx body (nor any component) is a bare ``object``: a generated client gets a type for every answer."""
    from drf_spectacular.generators import SchemaGenerator

    spec = SchemaGenerator().get_schema(request=None, public=True)
    components, found = spec["components"]["schemas"], []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for code, answer in operation.get("responses", {}).items():
                if code.startswith("2"):
                    _loose(answer, f"{method.upper()} {path} {code}", components, frozenset(), found)
    for name, component in components.items():
        _loose(component, name, components, frozenset({name}), found)
    assert not found, sorted(set(found))


def test_every_operation_documents_the_errors_the_plumbing_can_give():
    from drf_spectacular.generators import SchemaGenerator

    spec = SchemaGenerator().get_schema(request=None, public=True)
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"429", "503"} <= codes, (method, path)
            if method == "post":
                assert {"400", "401", "403"} <= codes, (method, path)
    events = spec["paths"]["/api/matches/{match_id}/events/"]["post"]["responses"]
    assert {"409", "422"} <= set(events)
    listing = spec["paths"]["/api/matches/"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert listing["$ref"].endswith("PaginatedMatchOutputList")


def _generated_client(url: str, where: Path) -> Any:
    """The package openapi-python-client generates from ``url``'s ``/api/schema/``, imported (``chronicle_client``)."""
    import httpx

    (where / "schema.json").write_bytes(httpx.get(f"{url}/api/schema/", headers={"Accept": "application/json"}).content)
    (where / "config.yaml").write_text("post_hooks: []\nliteral_enums: true\npackage_name_override: chronicle_client\n")
    subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(where / "schema.json"), "--meta", "none",
         "--output-path", str(where / "chronicle_client"), "--config", str(where / "config.yaml")],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module("chronicle_client")
    finally:
        sys.path.remove(str(where))


def test_a_client_generated_from_the_schema_plays_a_match(server, world, tmp_path) -> None:
    from rulesets.get_salty import hints

    client_package = _generated_client(server["url"], tmp_path)
    api = importlib.import_module("chronicle_client.api")
    models = importlib.import_module("chronicle_client.models")
    sign_in = importlib.import_module("chronicle_client.api.auth.auth_token_create")
    matches = {name: importlib.import_module(f"chronicle_client.api.matches.matches_{name}") for name in
               ("create", "events_create", "events_retrieve", "legal_moves_list", "state_retrieve")}  # fmt: skip
    assert api is not None
    anonymous = client_package.Client(base_url=server["url"])
    token = sign_in.sync(client=anonymous, body=models.TokenLoginInputRequest(username="stranger", password=PASSWORD))
    me = client_package.AuthenticatedClient(base_url=server["url"], token=token.token, prefix="Token")
    match = matches["create"].sync(
        client=me,
        body=models.MatchCreateInputRequest(
            game="get-salty", seats=[models.SeatInputRequest(name="Ana"), models.SeatInputRequest(name="Bo")]
        ),
    )

    def entry(move: Any) -> Any:
        """A legal move as its game's typed entry (``GetSaltyCrackerMovedEntry``, …)."""
        name = "GetSalty" + "".join(p.capitalize() for p in move["type"].split("_")) + "Entry"
        return getattr(models, name).from_dict(move)

    # a refusal is a typed error naming its rule: Bo may not choose the victory attribute, Ana starts
    refused = matches["events_create"].sync_detailed(
        match.id, client=me, body=entry({"type": "victory_attribute_chosen", "seat": 1, "data": {"attribute": "shape"}})
    )
    assert refused.status_code == 400 and isinstance(refused.parsed, models.ErrorOutput)
    assert refused.parsed.code == "rule_violation" and refused.parsed.rule.startswith("Get Salty")
    # record the game to its end, each move one the server lists as legal (a winning one when there is one)
    state = matches["state_retrieve"].sync(match.id, client=me)
    while state.outcome is None:
        moves = [m.to_dict() for m in matches["legal_moves_list"].sync(match.id, client=me)]
        position = state.state.to_dict() if hasattr(state.state, "to_dict") else state.state
        wins = hints(position, moves[0]["seat"])["winning_moves"]
        move = wins[0].to_dict() if wins else moves[(len(moves) * 3) // 7]
        posted = matches["events_create"].sync(
            match.id, client=me, body=entry({**move, "expected_version": state.version})
        )
        assert isinstance(posted, models.AppendOutput), posted
        state = matches["state_retrieve"].sync(match.id, client=me)
        assert state.version <= 120
    assert len(state.outcome.winners) == 1 and state.outcome.reason
    # the state at a version, and the log a page at a time
    assert matches["state_retrieve"].sync(match.id, client=me, at=3).version == 3
    seen, after = [], 0
    while after is not None:
        page = matches["events_retrieve"].sync(match.id, client=me, after=after, limit=10)
        seen += [line.version for line in page.results]
        after = page.next_after
    assert seen == list(range(1, state.version + 1))

"""Requests at the edge of HTTP (issue 21 items 5 and 6): a chunked body is read (or 411), never taken as
empty; an ``expected_version`` no stream can reach is a 400, not a 409; an ``Idempotency-Key`` the server
could not pass on is refused as JSON, not dropped. In-process through ``config.wsgi.application`` (the WSGI
callable both servers run), then over real HTTP against ``scripts/serve`` (granian)."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from matches.models import MAX_VERSION
from matches.models import Event as EventRow
from tests.config.wsgi_call import append_call
from tests.processes import free_port, wait_listening

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]
MOVE = {"type": "stones_taken", "seat": 0, "data": {"count": 1}}


class Trickle(io.RawIOBase):
    """A chunked body as a server hands it over: read() returns a few bytes at a time, then b"" at the end."""

    def __init__(self, data: bytes, step: int = 3) -> None:
        self.data, self.step = data, step

    def read(self, size: int = -1) -> bytes:
        n = self.step if size is None or size < 0 else min(size, self.step)
        out, self.data = self.data[:n], self.data[n:]
        return out


def _wsgi_app() -> Any:
    from config.wsgi import application

    return application


def chunked(token: str, match_id: int, body: bytes, **environ: Any) -> tuple[int, dict[str, str], bytes]:
    """An append whose body comes chunked: no CONTENT_LENGTH, ``Transfer-Encoding: chunked``."""
    env = {"wsgi.input": Trickle(body), "CONTENT_LENGTH": None, "HTTP_TRANSFER_ENCODING": "chunked",
           "wsgi.input_terminated": True}  # fmt: skip
    env.update(environ)
    status, headers, content = append_call(token, match_id, {}, body=b"", app=_wsgi_app(), signals=False, **env)
    return status, headers, content


@pytest.fixture
def token(owner) -> str:
    return Token.objects.create(user=owner).key


def events(match) -> int:
    return EventRow.objects.filter(stream_id=match.stream_id).count()


# -- item 5: a chunked body ------------------------------------------------------------------------------


def test_a_chunked_body_is_read_to_its_end(token, stone_match) -> None:
    status, _, body = chunked(token, stone_match.pk, json.dumps(MOVE).encode())
    assert status == 201, body
    assert json.loads(body)["version"] == 1 and events(stone_match) == 1


def test_a_chunked_body_a_server_cannot_end_is_a_411(token, stone_match) -> None:
    status, headers, body = chunked(
        token, stone_match.pk, json.dumps(MOVE).encode(), **{"wsgi.input_terminated": False}
    )
    assert status == 411 and headers["Content-Type"] == "application/json"
    assert json.loads(body)["code"] == "length_required" and events(stone_match) == 0


def test_a_long_chunked_body_meets_the_usual_limits(token, stone_match, monkeypatch, settings) -> None:
    padded = json.dumps({**MOVE, "data": {"count": 1, "pad": "x" * 2000}}).encode()
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # past it: Django's "too large", as with a Content-Length
    status, _, body = chunked(token, stone_match.pk, padded)
    assert status == 400 and "too large" in json.loads(body)["detail"]
    monkeypatch.setattr("config.chunked.MAX_CHUNKED_BODY", 1500)  # past this one it is not even read on
    status, _, body = chunked(token, stone_match.pk, padded)
    assert status == 413 and json.loads(body)["code"] == "too_large"
    assert events(stone_match) == 0


# -- item 6: expected_version and Idempotency-Key -------------------------------------------------------


@pytest.mark.parametrize("expected", [2**64, 2**63, MAX_VERSION + 1])
def test_an_expected_version_no_stream_reaches_is_a_400(api, token, stone_match, expected) -> None:
    lean = append_call(token, stone_match.pk, {**MOVE, "expected_version": expected}, signals=False)
    assert lean[0] == 400, lean[2]
    assert json.loads(lean[2])["code"] == "invalid" and "expected_version" in json.loads(lean[2])["errors"]
    drf = api.post(f"/api/matches/{stone_match.pk}/events/", {**MOVE, "expected_version": expected}, format="json")
    assert drf.status_code == 400 and drf.json()["code"] == "invalid"
    assert events(stone_match) == 0


def test_the_largest_version_is_still_a_version_conflict(token, stone_match) -> None:
    status, _, body = append_call(token, stone_match.pk, {**MOVE, "expected_version": MAX_VERSION}, signals=False)
    assert status == 409 and json.loads(body)["code"] == "version_conflict"


def test_a_campaign_batch_refuses_a_huge_expected_version(api) -> None:
    cid = api.post("/api/campaigns/", {"name": "Tuesdays"}, format="json").json()["id"]
    body = {
        "actions": [{"type": "hero_joined", "data": {"hero": "Ana", "class": "Fighter"}}],
        "expected_version": 2**64,
    }
    r = api.post(f"/api/campaigns/{cid}/events/batch/", body, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid", r.content


def test_a_nul_in_the_idempotency_key_header_is_a_json_400(token, stone_match) -> None:
    status, headers, body = append_call(
        token, stone_match.pk, MOVE, headers={"Idempotency-Key": "tap\x001"}, signals=False
    )
    assert status == 400 and headers["Content-Type"] == "application/json"
    assert "Idempotency-Key" in json.loads(body)["errors"] and events(stone_match) == 0


def test_an_empty_idempotency_key_header_is_refused_not_dropped(token, stone_match) -> None:
    status, _, body = append_call(token, stone_match.pk, MOVE, headers={"Idempotency-Key": ""}, signals=False)
    assert status == 400 and "Idempotency-Key" in json.loads(body)["errors"] and events(stone_match) == 0


# -- over real HTTP: scripts/serve (granian) -------------------------------------------------------------


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker) -> Iterator[int]:
    """``scripts/serve`` (granian, one process, one thread) on the test database; its port."""
    if connection.vendor != "postgresql":
        pytest.skip("serves the PostgreSQL test database")
    port = free_port()
    db = connection.settings_dict
    env = {
        **os.environ, "VIRTUAL_ENV": str(Path(sys.executable).parent.parent), "HOST": "127.0.0.1", "PORT": str(port),
        "WEB_CONCURRENCY": "1", "WEB_THREADS": "1", "DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }  # fmt: skip
    proc = subprocess.Popen(
        [str(ROOT / "scripts" / "serve")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        wait_listening(port, proc, what="scripts/serve")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def raw_http(port: int, head: list[str], body: bytes = b"") -> tuple[int, bytes]:
    """Send one request as bytes (headers exactly as given); (status, body) of the answer."""
    request = "\r\n".join([*head, "Host: 127.0.0.1", "Connection: close", "", ""]).encode("utf-8") + body
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


@pytest.mark.django_db(transaction=True)  # the server reads what the test wrote
def test_over_http_a_chunked_append_is_recorded(server, token, stone_match) -> None:
    payload = json.dumps(MOVE).encode()
    chunks = b"".join(f"{len(part):x}\r\n".encode() + part + b"\r\n" for part in (payload[:10], payload[10:]))
    status, body = raw_http(
        server,
        [f"POST /api/matches/{stone_match.pk}/events/ HTTP/1.1", f"Authorization: Token {token}",
         "Content-Type: application/json", "Transfer-Encoding: chunked"],
        chunks + b"0\r\n\r\n",
    )  # fmt: skip
    assert status == 201, body
    assert events(stone_match) == 1


@pytest.mark.django_db(transaction=True)
def test_over_http_a_non_ascii_idempotency_key_is_refused_not_dropped(server, token, stone_match) -> None:
    """granian passes a header value it cannot decode as "": without the refusal a retry recorded twice."""
    payload = json.dumps(MOVE).encode()
    head = [f"POST /api/matches/{stone_match.pk}/events/ HTTP/1.1", f"Authorization: Token {token}",
            "Content-Type: application/json", f"Content-Length: {len(payload)}", "Idempotency-Key: café-1"]  # fmt: skip
    answers = [raw_http(server, head, payload) for _ in range(2)]
    assert [status for status, _ in answers] == [400, 400], answers
    assert "Idempotency-Key" in json.loads(answers[0][1])["errors"]
    assert events(stone_match) == 0


@pytest.mark.django_db(transaction=True)
def test_over_http_an_answer_given_before_the_body_was_read_leaves_the_connection_usable(
    server, token, stone_match
) -> None:
    """Issue 31 item 5: a 503 (or a 401) answered before the app read a body left the rest on the connection;
    granian closed it without ``Connection: close`` and the next request on it failed (BrokenPipe)."""
    import http.client

    big = json.dumps({**MOVE, "note": "x" * 300_000}).encode()  # more than one read of the server's
    conn = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    statuses = []
    for key in ("not-a-token", "not-a-token", token):
        body = big if key != token else json.dumps(MOVE).encode()
        conn.request("POST", f"/api/matches/{stone_match.pk}/events/", body=body,
                     headers={"Authorization": f"Token {key}", "Content-Type": "application/json"})  # fmt: skip
        response = conn.getresponse()
        response.read()
        statuses.append(response.status)
    conn.close()
    assert statuses == [401, 401, 201]
    assert events(stone_match) == 1

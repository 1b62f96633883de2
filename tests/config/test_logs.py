"""Structured logs: JSON lines, one access line per request, each naming the request id."""

from __future__ import annotations

import json
import logging

import pytest

from config.logs import JsonFormatter, request_id_var

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def access_lines():
    logger = logging.getLogger("chronicle.access")
    handler = _Collect()
    saved = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler.lines
    logger.removeHandler(handler)
    logger.setLevel(saved)


def test_each_request_writes_one_json_access_line_with_its_request_id(client, access_lines):
    response = client.get("/api/games/", HTTP_X_REQUEST_ID="req-42")
    assert response["X-Request-ID"] == "req-42"
    (line,) = access_lines
    entry = json.loads(line)
    assert entry["logger"] == "chronicle.access"
    assert entry["request_id"] == "req-42"
    assert (entry["method"], entry["path"], entry["status"]) == ("GET", "/api/games/", 200)
    assert entry["duration_ms"] >= 0


def test_log_lines_written_while_serving_name_the_request(client, monkeypatch):
    seen: list[str] = []
    from matches.api import matches as api

    original = api.GameListApi.get

    def spy(self, request):  # type: ignore[no-untyped-def]
        seen.append(request_id_var.get())
        return original(self, request)

    monkeypatch.setattr(api.GameListApi, "get", spy)
    client.get("/api/games/", HTTP_X_REQUEST_ID="abc-1")
    assert seen == ["abc-1"]
    assert request_id_var.get() == ""  # reset once the request is served


def test_formatter_writes_fields_and_exceptions_as_json():
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom %s", ("now",), None)
    record.fields = {"match_id": 7}
    try:
        raise ValueError("bad")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    token = request_id_var.set("r-1")
    try:
        entry = json.loads(JsonFormatter().format(record))
    finally:
        request_id_var.reset(token)
    assert entry["message"] == "boom now"
    assert entry["level"] == "ERROR"
    assert entry["match_id"] == 7
    assert entry["request_id"] == "r-1"
    assert "ValueError: bad" in entry["exc"]


def test_request_ids_are_unique_per_process_and_after_a_fork():
    import os
    import re

    from config.middleware import new_request_id

    ids = {new_request_id() for _ in range(1000)}
    assert len(ids) == 1000 and all(re.fullmatch(r"[0-9a-f]{32}", i) for i in ids)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a forked worker draws its own prefix: its ids never repeat the parent's
        os.write(write, new_request_id().encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(read, 64).decode()
    assert child[:16] != next(iter(ids))[:16] and child not in ids

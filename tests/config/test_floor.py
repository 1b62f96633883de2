"""config at the floor calls up only through what the apps fill at start: an app's errors subclass
``config.errors.HttpError``; the error page, the API's ``invalid`` answer and the health checks are registries."""

from __future__ import annotations

import json

import pytest
from django.test import RequestFactory
from rest_framework import exceptions

from config import api, errors, health

pytestmark = pytest.mark.pure


class Teapot(errors.HttpError):
    status_code = 418
    code = "teapot"


def test_an_error_says_its_own_answer_and_the_api_maps_it_unknown():
    response = api.exception_handler(Teapot("Short and stout."), {})
    assert (response.status_code, response.data) == (418, {"code": "teapot", "detail": "Short and stout."})


def test_the_apps_domain_errors_are_http_errors():
    from matches.errors import DomainError, NotFound, VersionConflict

    assert issubclass(DomainError, errors.HttpError)
    response = api.exception_handler(VersionConflict(7, 6), {})
    assert response.status_code == 409 and response.data["current_version"] == 7
    assert api.exception_handler(NotFound("No such match."), {}).status_code == 404


def test_the_invalid_answer_is_the_apps_once_registered(monkeypatch):
    from matches.errors import InvalidInput

    refused = api.invalid_input({"data.name": [api.PROBLEM]})
    assert isinstance(refused, InvalidInput)  # matches.apps registered it at start
    assert refused.body() == {
        "code": "invalid", "detail": f"Invalid data.name: {api.PROBLEM}", "errors": {"data.name": [api.PROBLEM]},
    }  # fmt: skip

    monkeypatch.setattr(api, "_invalid_input", [])  # nothing registered: DRF's own, still an ``invalid`` answer
    refused = api.invalid_input({"data.name": [api.PROBLEM]})
    assert isinstance(refused, exceptions.ValidationError)
    assert api.exception_handler(refused, {}).data["code"] == "invalid"


def test_the_error_page_is_the_registered_one(monkeypatch):
    from frontend.views.errors import error_page

    assert errors._error_page == [error_page]  # frontend.apps registered it at start
    drawn = []
    monkeypatch.setattr(errors, "_error_page", [])
    errors.register_error_page(lambda request, status, title, message: drawn.append((status, title, message)))
    request = RequestFactory().get("/nowhere/")
    errors.not_found(request)
    errors.server_error(request)
    assert drawn == [(404, "Not found", "There is nothing here, or it is private."), (500, "Something went wrong", "")]
    assert errors.not_found(RequestFactory().get("/api/nowhere/")).status_code == 404  # the API's JSON, unregistered


def test_before_any_registration_the_error_page_is_plain_and_escaped(monkeypatch):
    monkeypatch.setattr(errors, "_error_page", [])
    response = errors.error_page(RequestFactory().get("/x/"), 400, "Invalid <b>", "No & more")
    assert response.status_code == 400
    assert "<h1>Invalid &lt;b&gt;</h1><p>No &amp; more</p>" in response.content.decode()


def _healthz(monkeypatch, settings, checks: dict[str, health.Check], database_up: bool = True) -> tuple[int, dict]:
    settings.REDIS_URL = ""

    def database() -> dict:
        if not database_up:
            raise RuntimeError("connection refused")
        return {"vendor": "test"}

    monkeypatch.setattr(health, "_database", database)
    monkeypatch.setattr(health, "_checks", {})
    for name, check in checks.items():
        health.register_check(name, check.run, check.degraded)
    response = health.healthz(RequestFactory().get("/healthz"))
    return response.status_code, json.loads(response.content)


def _boom() -> dict:
    raise ValueError("no checkpoint table")


def test_a_registered_health_check_reports_and_may_degrade(monkeypatch, settings):
    assert "projector" in health._checks  # matches.projections.health, registered at start

    fine = health.Check(lambda: {"lag_seconds": 1}, lambda report: report["lag_seconds"] > 60)
    status, body = _healthz(monkeypatch, settings, {"projector": fine})
    assert status == 200 and body["status"] == "ok"
    assert list(body) == ["status", "database", "redis", "projector"]
    assert body["projector"]["ok"] is True and body["projector"]["lag_seconds"] == 1

    lagging = health.Check(lambda: {"lag_seconds": 61}, lambda report: report["lag_seconds"] > 60)
    assert _healthz(monkeypatch, settings, {"projector": lagging})[1]["status"] == "degraded"

    failing = health.Check(_boom, lambda report: False)
    status, body = _healthz(monkeypatch, settings, {"projector": failing})
    assert status == 200 and body["status"] == "degraded"
    assert body["projector"]["ok"] is False and body["projector"]["error"] == "ValueError: no checkpoint table"


def test_with_the_database_down_no_registered_check_runs(monkeypatch, settings):
    ran = []
    check = health.Check(lambda: ran.append(1) or {}, lambda report: False)
    status, body = _healthz(monkeypatch, settings, {"projector": check}, database_up=False)
    assert (status, body["status"], ran) == (503, "down", [])
    assert "projector" not in body

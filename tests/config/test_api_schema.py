"""The OpenAPI schema matches what the API answers: schemathesis drives every operation with generated
requests (a bounded number per operation) and runs all of its checks, not only "no 5xx".

One check is configured rather than taken as is: for writes, schemathesis expects a request that fits the
schema to be accepted. Chronicle's writes are judged beyond their shape (a legal move, an existing username,
a seat count the game allows, a right password), and the API contract answers those with 400
``rule_violation``/``invalid``, so 400 is an expected answer there; ``error_bodies_name_the_problem`` then
holds every refusal to the contract: a JSON body with a ``code`` and a human ``detail``. The statistics
filters are the same for one cross-field rule (``until`` not before ``since``).
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from config.wsgi import application

pytestmark = pytest.mark.one_db

WRITE_REFUSALS = ["2xx", "400", "401", "403", "404", "409", "422", "429"]

CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-method": "POST",
                "checks": {"positive_data_acceptance": {"expected-statuses": WRITE_REFUSALS}},
            },
            {  # the statistics filter's one rule the schema cannot say: `until` not before `since`
                "include-path-regex": "^/api/stats/",
                "checks": {"positive_data_acceptance": {"expected-statuses": WRITE_REFUSALS}},
            },
        ]
    }
)

schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG)


@schemathesis.check
def error_bodies_name_the_problem(ctx, response, case):
    """Every 4xx/5xx answer is JSON with a ``code`` and a non-empty ``detail``."""
    if response.status_code < 400:
        return None
    body = response.json()
    assert isinstance(body, dict) and body.get("code") and body.get("detail"), body
    return None


@pytest.fixture
def same_connection():
    """Keep the test's database connection across requests, as Django's test client does: the WSGI handler
    would close it at each request's end (its transaction differs from autocommit), losing the test data."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(db, same_connection, owner, stone_match):
    from rest_framework.authtoken.models import Token

    return Token.objects.create(user=owner).key


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_api_answers_as_its_schema_says(case, token):
    case.call_and_validate(
        headers={"Authorization": f"Token {token}"}, additional_checks=[error_bodies_name_the_problem]
    )


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

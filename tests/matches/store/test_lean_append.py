"""The append endpoint's lean path (``config.api.LeanPostMixin``): a token-authenticated JSON POST skips DRF's
request machinery and must answer exactly as DRF's own path does (status, body, headers), write exactly
what it writes, and hand everything else to DRF with nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.views import APIView

from matches.models import Event as EventRow
from matches.services import match_create

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

DRF_ONLY = "application/json; q=0.9"  # means JSON to DRF, but is not an Accept the lean path takes
MOVE = {"type": "stones_taken", "seat": 0, "data": {"count": 1}}


def _match(owner: Any, **extra: Any) -> Any:
    extra.setdefault("is_public", True)
    return match_create(
        owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 10}, **extra
    )


def _client(user: Any) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")


def _post(client: Client, match_id: int, body: Any, *, accept: str = "", **headers: Any) -> Any:
    raw = body if isinstance(body, str | bytes) else None
    extra = {"HTTP_ACCEPT": accept} if accept else {}
    return client.post(
        f"/api/matches/{match_id}/events/", raw if raw is not None else body, content_type="application/json",
        **extra, **headers,
    )  # fmt: skip


def _answer(response: Any) -> tuple[int, Any, dict[str, str]]:
    """Status, body (the event's global position dropped: it differs between two matches) and headers."""
    body = response.json()
    if isinstance(body, dict):
        body.pop("position", None)
    headers = {k: v for k, v in response.headers.items() if k not in ("X-Request-ID", "Content-Length")}
    return response.status_code, body, headers


@pytest.fixture
def drf_forbidden(monkeypatch: pytest.MonkeyPatch) -> Any:
    """While active, DRF's request machinery must not run (proves the lean path answered)."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("DRF's path answered a request the lean path should have")

    class Guard:
        def __enter__(self) -> None:
            monkeypatch.setattr(APIView, "initialize_request", boom)

        def __exit__(self, *exc: Any) -> None:
            monkeypatch.undo()

    return Guard()


CASES: list[tuple[str, list[Any]]] = [
    ("legal move", [{**MOVE, "expected_version": 0}]),
    ("two moves", [MOVE, {**MOVE, "seat": 1}]),
    ("not your turn", [{**MOVE, "seat": 1}]),
    ("version conflict", [{**MOVE, "expected_version": 3}]),
    ("unknown type", [{**MOVE, "type": "stones_given"}]),
    ("no such seat", [{**MOVE, "seat": 7}]),
    ("payload of the wrong type", [{**MOVE, "data": {"count": "one"}}]),
    ("field of the wrong JSON type", [{**MOVE, "expected_version": "0"}]),
    ("unstorable text", [{**MOVE, "data": {"count": 1, "note": "a\u0000b"}}]),
    ("not an object", [[MOVE]]),
    ("idempotent replay", [{**MOVE, "idempotency_key": "k1"}, {**MOVE, "idempotency_key": "k1"}]),
    ("idempotency key reused", [{**MOVE, "idempotency_key": "k2"}, {**MOVE, "seat": 1, "idempotency_key": "k2"}]),
    ("void", [MOVE, {"type": "event_voided", "data": {"version": 1, "reason": "miscounted"}}]),
    ("win", [{**MOVE, "data": {"count": 3}}, {**MOVE, "seat": 1, "data": {"count": 3}},
             {**MOVE, "data": {"count": 3}}, {**MOVE, "seat": 1, "data": {"count": 1}}]),
]  # fmt: skip


@pytest.mark.parametrize("bodies", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_lean_path_answers_as_drf_does(owner, drf_forbidden, bodies):
    lean_match, drf_match = _match(owner), _match(owner)
    client = _client(owner)
    for body in bodies:
        with drf_forbidden:
            lean = _post(client, lean_match.pk, body)
        full = _post(client, drf_match.pk, body, accept=DRF_ONLY)
        assert _answer(lean) == _answer(full)
    written = {m.pk: list(EventRow.objects.filter(stream_id=m.stream_id).values_list("version", "type", "seat", "data"))
               for m in (lean_match, drf_match)}  # fmt: skip
    assert written[lean_match.pk] == written[drf_match.pk]


def test_refusals_of_who_may_write_are_the_same(owner, make_user, drf_forbidden):
    stranger = make_user("stranger")
    public, private = _match(owner), _match(owner, is_public=False)
    client = _client(stranger)
    for match_id in (public.pk, private.pk, 987654):
        with drf_forbidden:
            lean = _post(client, match_id, MOVE)
        assert _answer(lean) == _answer(_post(client, match_id, MOVE, accept=DRF_ONLY))
        assert lean.status_code == (403 if match_id == public.pk else 404)
    assert not EventRow.objects.exists()


def test_a_named_recorder_and_the_header_idempotency_key(owner, make_user, drf_forbidden):
    helper = make_user("helper")
    match = _match(owner, recorders=[helper])
    with drf_forbidden:
        first = _post(_client(helper), match.pk, MOVE, HTTP_IDEMPOTENCY_KEY="h1")
        again = _post(_client(helper), match.pk, MOVE, HTTP_IDEMPOTENCY_KEY="h1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert EventRow.objects.get(stream_id=match.stream_id).recorded_by_id == helper.pk


@pytest.mark.parametrize(
    "case",
    ["bad token", "malformed JSON", "empty body", "text body", "html accept", "session login"],
)
def test_what_the_lean_path_does_not_take_goes_to_drf(owner, stone_match, case):
    """Each of these requests is answered by DRF's own path, exactly as before, and writes nothing."""
    client = _client(owner)
    url = f"/api/matches/{stone_match.pk}/events/"
    if case == "bad token":
        r = Client(HTTP_AUTHORIZATION="Token nope").post(url, MOVE, content_type="application/json")
        assert r.status_code == 401 and r.json()["code"] == "authentication_failed" and r["WWW-Authenticate"]
    elif case == "malformed JSON":
        r = client.post(url, '{"type": ', content_type="application/json")
        assert r.status_code == 400 and r.json()["code"] == "malformed"
    elif case == "empty body":
        r = client.post(url, "", content_type="application/json")
        assert r.status_code == 400 and r.json()["errors"] == {"type": ["This field is required."]}
    elif case == "text body":
        r = client.post(url, '{"type": "stones_taken"}', content_type="text/plain")
        assert r.status_code == 415 and r.json()["code"] == "unsupported_media_type"
    elif case == "html accept":
        r = client.post(url, MOVE, content_type="application/json", HTTP_ACCEPT="text/html")
        assert r.status_code == 201 and r["Content-Type"].startswith("text/html")  # DRF's browsable answer
    else:
        session = Client(enforce_csrf_checks=True)
        session.force_login(owner)
        r = session.post(url, MOVE, content_type="application/json")
        assert r.status_code == 403 and "CSRF" in r.json()["detail"]  # a browser session needs its CSRF token
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == (1 if case == "html accept" else 0)


def test_a_throttled_request_is_refused_by_drf_and_costs_nothing(owner, stone_match, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": "2/min"}}
    client = _client(owner)
    codes = [_post(client, stone_match.pk, {**MOVE, "seat": i % 2}).status_code for i in range(3)]
    assert codes == [201, 201, 429]
    refused = _post(client, stone_match.pk, {**MOVE, "seat": 0})
    assert refused.status_code == 429 and refused.json()["code"] == "throttled" and int(refused["Retry-After"]) > 0
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 2


def test_access_log_names_the_token_user(owner, stone_match, caplog):
    with caplog.at_level("INFO", logger="chronicle.access"):
        assert _post(_client(owner), stone_match.pk, MOVE).status_code == 201
    line = next(r for r in caplog.records if r.name == "chronicle.access")
    assert line.fields["user_id"] == owner.pk and line.fields["status"] == 201


def test_a_campaign_entry_takes_the_lean_path_too(owner, drf_forbidden):
    """The mixin is on the endpoint every stream kind shares: a campaign's entries answer the same way."""
    client = _client(owner)
    ids = [
        client.post("/api/campaigns/", {"name": f"Lean {i}"}, content_type="application/json").json()["id"]
        for i in range(2)
    ]
    entries = [
        {"type": "hero_joined", "data": {"hero": "Ana", "class": "Fighter"}},
        {"type": "hero_joined", "data": {"hero": "Bo", "class": "Wizard"}},
        {"type": "adventure_started", "data": {"adventure": "The Sinister Secret", "heroes": ["Ana", "Bo"]}},
        {"type": "shop_revealed", "data": {"cards": []}},  # no town action during an adventure: refused
        {"type": "gold_gained", "data": {"hero": "Bo", "amount": 300}},
    ]
    statuses = []
    for body in entries:
        with drf_forbidden:
            lean = client.post(f"/api/campaigns/{ids[0]}/events/", body, content_type="application/json")
        full = client.post(f"/api/campaigns/{ids[1]}/events/", body, content_type="application/json",
                           HTTP_ACCEPT=DRF_ONLY)  # fmt: skip
        assert _answer(lean) == _answer(full)
        statuses.append(lean.status_code)
    assert statuses == [201, 201, 201, 400, 201]
    sheets = [client.get(f"/api/campaigns/{i}/sheet/").json()["heroes"] for i in ids]
    assert sheets[0] == sheets[1] and any(h["gold"] == 300 for h in sheets[0])

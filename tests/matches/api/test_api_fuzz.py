"""Random payloads against every game's event endpoint: never a 500, and a refusal never writes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Event as EventRow
from matches.services import match_create
from rulesets import all_rulesets
from rulesets.replay import event_types_with_meta

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 12)
    | st.text(max_size=12)
    | st.sampled_from(["circle-red", "Ana", "Bracer"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
CELL = st.lists(st.integers(-2, 6), min_size=2, max_size=2)

MATCH_GAMES = [r for r in all_rulesets(kind="match")]


def _payload(ruleset, draw):
    types = sorted(event_types_with_meta(ruleset))
    type_ = draw(st.sampled_from([*types, "nope", ""]))
    spec = event_types_with_meta(ruleset).get(type_)
    if spec is not None and draw(st.booleans()):
        data = {f.name: draw(CELL if f.kind == "cell" else JSON) for f in spec.fields}  # right keys, random values
    else:
        data = draw(JSON)
    body = {"type": type_, "seat": draw(st.none() | st.integers(-1, 5) | st.text(max_size=3)), "data": data}
    if draw(st.booleans()):
        body["expected_version"] = draw(st.none() | st.integers(-1, 3) | st.text(max_size=3))
    return body


@pytest.mark.parametrize("ruleset", MATCH_GAMES, ids=[r.slug for r in MATCH_GAMES])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_events_never_500_and_refusals_never_write(api, owner, ruleset, data):
    seats = [{"name": f"P{i}"} for i in range(ruleset.seats[0] if ruleset.seats[0] > 1 else 2)]
    if len(seats) not in ruleset.seats:
        seats = seats[: ruleset.seats[0]]
    match = match_create(owner=owner, game=ruleset.slug, seats=seats)
    for _ in range(3):
        body = _payload(ruleset, data.draw)
        before = EventRow.objects.count()
        r = api.post(f"/api/matches/{match.pk}/events/", body, format="json")
        assert r.status_code < 500, (body, r.content[:500])
        payload = r.json()
        if r.status_code >= 400:
            assert payload["code"] and payload["detail"], payload
            assert EventRow.objects.count() == before
        else:
            assert r.status_code == 201 and EventRow.objects.count() == before + 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_campaign_events_never_500(api, owner, data):
    from campaigns.saltmarsh.services import campaign_create
    from rulesets import get_ruleset

    campaign = campaign_create(owner=owner, name="Fuzz")
    ruleset = get_ruleset("saltmarsh")
    for _ in range(3):
        body = _payload(ruleset, data.draw)
        before = EventRow.objects.count()
        r = api.post(f"/api/campaigns/{campaign.pk}/events/", body, format="json")
        assert r.status_code < 500, (body, r.content[:500])
        if r.status_code >= 400:
            assert r.json()["code"] and EventRow.objects.count() == before


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(st.sampled_from(["game", "seats", "options", "title", "is_public", "recorders"]), JSON))
def test_random_match_creation_never_500(api, body):
    r = api.post("/api/matches/", body, format="json")
    assert r.status_code < 500, (body, r.content[:500])

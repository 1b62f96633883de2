"""The match page's "Replay under the current rules" (issue 32, item 6): the owner sees the difference first
(winner, scores, entries that would be refused), then confirms; anyone else is refused, and nothing is written
on a refusal or by a look."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow
from matches.models import Match, Stream
from matches.services import match_create, match_event_record
from matches.store.events import head_cache
from rulesets import get_ruleset

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

BW = get_ruleset("bone-wars")


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def v1_match(owner) -> Match:
    """Bone Wars played to the last pass by a version-1 release (the stream carries version 1): Ana won."""
    match = match_create(
        owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"starting_money": 9}
    )
    Stream.objects.filter(pk=match.stream_id).update(ruleset_version=1, rules_version=1)
    head_cache.clear()
    entries = []
    for seat, rp in ((0, 3), (1, 1)):
        entries += [
            ("card_played", seat, {"card": {"kind": "team", "name": "Field Team", "cost": 0}}),
            ("rp_gained", seat, {"amount": rp, "reason": "bonus"}),
            ("turn_ended", seat, {}),
        ]
    for _ in range(4):
        entries += [("passed", 0, {"patron": "marsh"}), ("passed", 1, {"patron": "cope"})]
    for type_, seat, data in entries:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    return match


def test_the_match_page_offers_the_move_to_its_owner_only(web, v1_match, client, make_user):
    page = web.get(f"/matches/{v1_match.pk}/").content.decode()
    assert "keeps the rules it was recorded under (version 1 of Bone Wars" in page
    assert f'href="/matches/{v1_match.pk}/rules/"' in page
    recorder = make_user("recorder")
    v1_match.recorders.add(recorder)
    client.force_login(recorder)
    assert "Replay under the current rules" not in client.get(f"/matches/{v1_match.pk}/").content.decode()
    count = EventRow.objects.count()
    assert client.get(f"/matches/{v1_match.pk}/rules/").status_code == 403
    assert client.post(f"/matches/{v1_match.pk}/rules/", {"expected_version": "14"}).status_code == 403
    assert EventRow.objects.count() == count


def test_the_difference_is_shown_first_then_the_confirmation_records_the_move(web, v1_match):
    r = web.get(f"/matches/{v1_match.pk}/rules/")
    page = r.content.decode()
    assert r.status_code == 200
    assert "version 1 of Bone Wars" in page and f"version {BW.version}" in page
    assert "<td>Ana won</td>" in page
    assert "Ana won (not final: the table may still add to the final scoring)" in page
    assert "<td>Ana 3 RP, Bo 1 RP</td>" in page  # Bone Wars counts RP (issue 46 item 6)
    assert "The result would be withheld until the awards are confirmed" in page
    assert EventRow.objects.filter(stream_id=v1_match.stream_id).count() == 14  # a look writes nothing
    r = web.post(f"/matches/{v1_match.pk}/rules/", {"expected_version": "14", "idempotency_key": "page-1"})
    assert r.status_code == 302 and r["Location"] == f"/matches/{v1_match.pk}/"
    assert EventRow.objects.get(stream_id=v1_match.stream_id, version=15).type == "rules_upgraded"
    v1_match.refresh_from_db()
    assert v1_match.status == "in_progress"  # the awards may come now
    page = web.get(f"/matches/{v1_match.pk}/").content.decode()
    assert "Replayed under the current rules" in page and "keeps the rules it was recorded under" not in page
    after = web.get(f"/matches/{v1_match.pk}/rules/").content.decode()
    assert "there is nothing to move to" in after


@pytest.mark.parametrize("version", ["3", "abc", "-1", "99999999999999"])
def test_a_stale_or_bad_confirmation_is_shown_on_the_page_and_writes_nothing(web, v1_match, version):
    count = EventRow.objects.count()
    r = web.post(f"/matches/{v1_match.pk}/rules/", {"expected_version": version})
    assert r.status_code in (400, 409) and "Not replayed:" in r.content.decode()
    assert EventRow.objects.count() == count
    assert Stream.objects.get(pk=v1_match.stream_id).rules_version == 1


def test_an_unknown_match_is_a_404(web):
    assert web.get("/matches/999999/rules/").status_code == 404

"""The bridge's one transaction with real commits and rollbacks: the head cache never keeps rolled-back heads.

``transaction=True``: every service call commits (or rolls back) for real, so the store's on-commit head
cache is filled exactly as in production. Run on PostgreSQL (and SQLite).
"""

from __future__ import annotations

import pytest

from campaigns import services as campaign_services
from campaigns.bridge import BridgeRefused
from matches import services as match_services
from matches import store
from matches.models import Stream

pytestmark = pytest.mark.django_db(transaction=True)


def db_version(stream_id: int) -> int:
    return Stream.objects.get(pk=stream_id).version


def test_a_refused_bridge_rolls_back_both_streams_and_leaves_no_head_cached(owner) -> None:
    campaign = campaign_services.campaign_create(owner=owner, name="Tuesdays")
    for hero in ("Ana", "Bo"):
        campaign_services.campaign_event_record(
            campaign=campaign, user=owner, type="hero_joined", data={"hero": hero, "class": "Fighter"}
        )
    match = campaign_services.campaign_adventure_start(
        campaign=campaign, user=owner, adventure="The Sinister Secret", reward=300,
        heroes=[{"name": "Ana", "max_hp": 10}, {"name": "Bo", "max_hp": 8}],
    )  # fmt: skip
    found = match_services.match_event_record(
        match=match, user=owner, type="treasure_found", seat=1, data={"item": {"name": "Ring", "sell": 90}}
    )
    assert store.head_cache.get(match.stream_id).version == found.version  # cached on commit
    campaign_services.campaign_event_record(campaign=campaign, user=owner, type="rule_overridden", data={"reason": "x"})
    campaign_version = db_version(campaign.stream_id)
    assert store.head_cache.get(campaign.stream_id).version == campaign_version

    with pytest.raises(BridgeRefused) as info:
        match_services.match_event_record(match=match, user=owner, type="adventure_won")
    assert info.value.error.code == "rule_violation"
    # nothing written anywhere, and the cache still holds the committed heads (the won head never got in)
    assert db_version(match.stream_id) == found.version and db_version(campaign.stream_id) == campaign_version
    assert store.head_cache.get(match.stream_id).version == found.version
    assert store.head_cache.get(match.stream_id).state["result"] is None
    assert store.head_cache.get(campaign.stream_id).version == campaign_version
    match.refresh_from_db()
    assert match.status == "in_progress"

    # undo the override on the campaign; the same win now lands in both, from the cached heads
    campaign_services.campaign_event_record(
        campaign=campaign, user=owner, type="event_voided", data={"version": campaign_version, "reason": "oops"}
    )
    won = match_services.match_event_record(match=match, user=owner, type="adventure_won")
    assert won.version == found.version + 1 and won.linked[0].version == campaign_version + 2
    assert store.head_cache.get(match.stream_id).version == db_version(match.stream_id) == won.version
    cached = store.head_cache.get(campaign.stream_id)
    assert cached.version == db_version(campaign.stream_id)
    assert cached.state == store.head_load(campaign.stream_id, fresh=True).state
    bo = next(h for h in cached.state["heroes"] if h["name"] == "Bo")
    assert [i["name"] for i in bo["items"]] == ["Ring"] and bo["gold"] == 300

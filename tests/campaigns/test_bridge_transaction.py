"""The bridge's one transaction with real commits and rollbacks: the head cache never keeps rolled-back heads.

``transaction=True``: every service call commits (or rolls back) for real, so the store's on-commit head
cache is filled exactly as in production. Run on PostgreSQL (and SQLite).
"""

from __future__ import annotations

import pytest

from campaigns.saltmarsh import services as campaign_services
from campaigns.saltmarsh.bridge import BridgeRefused
from matches import services as match_services
from matches.models import Stream
from matches.store import events as store
from matches.store import streams

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


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


@pytest.mark.postgres
def test_concurrent_entries_on_an_adventure_match_keep_the_campaign_in_step(owner) -> None:
    """Six recorders at once on PostgreSQL (separate connections): gold found, a win, a loss, a void. Whatever
    order the database lets through, the campaign ends holding exactly what the match's final state implies."""
    import threading

    from django.db import connection, connections

    from campaigns.saltmarsh.bridge import BridgeRefused
    from matches.errors import DomainError
    from rulesets import get_ruleset
    from rulesets.saltmarsh import conclusion_from_adventure
    from rulesets.saltmarsh.engine import adventure_of_match

    if connection.vendor != "postgresql":
        pytest.skip("separate connections writing at once is PostgreSQL's behaviour (SQLite writes are serial)")
    campaign = campaign_services.campaign_create(owner=owner, name="Race")
    campaign_services.campaign_event_record(
        campaign=campaign, user=owner, type="hero_joined", data={"hero": "Ana", "class": "Fighter"}
    )
    match = campaign_services.campaign_adventure_start(
        campaign=campaign, user=owner, adventure="Dunwater", heroes=[{"name": "Ana", "max_hp": 10}], reward=100
    )
    first = match_services.match_event_record(match=match, user=owner, type="gold_found", seat=0, data={"amount": 5})
    entries = [
        ("gold_found", 0, {"amount": 7}),
        ("adventure_won", None, {}),
        ("adventure_lost", None, {"reason": "The tide."}),
        ("treasure_found", 0, {"item": {"name": "Ring", "sell": 90}}),
        ("event_voided", None, {"version": first.version, "reason": "miscounted"}),
        ("gold_found", 0, {"amount": 11}),
    ]
    barrier = threading.Barrier(len(entries))
    outcomes: list = [None] * len(entries)

    def worker(i: int) -> None:
        type_, seat, data = entries[i]
        try:
            barrier.wait()
            from matches.models import Match

            mine = Match.objects.get(pk=match.pk)
            outcomes[i] = match_services.match_event_record(match=mine, user=owner, type=type_, seat=seat, data=data)
        except (DomainError, BridgeRefused) as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(entries))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not [o for o in outcomes if o is None]
    assert sum(1 for o in outcomes if not isinstance(o, Exception)) >= 1
    finished = [
        entries[i][0]
        for i, o in enumerate(outcomes)
        if entries[i][0].startswith("adventure_") and not isinstance(o, Exception)
    ]
    assert len(finished) <= 1  # the second ending met a finished match
    state = store.head_load(match.stream_id, fresh=True).state
    head = store.head_load(campaign.stream_id, fresh=True)
    entry = conclusion_from_adventure(state, match.pk)
    implied = streams.event_clean(get_ruleset("saltmarsh"), 0, entry.type, None, entry.data).data if entry else None
    assert adventure_of_match(head.state, match.pk)["conclusion"] == implied
    assert store.position_at(campaign.stream_id, head.version, check=True).state == head.state

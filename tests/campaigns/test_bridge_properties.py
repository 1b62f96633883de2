"""Random play across the bridge: a campaign and its adventure matches through the services.

Hypothesis drives the table: adventures started as matches, moves, treasure found and used up, wins and
losses, voids and overrides on both streams, town actions, hand entries, old matches poked again. After
every action:

- a refused action wrote nothing, in the campaign or in any of its matches (but the void of a house rule it
  spent, when even the house rule could not place it: issue 46 item 3);
- the campaign holds, for every adventure match, exactly the conclusion the match's **current** state
  implies (nothing while it is played), so the sheet is what the matches' results say;
- the campaign head equals a replay of its log, and no hero is below 0 gp.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign
from campaigns.saltmarsh import services as campaign_services
from matches import services as match_services
from matches.errors import DomainError
from matches.models import Event as EventRow
from matches.models import Match
from matches.store import events as store
from matches.store import streams as stream_layer
from rulesets import get_ruleset
from rulesets.saltmarsh import conclusion_from_adventure
from rulesets.saltmarsh.bridge import adventure_result
from rulesets.saltmarsh.engine import adventure_of_match

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

HEROES = ["Ana", "Bo", "Cy"]
CARDS = [
    {"name": "Potion", "buy": 100, "sell": 50},
    {"name": "Ring", "buy": 700, "sell": 300},
    {"name": "Blessing"},
    {"name": "Rope", "buy": 20, "sell": None, "item": True},
]


def streams(campaign: Campaign) -> dict[int, int]:
    """Event count per stream: the campaign's and every one of its matches'."""
    ids = [campaign.stream_id, *Match.objects.filter(campaign=campaign).values_list("stream_id", flat=True)]
    return {i: EventRow.objects.filter(stream_id=i).count() for i in ids}


def check_bridge(campaign: Campaign) -> None:
    head = store.head_load(campaign.stream_id, fresh=True)
    replayed = store.position_at(campaign.stream_id, head.version, check=False, _head=None)
    assert replayed.state == head.state, "the campaign head is a replay of its log"
    ruleset = get_ruleset("saltmarsh")
    for match in Match.objects.filter(campaign=campaign):
        state = store.head_load(match.stream_id, fresh=True).state
        adventure = adventure_of_match(head.state, match.pk)
        assert adventure is not None
        entry = conclusion_from_adventure(state, match.pk)
        implied = stream_layer.event_clean(ruleset, 0, entry.type, None, entry.data).data if entry else None
        assert adventure["conclusion"] == implied, f"campaign out of step with match #{match.pk}"
        result = adventure_result(state)
        assert adventure["result"] == {"won": "completed", "lost": "failed", None: "in progress"}[result]
        assert match.status == ("finished" if result else "in_progress")
    for hero in head.state["heroes"]:
        assert hero["gold"] >= 0


def campaign_action(draw: Any, campaign: Campaign, owner: Any) -> None:
    state = store.head_load(campaign.stream_id, fresh=True).state
    active = [h for h in state["heroes"] if not h["retired"]]
    hero = draw(st.sampled_from(HEROES))
    held = [i["name"] for h in active for i in h["items"]] or ["Potion"]
    kind = draw(
        st.sampled_from(
            ["start", "start", "sell", "trade", "shop", "buy", "level", "hand_result", "hand_treasure", "void",
             "override"]
        )
    )  # fmt: skip
    record = campaign_services.campaign_event_record
    if kind == "start":
        party = draw(st.lists(st.sampled_from(HEROES), min_size=1, max_size=3, unique=True))
        campaign_services.campaign_adventure_start(
            campaign=campaign, user=owner, adventure=draw(st.sampled_from(["Sinister Secret", "Dunwater"])),
            heroes=[{"name": n, "max_hp": 6} for n in party], reward=draw(st.sampled_from([0, 250, 500])),
        )  # fmt: skip
    elif kind == "sell":
        record(
            campaign=campaign, user=owner, type="item_sold", data={"hero": hero, "item": draw(st.sampled_from(held))}
        )
    elif kind == "trade":
        data = {"from": hero, "to": draw(st.sampled_from(HEROES)), "items": draw(st.lists(st.sampled_from(held), max_size=1)),
                "gold": draw(st.sampled_from([0, 50, 400]))}  # fmt: skip
        record(campaign=campaign, user=owner, type="trade_made", data=data)
    elif kind == "shop":
        cards = [{**c, "item": c.get("buy") is not None} for c in CARDS]
        record(campaign=campaign, user=owner, type="shop_revealed", data={"cards": cards})
    elif kind == "buy":
        record(campaign=campaign, user=owner, type="item_bought", data={"hero": hero, "item": draw(st.sampled_from(["Potion", "Ring"]))})  # fmt: skip
    elif kind == "level":
        record(campaign=campaign, user=owner, type="leveled_up", data={"hero": hero})
    elif kind == "hand_result":
        record(campaign=campaign, user=owner, type=draw(st.sampled_from(["adventure_completed", "adventure_failed"])),
               data={"reward": 100} if draw(st.booleans()) else {})  # fmt: skip
    elif kind == "hand_treasure":
        record(campaign=campaign, user=owner, type="treasure_gained", data={"hero": hero, "item": draw(st.sampled_from(CARDS))})  # fmt: skip
    elif kind == "void":
        version = store.head_load(campaign.stream_id, fresh=True).version
        target = draw(st.integers(1, max(1, version)))
        record(campaign=campaign, user=owner, type="event_voided", data={"version": target, "reason": "audit"})
    else:
        record(campaign=campaign, user=owner, type="rule_overridden", data={"reason": "audit"})


def match_action(draw: Any, match: Match, owner: Any) -> None:
    head = store.head_load(match.stream_id, fresh=True)
    state = head.state
    seats = len(state["heroes"])
    seat = draw(st.integers(0, seats - 1))
    held = [i["name"] for i in state["heroes"][seat]["items"]] or ["Potion"]
    kind = draw(
        st.sampled_from(
            ["found", "found", "used", "gold", "won", "lost", "table", "void", "void", "override", "phase", "damage"]
        )
    )
    record = match_services.match_event_record
    if kind == "found":
        record(match=match, user=owner, type="treasure_found", seat=seat, data={"item": draw(st.sampled_from(CARDS))})
    elif kind == "used":
        record(match=match, user=owner, type="treasure_used", seat=seat, data={"item": draw(st.sampled_from(held))})
    elif kind == "gold":
        record(match=match, user=owner, type="gold_found", seat=seat, data={"amount": draw(st.sampled_from([10, 150]))})
    elif kind == "won":
        record(match=match, user=owner, type="adventure_won", data={})
    elif kind == "lost":
        record(match=match, user=owner, type="adventure_lost", data={"reason": "The tide came in."})
    elif kind == "table":  # a result the table recorded without the deciding move
        winners = draw(st.sampled_from([[], list(range(seats))]))
        record(match=match, user=owner, type="result_recorded", data={"winners": winners, "note": "audit"})
    elif kind == "void":
        target = draw(st.integers(1, max(1, head.version)))
        record(match=match, user=owner, type="event_voided", data={"version": target, "reason": "audit"})
    elif kind == "override":
        record(match=match, user=owner, type="rule_overridden", data={"reason": "audit"})
    elif kind == "phase":
        record(match=match, user=owner, type="hero_phase_started", seat=state["active"], data={})
    else:
        record(match=match, user=owner, type="damage_taken", seat=seat, data={"amount": 3})


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_random_play_across_the_bridge_keeps_campaign_and_matches_in_step(owner, data) -> None:
    campaign = campaign_services.campaign_create(owner=owner, name="Audit")
    for name in HEROES:
        campaign_services.campaign_event_record(
            campaign=campaign, user=owner, type="hero_joined", data={"hero": name, "class": "Fighter"}
        )
    refused = accepted = 0
    for _ in range(30):
        matches = list(Match.objects.filter(campaign=campaign).order_by("pk"))
        before = streams(campaign)
        on_match = matches and data.draw(st.integers(0, 9)) < 6
        try:
            if on_match:
                # mostly the latest match; sometimes an older (closed) one
                match = matches[-1] if data.draw(st.integers(0, 4)) else data.draw(st.sampled_from(matches))
                match_action(data.draw, Match.objects.get(pk=match.pk), owner)
            else:
                campaign_action(data.draw, campaign, owner)
        except DomainError as exc:
            refused += 1
            event(
                f"refused: {getattr(exc, 'violation_code', None) or getattr(getattr(exc, 'error', None), 'violation_code', exc.code)}"
            )
            after = streams(campaign)
            if getattr(exc, "withdrawn", False) or getattr(getattr(exc, "error", None), "withdrawn", False):
                # unplayable under a house rule: the house rule is spent, its void the one entry written
                event("refused: unplayable, the house rule withdrawn")
                grown = {i: after[i] - before.get(i, 0) for i in after if after[i] != before.get(i, 0)}
                assert list(grown.values()) == [1], "a withdrawn house rule writes its void and nothing else"
            else:
                assert after == before, "a refused action wrote nothing, in either stream"
        else:
            accepted += 1
            after = streams(campaign)
            assert after != before
            if after[campaign.stream_id] != before[campaign.stream_id] and on_match:
                event("accepted: a match entry wrote the campaign too")
        check_bridge(campaign)
    assert accepted > 0

"""Campaign insights: the ``campaign_stats`` projector (each concluded adventure with the party's gold after it,
drawn by replaying the campaign's log) and the figures the game statistics read from it."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from campaigns.models import Campaign, CampaignAdventure
from matches.projections.play_stats import logs_upto
from matches.projections.projectors import read_model_register
from matches.stats.selectors import StatsFilter, dashboard_part_register
from matches.store import events as store
from matches.store.rows import ids_among
from matches.store.visibility import UserLike
from rulesets import get_ruleset
from rulesets.base import Event
from rulesets.replay import walk

CAMPAIGN_STATS = "campaign_stats"
IN_PROGRESS, COMPLETED, FAILED = "in progress", "completed", "failed"
# the match game whose statistics page shows each campaign game's figures
ADVENTURE_GAME = {"saltmarsh": "saltmarsh-adventure"}
CHART_CAMPAIGNS = 8  # the chart draws the most recently active campaigns; the table lists them all


def apply_campaign_stats(entries: list[store.LogEntry]) -> None:
    """Re-derive the rows of every campaign touched by ``entries`` from its newest committed version (its stream
    row), so that rows never move back whichever entries come in which order (the stall bound's read-ahead
    feeds newer entries before the global reader redelivers older ones), as ``apply_play_stats`` does."""
    touched = {entry.stream_id for entry in entries}
    found = Campaign.objects.filter(ids_among(Campaign, "stream_id", touched), game__in=ADVENTURE_GAME)
    campaigns = list(found.select_related("stream"))
    if not campaigns:
        return
    CampaignAdventure.objects.filter(campaign__in=campaigns).delete()
    logs = logs_upto({c.stream_id: c.stream.version for c in campaigns})
    out: list[CampaignAdventure] = []
    for campaign in campaigns:
        entries = [(v, Event(type_, seat, data), at) for v, type_, seat, at, data in logs[campaign.stream_id]]
        out.extend(_adventures(campaign, entries))
    CampaignAdventure.objects.bulk_create(out, batch_size=2000)


def _adventures(campaign: Campaign, log: list[tuple[int, Event, datetime]]) -> list[CampaignAdventure]:
    """One row per adventure the replay sees concluded (a result other than "in progress"), in order."""
    ruleset = get_ruleset(campaign.game)
    when = {version: at for version, _, at in log}
    steps = walk(
        ruleset,
        campaign.stream.options or {},
        campaign.stream.seat_count,
        [(v, e) for v, e, _ in log],
        campaign.stream.rules_version,
    )
    rows: list[CampaignAdventure] = []
    for event, before, after in steps:
        was = {i: a["result"] for i, a in enumerate(before.get("adventures", []))}
        for i, adventure in enumerate(after.get("adventures", [])):
            if adventure["result"] == IN_PROGRESS or was.get(i) == adventure["result"]:
                continue
            heroes = [h for h in after["heroes"] if not h["retired"]]
            rows.append(
                CampaignAdventure(
                    campaign=campaign, game=campaign.game, is_public=campaign.is_public, owner_id=campaign.owner_id,
                    number=len(rows) + 1, adventure=str(adventure["adventure"])[:200],
                    completed=adventure["result"] == COMPLETED, party_gold=sum(h["gold"] for h in heroes),
                    heroes=len(heroes), concluded_at=when[event.version],
                )
            )  # fmt: skip
    return rows


def reset_campaign_stats() -> None:
    """Empty the read model (the next run replays the log from the start)."""
    CampaignAdventure.objects.all().delete()


def _visible(user: UserLike) -> Q:
    if not (user and user.is_authenticated):
        return Q(is_public=True)
    recorded = Campaign.recorders.through.objects.filter(user_id=user.pk).values("campaign_id")
    return Q(is_public=True) | Q(owner_id=user.pk) | Q(campaign_id__in=recorded)


def adventures_qs(user: UserLike, game: str, f: StatsFilter) -> QuerySet[CampaignAdventure]:
    """Concluded adventures of the visible campaigns of ``game`` in the filter's dates (players do not apply:
    a campaign's heroes are not players)."""
    qs = CampaignAdventure.objects.filter(_visible(user), game=game)
    start, end = f.bounds()
    if start:
        qs = qs.filter(concluded_at__gte=start)
    if end:
        qs = qs.filter(concluded_at__lte=end)
    return qs


def campaign_figures(*, user: UserLike, match_game: str, f: StatsFilter) -> dict[str, Any] | None:
    """For the statistics page of an adventure game: each visible campaign's party gold after each concluded
    adventure, and the adventure success rate (over all of them and per adventure); None for other games."""
    game = next((g for g, m in ADVENTURE_GAME.items() if m == match_game), None)
    if game is None:
        return None
    rows = list(
        adventures_qs(user, game, f)
        .order_by("campaign_id", "number")
        .values("campaign_id", "campaign__name", "number", "adventure", "completed", "party_gold", "concluded_at")
    )
    campaigns: dict[int, dict[str, Any]] = {}
    latest: dict[int, tuple[datetime, int]] = {}
    by_name: dict[str, dict[str, int]] = defaultdict(lambda: {"completed": 0, "failed": 0})
    for r in rows:
        c = campaigns.setdefault(
            r["campaign_id"], {"campaign_id": r["campaign_id"], "name": r["campaign__name"], "adventures": []}
        )
        result = COMPLETED if r["completed"] else FAILED
        c["adventures"].append(
            {"number": r["number"], "adventure": r["adventure"], "result": result, "party_gold": r["party_gold"]}
        )
        latest[r["campaign_id"]] = (r["concluded_at"], r["campaign_id"])
        by_name[r["adventure"]][result] += 1
    completed = sum(1 for r in rows if r["completed"])
    ordered = sorted(campaigns.values(), key=lambda c: latest[c["campaign_id"]], reverse=True)
    return {
        "campaigns": ordered,
        "success": _rate(completed, len(rows) - completed),
        "by_adventure": [
            {"adventure": name, **_rate(n["completed"], n["failed"])} for name, n in sorted(by_name.items())
        ],
    }


def _rate(completed: int, failed: int) -> dict[str, Any]:
    total = completed + failed
    return {
        "concluded": total,
        "completed": completed,
        "failed": failed,
        "success_rate": round(100 * completed / total) if total else None,
    }


read_model_register(CAMPAIGN_STATS, apply_campaign_stats, reset_campaign_stats)
dashboard_part_register("campaigns", campaign_figures)

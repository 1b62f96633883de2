"""Campaign reads: visibility, lists, the campaign sheet at any version, the log."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from campaigns.models import Campaign
from matches.errors import NotFound
from matches.store import events as store
from matches.store.streams import stream_get, stream_list
from matches.store.visibility import SPECTATOR, UserLike, Viewer
from rulesets import get_ruleset


def campaign_list(*, user: UserLike, mine: bool = False) -> QuerySet[Campaign]:
    """Visible campaigns, most recently active first (``matches.store.streams.stream_list``)."""
    return stream_list(kind="campaign", user=user, mine=mine)


def campaign_get(*, user: UserLike, campaign_id: int) -> Campaign:
    """The campaign if visible to ``user``, else :class:`NotFound` (``matches.store.streams.stream_get``)."""
    return stream_get(kind="campaign", user=user, pk=campaign_id)


def sheet_function(game: str) -> Any:
    """The ruleset's ``sheet(state)`` (campaign games provide one), else the raw state."""
    return getattr(get_ruleset(game), "sheet", None) or (lambda state: state)


def campaign_state(
    *, campaign: Campaign, at: int | None = None, viewer: Viewer = SPECTATOR
) -> tuple[int, int, dict[str, Any]]:
    """``(version, latest_version, state)`` of the campaign at ``at`` (latest when None) as ``viewer`` sees it.

    The default viewer is a spectator (campaign sheets hide nothing today, so everyone reads the same)."""
    head = store.head_load(campaign.stream_id, fresh=True)
    version = head.version if at is None else at
    pos = store.position_at(campaign.stream_id, version, _head=head)
    return pos.version, head.version, viewer.state(get_ruleset(campaign.game), pos.state)


def campaign_sheet(*, campaign: Campaign, at: int | None = None) -> dict[str, Any]:
    """The campaign sheet (heroes, adventures) as it stood at version ``at``."""
    version, latest, state = campaign_state(campaign=campaign, at=at)
    sheet = sheet_function(campaign.game)(state)
    return {
        **sheet,
        "version": version,
        "latest_version": latest,
        "warnings": get_ruleset(campaign.game).warnings(state),
    }


def applied_versions(*, stream_id: int, upto: int | None = None) -> list[int]:
    """Stream versions of the entries the reducer applied, in order (voided entries and corrections left out).

    ``applied_versions(...)[n - 1]`` is the version of the n-th applied entry, which is how campaign
    ledger rows (counted by the reducer) link back to their event.
    """
    from matches.models import Event as EventRow
    from rulesets.replay import EVENT_VOIDED, RULE_OVERRIDDEN

    qs = EventRow.objects.filter(stream_id=stream_id).order_by("version")
    if upto is not None:
        qs = qs.filter(version__lte=upto)
    rows = list(qs.values_list("version", "type", "data"))
    voided = {int(d["version"]) for _, t, d in rows if t == EVENT_VOIDED}
    return [v for v, t, _ in rows if t not in (EVENT_VOIDED, RULE_OVERRIDDEN) and v not in voided]


def campaign_ledger(*, campaign: Campaign, hero: str | None = None, at: int | None = None) -> list[dict[str, Any]]:
    """Every gold change (optionally one hero's) up to version ``at``, each linked to its stream version."""
    version, _, state = campaign_state(campaign=campaign, at=at)
    return ledger_rows(campaign=campaign, state=state, version=version, hero=hero)


def ledger_rows(
    *, campaign: Campaign, state: dict[str, Any], version: int, hero: str | None = None,
    versions: list[int] | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """The ledger of an already folded ``state`` at ``version`` (no second replay); ``versions`` may be
    passed when several ledgers of one state are read. Raises :class:`NotFound` for an unknown hero."""
    try:
        rows = get_ruleset(campaign.game).gold_ledger(state, hero)
    except KeyError:
        raise NotFound(f"No hero named {hero!r} in this campaign.") from None
    if versions is None:
        versions = applied_versions(stream_id=campaign.stream_id, upto=version)
    for row in rows:
        ordinal = row.get("version")
        row["ordinal"] = ordinal
        row["version"] = versions[ordinal - 1] if ordinal and ordinal <= len(versions) else None
    return rows


def adventure_match_closed(*, match: Any) -> str | None:
    """Why an adventure match of a campaign takes no more entries (its adventure was concluded and a later
    one has started, or the campaign never linked it), or None while it is open."""
    from rulesets.saltmarsh.engine import match_closed_reason

    if match.campaign_id is None:
        return None
    campaign = Campaign.objects.select_related("stream").get(pk=match.campaign_id)
    return match_closed_reason(store.head_load(campaign.stream_id).state, match.pk)


def campaign_adventure_matches(*, campaign: Campaign, state: dict[str, Any]) -> list[Any]:
    """The adventure matches of the campaign whose adventure had started in ``state`` (a version's state),
    in the order they started."""
    from matches.models import Match

    ids = [a["match"] for a in state.get("adventures", []) if a.get("match") is not None]
    found = {m.pk: m for m in Match.objects.filter(campaign=campaign, pk__in=ids)}
    return [found[i] for i in ids if i in found]


def campaign_entry_match(*, campaign: Campaign, version: int) -> int | None:
    """The adventure match an entry of the campaign belongs to (its conclusion, or the start naming it)."""
    from matches.models import Event as EventRow
    from rulesets.saltmarsh.fields import BRIDGE_EVENTS

    row = EventRow.objects.filter(stream_id=campaign.stream_id, version=version).only("type", "data").first()
    if row is None or not isinstance(row.data, dict):
        return None
    match = row.data.get("match")
    return int(match) if match is not None and (row.type in BRIDGE_EVENTS or row.type == "adventure_started") else None

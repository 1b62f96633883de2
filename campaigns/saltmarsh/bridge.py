"""The campaign ↔ adventure bridge: a Saltmarsh campaign follows the adventure matches it opened.

Every entry recorded on an adventure match runs, with the campaign entries it implies, in **one database
transaction** (docs/ARCHITECTURE.md, "Adventures and campaigns"):

1. ``adventure_match_guard``: a closed match (its adventure concluded and a later one started) takes no
   entry at all.
2. the match entry is appended (rules checked by the adventure ruleset);
3. ``campaign_adventure_sync``: the campaign entry the match's *current* state implies
   (``adventure_concluded``, or none while it is played) is compared with the one the campaign holds
   for this match; a difference is written: the old conclusion is voided, the new one appended.

A refusal anywhere raises and rolls back everything (match entry included), so nothing is written in
either stream; the head cache is only filled on commit, so a rollback leaves nothing cached. The answer
of an accepted entry lists the campaign versions written (``AppendResult.linked``).

Who may conclude: anyone who may record on the match. The campaign's owner opened the match (and owns
it); only that owner names its recorders, so recording there is the owner's delegation for this
adventure, and the bridge writes only entries derived from the match.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from matches.errors import DomainError, RuleBroken, VersionConflict, WrappedRefusal
from matches.models import Event as EventRow
from matches.models import Match
from matches.services import UserLike, match_status_sync
from matches.store import events as store
from matches.store.streams import event_clean, stream_event_record
from rulesets import get_ruleset
from rulesets.replay import EVENT_VOIDED
from rulesets.saltmarsh.bridge import conclusion_from_adventure
from rulesets.saltmarsh.engine import adventure_of_match, match_closed_reason
from rulesets.saltmarsh.fields import ADVENTURE_CONCLUDED, RULE_BRIDGE

CONCLUDED = ADVENTURE_CONCLUDED


class BridgeRefused(WrappedRefusal):
    """The campaign refused what an adventure match entry implies; nothing was written in either stream."""

    def __init__(self, campaign: Campaign, error: DomainError) -> None:
        why = error.detail
        if isinstance(error, VersionConflict):
            why = "someone recorded on the campaign at the same moment; reload and try again."
        super().__init__(f"Not recorded, neither in this match nor in the campaign {campaign.name}: {why}", error)
        self.campaign_id = campaign.pk

    def body(self) -> dict[str, Any]:
        body = {**super().body(), "refused_by": "campaign", "campaign": self.campaign_id}
        body.pop("current_version", None)  # the campaign's, not the match's: a client must not take it as its own
        return body


def adventure_match_guard(*, match: Match) -> tuple[Campaign, store.Head]:
    """The match's campaign and its head (read fresh); :class:`RuleBroken` ``adventure_closed`` when the
    match can no longer change the campaign (nothing is written)."""
    campaign = Campaign.objects.select_related("stream").get(pk=match.campaign_id)
    head = store.head_load(campaign.stream_id, fresh=True)
    reason = match_closed_reason(head.state, match.pk)
    if reason is not None:
        raise RuleBroken("adventure_closed", reason, RULE_BRIDGE)
    return campaign, head


def _conclusion_in_effect(stream_id: int, match_id: int) -> int:
    """Stream version of the campaign's ``adventure_concluded`` entry for this match that is not voided."""
    voided = {
        int(d["version"]) for d in EventRow.objects.filter(stream_id=stream_id, type=EVENT_VOIDED).values_list(
            "data", flat=True
        )
    }  # fmt: skip
    versions = EventRow.objects.filter(stream_id=stream_id, type=CONCLUDED, data__match=match_id).values_list(
        "version", flat=True
    )
    live = sorted(v for v in versions if v not in voided)
    if not live:
        raise RuntimeError(f"the campaign holds a conclusion of match #{match_id} but no entry for it")
    return live[-1]


def campaign_adventure_sync(
    *, match: Match, campaign: Campaign, head: store.Head, user: UserLike, match_state: dict[str, Any],
    match_version: int, request_id: str = "",
) -> store.LinkedWrite | None:  # fmt: skip
    """Make the campaign hold exactly the conclusion ``match_state`` implies; run inside the match's
    transaction. Returns what was written (None when the campaign already agrees).

    Raises :class:`BridgeRefused` when the campaign refuses (e.g. the conclusion to replace was followed
    by entries that depend on it, or an override is waiting on the campaign).
    """
    ruleset = get_ruleset(campaign.game)
    adventure = adventure_of_match(head.state, match.pk)
    current = adventure.get("conclusion") if adventure else None
    entry = conclusion_from_adventure(match_state, match.pk)
    desired = event_clean(ruleset, 0, entry.type, None, entry.data).data if entry is not None else None
    if current == desired:
        return None
    if head.override_pending:
        raise BridgeRefused(
            campaign,
            RuleBroken(
                "override_pending",
                "The campaign has a rule override waiting for its next entry: record that entry (or undo the "
                "override) there first.",
                RULE_BRIDGE,
            ),
        )
    versions: list[int] = []
    version = head.version

    def append(type_: str, data: dict[str, Any]) -> None:
        nonlocal version
        result = stream_event_record(
            stream_id=campaign.stream_id, game=campaign.game, seat_count=0, type=type_, seat=None, data=data,
            user_id=user.pk, expected_version=version, request_id=request_id,
        )  # fmt: skip
        versions.append(result.version)
        version = result.version

    try:
        if current is not None:
            target = _conclusion_in_effect(campaign.stream_id, match.pk)
            reason = f"Match #{match.pk} changed at its entry {match_version}; its new result replaces this one."
            append(EVENT_VOIDED, {"version": target, "reason": reason})
        if desired is not None:
            append(CONCLUDED, desired)
    except DomainError as exc:
        raise BridgeRefused(campaign, exc) from None
    Campaign.objects.filter(pk=campaign.pk).update(updated_at=timezone.now())
    return store.LinkedWrite("campaign", campaign.pk, tuple(versions), version)


def adventure_match_record(
    *, match: Match, user: UserLike, record: Callable[[], store.AppendResult], request_id: str = ""
) -> store.AppendResult:
    """Record one entry on an adventure match of a campaign and carry its consequence into the campaign,
    all or nothing (see the module docstring). ``record`` appends the match entry."""
    status = match.status
    try:
        with transaction.atomic():
            campaign, head = adventure_match_guard(match=match)
            result = record()
            if result.repeated:  # a replay has no side effects (its state is the replayed version's, not the head's)
                return result
            match_status_sync(match, result.state)
            linked = campaign_adventure_sync(
                match=match, campaign=campaign, head=head, user=user, match_state=result.state,
                match_version=result.version, request_id=request_id,
            )  # fmt: skip
    except BaseException:
        match.status = status  # the row was rolled back: so is the object the caller holds
        raise
    return replace(result, linked=(linked,) if linked else ())

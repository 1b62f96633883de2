"""Campaign writes: creating campaigns, recording events one at a time or as an all-or-nothing batch."""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.saltmarsh.selectors import campaign_entry_match
from campaigns.streams import name_clean, named_stream_open
from matches.errors import DomainError, InvalidInput, NotAllowed, RuleBroken, WrappedRefusal
from matches.models import Stream
from matches.services import UserLike, options_clean
from matches.store import events as store
from matches.store.streams import ruleset_for, stream_event_record, stream_record
from matches.store.visibility import can_record
from rulesets.replay import EVENT_VOIDED
from rulesets.saltmarsh.sheet import norm


@transaction.atomic
def campaign_create(
    *, owner: AbstractBaseUser, name: str, game: str = "saltmarsh", options: dict[str, Any] | None = None,
    is_public: bool = False, recorders: list[AbstractBaseUser] | None = None,
) -> Campaign:  # fmt: skip
    """Create an empty campaign stream of a campaign game. Raises :class:`InvalidInput`."""
    ruleset = ruleset_for(game)
    if ruleset.kind != Stream.KIND_CAMPAIGN:
        raise InvalidInput({"game": [f"{ruleset.name} is not a campaign game."]})
    name = name_clean(name, Stream.KIND_CAMPAIGN)
    return named_stream_open(
        kind=Stream.KIND_CAMPAIGN, owner=owner, name=name, game=game, options=options_clean(ruleset, options),
        is_public=is_public, recorders=recorders,
    )  # fmt: skip


def campaign_event_record(
    *, campaign: Campaign, user: UserLike, type: str, data: Any = None, seat: int | None = None,
    expected_version: int | None = None, idempotency_key: str | None = None,
    client_time: datetime | None = None, request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """Record one campaign event (owner and recorders only); nothing is written if it is refused.

    Entries that belong to an adventure match (``adventure_concluded``, an ``adventure_started`` naming a
    match, and voids of either) are written by the match alone (``campaigns.saltmarsh.bridge``) and refused here.
    """
    return stream_record(
        obj=campaign, user=user, type=type, seat=seat, data=data, expected_version=expected_version,
        idempotency_key=idempotency_key, client_time=client_time, request_id=request_id,
    )  # fmt: skip


def campaign_entry_clean(campaign: Campaign, user: UserLike, type: Any, data: Any) -> Any:
    """The campaign kind's check before an entry typed by a user (``StreamKind.clean_entry``): the entries of
    an adventure match are written and corrected by the match alone (``campaigns.saltmarsh.bridge``). Returns ``data``."""
    from rulesets.saltmarsh.fields import BRIDGE_EVENTS, BRIDGE_FIELDS, RULE_BRIDGE

    if campaign.game != "saltmarsh":
        return data
    if type in BRIDGE_EVENTS:
        raise InvalidInput({"type": [f"'{type}' is written by the adventure match itself when it is won or lost."]})
    if isinstance(data, dict):
        for field in BRIDGE_FIELDS:
            if data.get(field) is not None:
                raise InvalidInput(
                    {f"data.{field}": ["Set by Chronicle: start an adventure as a match with its own form."]}
                )
    if type == EVENT_VOIDED and isinstance(data, dict) and isinstance(data.get("version"), int):
        match = campaign_entry_match(campaign=campaign, version=data["version"])
        if match is not None:
            raise RuleBroken(
                "from_match",
                f"Entry {data['version']} belongs to adventure match #{match}: correct it in the match (void "
                "the move there) and the campaign follows.",
                RULE_BRIDGE,
            )
    return data


def _campaign_append(
    *, campaign: Campaign, user: UserLike, type: str, data: Any = None, seat: int | None = None,
    expected_version: int | None = None, idempotency_key: str | None = None,
    client_time: datetime | None = None, request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    result = stream_event_record(
        stream_id=campaign.stream_id, game=campaign.game, seat_count=0, type=type, seat=seat, data=data,
        user_id=user.pk, expected_version=expected_version, idempotency_key=idempotency_key,
        client_time=client_time, request_id=request_id,
    )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(updated_at=timezone.now())
    return result


class BatchRefused(WrappedRefusal):
    """One action of an all-or-nothing batch was refused; ``index`` says which, nothing was written."""

    def __init__(self, index: int, error: DomainError) -> None:
        super().__init__(f"Action {index + 1} was refused: {error.detail} Nothing was recorded.", error)
        self.index = index

    def body(self) -> dict[str, Any]:
        return {**super().body(), "index": self.index}


def campaign_events_record_batch(
    *, campaign: Campaign, user: UserLike, actions: list[dict[str, Any]], expected_version: int | None = None,
    idempotency_key: str | None = None, request_id: str = "",
) -> list[store.AppendResult]:  # fmt: skip
    """Record several events in order, all or nothing (the town phase form). Raises :class:`BatchRefused`."""
    if not isinstance(actions, list) or not actions:
        raise InvalidInput({"actions": ["Send at least one action."]})
    if len(actions) > 50:
        raise InvalidInput({"actions": ["At most 50 actions at once."]})
    results: list[store.AppendResult] = []
    with transaction.atomic():
        version = expected_version
        for index, action in enumerate(actions):
            if not isinstance(action, dict):
                raise BatchRefused(index, InvalidInput({"action": ["Must be an object with type and data."]}))
            key = f"{idempotency_key}:{index}" if idempotency_key else None
            try:
                result = campaign_event_record(
                    campaign=campaign, user=user, type=action.get("type"), data=action.get("data"),
                    expected_version=version, idempotency_key=key, request_id=request_id,
                )  # fmt: skip
            except DomainError as exc:
                raise BatchRefused(index, exc) from None
            results.append(result)
            version = result.version if version is not None else None
    return results


# -- adventures played as matches -----------------------------------------------------------------------


@transaction.atomic
def campaign_adventure_start(
    *, campaign: Campaign, user: UserLike, adventure: str, heroes: list[dict[str, Any]], reward: int = 0,
    healing_surges: int = 2, players: list[str] | None = None,
) -> Any:  # fmt: skip
    """Start an adventure played as a match: open the linked ``saltmarsh-adventure`` match and record
    ``adventure_started`` naming it in the campaign, in one transaction.

    ``heroes``: ``[{"name", "max_hp", "surges"?}]``; classes and the Treasure cards each hero holds come
    from the campaign sheet (the cards are carried into the match). ``players``: the person at each hero's
    seat (defaults to the hero's name). Returns the match. All or nothing.
    """
    from matches.services import match_create

    if campaign.game != "saltmarsh":
        raise InvalidInput({"campaign": ["Only Saltmarsh campaigns have adventures."]})
    if not can_record(user, campaign):
        raise NotAllowed("Only the campaign's owner and the recorders they named may start an adventure.")
    if not isinstance(heroes, list) or not heroes or not all(isinstance(h, dict) for h in heroes):
        raise InvalidInput({"heroes": ["Name at least one hero."]})
    names = [str(h.get("name", "")) for h in heroes]
    sheet = store.head_load(campaign.stream_id, fresh=True).state
    active = {norm(h["name"]): h for h in sheet["heroes"] if not h["retired"]}
    options = {
        "adventure": adventure,
        "campaign_reward": reward,
        "healing_surges": healing_surges,
        "heroes": [
            {
                "name": h["name"],
                "class": active[norm(h["name"])]["class"] if norm(h["name"]) in active else "",
                "max_hp": h.get("max_hp", 10),
                **({"surges": h["surges"]} if h.get("surges") else {}),
                "items": copy.deepcopy(active[norm(h["name"])]["items"]) if norm(h["name"]) in active else [],
            }
            for h in heroes
        ],
    }
    seats = [{"name": (players or names)[i] if i < len(players or names) else names[i]} for i in range(len(names))]
    match = match_create(
        owner=campaign.owner, game="saltmarsh-adventure", seats=seats, options=options,
        title=f"{campaign.name}: {adventure}", is_public=campaign.is_public, campaign=campaign,
        recorders=[user] if user.pk != campaign.owner_id else None,
    )  # fmt: skip
    _campaign_append(
        campaign=campaign, user=user, type="adventure_started",
        data={"adventure": adventure, "heroes": names, "match": match.pk},
    )  # fmt: skip
    return match

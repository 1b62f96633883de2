"""Campaign writes: creating campaigns, recording events one at a time or as an all-or-nothing batch."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from matches import store
from matches.errors import DomainError, InvalidInput, NotAllowed
from matches.models import Stream
from matches.selectors import can_record
from matches.services import UserLike, options_clean, ruleset_for, stream_event_record


@transaction.atomic
def campaign_create(
    *, owner: AbstractBaseUser, name: str, game: str = "saltmarsh", options: dict[str, Any] | None = None,
    is_public: bool = True, recorders: list[AbstractBaseUser] | None = None,
) -> Campaign:  # fmt: skip
    """Create an empty campaign stream of a campaign game. Raises :class:`InvalidInput`."""
    ruleset = ruleset_for(game)
    if ruleset.kind != Stream.KIND_CAMPAIGN:
        raise InvalidInput({"game": [f"{ruleset.name} is not a campaign game."]})
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput({"name": ["A campaign needs a name."]})
    cleaned = options_clean(ruleset, options)
    stream = store.stream_create(kind=Stream.KIND_CAMPAIGN, game=game, options=cleaned, seat_count=0)
    campaign = Campaign.objects.create(stream=stream, name=name[:120], game=game, owner=owner, is_public=is_public)
    if recorders:
        campaign.recorders.set(recorders)
    return campaign


def campaign_event_record(
    *, campaign: Campaign, user: UserLike, type: str, data: Any = None, seat: int | None = None,
    expected_version: int | None = None, idempotency_key: str | None = None,
    client_time: datetime | None = None, request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """Record one campaign event (owner and recorders only); nothing is written if it is refused."""
    if not can_record(user, campaign):
        raise NotAllowed("Only the campaign's owner and the recorders they named may record.")
    result = stream_event_record(
        stream_id=campaign.stream_id, game=campaign.game, seat_count=0, type=type, seat=seat, data=data,
        user_id=user.pk, expected_version=expected_version, idempotency_key=idempotency_key,
        client_time=client_time, request_id=request_id,
    )  # fmt: skip
    Campaign.objects.filter(pk=campaign.pk).update(updated_at=timezone.now())
    return result


class BatchRefused(DomainError):
    """One action of an all-or-nothing batch was refused; ``index`` says which, nothing was written."""

    def __init__(self, index: int, error: DomainError) -> None:
        super().__init__(f"Action {index + 1} was refused: {error.detail} Nothing was recorded.")
        self.status_code = error.status_code
        self.code = error.code
        self.index = index
        self.error = error

    def body(self) -> dict[str, Any]:
        return {**self.error.body(), "detail": self.detail, "index": self.index}


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
    """Start an adventure: record ``adventure_started`` in the campaign and open a linked adventure match.

    ``heroes``: ``[{"name", "max_hp", "surges"?}]`` (classes come from the campaign sheet); ``players``:
    the person at each hero's seat (defaults to the hero's name). Returns the match. All or nothing.
    """
    from matches.services import match_create

    if campaign.game != "saltmarsh":
        raise InvalidInput({"campaign": ["Only Saltmarsh campaigns have adventures."]})
    if not isinstance(heroes, list) or not heroes:
        raise InvalidInput({"heroes": ["Name at least one hero."]})
    names = [str(h.get("name", "")) for h in heroes if isinstance(h, dict)]
    campaign_event_record(
        campaign=campaign, user=user, type="adventure_started", data={"adventure": adventure, "heroes": names}
    )
    sheet = store.head_load(campaign.stream_id, fresh=True).state
    classes = {h["name"].casefold(): h["class"] for h in sheet["heroes"] if not h["retired"]}
    options = {
        "adventure": adventure,
        "campaign_reward": reward,
        "healing_surges": healing_surges,
        "heroes": [
            {
                "name": h["name"],
                "class": classes.get(str(h["name"]).casefold(), ""),
                "max_hp": h.get("max_hp", 10),
                **({"surges": h["surges"]} if h.get("surges") else {}),
            }
            for h in heroes
        ],
    }
    seats = [{"name": (players or names)[i] if i < len(players or names) else names[i]} for i in range(len(names))]
    return match_create(
        owner=campaign.owner, game="saltmarsh-adventure", seats=seats, options=options,
        title=f"{campaign.name}: {adventure}", is_public=campaign.is_public, campaign=campaign,
        recorders=[user] if user.pk != campaign.owner_id else None,
    )  # fmt: skip


def campaign_adventure_conclude(*, match: Any, user: UserLike) -> list[store.AppendResult]:
    """Carry a finished adventure's treasure, gold and result into its campaign (safe to repeat)."""
    from rulesets.saltmarsh import events_from_adventure

    if match.campaign_id is None:
        raise InvalidInput({"match": ["This match is not part of a campaign."]})
    state = store.head_load(match.stream_id, fresh=True).state
    try:
        events = events_from_adventure(state)
    except ValueError as exc:
        raise InvalidInput({"match": [str(exc)]}) from None
    campaign = Campaign.objects.get(pk=match.campaign_id)
    actions = [{"type": e.type, "data": e.data} for e in events]
    return campaign_events_record_batch(
        campaign=campaign, user=user, actions=actions, idempotency_key=f"adventure-{match.pk}"
    )

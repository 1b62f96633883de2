"""API input and output serializers for matches, events and games (shapes only; no logic)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import JsonInput, Shape
from matches.models import MAX_VERSION, Match
from matches.store.events import MAX_OWN_KEYS
from rulesets import Ruleset
from rulesets.replay import event_types_with_meta
from rulesets.schema import json_schema


class SeatInput(JsonInput):
    name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default="",
        help_text="the player's name; blank with a user: the name you already give that account, else its username",
    )  # fmt: skip
    user = serializers.CharField(
        max_length=150, required=False, allow_null=True,
        help_text="username of the account to seat (its player is linked to it, and it may record on the match)",
    )  # fmt: skip


class MatchCreateInput(JsonInput):
    game = serializers.CharField(max_length=64, help_text="ruleset slug, e.g. get-salty")
    seats = SeatInput(many=True, help_text="one entry per seat, in seat order (seat 0 first)")
    options = serializers.JSONField(required=False, default=dict, allow_null=True, help_text="null: the defaults")
    title = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    is_public = serializers.BooleanField(
        required=False, default=False, help_text="left out: private (the owner and the recorders named see it)"
    )
    recorders = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, default=list, max_length=20
    )
    idempotency_key = serializers.CharField(
        required=False, allow_null=True, default=None, min_length=1, max_length=100,
        help_text="the client's key for this create (or the Idempotency-Key header): a repeat by the same user "
        "returns the match the first one created (Idempotent-Replayed: true) and creates nothing; the same key "
        "with other players or options is 422 idempotency_key_reused",
    )  # fmt: skip


class EventInput(JsonInput):
    type = serializers.CharField(max_length=64, help_text="event type, e.g. cracker_moved")
    seat = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0, max_value=99)
    data = serializers.JSONField(required=False, default=dict, help_text="payload; see /api/games/{slug}/")
    expected_version = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=MAX_VERSION
    )
    idempotency_key = serializers.CharField(required=False, allow_null=True, default=None, max_length=100)
    client_time = serializers.DateTimeField(required=False, allow_null=True, default=None)
    rebase = serializers.BooleanField(
        required=False,
        default=False,
        help_text="with a stale expected_version: record the entry after the newer ones when every one of them is "
        "by another seat or the table (no undo, no house rule waiting) and the move is still legal there; "
        "else 409 version_conflict with rebase_refused. Without it expected_version is strict.",
    )
    own_keys = serializers.ListField(
        child=serializers.CharField(min_length=1, max_length=100),
        required=False,
        default=list,
        max_length=MAX_OWN_KEYS,
        help_text="with rebase: true, the idempotency keys of this client's own earlier entries (an offline queue "
        "sent in order, each entry made after those): the entries since expected_version recorded with one of "
        "them by the same user are not judged against this one (nor listed in rebased.over); when they are all "
        "that came since, the entry is recorded as on its version. Keys not on this stream count for nothing. "
        "Only with rebase: true (the service refuses it otherwise: the body keeps the quick path, config.api).",
    )


class VoidInput(JsonInput):
    version = serializers.IntegerField(min_value=1, max_value=MAX_VERSION)
    reason = serializers.CharField(max_length=500)
    expected_version = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=MAX_VERSION
    )
    idempotency_key = serializers.CharField(required=False, allow_null=True, default=None, max_length=100)


class MatchListFilter(Shape):
    game = serializers.CharField(required=False, max_length=64)
    player = serializers.CharField(required=False, max_length=80)
    status = serializers.ChoiceField(required=False, choices=[Match.STATUS_IN_PROGRESS, Match.STATUS_FINISHED])
    mine = serializers.BooleanField(required=False, default=False)


class StateQuery(Shape):
    at = serializers.IntegerField(required=False, min_value=0, allow_null=True, default=None)
    seat = serializers.IntegerField(
        required=False, min_value=0, allow_null=True, default=None,
        help_text="A recorder holding no seat reads this seat's view (its secrets only, for this read); ignored "
        "for anyone else: a seat holder always reads their own seat's view, a spectator a spectator's.",
    )  # fmt: skip


class SeatOutput(Shape):
    index = serializers.IntegerField()
    name = serializers.CharField(source="player.name")
    player_id = serializers.IntegerField(source="player.pk")
    user = serializers.SerializerMethodField()

    def get_user(self, seat: Any) -> str | None:
        return seat.player.user.username if seat.player.user_id else None


class SummaryOutput(Shape):
    status = serializers.CharField()
    winners = serializers.ListField(child=serializers.IntegerField())
    draw = serializers.BooleanField()
    reason = serializers.CharField()
    scores = serializers.JSONField()
    events_count = serializers.IntegerField()
    voided_count = serializers.IntegerField()
    last_activity = serializers.DateTimeField()
    version = serializers.IntegerField(help_text="the stream version the summary has caught up to")


class MatchOutput(Shape):
    id = serializers.IntegerField()
    game = serializers.CharField()
    title = serializers.CharField()
    status = serializers.CharField()
    is_public = serializers.BooleanField()
    owner = serializers.CharField(source="owner.username")
    seats = SeatOutput(many=True)
    options = serializers.JSONField(source="stream.options")
    version = serializers.IntegerField(source="stream.version")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    summary = SummaryOutput(allow_null=True)


class OutcomeOutput(Shape):
    winners = serializers.ListField(child=serializers.IntegerField())
    draw = serializers.BooleanField()
    reason = serializers.CharField()
    scores = serializers.DictField(child=serializers.FloatField(), allow_null=True)
    provisional = serializers.BooleanField(
        help_text="The rules are played out but the table may still add to the final scoring (Bone Wars' awards)"
        " until it confirms the end: the winners are who leads now."
    )


class TurnOutput(Shape):
    """Whose turn it is (``MatchState.turn_seats``, ``phase``, ``prompt``, ``turn_line``): ``StateOutput.turn``."""

    seats = serializers.ListField(child=serializers.IntegerField(), help_text="the seats to act (none: the table)")
    phase = serializers.CharField()
    prompt = serializers.CharField()
    line = serializers.CharField(help_text="the whole turn sentence, with the players' names")


class StateOutput(Shape):
    version = serializers.IntegerField()
    latest_version = serializers.IntegerField()
    state = serializers.JSONField()
    outcome = OutcomeOutput(allow_null=True)
    turn = serializers.SerializerMethodField()
    override_pending = serializers.BooleanField()
    warnings = serializers.ListField(child=serializers.CharField())

    @extend_schema_field(TurnOutput)
    def get_turn(self, obj: Any) -> dict[str, Any]:
        return {"seats": obj.turn_seats, "phase": obj.phase, "prompt": obj.prompt, "line": obj.turn_line}


class LinkedWriteOutput(Shape):
    """Entries another stream received in the same transaction (an adventure concluding its campaign)."""

    kind = serializers.CharField()
    id = serializers.IntegerField()
    versions = serializers.ListField(child=serializers.IntegerField())
    version = serializers.IntegerField()


class RebasedOutput(Shape):
    """Set when a stale entry (``rebase: true``) was recorded after entries made since its expected_version."""

    after = serializers.IntegerField(help_text="the entry this one was recorded after")
    seat = serializers.IntegerField(allow_null=True, help_text="who recorded that entry (null: the table)")
    over = serializers.ListField(child=serializers.IntegerField(), help_text="every entry since expected_version")


class AppendOutput(Shape):
    version = serializers.IntegerField()
    position = serializers.IntegerField()
    state = serializers.JSONField()
    outcome = OutcomeOutput(allow_null=True)
    override_pending = serializers.BooleanField()
    linked = LinkedWriteOutput(many=True, required=False)
    rebased = RebasedOutput(allow_null=True, required=False)


class EventOutput(Shape):
    version = serializers.IntegerField(source="row.version")
    position = serializers.IntegerField(source="row.position")
    type = serializers.CharField(source="row.type")
    seat = serializers.IntegerField(source="event.seat", allow_null=True)
    data = serializers.JSONField(source="event.data", help_text="as the reader may see it (hidden cards removed)")
    recorded_at = serializers.DateTimeField(source="row.recorded_at")
    recorded_by = serializers.SerializerMethodField()
    client_time = serializers.DateTimeField(source="row.client_time", allow_null=True)
    request_id = serializers.CharField(source="row.request_id")
    text = serializers.CharField()
    voided_by = serializers.IntegerField(allow_null=True)

    def get_recorded_by(self, line: Any) -> str | None:
        return line.row.recorded_by.username if line.row.recorded_by_id else None


class EventPageOutput(Shape):
    """One page of the log (``?after=&limit=``): oldest first, at most ``limit`` entries after version ``after``."""

    results = EventOutput(many=True)
    next = serializers.CharField(allow_null=True, help_text="URL of the next page; null on the last page")
    next_after = serializers.IntegerField(allow_null=True, help_text="the cursor of the next page (a version)")
    limit = serializers.IntegerField()


class LegalMoveOutput(Shape):
    type = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    data = serializers.JSONField()


class GameOutput(Shape):
    slug = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="the kind of stream it drives: match, campaign or series")
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="allowed player counts")
    version = serializers.IntegerField(help_text="ruleset version")
    options_schema = serializers.JSONField(help_text="JSON Schema of the options a match can be created with")
    event_types = serializers.JSONField(help_text="event type → label, seat_required, description, data_schema")


def game_description(ruleset: Ruleset) -> dict[str, Any]:
    """A game's identity, options schema and every event type's payload JSON Schema."""
    return {
        "slug": ruleset.slug,
        "name": ruleset.name,
        "kind": ruleset.kind,
        "seats": list(ruleset.seats),
        "version": ruleset.version,
        "options_schema": json_schema(ruleset.options_schema),
        "event_types": {
            name: {
                "label": spec.label,
                "seat_required": spec.seat_required,
                "description": spec.description,
                "data_schema": json_schema(spec.fields),
            }
            for name, spec in event_types_with_meta(ruleset).items()
        },
    }

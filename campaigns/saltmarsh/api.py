"""REST endpoints for campaigns: create, read, record events (one or a batch), the sheet at any version."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.saltmarsh import selectors, services
from config.api import JsonInput, Shape
from matches.api.common import ERRORS, append_body, parse
from matches.api.serializers import AppendOutput
from matches.api.streams import StreamDetailApi, StreamListCreateApi
from matches.models import MAX_VERSION
from matches.store.visibility import viewer_for


class CampaignCreateInput(JsonInput):
    name = serializers.CharField(max_length=120)
    game = serializers.CharField(max_length=64, required=False, default="saltmarsh")
    options = serializers.JSONField(required=False, default=dict, allow_null=True, help_text="null: the defaults")
    is_public = serializers.BooleanField(required=False, default=False)
    recorders = serializers.ListField(child=serializers.CharField(max_length=150), required=False, default=list)


class CampaignOutput(Shape):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    is_public = serializers.BooleanField()
    options = serializers.JSONField(source="stream.options")
    version = serializers.IntegerField(source="stream.version")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class BatchInput(JsonInput):
    actions = serializers.ListField(child=serializers.JSONField(), max_length=50)
    expected_version = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=MAX_VERSION
    )
    idempotency_key = serializers.CharField(required=False, allow_null=True, default=None, max_length=90)


class SheetItemOutput(Shape):
    name = serializers.CharField()
    buy = serializers.IntegerField(allow_null=True)
    sell = serializers.IntegerField(allow_null=True)
    item = serializers.BooleanField(help_text="an item (else a power card)")


class SheetHeroOutput(Shape):
    name = serializers.CharField()
    # "class" is a Python keyword: added below
    level = serializers.IntegerField()
    gold = serializers.IntegerField()
    items = SheetItemOutput(many=True)
    powers = serializers.ListField(child=serializers.CharField())
    advancement_tokens = serializers.ListField(child=serializers.CharField())


SheetHeroOutput._declared_fields["class"] = serializers.CharField()


class SheetAdventureOutput(Shape):
    adventure = serializers.CharField()
    heroes = serializers.ListField(child=serializers.CharField())
    result = serializers.ChoiceField(choices=["in progress", "completed", "failed"])
    match = serializers.IntegerField(allow_null=True, help_text="the adventure match (null: played on paper)")


class SheetOutput(Shape):
    """``rulesets.saltmarsh.sheet.sheet(state)`` with the versions and the game's warnings
    (``selectors.campaign_sheet``)."""

    heroes = SheetHeroOutput(many=True)
    retired_heroes = SheetHeroOutput(many=True)
    adventures = SheetAdventureOutput(many=True)
    version = serializers.IntegerField()
    latest_version = serializers.IntegerField()
    warnings = serializers.ListField(child=serializers.CharField())


class SheetQuery(Shape):
    at = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)


class CampaignListCreateApi(StreamListCreateApi):
    """GET visible campaigns; POST create one."""

    kind, output, create_input = "campaign", CampaignOutput, CampaignCreateInput
    service = staticmethod(services.campaign_create)


class CampaignDetailApi(StreamDetailApi):
    """GET one campaign."""

    kind, lookup, output = "campaign", "campaign_id", CampaignOutput


class BatchOutput(AppendOutput):
    versions = serializers.ListField(child=serializers.IntegerField(), help_text="the entries recorded, in order")


class CampaignBatchApi(APIView):
    """POST several events at once, all or nothing (the town phase)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=BatchInput, responses={201: BatchOutput, **ERRORS})
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        data = parse(BatchInput, request.data)
        results = services.campaign_events_record_batch(
            campaign=campaign, user=request.user, actions=data["actions"],
            expected_version=data["expected_version"], idempotency_key=data["idempotency_key"],
            request_id=getattr(request._request, "request_id", ""),
        )  # fmt: skip
        return Response(
            {
                "versions": [r.version for r in results],
                **append_body(results[-1], campaign.game, viewer_for(request.user, campaign)),
            },
            status=status.HTTP_201_CREATED,
        )


class CampaignSheetApi(APIView):
    """GET the campaign sheet as it stood at version ``at`` (latest by default)."""

    @extend_schema(parameters=[SheetQuery], responses={200: SheetOutput, 404: ERRORS[404]})
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        query = parse(SheetQuery, request.query_params.dict())
        return Response(selectors.campaign_sheet(campaign=campaign, at=query["at"]))


class LedgerQuery(Shape):
    hero = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)
    at = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)


class LedgerRowOutput(Shape):
    """A gold change (``rulesets.saltmarsh.sheet.gold_ledger``, its version mapped by ``selectors.ledger_rows``)."""

    hero = serializers.CharField()
    version = serializers.IntegerField(allow_null=True, help_text="the entry that caused it")
    delta = serializers.IntegerField()
    cause = serializers.CharField()
    note = serializers.CharField()
    balance = serializers.IntegerField(help_text="the hero's gold after it")


class CampaignLedgerApi(APIView):
    """GET every gold change (optionally one hero's) up to version ``at``, each with the version that caused it."""

    @extend_schema(
        parameters=[LedgerQuery],
        responses={200: LedgerRowOutput(many=True), 404: ERRORS[404]},
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        query = parse(LedgerQuery, request.query_params.dict())
        rows = selectors.campaign_ledger(campaign=campaign, hero=query["hero"] or None, at=query["at"])
        return Response(rows)


class AdventureHeroInput(JsonInput):
    name = serializers.CharField(max_length=80)
    max_hp = serializers.IntegerField(min_value=1, max_value=99)
    surges = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)


class AdventureStartInput(JsonInput):
    adventure = serializers.CharField(max_length=120)
    heroes = AdventureHeroInput(many=True, min_length=1)
    reward = serializers.IntegerField(min_value=0, max_value=100_000, required=False, default=0)
    healing_surges = serializers.IntegerField(min_value=0, max_value=20, required=False, default=2)
    players = serializers.ListField(child=serializers.CharField(max_length=80), required=False, default=list)


class AdventureStartedOutput(Shape):
    match = serializers.IntegerField(help_text="the adventure's match")
    url = serializers.CharField()


class CampaignAdventureApi(APIView):
    """POST: start an adventure in the campaign and open its linked ``saltmarsh-adventure`` match."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=AdventureStartInput, responses={201: AdventureStartedOutput, **ERRORS})
    def post(self, request: Request, campaign_id: int) -> Response:
        campaign = selectors.campaign_get(user=request.user, campaign_id=campaign_id)
        data = parse(AdventureStartInput, request.data)
        match = services.campaign_adventure_start(
            campaign=campaign, user=request.user, adventure=data["adventure"], heroes=[dict(h) for h in data["heroes"]],
            reward=data["reward"], healing_surges=data["healing_surges"], players=data["players"] or None,
        )  # fmt: skip
        return Response({"match": match.pk, "url": f"/api/matches/{match.pk}/"}, status=status.HTTP_201_CREATED)

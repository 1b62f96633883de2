"""REST endpoints for matches and games: one small view per operation (parse → service/selector → render)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import JsonInput, PagedListMixin
from matches import selectors, services
from matches.api.common import ERRORS, append_body, header_key, parse, users_by_name
from matches.api.serializers import (
    AppendOutput,
    GameOutput,
    LegalMoveOutput,
    MatchCreateInput,
    MatchListFilter,
    MatchOutput,
    StateOutput,
    StateQuery,
    game_description,
)
from matches.checks import difference_json, rules_difference
from matches.errors import NotAllowed, NotFound, NotListable
from matches.store.visibility import viewer_for
from rulesets import UnknownGame, all_rulesets, get_ruleset


class MatchListCreateApi(PagedListMixin, APIView):
    """GET: visible matches, filtered and paginated. POST: create a match (signed-in users)."""

    def get_permissions(self) -> list[Any]:
        return [permissions.IsAuthenticated()] if self.request.method == "POST" else [permissions.AllowAny()]

    @extend_schema(parameters=[MatchListFilter], responses={200: MatchOutput(many=True)})
    def get(self, request: Request) -> Response:
        filters = parse(MatchListFilter, request.query_params.dict())
        qs = selectors.match_list(user=request.user, **filters)
        return self.paged(request, qs, MatchOutput)

    @extend_schema(request=MatchCreateInput, responses={201: MatchOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        data = parse(MatchCreateInput, request.data)
        seats = []
        for i, seat in enumerate(data["seats"]):
            user = users_by_name([seat["user"]], f"seats[{i}].user")[0] if seat.get("user") else None
            seats.append({"name": seat["name"], "user": user})
        match = services.match_create(
            owner=request.user,
            game=data["game"],
            seats=seats,
            options=data["options"],
            title=data["title"],
            is_public=data["is_public"],
            recorders=users_by_name(data["recorders"], "recorders"),
            idempotency_key=data["idempotency_key"] or header_key(request.META),
        )
        repeated = match.repeated
        match = selectors.match_get(user=request.user, match_id=match.pk)
        response = Response(MatchOutput(match).data, status=status.HTTP_201_CREATED)
        if repeated:
            response["Idempotent-Replayed"] = "true"
        return response


class MatchDetailApi(APIView):
    """GET one match with its summary."""

    @extend_schema(responses={200: MatchOutput, 404: ERRORS[404]})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(user=request.user, match_id=match_id)
        return Response(MatchOutput(match).data)


class MatchStateApi(APIView):
    """GET the state at version ``at`` (latest by default) as the reader may see it.

    A user holding a seat sees that seat's view; a recorder holding no seat a spectator's, or ``seat``'s view
    when they ask for it (or reveal it on this device); everyone else a spectator's (``matches.store.visibility``)."""

    @extend_schema(parameters=[StateQuery], responses={200: StateOutput, 404: ERRORS[404]})
    def get(self, request: Request, match_id: int) -> Response:
        match, head = selectors.match_get_with_head(user=request.user, match_id=match_id)
        query = parse(StateQuery, request.query_params.dict())
        viewer = viewer_for(request.user, match, seat=query["seat"], session=getattr(request, "session", None))
        ms = selectors.match_state(match=match, at=query["at"], viewer=viewer, head=head)
        return Response(StateOutput(ms).data)


class MatchLegalMovesApi(APIView):
    """GET every move the rules accept now, as the reader may know them (404 ``not_listable`` where the game
    cannot list them)."""

    @extend_schema(responses={200: LegalMoveOutput(many=True), 404: ERRORS[404]})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(user=request.user, match_id=match_id)
        viewer = viewer_for(request.user, match, session=getattr(request, "session", None))
        moves = selectors.match_legal_moves(match=match, viewer=viewer)
        if moves is None:
            raise NotListable(f"{get_ruleset(match.game).name} cannot list its legal moves in this phase.")
        return Response(LegalMoveOutput([m.to_dict() for m in moves], many=True).data)


class GameListApi(APIView):
    """GET every game: slug, seats, options schema, event types with payload schemas."""

    @extend_schema(operation_id="games_list", responses={200: GameOutput(many=True)})
    def get(self, request: Request) -> Response:
        return Response([game_description(r) for r in all_rulesets()])


class GameDetailApi(APIView):
    """GET one game's description."""

    @extend_schema(responses={200: GameOutput, 404: ERRORS[404]})
    def get(self, request: Request, slug: str) -> Response:
        try:
            return Response(game_description(get_ruleset(slug)))
        except UnknownGame:
            raise NotFound(f"No game '{slug}'.") from None


class RecordersInput(JsonInput):
    recorders = serializers.ListField(child=serializers.CharField(max_length=150), max_length=20)


class MatchRecordersApi(APIView):
    """POST the full list of users (by username) who may record on the match besides its owner."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RecordersInput, responses={200: RecordersInput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(user=request.user, match_id=match_id)
        data = parse(RecordersInput, request.data)
        services.match_recorders_set(
            match=match, user=request.user, recorders=users_by_name(data["recorders"], "recorders")
        )
        return Response({"recorders": sorted(u.username for u in match.recorders.all())})


class RulesUpgradeInput(JsonInput):
    expected_version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
    idempotency_key = serializers.CharField(required=False, allow_null=True, default=None, max_length=100)


class MatchRulesApi(APIView):
    """The rules a match is judged under (docs/ARCHITECTURE.md › Rule versions). GET (the owner): what replaying
    it under the current rules would change (winner, scores, the entries they would refuse); writes nothing.
    POST (the owner): replay it under the current rules, recorded as a ``rules_upgraded`` entry; refused (400
    ``rules_upgrade_refused``, nothing written) while an entry would not hold under them."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiResponse(description="the difference"), **ERRORS})
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(user=request.user, match_id=match_id)
        if match.owner_id != request.user.pk:
            raise NotAllowed("Only the match's owner may replay it under the current rules.")
        names = selectors.match_seat_names(match)
        diff = rules_difference(match.stream_id, names)
        return Response(difference_json(get_ruleset(match.game), diff, names))

    @extend_schema(request=RulesUpgradeInput, responses={201: AppendOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        match = selectors.match_get(user=request.user, match_id=match_id)
        data = parse(RulesUpgradeInput, request.data)
        result = services.match_rules_upgrade(
            match=match, user=request.user, expected_version=data["expected_version"],
            idempotency_key=data["idempotency_key"] or header_key(request.META),
            request_id=getattr(request, "request_id", ""),
        )  # fmt: skip
        viewer = viewer_for(request.user, match, session=getattr(request, "session", None))
        body = append_body(result, match.game, viewer, selectors.match_seat_names(match))
        response = Response(body, status=status.HTTP_200_OK if result.repeated else status.HTTP_201_CREATED)
        if result.repeated:
            response["Idempotent-Replayed"] = "true"
        return response

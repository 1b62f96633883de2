"""REST endpoints for players as people: invite to claim, claim, merge duplicates."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import Shape
from matches.api.matches import ERRORS, parse
from matches.people import players as people
from matches.stats.selectors import player_ref


class ClaimInput(Shape):
    token = serializers.CharField(max_length=500)


class MergeInput(Shape):
    into = serializers.IntegerField(min_value=1, help_text="the player this one is a duplicate of")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class PlayerInviteApi(APIView):
    """POST: a link the owner sends to the person at this seat; opening it signed in links the player."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: dict, **ERRORS})
    def post(self, request: Request, player_id: int) -> Response:
        player = people.player_owned(user=request.user, player_id=player_id)
        token = people.player_invite_token(user=request.user, player=player)
        url = request.build_absolute_uri(reverse("player-claim", args=[token]))
        return Response({"token": token, "url": url}, status=status.HTTP_201_CREATED)


class PlayerClaimApi(APIView):
    """POST ``{token}``: link the invited player to my account."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ClaimInput, responses={200: dict, **ERRORS})
    def post(self, request: Request) -> Response:
        data = parse(ClaimInput, request.data)
        return Response(player_ref(people.player_claim(user=request.user, token=data["token"])))


class PlayerMergeApi(APIView):
    """POST ``{into, reason?}``: this player is a duplicate of ``into`` (recorded once; logs untouched)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MergeInput, responses={201: dict, **ERRORS})
    def post(self, request: Request, player_id: int) -> Response:
        data = parse(MergeInput, request.data)
        source = people.player_owned(user=request.user, player_id=player_id)
        target = people.player_owned(user=request.user, player_id=data["into"])
        merge = people.players_merge(user=request.user, source=source, target=target, reason=data["reason"])
        return Response({"merged": merge.source_id, "into": merge.target_id}, status=status.HTTP_201_CREATED)

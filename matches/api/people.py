"""REST endpoints for players as people: invite to claim, claim, merge duplicates; join links."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import JsonInput, Shape
from matches import selectors
from matches.api.common import ERRORS, parse
from matches.errors import NotAllowed, NotFound
from matches.people import joins
from matches.people import players as people
from matches.stats.selectors import player_ref
from matches.stats.shapes import PlayerRefOutput


class ClaimInput(JsonInput):
    token = serializers.CharField(max_length=500)


class InviteOutput(Shape):
    token = serializers.CharField()
    url = serializers.CharField(help_text="the page that links the player to whoever opens it signed in")


class MergedOutput(Shape):
    merged = serializers.IntegerField(help_text="the duplicate player")
    into = serializers.IntegerField()


class MergeInput(JsonInput):
    into = serializers.IntegerField(min_value=1, help_text="the player this one is a duplicate of")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class PlayerInviteApi(APIView):
    """POST: a link the owner sends to the person at this seat; opening it signed in links the player."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={201: InviteOutput, **ERRORS})
    def post(self, request: Request, player_id: int) -> Response:
        player = people.player_owned(user=request.user, player_id=player_id)
        token = people.player_invite_token(user=request.user, player=player)
        url = request.build_absolute_uri(reverse("player-claim", args=[token]))
        return Response({"token": token, "url": url}, status=status.HTTP_201_CREATED)


class PlayerClaimApi(APIView):
    """POST ``{token}``: link the invited player to my account."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ClaimInput, responses={200: PlayerRefOutput, **ERRORS})
    def post(self, request: Request) -> Response:
        data = parse(ClaimInput, request.data)
        return Response(player_ref(people.player_claim(user=request.user, token=data["token"])))


class PlayerMergeApi(APIView):
    """POST ``{into, reason?}``: this player is a duplicate of ``into`` (recorded once; logs untouched)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MergeInput, responses={201: MergedOutput, **ERRORS})
    def post(self, request: Request, player_id: int) -> Response:
        data = parse(MergeInput, request.data)
        source = people.player_owned(user=request.user, player_id=player_id)
        target = people.player_owned(user=request.user, player_id=data["into"])
        merge = people.players_merge(user=request.user, source=source, target=target, reason=data["reason"])
        return Response({"merged": merge.source_id, "into": merge.target_id}, status=status.HTTP_201_CREATED)


# -- join links: a friend takes a free seat with their own account (matches.people.joins) ---------------------


class JoinLinkInput(JsonInput):
    new = serializers.BooleanField(required=False, default=False, help_text="turn the old link off, make a new one")


class JoinInput(JsonInput):
    seat = serializers.IntegerField(min_value=0, max_value=99, help_text="the seat to take (0 is the first)")


class JoinLinkOutput(Shape):
    token = serializers.CharField(help_text="the link's token: GET/POST /api/join/{token}/")
    url = serializers.CharField(help_text="the join page to share")
    match = serializers.IntegerField()


class JoinSeatOutput(Shape):
    index = serializers.IntegerField()
    name = serializers.CharField()
    free = serializers.BooleanField()


class JoinOutput(Shape):
    """What a join link shows; a link turned off shows only ``refusal``."""

    match = serializers.IntegerField(required=False)
    game = serializers.CharField(required=False)
    title = serializers.CharField(required=False)
    owner = serializers.CharField(required=False)
    seats = JoinSeatOutput(many=True, required=False)
    refusal = serializers.CharField(help_text="why nobody can join now; empty when one can")


class JoinedOutput(Shape):
    match = serializers.IntegerField()
    seat = serializers.IntegerField()
    name = serializers.CharField()
    already = serializers.BooleanField(help_text="this account already held the seat: nothing written")


TOKEN = OpenApiParameter(
    "token",
    {"type": "string", "pattern": rf"^[A-Za-z0-9_-]{{1,{joins.TOKEN_MAX}}}$"},
    OpenApiParameter.PATH,
    description="the join link's token, as the link's owner shared it",
)


def _link_body(request: Request, link: Any) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("match-join", args=[link.token]))
    return {"token": link.token, "url": url, "match": link.match_id}


class MatchJoinLinkApi(APIView):
    """The match's join link (owner only). GET: the link that is on (404 if none); POST ``{new?}``: turn one on
    (201 when made now, 200 when it was on; ``new``: a fresh token, the old one off); DELETE: turn it off."""

    permission_classes = [permissions.IsAuthenticated]

    def _match(self, request: Request, match_id: int) -> Any:
        match = selectors.match_get(user=request.user, match_id=match_id)
        if match.owner_id != request.user.pk:
            raise NotAllowed("Only the match's owner can show or turn off its join link.")
        return match

    @extend_schema(responses={200: JoinLinkOutput, **ERRORS})
    def get(self, request: Request, match_id: int) -> Response:
        link = joins.join_link_current(self._match(request, match_id))
        if link is None:
            raise NotFound("This match has no join link on; POST to turn one on.")
        return Response(_link_body(request, link))

    @extend_schema(request=JoinLinkInput, responses={200: JoinLinkOutput, 201: JoinLinkOutput, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        match = self._match(request, match_id)
        empty = not request.data and not isinstance(request.data, list)  # no body at all: the defaults
        data = parse(JoinLinkInput, {} if empty else request.data)
        before = joins.join_link_current(match)
        link = joins.join_link_on(match=match, user=request.user, new=data["new"])
        made = before is None or before.pk != link.pk
        return Response(_link_body(request, link), status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, match_id: int) -> Response:
        joins.join_link_off(match=self._match(request, match_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class JoinApi(APIView):
    """A join link. GET (anyone with the token): the match and its seats, which are free, and why nobody can
    join now (``refusal``, "" when one can); a link turned off answers only ``refusal``. POST ``{seat}`` (signed in): take that seat; a repeat by an account
    that already holds a seat answers that seat with ``already: true`` and writes nothing."""

    def get_permissions(self) -> list[Any]:
        return [permissions.IsAuthenticated()] if self.request.method == "POST" else [permissions.AllowAny()]

    @extend_schema(responses={200: JoinOutput, **ERRORS}, parameters=[TOKEN])
    def get(self, request: Request, token: str) -> Response:
        link = joins.join_link_get(token)
        if link.revoked_at is not None:  # a link that is off tells only that: no match, owner or seat
            return Response({"refusal": joins.join_refusal(link, [])})
        seats = joins.join_seats(link.match)
        return Response(
            {
                "match": link.match_id,
                "game": link.match.game,
                "title": link.match.title or link.match.game_name,
                "owner": link.match.owner.get_username(),
                "seats": [{"index": s.index, "name": s.name, "free": s.free} for s in seats],
                "refusal": joins.join_refusal(link, seats),
            }
        )

    @extend_schema(request=JoinInput, responses={200: JoinedOutput, **ERRORS}, parameters=[TOKEN])
    def post(self, request: Request, token: str) -> Response:
        data = parse(JoinInput, request.data)
        joined = joins.join_take(user=request.user, token=token, seat=data["seat"])
        body = {"match": joined.match.pk, "seat": joined.seat, "name": joined.name, "already": joined.already}
        return Response(body)

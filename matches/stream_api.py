"""The event endpoint every stream kind shares: GET the log as the reader may see it, POST one entry.

A kind's endpoint is a subclass naming its ``kind`` and URL ``lookup`` (``matches.streams``); the envelope,
versions, idempotency, corrections and errors are the same for every kind (DESIGN.md §4).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import LeanPostMixin
from matches import store
from matches.api import ERRORS, append_body, parse
from matches.errors import InvalidInput
from matches.serializers import AppendOutput, EventInput, EventOutput
from matches.streams import kind_get, stream_get, stream_get_for_write, stream_history, stream_record
from matches.visibility import viewer_for


def _header_key(meta: dict[str, Any]) -> str | None:
    """The ``Idempotency-Key`` header's key, None without one. A header sent empty is refused (400): granian
    hands the application an empty value for a header it cannot decode (non-ASCII), and taking that as "no
    key" would let the client's retry record the move twice."""
    key = meta.get("HTTP_IDEMPOTENCY_KEY")
    if key is not None and not key.strip():
        detail = "Empty. Send 1 to 100 visible ASCII characters (a header value the server cannot read arrives empty)."
        raise InvalidInput({"Idempotency-Key": [detail]})
    return key or None


class StreamEventsApi(LeanPostMixin, APIView):
    """GET: the log (hidden information removed for the reader). POST: record one entry (owner and recorders);
    a token-authenticated JSON POST takes the lean path (``config.api.LeanPostMixin``), same answers."""

    kind: str = ""
    lookup: str = "pk"

    def get_permissions(self) -> list[Any]:
        return [permissions.IsAuthenticated()] if self.request.method == "POST" else [permissions.AllowAny()]

    def record(self, obj: Any, request: Request, **entry: Any) -> store.AppendResult:
        """Append one entry; a kind with more to do on each entry overrides this (or hooks ``after_record``)."""
        return stream_record(obj=obj, user=request.user, **entry)

    @extend_schema(responses={200: EventOutput(many=True), 404: ERRORS[404]})
    def get(self, request: Request, **kwargs: Any) -> Response:
        obj = stream_get(kind=self.kind, user=request.user, pk=kwargs[self.lookup])
        lines = stream_history(obj=obj, user=request.user, session=getattr(request, "session", None))
        return Response(EventOutput(lines, many=True).data)

    @extend_schema(
        request=EventInput,
        responses={201: AppendOutput, **ERRORS},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    def post(self, request: Request, **kwargs: Any) -> Response:
        return self.post_data(request, request.data, **kwargs)

    def post_data(self, request: Any, body: Any, **kwargs: Any) -> Response:
        """Record the entry ``body`` asks for; ``request`` is DRF's or (lean path) Django's, with ``user``."""
        obj = stream_get_for_write(kind=self.kind, user=request.user, pk=kwargs[self.lookup])
        data = parse(EventInput, body)
        result = self.record(
            obj, request, type=data["type"], seat=data["seat"], data=data["data"],
            expected_version=data["expected_version"],
            idempotency_key=data["idempotency_key"] or _header_key(request.META),
            client_time=data["client_time"], request_id=getattr(request, "request_id", ""),
        )  # fmt: skip
        names = kind_get(self.kind).seat_names(obj)
        viewer = viewer_for(request.user, obj)  # the entry ends any reveal on this device (matches.visibility)
        response = Response(append_body(result, obj.stream.game, viewer, names), status=status.HTTP_201_CREATED)
        if result.repeated:
            response["Idempotent-Replayed"] = "true"
        return response

"""The endpoints stream kinds share: list and create, one object, and the event endpoint (GET the log as the
reader may see it, POST one entry).

A kind's endpoint is a small subclass configured by attributes: its ``kind`` and URL ``lookup``
(``matches.store.streams``), and for list, create and detail its shapes and create service; the envelope,
versions, idempotency, corrections and errors are the same for every kind (DESIGN.md §4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar
from urllib.parse import urlencode

from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import JsonInput, LeanPostMixin, PagedListMixin, Shape
from matches.api.common import ERRORS, append_body, header_key, parse, users_by_name
from matches.api.serializers import AppendOutput, EventInput, EventOutput, EventPageOutput
from matches.models import MAX_VERSION
from matches.store import events as store
from matches.store.history import HISTORY_LIMIT, HISTORY_LIMIT_MAX, cursor_clean, history_page, limit_clean
from matches.store.streams import (
    kind_get,
    stream_get,
    stream_get_for_write,
    stream_list,
    stream_record,
)
from matches.store.visibility import viewer_for

PAGE_PARAMETERS = [
    OpenApiParameter(
        "after", {"type": "integer", "minimum": 0, "maximum": MAX_VERSION}, OpenApiParameter.QUERY, required=False,
        description="cursor: entries after this version (0: from the start); with it or limit the answer is a page",
    ),
    OpenApiParameter(
        "limit", {"type": "integer", "minimum": 1, "maximum": HISTORY_LIMIT_MAX}, OpenApiParameter.QUERY, required=False,
        description=f"entries per page, 1 to {HISTORY_LIMIT_MAX} (default {HISTORY_LIMIT})",
    ),
]  # fmt: skip


def _write_signed_in(view: APIView) -> list[Any]:
    return [permissions.IsAuthenticated()] if view.request.method == "POST" else [permissions.AllowAny()]


class StreamListCreateApi(PagedListMixin, APIView):
    """The base of a kind's list endpoint: GET the objects the reader may see, most recently active first, a page
    at a time; POST create one (signed-in users) with ``service(owner=, name=, game=, options=, is_public=,
    recorders=)``, answering 201 with the ``output`` shape. A subclass names ``kind``, ``output``,
    ``create_input`` and ``service`` (a ``staticmethod``); its docstring is the endpoint's description."""

    kind: ClassVar[str] = ""
    output: ClassVar[type[Shape]] = Shape
    create_input: ClassVar[type[JsonInput]] = JsonInput
    service: ClassVar[Callable[..., Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        extend_schema_view(
            get=extend_schema(responses={200: cls.output(many=True)}),
            post=extend_schema(request=cls.create_input, responses={201: cls.output, **ERRORS}),
        )(cls)

    def get_permissions(self) -> list[Any]:
        return _write_signed_in(self)

    def get(self, request: Request) -> Response:  # no docstring: the subclass's is the description
        return self.paged(request, stream_list(kind=self.kind, user=request.user), self.output)

    def post(self, request: Request) -> Response:
        data = parse(self.create_input, request.data)
        obj = self.service(
            owner=request.user, name=data["name"], game=data["game"], options=data["options"],
            is_public=data["is_public"], recorders=users_by_name(data["recorders"], "recorders"),
        )  # fmt: skip
        return Response(self.output(obj).data, status=status.HTTP_201_CREATED)


class StreamDetailApi(APIView):
    """The base of a kind's detail endpoint: GET one object the reader may see (404 otherwise, a private one
    not told from a missing one) in the ``output`` shape. A subclass names ``kind``, ``lookup`` and ``output``."""

    kind: ClassVar[str] = ""
    lookup: ClassVar[str] = "pk"
    output: ClassVar[type[Shape]] = Shape

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        extend_schema_view(get=extend_schema(responses={200: cls.output, 404: ERRORS[404]}))(cls)

    def get(self, request: Request, **kwargs: Any) -> Response:  # no docstring: the subclass's is the description
        return Response(self.output(stream_get(kind=self.kind, user=request.user, pk=kwargs[self.lookup])).data)


class StreamEventsApi(LeanPostMixin, APIView):
    """GET: the log (hidden information removed for the reader). POST: record one entry (owner and recorders);
    a token-authenticated JSON POST takes the lean path (``config.api.LeanPostMixin``), same answers."""

    kind: str = ""
    lookup: str = "pk"

    def get_permissions(self) -> list[Any]:
        return _write_signed_in(self)

    def record(self, obj: Any, request: Request, **entry: Any) -> store.AppendResult:
        """Append one entry; a kind with more to do on each entry overrides this (or hooks ``after_record``)."""
        return stream_record(obj=obj, user=request.user, **entry)

    @extend_schema(
        parameters=PAGE_PARAMETERS,
        responses={200: EventPageOutput, 400: ERRORS[400], 404: ERRORS[404]},
        description="One page of the log, oldest first, and the next page's link (null on the last page); without "
        "``after`` the first page, without ``limit`` 50 entries. A page costs the same whatever the stream's length. "
        "Hidden information is removed for the reader on every page.",
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        params = request.query_params
        obj = stream_get(kind=self.kind, user=request.user, pk=kwargs[self.lookup], without_state=True)
        after = cursor_clean(params.get("after"), "after") or 0
        limit = limit_clean(params.get("limit"))
        page = history_page(
            stream_id=obj.stream_id, game=obj.stream.game, seat_names=kind_get(self.kind).seat_names(obj),
            viewer=viewer_for(request.user, obj, session=getattr(request, "session", None)), after=after, limit=limit,
        )  # fmt: skip
        nxt = None
        if page.next is not None:
            nxt = request.build_absolute_uri(f"{request.path}?{urlencode({'after': page.next, 'limit': limit})}")
        body = {
            "results": EventOutput([h.line for h in page.lines], many=True).data,
            "next": nxt,
            "next_after": page.next,
            "limit": limit,
        }
        return Response(body)

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
            idempotency_key=data["idempotency_key"] or header_key(request.META),
            client_time=data["client_time"], request_id=getattr(request, "request_id", ""), rebase=data["rebase"],
            own_keys=tuple(data["own_keys"]),
        )  # fmt: skip
        names = kind_get(self.kind).seat_names(obj)
        viewer = viewer_for(request.user, obj)  # the entry ends any reveal on this device (matches.store.visibility)
        response = Response(append_body(result, obj.stream.game, viewer, names), status=status.HTTP_201_CREATED)
        if result.repeated:
            response["Idempotent-Replayed"] = "true"
        return response

"""API plumbing shared by every app: a bounded JSON parser and the one place domain errors become HTTP (any
``config.errors.HttpError``, which the apps' errors subclass: config imports no app)."""

from __future__ import annotations

import copy
import functools
import io
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from config.authentication import FastTokenAuthentication
from config.errors import HttpError
from config.text import PROBLEM, unstorable_path
from config.throttling import WindowThrottle, client_address

MAX_JSON_DEPTH = 12

InvalidInputError = Callable[[dict[str, list[str]]], Exception]
_invalid_input: list[InvalidInputError] = []


def register_invalid_input(error: InvalidInputError) -> None:
    """Set the error a refused body raises, given ``{field path: [messages]}`` (the apps' ``invalid`` answer,
    registered at start by ``matches.apps``); until then DRF's ``ValidationError``."""
    _invalid_input[:] = [error]


def invalid_input(errors: dict[str, list[str]]) -> Exception:
    """The error for a body refused field by field (see :func:`register_invalid_input`)."""
    return _invalid_input[0](errors) if _invalid_input else exceptions.ValidationError(errors)


def _depth(value: Any) -> int:
    """Nesting depth of parsed JSON, iteratively (no recursion limit to hit)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in item)
    return deepest


class BoundedJSONParser(JSONParser):
    """JSON parser that refuses oversize bodies, pathological nesting, non-standard constants and unstorable text."""

    def parse(self, stream, media_type=None, parser_context=None):  # type: ignore[no-untyped-def]
        try:
            raw = stream.read() if stream is not None else b""
        except RequestDataTooBig:
            raise exceptions.ParseError("Request body too large.")
        if not raw:
            raise exceptions.ParseError("Request body is empty; send a JSON object.")
        try:
            text = raw.decode("utf-8")
            data = json.loads(text, parse_constant=_reject_constant)
        except RecursionError:
            raise exceptions.ParseError("JSON nested too deeply.")
        except (UnicodeDecodeError, ValueError) as exc:
            raise exceptions.ParseError(f"Malformed JSON: {exc}")
        if _depth(data) > MAX_JSON_DEPTH:
            raise exceptions.ParseError(f"JSON nested too deeply (more than {MAX_JSON_DEPTH} levels).")
        bad = unstorable_path(data)
        if bad is not None:
            raise invalid_input({bad: [PROBLEM]})
        return data


def _fresh_field(field: serializers.Field) -> serializers.Field:
    """An unbound copy of a declared field for one serializer instance.

    DRF deep-copies every declared field per instance, which re-runs each field's ``__init__``; a leaf field
    (no child, not a serializer) is copied shallowly instead: binding sets only the copy's own attributes
    (name, parent, label, source), and what stays shared (validators, messages, choices) is only read.
    """
    if isinstance(field, serializers.BaseSerializer | serializers.ListField | serializers.DictField):
        return copy.deepcopy(field)
    fresh = object.__new__(type(field))
    fresh.__dict__.update(field.__dict__)
    return fresh


class Shape(serializers.Serializer):
    """The base of every API serializer: a DRF ``Serializer`` whose fields are copied cheaply per instance.

    ``Shape.represent(mapping)`` is ``Shape(mapping).data`` without building a serializer (the hot answers)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {name: _fresh_field(field) for name, field in self._declared_fields.items()}

    @classmethod
    def represent(cls, instance: Any) -> dict[str, Any]:
        """``cls(instance).data`` for a plain dict, read off the declared fields; for anything this does not
        know (another instance type, a field kind or option it does not read) the serializer itself."""
        out = _represented(cls, instance)
        return dict(cls(instance).data) if out is _NOT_PLAIN else out


_NOT_PLAIN: Any = object()


def _represented(cls: type[serializers.Serializer], instance: Any) -> Any:
    """What ``cls(instance).data`` is when ``instance`` is a dict, or ``_NOT_PLAIN``."""
    if not isinstance(instance, dict) or cls.to_representation is not serializers.Serializer.to_representation:
        return _NOT_PLAIN
    out = {}
    for name, field in cls._declared_fields.items():
        if field.write_only:
            continue
        if field.source not in (None, name) or isinstance(field, serializers.SerializerMethodField):
            return _NOT_PLAIN
        if name not in instance:  # as DRF's Field.get_attribute: a default, else None if allowed, else skipped
            if field.default is not serializers.empty:
                return _NOT_PLAIN
            if field.allow_null:
                out[name] = None
            elif not field.required:
                continue
            else:
                return _NOT_PLAIN
        elif instance[name] is None:
            out[name] = None
        else:
            value = _represented_value(field, instance[name])
            if value is _NOT_PLAIN:
                return _NOT_PLAIN
            out[name] = value
    return out


def _each(items: Any, represent: Any) -> Any:
    """``[represent(item) …]`` in order, stopping at the first ``_NOT_PLAIN`` (so nothing after it runs)."""
    out = []
    for item in items:
        value = represent(item)
        if value is _NOT_PLAIN:
            return _NOT_PLAIN
        out.append(value)
    return out


def _represented_value(field: serializers.Field, value: Any) -> Any:
    """``field.to_representation(value)`` for the field kinds the API's answers use, or ``_NOT_PLAIN``."""
    kind = type(field)
    if kind is serializers.IntegerField:
        return int(value)
    if kind is serializers.FloatField:
        return float(value)
    if kind is serializers.CharField:
        return str(value)
    if kind is serializers.BooleanField:
        return value if isinstance(value, bool) else _NOT_PLAIN
    if kind is serializers.JSONField and not field.binary:
        return value
    if kind is serializers.ListField and isinstance(value, list | tuple):
        return _each(value, lambda v: None if v is None else _represented_value(field.child, v))
    if kind is serializers.DictField and isinstance(value, dict):
        values = _each(list(value.values()), lambda v: None if v is None else _represented_value(field.child, v))
        return values if values is _NOT_PLAIN else dict(zip(map(str, value), values, strict=True))
    if isinstance(field, serializers.ListSerializer) and isinstance(value, list | tuple):
        return _each(value, lambda v: _represented(type(field.child), v))
    if isinstance(field, Shape):
        return _represented(type(field), value)
    return _NOT_PLAIN


def _json_type_problem(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` does not have the JSON type ``field`` documents, or None (DRF would coerce it)."""
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else "Must be a whole number."
    if isinstance(field, serializers.CharField | serializers.DateTimeField):
        return None if isinstance(value, str) else "Must be a string."
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return "Must be a list."
        for i, item in enumerate(value):
            problem = None if item is None else _json_type_problem(field.child, item)
            if problem:
                return f"Item {i}: {problem}"
    return None


class JsonInput(Shape):
    """Input serializer for JSON bodies: each value must already have its documented JSON type.

    DRF coerces ``"3"`` to 3, ``0`` to false and 5 to ``"5"``; the schema promises types, so the API refuses them.
    ``quick(data)`` is the same validation for the common body, without building a serializer.
    """

    @classmethod
    def quick(cls, data: Any) -> dict[str, Any] | None:
        """``validated_data`` for a body whose every value already has its final form (a string with no
        surrounding blanks, an integer, a boolean, JSON for a JSON field, each passing its field's validators),
        read off the declared fields; None whenever DRF might answer anything else, and for field kinds this
        does not know: the caller then validates the full way, which also words the errors."""
        if not isinstance(data, dict) or not _quick_checkable(cls):
            return None
        out: dict[str, Any] = {}
        for name, field in cls._declared_fields.items():
            if name not in data:
                if field.required:
                    return None
                if field.default is not serializers.empty:
                    out[name] = field.default() if callable(field.default) else field.default
                continue
            value = data[name]
            if value is None:
                if not field.allow_null:
                    return None
                out[name] = None
            elif _plain_input(field, value):
                out[name] = value
            else:
                return None
        return out

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            errors = {
                name: [problem]
                for name, field in self.fields.items()
                if not field.read_only and data.get(name) is not None
                for problem in [_json_type_problem(field, data[name])]
                if problem
            }
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


@functools.cache
def _quick_checkable(cls: type[serializers.Serializer]) -> bool:
    """True when ``cls`` validates nothing beyond its declared fields: no ``validate``/``validate_<field>``
    or ``to_internal_value`` of its own, no serializer-level validators, every field under its own name, writable, and without a
    default that needs context (``_plain_input`` decides each value's kind)."""
    if (
        cls.validate is not serializers.Serializer.validate
        or cls.to_internal_value is not JsonInput.to_internal_value
        or getattr(getattr(cls, "Meta", None), "validators", None)
    ):
        return False
    return all(
        not field.read_only
        and field.source in (None, name)
        and not getattr(field.default, "requires_context", False)
        and not hasattr(cls, f"validate_{name}")
        for name, field in cls._declared_fields.items()
    )


def _plain_input(field: serializers.Field, value: Any) -> bool:
    """Whether DRF would validate ``value`` (not None) for ``field`` to ``value`` itself."""
    kind = type(field)
    if kind is serializers.CharField:
        if not isinstance(value, str) or (field.trim_whitespace and value.strip() != value):
            return False
        if value == "" and not field.allow_blank:
            return False
    elif kind is serializers.IntegerField:
        if not isinstance(value, int) or isinstance(value, bool):
            return False
    elif kind is serializers.BooleanField:
        if not isinstance(value, bool):
            return False
    elif kind is not serializers.JSONField or field.binary or not isinstance(value, dict | list | str | int | float):
        return False
    try:
        for validator in field.validators:
            validator(value)
    except (DjangoValidationError, serializers.ValidationError):
        return False
    return True


class PagedListMixin:
    """For an APIView whose GET answers one page of a list: ``pagination_class`` also tells the schema so."""

    pagination_class = PageNumberPagination

    def paged(self, request: Any, items: Any, serializer_class: type[serializers.Serializer]) -> Response:
        """The page of ``items`` the request asks for (``?page=N``), serialized, with count and links."""
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        return paginator.get_paginated_response(serializer_class(page, many=True).data)


class _SettingsRate:
    """Read the rate from settings on each request (DRF reads it once, at import)."""

    scope: str

    def get_rate(self) -> str | None:
        return settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].get(self.scope)

    def get_ident(self, request: Any) -> str:
        """The client's address: ``config.throttling.client_address`` (no made-up header is a new client)."""
        return client_address(request)


class AnonThrottle(_SettingsRate, AnonRateThrottle):
    """Requests per minute for anonymous clients, by IP."""


class UserThrottle(_SettingsRate, UserRateThrottle):
    """Requests per minute per signed-in user (by IP for anonymous clients, as DRF counts them)."""


class ApiThrottle(WindowThrottle):
    """The API's rate limits: both of the above, counted in one Redis round trip."""

    limits = (AnonThrottle, UserThrottle)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


_CODES = {
    exceptions.ParseError: "malformed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.NotAcceptable: "not_acceptable",
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map domain errors and DRF errors to ``{code, detail, ...}`` bodies; nothing else reaches here."""
    if isinstance(exc, HttpError):
        return Response(exc.body(), status=exc.status_code)
    if isinstance(exc, RequestDataTooBig):
        exc = exceptions.ParseError("Request body too large.")
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    # imported here: importing DRF's views module resolves the REST_FRAMEWORK settings, which name classes of
    # this module; at the top, a process importing this module first would import it again half-built
    from rest_framework.views import exception_handler as drf_exception_handler

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": "The request is not valid.", "errors": response.data}
        response.status_code = status.HTTP_400_BAD_REQUEST
        return response
    detail = response.data.get("detail", "") if isinstance(response.data, dict) else str(response.data)
    code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
    response.data = {"code": code, "detail": str(detail)}
    return response


_JSON = JSONRenderer()
_LEAN_ACCEPT = frozenset({"", "*/*", "application/json"})


class LeanPostMixin:
    """For an ``APIView`` whose POST is the hot path (recording a move): the common request skips DRF's
    request wrapper, content negotiation and parser selection, with the same answer byte for byte.

    The lean path takes only a JSON body sent with ``Authorization: Token …`` and an ``Accept`` that can only
    mean JSON; it authenticates (``FastTokenAuthentication``), throttles (the view's throttles, one Redis round
    trip), parses (``BoundedJSONParser``), calls ``post_data(request, data, **kwargs)`` (which the DRF
    ``post`` calls too), maps a domain error as ``exception_handler`` does, and lets DRF's
    ``finalize_response`` render and add its headers. Anything else (another credential, content type or
    ``Accept``; a refused token; a throttled or unreadable request) goes to DRF's own ``dispatch``, which
    answers it as it always has; nothing was written before that hand-over (a refused throttle gives its
    count back). Subclasses implement ``post_data`` and have ``post`` call it with ``request.data``.
    """

    def post_data(self, request: Any, data: Any, **kwargs: Any) -> Response:
        raise NotImplementedError

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and not args:
            response = self._lean_post(request, kwargs)
            if response is not None:
                return response
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]

    def _lean_post(self, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponse | None:
        """The lean answer, or None to let DRF answer (nothing has been written then)."""
        meta = request.META
        if (
            not meta.get("HTTP_AUTHORIZATION", "").startswith("Token ")
            or request.content_type != "application/json"
            or meta.get("HTTP_ACCEPT", "") not in _LEAN_ACCEPT
        ):
            return None
        try:
            credentials = FastTokenAuthentication().authenticate(request)
        except exceptions.APIException:
            return None
        if credentials is None:
            return None
        request.user, request.auth = credentials  # type: ignore[attr-defined]
        self.args, self.kwargs, self.request = (), kwargs, request
        self.headers = self.default_response_headers  # type: ignore[attr-defined]
        if not all(throttle.allow_request(request, self) for throttle in self.get_throttles()):  # type: ignore[attr-defined]
            return None
        try:
            try:
                data = BoundedJSONParser().parse(io.BytesIO(request.body))
            except (exceptions.APIException, RequestDataTooBig):
                return None
            response = self.post_data(request, data, **kwargs)
        except HttpError as exc:
            response = Response(exc.body(), status=exc.status_code)
        request.accepted_renderer, request.accepted_media_type = _JSON, "application/json"  # type: ignore[attr-defined]
        return self.finalize_response(request, response, **kwargs)  # type: ignore[attr-defined]


class ErrorOutput(Shape):
    """Every refusal's body (``config.errors``): the code, the words, and where they apply the rule, the fields, the
    stream's version and the rebase's refusal. At the floor, so that every API module may document it."""

    code = serializers.CharField()
    detail = serializers.CharField()
    rule = serializers.CharField(required=False)
    errors = serializers.JSONField(required=False)
    current_version = serializers.IntegerField(required=False)
    rebase_refused = serializers.JSONField(
        required=False, help_text="409 after rebase: true: {reason, why, rule?, violation?}"
    )

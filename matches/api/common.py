"""What every API endpoint module shares: the error responses for the schema, reading a request body with an
input serializer, the ``Idempotency-Key`` header, users by name and the answer to an append."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiResponse

from config.api import ErrorOutput
from matches.api.serializers import AppendOutput
from matches.errors import InvalidInput
from matches.store.visibility import Viewer
from rulesets import get_ruleset
from rulesets.names import name_all
from rulesets.replay import outcome_of

ERRORS = {
    400: OpenApiResponse(ErrorOutput, description="invalid payload or rule violation; nothing written"),
    403: OpenApiResponse(ErrorOutput, description="not allowed"),
    404: OpenApiResponse(ErrorOutput, description="not found"),
    409: OpenApiResponse(ErrorOutput, description="version conflict; nothing written"),
}


def parse(serializer_class: type, data: Any) -> dict[str, Any]:
    """Validate request data with an input serializer; errors become ``{code: invalid, errors}``.

    A JSON body's common case is read by the serializer's ``quick`` (same result, no serializer built)."""
    if not isinstance(data, dict):
        raise InvalidInput({"body": ["Send a JSON object."]})
    quick = getattr(serializer_class, "quick", None)
    validated = quick(data) if quick is not None else None
    if validated is not None:
        return validated
    serializer = serializer_class(data=data)
    if not serializer.is_valid():
        raise InvalidInput(error_paths(serializer.errors))
    return serializer.validated_data


def error_paths(errors: Any, path: str = "") -> dict[str, list[str]]:
    """A serializer's nested errors as ``{path: [messages]}``, the path in the body's own terms
    (``seats[1].name``), each message a plain sentence ("A seat needs a name.")."""
    out: dict[str, list[str]] = {}
    if isinstance(errors, dict):
        for key, value in errors.items():
            where = (
                f"{path}[{key}]" if isinstance(key, int)
                else path if key == "non_field_errors" and path
                else f"{path}.{key}" if path
                else str(key)
            )  # fmt: skip
            out.update(error_paths(value, where))
    elif isinstance(errors, list) and any(isinstance(e, dict | list) for e in errors):
        for i, value in enumerate(errors):
            if value:
                out.update(error_paths(value, f"{path}[{i}]"))
    else:
        messages = errors if isinstance(errors, list) else [errors]
        out.setdefault(path or "body", []).extend(str(m) for m in messages)
    return out


def header_key(meta: dict[str, Any]) -> str | None:
    """The ``Idempotency-Key`` header's key, None without one. A header sent empty is refused (400): granian
    hands the application an empty value for a header it cannot decode (non-ASCII), and taking that as "no
    key" would let the client's retry record the move twice; a key holding anything but printable ASCII is refused
    too (the ASGI bridge passes such bytes on as latin-1)."""
    key = meta.get("HTTP_IDEMPOTENCY_KEY")
    if key is not None and not key.strip():
        detail = "Empty. Send 1 to 100 visible ASCII characters (a header value the server cannot read arrives empty)."
        raise InvalidInput({"Idempotency-Key": [detail]})
    if key is not None and not all(" " <= c <= "~" for c in key):
        # the ASGI bridge hands non-ASCII bytes on as latin-1 text: refused the same way on every server
        raise InvalidInput({"Idempotency-Key": ["Not ASCII. Send 1 to 100 visible ASCII characters."]})
    return key or None


def users_by_name(names: list[str], field: str) -> list[Any]:
    """Users for usernames; unknown names are an :class:`InvalidInput` on ``field``."""
    User = get_user_model()
    found = {u.username.lower(): u for u in User.objects.filter(username__in=names)}
    missing = [n for n in names if n.lower() not in found]
    if missing:
        raise InvalidInput({field: [f"No user named {', '.join(missing)}."]})
    return [found[n.lower()] for n in names]


def append_body(result: Any, game: str, viewer: Viewer, seat_names: list[str] | None = None) -> dict[str, Any]:
    """The body answering an append (the same for a repeated idempotency key): the new state as ``viewer``
    may see it (``matches.store.visibility``: a recorder holding a seat sees that seat's view); every text names
    the players."""
    names = seat_names or []
    ruleset = get_ruleset(game)
    outcome = outcome_of(ruleset, result.state)
    return AppendOutput.represent(
        {
            "version": result.version,
            "position": result.position,
            "state": name_all(viewer.state(ruleset, result.state), names),
            "outcome": name_all(outcome.to_dict(), names) if outcome else None,
            "override_pending": result.override_pending,
            "linked": [w.to_dict() for w in result.linked],
            "rebased": result.rebased.to_dict() if result.rebased else None,
        }
    )

"""OpenAPI post-processing: the error answers every operation can give, documented in one place.

The views document their own successes and domain errors; what the plumbing adds to every request
(throttling, outages, authentication, unknown ids, malformed input, idempotency keys reused) is added here,
so the schema lists every status the API can answer (tests/config/test_api_schema.py checks it).
"""

from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/ErrorOutput"}
ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "detail": {"type": "string"},
        "rule": {"type": "string"},
        "errors": {},
        "current_version": {"type": "integer"},
    },
    "required": ["code", "detail"],
}


def _error(description: str, *, retry_after: bool = False) -> dict[str, Any]:
    response: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}
    if retry_after:
        response["headers"] = {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds to wait"}}
    return response


def _body_properties(operation: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """The properties of the operation's JSON request body, following one ``$ref``."""
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        schema = components.get(ref.rsplit("/", 1)[1], {})
    return schema.get("properties", {})


def add_common_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: add 400/401/403/404/422/429/503 where they can occur."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ErrorOutput", ERROR_SCHEMA)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            extra = {
                "429": _error("throttled: too many requests; retry after the delay", retry_after=True),
                "503": _error("a service the API needs is unreachable; retry after the delay", retry_after=True),
            }
            if operation.get("parameters") or operation.get("requestBody"):
                extra["400"] = _error(
                    "invalid input (code `invalid`, `malformed` or `rule_violation`); nothing written"
                )
            if method in ("post", "put", "patch", "delete"):
                extra["401"] = _error("not authenticated")
                extra["403"] = _error("not allowed")
            if "{" in path:
                extra["404"] = _error("not found, or not visible to you")
            if any(p.get("name") == "page" for p in operation.get("parameters", [])):
                extra["404"] = _error("no such page of the list")
            if "idempotency_key" in _body_properties(operation, components):
                extra["409"] = _error("version conflict (`current_version` says where the stream is); nothing written")
                extra["422"] = _error("idempotency key already used for a different request; nothing written")
            for code, response in extra.items():
                responses.setdefault(code, response)
    return result

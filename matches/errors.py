"""Domain errors: raised by services and selectors, turned into HTTP in config.api (the one place)."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base of every error a caller can cause; ``body()`` is the JSON error body."""

    status_code = 400
    code = "error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail}


class WrappedRefusal(DomainError):
    """A refusal caused by another error: keeps that error's status and code, says more in ``detail``."""

    def __init__(self, detail: str, error: DomainError) -> None:
        super().__init__(detail)
        self.status_code = error.status_code
        self.code = error.code
        self.error = error

    def body(self) -> dict[str, Any]:
        return {**self.error.body(), "detail": self.detail}


class InvalidInput(DomainError):
    """A malformed payload: wrong types, missing or unknown fields. ``errors``: field path → messages.

    ``rule``: the rulebook section when the broken bound is a rulebook line (a card's cost "$0 to $3"); the
    body then carries it beside ``errors`` and ``detail`` states the rule in plain words.
    """

    code = "invalid"

    def __init__(self, errors: dict[str, list[str]], detail: str = "", rule: str = "") -> None:
        first = next(iter(errors.items()), ("", [""]))
        super().__init__(detail or f"Invalid {first[0]}: {' '.join(first[1])}")
        self.errors = errors
        self.rule = rule

    def body(self) -> dict[str, Any]:
        body = {"code": self.code, "detail": self.detail, "errors": self.errors}
        if self.rule:
            body["rule"] = self.rule
        return body


class RuleBroken(DomainError):
    """An illegal move: the rules forbid it. Carries the ruleset's violation code and rulebook reference."""

    code = "rule_violation"

    def __init__(self, violation_code: str, detail: str, rule: str) -> None:
        super().__init__(detail)
        self.violation_code = violation_code
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "violation": self.violation_code, "rule": self.rule, "detail": self.detail}

    def named(self, seat_names: list[str]) -> RuleBroken:
        """The same refusal with "Seat N" in its detail replaced by the players' names."""
        from rulesets.base import name_seats

        return RuleBroken(self.violation_code, name_seats(self.detail, seat_names), self.rule)


class VersionConflict(DomainError):
    """Someone else recorded first: the stream is no longer at the expected version."""

    status_code = 409
    code = "version_conflict"

    def __init__(self, current_version: int, expected_version: int | None = None, noun: str = "match") -> None:
        detail = f"The {noun} has moved on to version {current_version}"
        if expected_version is not None:
            detail += f" (you expected {expected_version})"
        super().__init__(detail + "; reload and try again.")
        self.current_version = current_version
        self.expected_version = expected_version

    def of(self, noun: str) -> VersionConflict:
        """The same conflict told of a ``noun`` ("campaign", "series") instead of a match."""
        return VersionConflict(self.current_version, self.expected_version, noun)

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "current_version": self.current_version}


class IdempotencyKeyReused(DomainError):
    """An idempotency key already used on this stream for a different request (type, seat or data)."""

    status_code = 422
    code = "idempotency_key_reused"

    def __init__(self, key: str, version: int) -> None:
        super().__init__(
            f"The idempotency key {key!r} was already used for a different entry (version {version}); "
            "nothing was recorded. Use a new key for a new entry."
        )
        self.version = version

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "version": self.version}


class NotAllowed(DomainError):
    """The user may not do this (e.g. record on a match they neither own nor record for)."""

    status_code = 403
    code = "permission_denied"


class NotFound(DomainError):
    """No such object, or not visible to this user."""

    status_code = 404
    code = "not_found"


class NotListable(NotFound):
    """The game cannot list its legal moves now (e.g. a phase whose moves are chance results)."""

    code = "not_listable"

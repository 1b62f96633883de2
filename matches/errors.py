"""Domain errors: raised by services and selectors, turned into HTTP in config.api (the one place) through their
base, ``config.errors.HttpError``: each says its own status, code and body."""

from __future__ import annotations

from typing import Any

from config.errors import HttpError

# the bodies of a refused entry are the pure ones the match page also answers offline (rulesets.offline)
from rulesets.offline import invalid_body, invalid_detail, refusal_body


class DomainError(HttpError):
    """Base of every error a caller can cause in the apps; ``body()`` is the JSON error body, ``status_code``
    its HTTP status (``HttpError``: the API and the pages map every subclass without knowing it)."""


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
        super().__init__(invalid_detail(errors, detail))
        self.errors = errors
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return invalid_body(self.errors, self.detail, self.rule)


class RuleBroken(DomainError):
    """An illegal move: the rules forbid it. Carries the ruleset's violation code and rulebook reference."""

    code = "rule_violation"

    def __init__(
        self, violation_code: str, detail: str, rule: str, *, overridable: bool = True, house_rule: int | None = None,
        withdrawn: bool = False,
    ) -> None:  # fmt: skip
        super().__init__(detail)
        self.violation_code = violation_code
        self.rule = rule
        self.overridable = overridable  # False: even a house rule could not record it (RuleViolation's)
        # the version of the house rule (``rule_overridden``) this entry was recorded under, when it was refused
        # as ``unplayable`` under it; ``withdrawn``: that house rule was then voided (spent), in the same request
        self.house_rule = house_rule
        self.withdrawn = withdrawn

    def body(self) -> dict[str, Any]:
        body = refusal_body(self.violation_code, self.detail, self.rule, overridable=self.overridable)
        if self.withdrawn:
            body["house_rule_withdrawn"] = self.house_rule
        return body

    def named(self, seat_names: list[str]) -> RuleBroken:
        """The same refusal with "Seat N" in its detail replaced by the players' names."""
        from rulesets.base import name_seats

        return RuleBroken(
            self.violation_code, name_seats(self.detail, seat_names), self.rule, overridable=self.overridable,
            house_rule=self.house_rule, withdrawn=self.withdrawn,
        )  # fmt: skip

    def spent(self) -> RuleBroken:
        """The same refusal, once its house rule was withdrawn: the detail says so (docs/ARCHITECTURE.md ›
        Corrections, *A house rule that cannot place its move is spent*)."""
        return RuleBroken(
            self.violation_code,
            f"{self.detail.rstrip()} The house rule of move {self.house_rule} was withdrawn, so the next move is "
            "checked by the rules again; record the house rule again to let another move through.",
            self.rule, overridable=self.overridable, house_rule=self.house_rule, withdrawn=True,
        )  # fmt: skip


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

    def named(self, seat_names: list[str]) -> VersionConflict:
        """The same conflict with "Seat N" replaced by the players' names (a plain conflict names no seat)."""
        return self

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "current_version": self.current_version}


class RebaseRefused(VersionConflict):
    """A stale entry the client asked to rebase (``rebase: true``) that the rebase rule refuses: still a
    version conflict (409), with ``reason`` (``same_seat``, ``table_entry``, ``undo_since``,
    ``override_pending``, ``correction``, ``illegal``) and ``why`` in players' words; ``rule`` and ``violation``
    name the rule when the entry is no longer legal on the new state (docs/ARCHITECTURE.md, *Rebasing*)."""

    def __init__(
        self, current_version: int, expected_version: int | None, reason: str, why: str, noun: str = "match",
        rule: str = "", violation: str = "",
    ) -> None:  # fmt: skip
        super().__init__(current_version, expected_version, noun)
        self.detail = (
            f"The {noun} has moved on to version {current_version} (you expected {expected_version}) "
            f"and your entry was not recorded after the new entries: {why}"
        )
        self.args = (self.detail,)
        self.noun = noun
        self.reason = reason
        self.why = why
        self.rule = rule
        self.violation = violation

    def of(self, noun: str) -> RebaseRefused:
        return RebaseRefused(
            self.current_version, self.expected_version, self.reason, self.why, noun, self.rule, self.violation
        )

    def named(self, seat_names: list[str]) -> RebaseRefused:
        from rulesets.base import name_seats

        return RebaseRefused(
            self.current_version, self.expected_version, self.reason, name_seats(self.why, seat_names), self.noun,
            self.rule, self.violation,
        )  # fmt: skip

    def body(self) -> dict[str, Any]:
        refusal = {"reason": self.reason, "why": self.why}
        if self.rule:
            refusal.update(rule=self.rule, violation=self.violation)
        return {**super().body(), "rebase_refused": refusal}


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


class MatchKeyReused(DomainError):
    """A match-creation idempotency key the owner already used to create a match with a different request."""

    status_code = 422
    code = "idempotency_key_reused"

    def __init__(self, key: str, match_id: int) -> None:
        super().__init__(
            f"The idempotency key {key!r} was already used to create another match (match {match_id}) with "
            "different players or options; nothing was created. Use a new key for a new match."
        )
        self.match_id = match_id

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "match": self.match_id}


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


class StreamUnreplayable(DomainError):
    """A stored stream the store cannot replay (a bug, a corrupted row, rules changed under it without a version
    branch): entry ``version`` (of ``type``, ``entry`` its label) could not be applied. Reads of the stream answer
    this (409) instead of failing; pages show what can still be shown (the log), lists and the projectors go on
    without it (docs/ARCHITECTURE.md › Errors, *A stream that cannot be replayed*)."""

    status_code = 409
    code = "stream_unreplayable"

    def __init__(self, stream_id: int, version: int, type_: str, entry: str, cause: str = "") -> None:
        super().__init__(
            f"This record cannot be shown: its entry {version} ({entry}) can no longer be replayed by the rules it "
            "was recorded under. Nothing was lost: every entry is kept and its log can still be read. "
            "Tell the site's keeper, who can repair it (manage.py check_rulesets names it)."
        )
        self.stream_id = stream_id
        self.version = version
        self.type = type_
        self.entry = entry
        self.cause = cause  # the reducer's own words, for logs and check_rulesets (never shown to players)

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "detail": self.detail, "version": self.version, "type": self.type}

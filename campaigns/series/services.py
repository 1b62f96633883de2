"""Series writes: creating a series and the database checks of its entries (which matches may join).

Entries are recorded through the shared stream plumbing (``matches.store.streams.stream_record``); the series
rules themselves (same game, not twice, only what is in) are pure, in ``rulesets/series``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaigns.models import Series
from campaigns.streams import name_clean, named_stream_open
from matches.errors import InvalidInput, RuleBroken
from matches.models import Match, Stream
from matches.services import options_clean
from matches.store import events as store
from matches.store.streams import ruleset_for, stream_record
from matches.store.visibility import UserLike, can_view
from rulesets import get_ruleset
from rulesets.series import RULE_SERIES

SERIES_GAME = "series"  # the ruleset every series stream folds with


@transaction.atomic
def series_create(
    *, owner: AbstractBaseUser, name: str, game: str, options: dict[str, Any] | None = None,
    is_public: bool = False, recorders: list[AbstractBaseUser] | None = None,
) -> Series:  # fmt: skip
    """Create an empty series for matches of ``game`` (a match game). ``options``: ``{"place_points"}``.

    Raises :class:`InvalidInput` for a blank name, an unknown or non-match game, or bad place points.
    """
    ruleset = ruleset_for(game)
    if ruleset.kind != Stream.KIND_MATCH:
        raise InvalidInput({"game": [f"{ruleset.name} is not played as matches; a series groups matches."]})
    name = name_clean(name, Stream.KIND_SERIES)
    if options is not None and not isinstance(options, dict):
        raise InvalidInput({"options": ['Must be an object, e.g. {"place_points": [3, 2, 1]}.']})
    if options and "game" in options:
        raise InvalidInput({"options.game": ["Name the game with 'game', not inside the options."]})
    return named_stream_open(
        kind=Stream.KIND_SERIES, owner=owner, name=name, game=game, stream_game=SERIES_GAME, is_public=is_public,
        options=options_clean(get_ruleset(SERIES_GAME), {**(options or {}), "game": game}), recorders=recorders,
    )  # fmt: skip


def series_entry_clean(series: Series, user: UserLike, type: str, data: Any) -> Any:
    """Before ``match_added`` is appended: the match must exist and be visible to ``user`` (else a 400
    ``match_not_visible``), and its game is written into the entry so the series rules can judge it."""
    if type != "match_added" or not isinstance(data, dict):
        return data
    match_id = data.get("match")
    if not isinstance(match_id, int) or isinstance(match_id, bool):
        return data  # the payload check names the field
    match = Match.objects.filter(pk=match_id).first()
    if match is None or not can_view(user, match):
        raise RuleBroken("match_not_visible", f"There is no match {match_id} that you can see.", RULE_SERIES)
    return {**data, "game": match.game}


def series_match_add(*, series: Series, user: UserLike, match_id: int, **guards: Any) -> store.AppendResult:
    """Record ``match_added`` (see :func:`series_entry_clean` and the series rules for the refusals)."""
    return stream_record(obj=series, user=user, type="match_added", data={"match": match_id}, **guards)


def series_match_remove(*, series: Series, user: UserLike, match_id: int, **guards: Any) -> store.AppendResult:
    """Record ``match_removed``."""
    return stream_record(obj=series, user=user, type="match_removed", data={"match": match_id}, **guards)

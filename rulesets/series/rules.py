"""A series' rules: a match of the series' game, not twice; only a match that is in can leave."""

from __future__ import annotations

from rulesets.base import Event, RuleViolation, State
from rulesets.series.fields import MATCH_ADDED, MATCH_REMOVED, RULE_SERIES


def game_name(slug: str) -> str:
    """A game's name for messages (its slug when unknown)."""
    from rulesets.registry import UnknownGame, get_ruleset

    try:
        return get_ruleset(slug).name
    except UnknownGame:
        return slug


def check_added(state: State, event: Event) -> None:
    """The match plays the series' game and is not in the series yet."""
    match, game = event.data.get("match"), event.data.get("game")
    if game is not None and game != state["game"]:
        raise RuleViolation(
            "other_game",
            f"Match {match} is a game of {game_name(game)}; this series is for {game_name(state['game'])}.",
            RULE_SERIES,
        )
    if match in state["matches"]:
        raise RuleViolation("already_in_series", f"Match {match} is already in this series.", RULE_SERIES)


def check_removed(state: State, event: Event) -> None:
    """Only a match in the series can leave it."""
    match = event.data.get("match")
    if match not in state["matches"]:
        raise RuleViolation("not_in_series", f"Match {match} is not in this series.", RULE_SERIES)


RULES = {MATCH_ADDED: check_added, MATCH_REMOVED: check_removed}

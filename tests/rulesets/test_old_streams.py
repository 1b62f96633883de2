"""The corpus of real old streams (docs/ARCHITECTURE.md › Rule versions): every stream recorded by a past release
(``tests/fixtures/old_streams``, made by ``scripts/old_streams.py``) replays under today's code, judged under
its stored rules version, to the state and outcome the old code gave, without an exception; and taking the
version branches away makes some of them replay differently."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import rulesets
from rulesets import get_ruleset, versions
from rulesets.base import Event
from rulesets.replay import outcome_of, replay

pytestmark = pytest.mark.pure

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "old_streams"

# State keys compared loosely, each with its reason: left out on both sides ("heroes[].carried": the key in every
# item of the list ``heroes``), or for a list of words (a log) compared by its length only. Everything else a game
# keeps in its state (the board, tokens, scores, hands, whose turn, the phase) is compared exactly.
LOOSE_STATE_KEYS: dict[str, str] = {
    versions.RULES_KEY: "today's code stamps an older-rules stream's state with the version it is judged under "
    "(rulesets.versions.stamp); the old code, which had only its own rules, had no stamp",
}
LOOSE_GAME_KEYS: dict[str, dict[str, str]] = {
    "bone-wars": {
        "concluded": "added with game_concluded (version 2); False in a version-1 stream, where the last "
        "pass ends the game and the outcome reads no such key"
    },
    "salt-and-bones": {
        "log": "words only: version 5 names cells 'column C, row R' in the combat log (a version of "
        "wording, no branch: docs/rules/salt-and-bones.md); the number of lines is compared"
    },
    "the-first-spine": {
        "players[].destiny_played": "a count derived for the destiny share (version 4), added to every player's "
        "record; versions 1-3 never read it",
        "players[].origin_played": "a count derived for the origin-card limit (version 2), added to every player's "
        "record; version 1 had no limit and never reads it",
    },
    "saltmarsh": {
        "heroes[].items[].item": "a display flag (is the treasure an Item card) added to each held "
        "treasure later; derived from the card, no rule of version 1 reads it"
    },
    "saltmarsh-adventure": {
        "actions": "the adventure's list of actions taken, added in the one-shape rewrite; derived from the entries",
        "moves": "the old move counter, dropped in the one-shape rewrite (its count lives in `actions`)",
        "heroes[].carried": "the items a hero carries, a display list added later, derived from `items`",
        "heroes[].items[].carried": "a display flag added later, derived",
        "heroes[].items[].item": "a display flag (is the treasure an Item card) added later, derived",
    },
}
# Keys compared loosely for the streams of one rules version only (game, version → key → reason): shapes that
# version's code did not have, derived or always empty in its streams.
LOOSE_VERSION_KEYS: dict[tuple[str, int], dict[str, str]] = {
    ("salt-and-bones", 1): {
        "combat.armed": "an Overwhelm played before its Attack card (version 3); version 1 had no such play and "
        "this list stays empty in its streams",
        "combat.window.strike.armed": "the same list carried on the Attack card (version 3), empty in version 1",
        "combat.window.reactions[].arming": "whether an Overwhelm was played before its Attack card (version 3), "
        "False in every reaction of version 1, where an overridden early Overwhelm did nothing",
        "combat.window.reactions[].negates": "what a Condescend negates: version 1 kept 'chain' or the index of the "
        "INSTINCT, version 3 a record naming the same card; which card is negated (its effect, the damage, the "
        "log) is compared with the rest of the state",
        "combat.window.triggered": "the automatic INSTINCTs that triggered in a window, kept from version 3 so "
        "Condescend can name them; derived from the window, never read by version 1's rules",
    },
    ("saltmarsh", 1): {
        "adventures[].match": "the adventure match (version 2: adventures played move by move); None in every "
        "adventure of version 1, which had no such matches",
        "adventures[].conclusion": "the adventure match's result (version 2); None in every adventure of version 1",
    },
}
# Outcome keys today's Outcome.to_dict writes that an old one did not, with the value the old code meant.
OLD_OUTCOME_DEFAULTS: dict[str, Any] = {
    "provisional": False,  # added with Bone Wars' awards (issue 32): every outcome before it was final
}


@cache
def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def cases() -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.json")):
        for index in range(len(load(path)["streams"])):
            out.append(pytest.param(path, index, id=f"{path.stem}-{index}"))
    return out


def _loosen(value: Any, path: list[str]) -> None:
    """Drop the key at ``path`` (``name[]`` walks into every item of a list) from ``value``, in place; a list of
    words at the end is replaced by its length."""
    head, rest = path[0], path[1:]
    if not isinstance(value, dict) or head.rstrip("[]") not in value:
        return
    key = head.rstrip("[]")
    if not rest:
        if key == "log" and isinstance(value[key], list):
            value[key] = len(value[key])
        else:
            del value[key]
        return
    for item in value[key] if head.endswith("[]") else [value[key]]:
        _loosen(item, rest)


def comparable(state: Any, game: str = "", version: int = 0) -> Any:
    """``state`` as JSON, the loosely compared keys of ``game`` (and of its rules ``version``) left out (or, for a
    log, only its length kept)."""
    plain = json.loads(json.dumps(state))
    if not isinstance(plain, dict):
        return plain
    plain = {k: v for k, v in plain.items() if k not in LOOSE_STATE_KEYS}
    for path in [*LOOSE_GAME_KEYS.get(game, {}), *LOOSE_VERSION_KEYS.get((game, version), {})]:
        _loosen(plain, path.split("."))
    return plain


def comparable_outcome(old: dict[str, Any] | None) -> dict[str, Any] | None:
    """The old code's outcome with the keys it did not write set to what it meant (:data:`OLD_OUTCOME_DEFAULTS`)."""
    return None if old is None else {**OLD_OUTCOME_DEFAULTS, **old}


def replay_stream(game: str, version: int, stream: dict[str, Any], upto: int | None = None) -> tuple[Any, Any]:
    """Today's state and outcome of a stored stream (its first ``upto`` entries), judged under ``version``."""
    ruleset = get_ruleset(game)
    events = [Event(t, seat, data) for t, seat, data in stream["events"][:upto]]
    pos = replay(ruleset, stream["options"], stream["seats"], events, rules_version=version)
    return pos.state, outcome_of(ruleset, pos.state)


def differences(path: Path, index: int) -> list[str]:
    """How today's replay of one stored stream differs from the old code's (empty: it does not)."""
    body = load(path)
    stream = body["streams"][index]
    state, outcome = replay_stream(body["game"], body["rules_version"], stream)
    found = []
    game, version = body["game"], body["rules_version"]
    new, old = comparable(state, game, version), comparable(stream["state"], game, version)
    if new != old:
        found.append(f"state differs at {sorted(k for k in {*new, *old} if new.get(k) != old.get(k))}")
    now = None if outcome is None else json.loads(json.dumps(outcome.to_dict()))
    if now != comparable_outcome(stream["outcome"]):
        found.append(f"outcome {now} != {comparable_outcome(stream['outcome'])}")
    for at, old in stream["checkpoints"].items():
        now_at = replay_stream(game, version, stream, int(at))[0]
        if comparable(now_at, game, version) != comparable(old, game, version):
            found.append(f"state after entry {at} differs")
    return found


def test_the_corpus_covers_every_game_and_version() -> None:
    """A file per game and rules version it has had (Salt & Bones 2 never reached the main line), each with the
    commit and command that made it."""
    made = {(load(p)["game"], load(p)["rules_version"]) for p in CORPUS.glob("*.json")}
    for ruleset in rulesets.registry.all_rulesets():
        wanted = {v for v in range(1, ruleset.version + 1) if (ruleset.slug, v) != ("salt-and-bones", 2)}
        assert wanted <= {v for g, v in made if g == ruleset.slug}, ruleset.slug
    for path in CORPUS.glob("*.json"):
        assert load(path)["command"].startswith("scripts/old_streams.py") and len(load(path)["commit"]) == 40


@pytest.mark.parametrize("path,index", cases())
def test_old_stream_replays_as_recorded(path: Path, index: int) -> None:
    """Same state, same outcome, no exception, under the rules version the stream was recorded with."""
    assert differences(path, index) == []


def test_the_corpus_holds_house_rules_voids_and_results() -> None:
    """The corrections every release accepted are in the corpus: house rules (after the end too), voids,
    table-recorded results and drawn starters (photos came after every release the corpus was made from)."""
    kinds = {e[0] for p in CORPUS.glob("*.json") for s in load(p)["streams"] for e in s["events"]}
    assert {"rule_overridden", "event_voided", "result_recorded", "first_player_drawn"} <= kinds
    for path in CORPUS.glob("*.json"):
        every = [e for s in load(path)["streams"] for e in s["events"]]
        assert {"rule_overridden", "event_voided"} <= {e[0] for e in every}, path.name
    after_end = {
        p.stem
        for p in CORPUS.glob("*.json")
        for s in load(p)["streams"]
        for e in s["events"]
        if e[0] == "rule_overridden" and e[2]["reason"] == "House rule after the end"
    }
    assert {"the-first-spine-v1", "the-first-spine-v4", "bone-wars-v1", "bone-wars-v3"} <= after_end


def test_without_the_version_branches_the_corpus_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deleting the version branches (today's rules for every stream) makes some stored stream that replays as
    recorded with them replay differently or raise: the corpus guards them."""
    kept = [param for param in cases() if not _broken(*param.values)]
    branch = versions.recorded_before
    for module in list(sys.modules.values()):
        name = getattr(module, "__name__", "")
        if name.startswith("rulesets") and getattr(module, "recorded_before", None) is branch:
            monkeypatch.setattr(module, "recorded_before", lambda state, version: False)
    assert [param.id for param in kept if _broken(*param.values)]


def _broken(path: Path, index: int) -> bool:
    try:
        return bool(differences(path, index))
    except Exception:
        return True

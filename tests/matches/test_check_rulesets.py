"""check_rulesets reports stored matches whose validity or outcome a rules change alters."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from matches.services import match_create, match_event_record
from rulesets import RuleViolation, get_ruleset

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def run(*, broken: bool = False) -> str:
    """The command's report; ``broken``: it must also exit non-zero (a stream does not replay as stored)."""
    out = io.StringIO()
    if broken:
        with pytest.raises(CommandError, match="do not replay as stored") as info:
            call_command("check_rulesets", stdout=out)
        assert info.value.returncode == 1
    else:
        call_command("check_rulesets", stdout=out)
    return out.getvalue()


def test_unchanged_rules_report_nothing(stone_match, owner):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    assert "0 stream(s) changed" in run()


def test_a_stricter_rule_is_reported(stone_match, owner, monkeypatch):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    ruleset = get_ruleset("last-stone")
    original = type(ruleset).validate

    def stricter(self, state, event):
        original(self, state, event)
        if event.data["count"] == 3:
            raise RuleViolation("no_threes", "Three is no longer allowed.", "Last Stone › Taking stones")

    monkeypatch.setattr(type(ruleset), "validate", stricter)
    out = run(broken=True)
    assert f"Last Stone (demo) #{stone_match.pk} (Ana, Bo): no longer valid" in out
    assert "Three is no longer allowed" in out


@pytest.mark.django_db(transaction=True)
def test_a_changed_outcome_is_reported(owner, monkeypatch):
    from matches.projections.projectors import project

    match = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], options={"stones": 3})
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    project()  # the summary records the outcome under the rules of the day
    ruleset = get_ruleset("last-stone")
    original = type(ruleset).outcome

    def misere(self, state):
        result = original(self, state)
        if result is None:
            return None
        return type(result)(winners=(1 - result.winners[0],), reason="misère: the last stone loses")

    monkeypatch.setattr(type(ruleset), "outcome", misere)
    monkeypatch.setattr(type(ruleset), "version", ruleset.version + 1)
    out = run(broken=True)
    # the rule changed without keeping its older version by number (a ruleset bug): the stored summary and the
    # replay under the rules the match was recorded with disagree
    assert f"#{match.pk} (A, B): outcome changes under the rules it was recorded with" in out and "misère" in out

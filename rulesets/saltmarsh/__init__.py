"""Ghosts of Saltmarsh campaign ruleset: the campaign sheet kept as an event stream."""

from __future__ import annotations

from rulesets.saltmarsh.bridge import conclusion_from_adventure
from rulesets.saltmarsh.ruleset import LEDGER_CAUSES, SaltmarshCampaign
from rulesets.saltmarsh.sheet import gold_ledger, sheet

RULESET = SaltmarshCampaign()

__all__ = ["LEDGER_CAUSES", "RULESET", "SaltmarshCampaign", "conclusion_from_adventure", "gold_ledger", "sheet"]

"""Bone Wars: 1–4 paleontologists play cards into action slots for Marsh or Cope over four rounds."""

from rulesets.bone_wars.ruleset import RULESET, BoneWars

__all__ = ["RULESET", "BoneWars"]

"""Bone Wars series and every other series of matches: services, reads, what a reader sees of its matches, API
and demo."""

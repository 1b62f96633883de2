"""Template filters of the photo timeline: ``{{ photo_lines|photo_at:line.row.version }}``."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def photo_at(photo_lines: dict[str, Any] | None, version: Any) -> Any:
    """The shown photo whose ``photo_added`` entry is ``version`` (None when there is none)."""
    return (photo_lines or {}).get(str(version))

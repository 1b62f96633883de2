"""What the pages remember per user: their own settings (the state as data is a developer's, off by default)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class PageSettings(models.Model):
    """One user's settings for the pages; a user without a row has every setting at its default."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="page_settings"
    )
    developer_view = models.BooleanField(
        default=False, help_text="Show each match's state as data (JSON) at the foot of its page."
    )

    def __str__(self) -> str:
        return f"Page settings of user {self.user_id}"


def developer_view_on(user: Any) -> bool:
    """Whether ``user`` (signed in or not) turned the developer view on."""
    if not getattr(user, "is_authenticated", False):
        return False
    return PageSettings.objects.filter(user_id=user.pk, developer_view=True).exists()


def developer_view_set(user: Any, on: bool) -> None:
    """Turn ``user``'s developer view on or off."""
    PageSettings.objects.update_or_create(user_id=user.pk, defaults={"developer_view": on})

"""manage.py load_demo: a demo account and a demo match of each game (idempotent: runs once per database)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from matches.demo import DEMO_PASSWORD, DEMO_USER, load_demo


class Command(BaseCommand):
    help = "Create the demo user and one demo match of each game (skipped if the demo user exists)."

    def handle(self, *args: Any, **options: Any) -> None:
        if get_user_model().objects.filter(username=DEMO_USER).exists():
            self.stdout.write("Demo data already loaded.")
            return
        with transaction.atomic():
            created = load_demo()
        self.stdout.write(f"Demo data loaded: {', '.join(created)}. Sign in as {DEMO_USER} / {DEMO_PASSWORD}.")

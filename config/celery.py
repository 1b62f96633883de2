"""The Celery app: broker and schedule come from Django settings (CELERY_* names)."""

import os

from celery import Celery
from celery.signals import beat_init, worker_init

from config import kombu_fix

kombu_fix.apply()  # the worker must survive Redis dying while it holds unacked tasks (config/kombu_fix.py)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chronicle")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["matches.projections", "matches.interop"])  # their tasks.py (task names kept: matches.tasks.*)


@worker_init.connect
@beat_init.connect
def _refuse_misconfigured(**kwargs: object) -> None:
    """The worker and beat refuse to start where the web processes would (``config.preflight``: exit 78, since
    Celery logs and ignores a handler's ordinary exceptions)."""
    from config.preflight import refuse_misconfigured

    refuse_misconfigured()

"""The Celery app: broker and schedule come from Django settings (CELERY_* names)."""

import os
import sys

from celery import Celery
from celery.signals import beat_init, worker_init

from config import kombu_fix

EX_CONFIG = 78
kombu_fix.apply()  # the worker must survive Redis dying while it holds unacked tasks (config/kombu_fix.py)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chronicle")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["matches.projections", "matches.interop"])  # their tasks.py (task names kept: matches.tasks.*)


@worker_init.connect
@beat_init.connect
def _refuse_misconfigured(**kwargs: object) -> None:
    """The worker and beat refuse to start where the web processes would: no secret key (config.security), a
    pooler that CHRONICLE_DB_POOLER does not declare (config.db)."""
    from django.core.exceptions import ImproperlyConfigured

    from config.db import refuse_undeclared_pooler
    from config.security import require_secret_key

    try:
        require_secret_key()
        refuse_undeclared_pooler()
    except ImproperlyConfigured as exc:
        print(exc, file=sys.stderr)
        # Celery logs and ignores a handler's ordinary exceptions. 78 (EX_CONFIG): scripts/worker and the systemd
        # units do not restart a process that cannot work until someone fixes its configuration.
        raise SystemExit(EX_CONFIG) from None

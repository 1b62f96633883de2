"""A server process's start-up check, shared by the web tier (``scripts/serve`` runs ``python -m config.preflight``
before it binds a port), the Celery worker and beat (``config.celery``): a configuration that cannot work (no secret
key: ``config.security``; a connection pooler ``CHRONICLE_DB_POOLER`` does not declare: ``config.db``) makes the
process exit with status 78 (EX_CONFIG), which ``scripts/worker`` and the systemd units do not restart."""

from __future__ import annotations

import os
import sys

EX_CONFIG = 78


def refuse_misconfigured() -> None:
    """Return when the configuration can serve; else print why and raise ``SystemExit(78)``."""
    from django.core.exceptions import ImproperlyConfigured

    from config.db import refuse_undeclared_pooler
    from config.security import require_secret_key

    try:
        require_secret_key()
        refuse_undeclared_pooler()
    except ImproperlyConfigured as exc:
        print(exc, file=sys.stderr)
        raise SystemExit(EX_CONFIG) from None


if __name__ == "__main__":  # settings and a database connection only: no app is loaded (a second, not ten)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    refuse_misconfigured()

"""
ASGI config for config project.

It exposes the ASGI callable as a module-level variable named ``application``.

For more information on this file, see
https://docs.djangoproject.com/en/5.2/howto/deployment/asgi/
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

from config.db import refuse_undeclared_pooler  # noqa: E402  (settings are loaded by now)
from config.security import require_secret_key  # noqa: E402

require_secret_key()
refuse_undeclared_pooler()

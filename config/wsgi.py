"""
WSGI config for config project.

It exposes the WSGI callable as a module-level variable named ``application``.

For more information on this file, see
https://docs.djangoproject.com/en/5.2/howto/deployment/wsgi/
"""

import os

from django.core.wsgi import get_wsgi_application

from config.chunked import ChunkedBody

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = ChunkedBody(get_wsgi_application())  # a chunked request body is read, not taken as empty

from config.db import refuse_undeclared_pooler  # noqa: E402  (settings are loaded by now)
from config.security import require_secret_key  # noqa: E402

require_secret_key()
refuse_undeclared_pooler()

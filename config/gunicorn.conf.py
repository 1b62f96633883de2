"""Gunicorn settings for ``WEB_SERVER=gunicorn scripts/serve``; every value comes from the environment.

Production serves through granian (``scripts/serve``'s default, chosen by measurement: docs/PERFORMANCE.md,
``manage.py bench http``); gunicorn stays selectable so the two can be measured side by side
(``--stack gthread:2x8``). Its best configuration measured: threaded workers with keep-alive,
``WEB_CONCURRENCY`` processes of ``WEB_THREADS`` threads each.
"""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = os.environ.get("WEB_WORKER_CLASS", "gthread")
# gunicorn's native ASGI worker ("asgi") serves config.asgi; every other class serves config.wsgi
wsgi_app = "config.asgi:application" if worker_class == "asgi" else "config.wsgi:application"
threads = int(os.environ.get("WEB_THREADS", "8"))
keepalive = int(os.environ.get("WEB_KEEPALIVE", "15"))  # seconds an idle keep-alive connection stays open
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = 20
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "0"))  # 0: workers are never recycled
max_requests_jitter = max_requests // 10
# gunicorn's control socket lives at one fixed path per user: several servers on one host would fight over it
control_socket_disable = os.environ.get("WEB_CONTROL_SOCKET", "0") != "1"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
proxy_allow_ips = forwarded_allow_ips
# Requests are logged by Django (config.logs.AccessLogMiddleware, JSON with the request id); gunicorn's own
# messages go through the same JSON formatter.
accesslog = None
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logs.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
    "loggers": {
        "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "gunicorn.access": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}
if os.environ.get("CHRONICLE_LOG_FORMAT", "json") != "json":
    logconfig_dict = {}

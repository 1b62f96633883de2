"""Django settings, read from the environment (see README: Environment variables)."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """A boolean environment variable: 1/true/yes/on are true."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", False)
# Without DEBUG there is no fallback key: an unset DJANGO_SECRET_KEY stays empty, so the web and Celery
# processes refuse to start (config.security.require_secret_key) and Django refuses to sign anything.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or ("insecure-dev-key-change-me-in-production" if DEBUG else "")
ALLOWED_HOSTS = [
    h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h
]
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"  # a stale form's page says what to do
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "matches",
    "campaigns",
    "frontend",
]

MIDDLEWARE = [
    "config.logs.AccessLogMiddleware",
    "config.replica.ReplicaMiddleware",  # GET reads on the replica, a writer reads its own writes (if one is set)
    "django.middleware.security.SecurityMiddleware",
    "config.security.SecurityHeadersMiddleware",
    "config.static.StaticFilesMiddleware",  # WhiteNoise, sending collectstatic's .br/.gz copies (config/static.py)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "frontend.offline.reader.ReaderMiddleware",  # who an HTML page was drawn for, for the offline app (X-Chronicle-Reader)
    "config.middleware.TextInputMiddleware",
    "django_htmx.middleware.HtmxMiddleware",  # request.htmx: the match page answers a move in place
    "config.middleware.LazyMessageMiddleware",  # Django's, building the storage only when used
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.RequestIdMiddleware",
    "frontend.views.errors.DomainErrorPageMiddleware",  # a domain error escaping a page: its error page
    "config.middleware.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "frontend.offline.reader.reader",
            ],
        },
    },
]

# -- Database: PostgreSQL when DATABASE_URL is set, else the embedded SQLite default ----------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
# "transaction" when DATABASE_URL points at a transaction pooler (PgBouncer pool_mode = transaction), "session"
# at a session pooler, "" for a direct connection (checked: config.db refuses or runs unprepared behind a pooler)
CHRONICLE_DB_POOLER = os.environ.get("CHRONICLE_DB_POOLER", "").strip().lower()
if CHRONICLE_DB_POOLER not in {"", "transaction", "session"}:
    raise ImproperlyConfigured(
        f"CHRONICLE_DB_POOLER must be 'transaction', 'session' or empty, not {CHRONICLE_DB_POOLER!r}."
    )
if DATABASE_URL:
    # persistent connections (seconds); 0 under an ASGI server, where Django opens one per request anyway
    CONN_MAX_AGE = int(os.environ.get("CHRONICLE_DB_CONN_MAX_AGE", "60"))
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)}
    if CHRONICLE_DB_POOLER == "transaction":
        # behind PgBouncer's transaction pooling a connection's next transaction may run on another server
        # connection: no server-side prepared statements (``config.db``, psycopg) and no server-side cursors
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    # a streaming replica for the reads of GET requests (config/replica.py); optional
    DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
    if DATABASE_REPLICA_URL:
        DATABASES["replica"] = dj_database_url.parse(
            DATABASE_REPLICA_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=True
        )
        DATABASES["replica"].setdefault("OPTIONS", {})["connect_timeout"] = 2
        DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
        if CHRONICLE_DB_POOLER == "transaction":
            DATABASES["replica"]["OPTIONS"]["prepare_threshold"] = None
            DATABASES["replica"]["DISABLE_SERVER_SIDE_CURSORS"] = True
        DATABASE_ROUTERS = ["config.replica.ReplicaRouter"]
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# seconds: a replica replaying further behind is not read from; a writer's reads stay on the primary this long
# at most (until the replica has replayed its write)
CHRONICLE_REPLICA_MAX_LAG = float(os.environ.get("CHRONICLE_REPLICA_MAX_LAG", "5"))
CHRONICLE_REPLICA_RYW_SECONDS = float(os.environ.get("CHRONICLE_REPLICA_RYW_SECONDS", "30"))

# a recorder's match page fetches the offline engine's files (about 12 MB, once per phone) after a few seconds
# open, and then starts the engine at idle (docs/ARCHITECTURE.md › Offline); off: only a page that loses the
# network (or a match started offline) fetches and starts it
CHRONICLE_OFFLINE_PREFETCH = env_bool("CHRONICLE_OFFLINE_PREFETCH", True)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "config.static.CompressedStorage"},  # .br and .gz beside each collected file
}
WHITENOISE_USE_FINDERS = True  # a file not collected (or changed since) is served from its app (config/static.py)
# Not compressed by collectstatic: WhiteNoise's list (images, archives, fonts, video) and source maps (never sent
# to a phone; 6.5 MB of the API docs' bundles that would cost Brotli seconds at each deployment).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# -- Photos of the table (matches/photos; README: Photos) ------------------------------------------------
# Stored through Django's storage API: the filesystem under MEDIA_ROOT by default, any S3-compatible store with
# CHRONICLE_S3_BUCKET (django-storages). Never served as static or media files: only through the app, to a
# reader who may see the match (MEDIA_URL stays unset on purpose).
MEDIA_ROOT = os.environ.get("CHRONICLE_MEDIA_ROOT") or str(BASE_DIR / "media")
if os.environ.get("CHRONICLE_S3_BUCKET"):
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["CHRONICLE_S3_BUCKET"],
            "endpoint_url": os.environ.get("CHRONICLE_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("CHRONICLE_S3_REGION") or None,
            "access_key": os.environ.get("CHRONICLE_S3_ACCESS_KEY_ID") or None,
            "secret_key": os.environ.get("CHRONICLE_S3_SECRET_ACCESS_KEY") or None,
            "location": os.environ.get("CHRONICLE_S3_PREFIX", ""),
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
CHRONICLE_PHOTO_MAX_BYTES = int(os.environ.get("CHRONICLE_PHOTO_MAX_BYTES", 20 * 1024 * 1024))
CHRONICLE_PHOTO_MAX_PIXELS = int(os.environ.get("CHRONICLE_PHOTO_MAX_PIXELS", 60_000_000))
CHRONICLE_PHOTOS_PER_ENTRY = int(os.environ.get("CHRONICLE_PHOTOS_PER_ENTRY", 6))
# what one decode may take in memory (matches/photos/processing.py); a picture needing more is refused
CHRONICLE_PHOTO_MAX_DECODED_BYTES = int(os.environ.get("CHRONICLE_PHOTO_MAX_DECODED_BYTES", 100 * 1024 * 1024))
# the photo bytes an account may keep stored (files not deleted, whatever entry shows them): about 1,000 photos
CHRONICLE_PHOTO_QUOTA_BYTES = int(os.environ.get("CHRONICLE_PHOTO_QUOTA_BYTES", 300 * 1024 * 1024))

# Sign-in throttling per account and per address, with a cool-off (config/auth.py).
AUTHENTICATION_BACKENDS = ["config.auth.ThrottledModelBackend"]
CHRONICLE_LOGIN_FAILURES = int(os.environ.get("CHRONICLE_LOGIN_FAILURES", "5"))
CHRONICLE_LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("CHRONICLE_LOGIN_FAILURES_PER_ADDRESS", "30"))
CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("CHRONICLE_LOGIN_FAILURES_PER_ACCOUNT", "100"))
CHRONICLE_LOGIN_COOL_OFF = int(os.environ.get("CHRONICLE_LOGIN_COOL_OFF", "900"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Request bodies: the API never needs more than this; bigger bodies are refused with 413/400.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("CHRONICLE_MAX_BODY", 256 * 1024))
# Play-log imports (matches/interop): the import endpoints stream their body to a file, past CHRONICLE_MAX_BODY
# up to this size; uploads wait in CHRONICLE_IMPORT_DIR (default: the system's temp folder) for the job, which
# runs in the request up to CHRONICLE_IMPORT_INLINE_BYTES, else on a worker, CHRONICLE_IMPORT_BATCH plays a
# transaction, waking the projectors every CHRONICLE_IMPORT_PROJECT_EVERY plays and at the end.
CHRONICLE_IMPORT_MAX_BYTES = int(os.environ.get("CHRONICLE_IMPORT_MAX_BYTES", 100 * 1024 * 1024))
CHRONICLE_IMPORT_DIR = os.environ.get("CHRONICLE_IMPORT_DIR", "")
CHRONICLE_IMPORT_INLINE_BYTES = int(os.environ.get("CHRONICLE_IMPORT_INLINE_BYTES", 1024 * 1024))
CHRONICLE_IMPORT_BATCH = int(os.environ.get("CHRONICLE_IMPORT_BATCH", 500))
CHRONICLE_IMPORT_PROJECT_EVERY = int(os.environ.get("CHRONICLE_IMPORT_PROJECT_EVERY", 5000))  # plays between wake-ups

# -- Redis, Celery ------------------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a task lost with its worker is redelivered; projectors are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Publishing must never hold up an append: no retries, short timeouts (the beat catch-up covers gaps).
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, "max_retries": 0}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost the broker keeps reconnecting however long Redis is down (Celery's default gives up after
# 100 attempts and exits); scripts/worker restarts a worker that exits anyway (docs/ARCHITECTURE.md).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# reconnect every second, one log line per outage (config/broker.py)
CELERY_WORKER_CONSUMER = "config.broker:Consumer"
CELERY_BEAT_SCHEDULER = "config.broker:Scheduler"
CELERY_BEAT_SCHEDULE = {
    "projections-catch-up": {"task": "matches.tasks.projections_catch_up", "schedule": 15.0},
}
# Minimum seconds between two projector wake-ups sent by one process (appends in between are covered
# by the wake-up already queued, which runs after its countdown).
CHRONICLE_WAKE_WINDOW = float(os.environ.get("CHRONICLE_WAKE_WINDOW", "0.25"))
# A transaction left open in this database holds the global-log reader back (its rows could be events); events
# held back longer than this (seconds) are projected per stream meanwhile (matches.projections; 0: never).
CHRONICLE_PROJECTOR_STALL_BOUND = float(os.environ.get("CHRONICLE_PROJECTOR_STALL_BOUND", "2"))
# /healthz says "degraded" when the oldest event the projector has not read is older than this (seconds)
CHRONICLE_HEALTH_MAX_LAG = float(os.environ.get("CHRONICLE_HEALTH_MAX_LAG", "60"))

if REDIS_URL:
    CACHES = {  # degrades to a per-process cache while Redis is unreachable (config/cache.py)
        "default": {
            "BACKEND": "config.cache.FailSafeRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# -- The live table (frontend/views/live.py, config/asgi.py) ------------------------------------------------
# a watching page's stream ends after this many seconds and the browser reconnects from its last entry (bounds how
# long a deploy's old process is held, and re-reads the reader's session)
CHRONICLE_LIVE_MAX_SECONDS = float(os.environ.get("CHRONICLE_LIVE_MAX_SECONDS", "300"))
# the paths config.asgi serves with Django's async handler (long-lived streams); every other path runs the WSGI
# application on a pool of WEB_THREADS threads, as granian's WSGI interface did (docs/PERFORMANCE.md)
CHRONICLE_ASYNC_PATHS = [r"^/matches/\d+/live/$"]

# -- Event store --------------------------------------------------------------------------------------
CHRONICLE_SNAPSHOT_EVERY = int(os.environ.get("CHRONICLE_SNAPSHOT_EVERY", "100"))
CHRONICLE_HEAD_CACHE_SIZE = int(os.environ.get("CHRONICLE_HEAD_CACHE_SIZE", "2048"))

# -- REST framework -----------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.authentication.FastTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": ["config.api.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 25,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["config.api.ApiThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("CHRONICLE_THROTTLE_ANON", "120/min"),
        "user": os.environ.get("CHRONICLE_THROTTLE_USER", "1200/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # the client's address is the connection's unless a proxy is trusted (config.throttling.client_address):
    # DJANGO_NUM_PROXIES hops of X-Forwarded-For, or the proxies listed in DJANGO_TRUSTED_PROXIES
    "NUM_PROXIES": int(os.environ.get("DJANGO_NUM_PROXIES", "0") or 0),
}
# addresses or networks (comma-separated) of the reverse proxies whose X-Forwarded-For is believed
CHRONICLE_TRUSTED_PROXIES = [a.strip() for a in os.environ.get("DJANGO_TRUSTED_PROXIES", "").split(",") if a.strip()]
# sign-ups per address (frontend/views/accounts.py › signup): a club evening behind one Wi-Fi never meets it
CHRONICLE_SIGNUPS_PER_ADDRESS = int(os.environ.get("CHRONICLE_SIGNUPS_PER_ADDRESS", "20"))
CHRONICLE_SIGNUP_WINDOW = int(os.environ.get("CHRONICLE_SIGNUP_WINDOW", "3600"))
SPECTACULAR_SETTINGS = {
    "TITLE": "Chronicle API",
    "DESCRIPTION": "Record tabletop games as immutable events; every move checked against the game's rules.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "OAS_VERSION": "3.1.0",  # JSON Schema proper: the games' payload schemas (rulesets.schema) are written in it
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.add_common_responses",
        "matches.api.openapi.add_entry_schemas",  # each game's entries, and the links between operations
    ],
}

# Logs: JSON lines with the request id (config/logs.py), or plain text with CHRONICLE_LOG_FORMAT=text;
# one access line per request at INFO unless CHRONICLE_ACCESS_LOG=0.
LOG_FORMAT = os.environ.get("CHRONICLE_LOG_FORMAT", "text" if DEBUG else "json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "config.logs.JsonFormatter"},
        "text": {"format": "%(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        "chronicle.access": {"level": "INFO" if env_bool("CHRONICLE_ACCESS_LOG", True) else "WARNING"},
    },
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # the worker logs through LOGGING too

# -- HTTPS hardening (README › Running for real): DJANGO_HTTPS=1 turns all of it on; each can be overridden --
HTTPS = env_bool("DJANGO_HTTPS", False)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", HTTPS)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", str(365 * 24 * 3600 if HTTPS else 0)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", HTTPS)
# behind a TLS-terminating proxy: "HTTP_X_FORWARDED_PROTO,https" (only if the proxy always sets that header)
_PROXY_SSL_HEADER = os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER", "")
SECURE_PROXY_SSL_HEADER = tuple(_PROXY_SSL_HEADER.split(",", 1)) if _PROXY_SSL_HEADER else None
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

"""API rate limits in one Redis round trip: a sliding-window counter per client, with DRF's throttles behind it.

DRF's ``SimpleRateThrottle`` keeps each client's request timestamps in the cache: a read and a write per
request, each unpickling and pickling the whole history (up to a minute of requests), plus a fresh Redis
client object per cache call, for each of the API's throttles (an anonymous request meets two: DRF applies
the per-user limit to it too, by address). Here a request costs at most one round trip on a client kept per
process, whatever the number of limits: one Lua script (``EVALSHA``) takes from each limit's counter for this
window, sets its expiry and reads the previous window's counter; per limit, the estimate ``previous ×
(1 − elapsed/duration) + current`` (the sliding-window approximation) must stay within the limit. A refused
request is not counted, so refusals do not use up the budget. A large limit is taken a few requests at a time
(a lease, spent by the process without a round trip; see ``lease_size``).

Where the cache is not Redis (the embedded default) or Redis cannot be reached, the DRF throttle behind it
decides, through the cache (which degrades to per-process counters on an outage; see ``config.cache``).
After a failure the fast path rests for ``RETRY_SECONDS`` so an outage costs no extra connection attempts.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache

from config.outage import redis_outage

RETRY_SECONDS = 5.0


# -- who the client is: its address ------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(ipaddress.ip_network(t.strip(), strict=False) for t in trusted if t.strip())


def _trusted(address: str, networks: tuple[Any, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(request: Any) -> str:
    """The client's address, the one every limit counts by (DRF's throttles, sign-in, sign-up).

    The connection's ``REMOTE_ADDR``, unless a trusted proxy is configured (README › Running for real):

    - ``CHRONICLE_TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``: addresses or networks): when the connection
      comes from one of them, ``X-Forwarded-For`` is read from the right, skipping trusted hops, and the first
      address that is not a trusted proxy is the client;
    - else ``NUM_PROXIES`` (DRF's setting, ``DJANGO_NUM_PROXIES``): the address that many hops from the right
      of ``X-Forwarded-For``, as DRF reads it.

    With neither, ``X-Forwarded-For`` changes nothing (a made-up header is no new identity)."""
    if request is None:
        return ""
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR") or "")
    forwarded = [a.strip() for a in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if a.strip()]
    networks = _networks(tuple(getattr(settings, "CHRONICLE_TRUSTED_PROXIES", ()) or ()))
    if networks:
        if not _trusted(remote, networks):
            return remote
        for hop in reversed(forwarded):
            if not _trusted(hop, networks):
                return hop
        return forwarded[0] if forwarded else remote
    hops = int(settings.REST_FRAMEWORK.get("NUM_PROXIES") or 0)
    if hops > 0 and forwarded:
        return forwarded[-min(hops, len(forwarded))]
    return remote


def address_limit(key: str, limit: int, seconds: int) -> float:
    """Count one action for ``key`` (an address's sign-ups...) against ``limit`` per ``seconds``; 0 when
    allowed, else the seconds to wait (the refused action is not counted). On the Redis window counters, else
    on the cache (a fixed window from the first action)."""
    hit = window_hit(key, limit, float(seconds))
    if hit is not None:
        return 0.0 if hit[0] else max(1.0, hit[1])
    name = f"limit:{key}"
    if int(cache.get(name, 0)) >= limit:
        return float(seconds)
    cache.add(name, 0, timeout=seconds)
    try:
        cache.incr(name)
    except ValueError:  # expired between add and incr: a new window
        cache.set(name, 1, timeout=seconds)
    return 0.0


def signup_limited(request: Any) -> int:
    """Count one sign-up from the client's address; the seconds to wait when that address made
    ``CHRONICLE_SIGNUPS_PER_ADDRESS`` accounts within ``CHRONICLE_SIGNUP_WINDOW`` seconds already (0: go on)."""
    key = f"signup:{client_address(request)}"
    return int(address_limit(key, settings.CHRONICLE_SIGNUPS_PER_ADDRESS, settings.CHRONICLE_SIGNUP_WINDOW))


_lock = threading.Lock()
_clients: dict[str, Any] = {}
_down_until = 0.0


def redis_client() -> Any | None:
    """A Redis client for the default cache's server, kept per process; None if the cache is not Redis."""
    config = settings.CACHES.get("default", {})
    if "redis" not in config.get("BACKEND", "").lower() or time.monotonic() < _down_until:
        return None
    location = config["LOCATION"]
    client = _clients.get(location)
    if client is None:
        import redis

        options = config.get("OPTIONS", {})
        client = redis.Redis.from_url(
            location,
            socket_timeout=options.get("socket_timeout", 0.5),
            socket_connect_timeout=options.get("socket_connect_timeout", 0.5),
        )
        with _lock:
            _clients[location] = client
    return client


# For each (current, previous) pair of keys, with ARGV (expiry, wanted, limit, weight of the previous window):
# take up to ``wanted`` requests from this window's counter, as many as the sliding-window estimate leaves
# room for (``limit - previous × weight - current``), and give the rest back. Returns, per limit, (granted,
# this window's count, the previous window's count). Every limit of a request in one command, one round trip.
_TAKE = """
local out = {}
for i = 1, #KEYS, 2 do
  local a = (i - 1) * 2
  local wanted = tonumber(ARGV[a + 2])
  local current = redis.call('INCRBY', KEYS[i], wanted)
  redis.call('EXPIRE', KEYS[i], ARGV[a + 1])
  local previous = tonumber(redis.call('GET', KEYS[i + 1]) or '0')
  local room = math.floor(tonumber(ARGV[a + 3]) - previous * tonumber(ARGV[a + 4]) - (current - wanted))
  local granted = math.max(0, math.min(wanted, room))
  if granted < wanted then current = redis.call('DECRBY', KEYS[i], wanted - granted) end
  out[#out + 1] = granted
  out[#out + 1] = current
  out[#out + 1] = previous
end
return out
"""
_scripts: dict[tuple[int, str], Any] = {}


def redis_script(client: Any, source: str) -> Any:
    """The Lua ``source`` registered on ``client``, kept per process (sent by its SHA; loaded again if the
    server lost it)."""
    script = _scripts.get((id(client), source))
    if script is None:
        script = _scripts[(id(client), source)] = client.register_script(source)
    return script


def window_hit(key: str, limit: int, duration: float, now: float | None = None) -> tuple[bool, float] | None:
    """Count one request for ``key``; ``(allowed, seconds to wait if refused)``, or None without Redis."""
    hits = window_hits([(key, limit, duration)], now=now)
    return None if hits is None else hits[0]


# Leases: a process takes requests from a large limit a few at a time (one round trip per lease instead of
# one per request) and spends them locally within the window. The counters never let more requests through
# than the limit; requests leased but not spent by the end of a window are lost to that client (at most one
# lease per process and limit: ``LEASE_MAX`` requests, 1/``LEASE_SHARE`` of the limit). Limits under
# ``2 × LEASE_SHARE`` per window lease one request at a time: counted exactly, as before leases.
LEASE_SHARE = 50
LEASE_MAX = 20
LEASES_KEPT = 10_000
_leases: OrderedDict[tuple[str, int, float], tuple[int, int]] = OrderedDict()  # limit → (window, requests left)


def lease_size(limit: int) -> int:
    """How many requests of a ``limit`` a process takes from the shared counter at a time."""
    return max(1, min(LEASE_MAX, limit // LEASE_SHARE))


def _spend_lease(key: tuple[str, int, float], window: int) -> bool:
    """Spend one request of this process's lease on the limit ``key`` in ``window``; False if none is left."""
    with _lock:
        held = _leases.get(key)
        if held is None or held[0] != window or held[1] < 1:
            return False
        _leases[key] = (window, held[1] - 1)
        return True


def _keep_lease(key: tuple[str, int, float], window: int, left: int) -> None:
    with _lock:
        _leases[key] = (window, left)
        _leases.move_to_end(key)
        while len(_leases) > LEASES_KEPT:
            _leases.popitem(last=False)


def window_hits(
    limits: list[tuple[str, int, float]], now: float | None = None
) -> list[tuple[bool, float]] | None:  # fmt: skip
    """Count one request against each ``(key, limit, duration)``, in at most one round trip (none while this
    process holds a lease on every limit); per limit ``(allowed, seconds to wait if refused)``, or None without
    Redis. A limit that refuses does not count the request."""
    global _down_until
    client = redis_client()
    if client is None:
        return None
    now = time.time() if now is None else now
    results: list[tuple[bool, float]] = [(True, 0.0)] * len(limits)
    asked, keys, args = [], [], []
    for i, (key, limit, duration) in enumerate(limits):
        window = int(now // duration)
        if _spend_lease((key, limit, duration), window):
            continue
        elapsed = now - window * duration
        asked.append((i, window, elapsed))
        keys += [f"rl:{key}:{window}", f"rl:{key}:{window - 1}"]
        args += [int(duration * 2) + 1, lease_size(limit), limit, f"{1 - elapsed / duration:.6f}"]
    if not asked:
        return results
    outage = redis_outage(settings.CACHES["default"]["LOCATION"])
    try:
        counts = redis_script(client, _TAKE)(keys=keys, args=args)
    except Exception as exc:  # unreachable or failing Redis: the cache-backed throttle decides meanwhile
        _down_until = time.monotonic() + RETRY_SECONDS
        outage.failed(exc, "rate-limit counters")  # logged once per outage (config.outage)
        return None
    outage.succeeded()
    for n, (i, window, elapsed) in enumerate(asked):
        granted, current, previous = (int(v or 0) for v in counts[3 * n : 3 * n + 3])
        key, limit, duration = limits[i]
        if granted:
            if granted > 1:
                _keep_lease((key, limit, duration), window, granted - 1)
            continue
        current += 1  # as if this request had been counted
        if current > limit or previous == 0:
            results[i] = (False, duration - elapsed)
        else:  # wait until the previous window's share has decayed enough for one more request
            results[i] = (False, max(0.0, duration * (1 - (limit - current + 1) / previous) - elapsed) or 1.0)
    return results


class WindowThrottle:
    """DRF throttle checking several DRF ``SimpleRateThrottle`` limits (``limits``) on the Redis window counters
    in one round trip; without Redis each of those DRF throttles decides through the cache, as DRF would.

    A request is refused when any limit refuses it; it is told to wait for the longest of those refusals.
    """

    limits: tuple[type[Any], ...] = ()
    _wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        keyed = []
        for throttle in (cls() for cls in self.limits):
            key = throttle.get_cache_key(request, view) if throttle.rate is not None else None
            if key is not None:
                keyed.append((throttle, key))
        if not keyed:
            return True
        hits: list[tuple[bool, float | None]] | None
        hits = window_hits([(key, t.num_requests, float(t.duration)) for t, key in keyed])  # type: ignore[assignment]
        if hits is None:
            hits = [(True, None) if t.allow_request(request, view) else (False, t.wait()) for t, _ in keyed]
        refusals = [wait for allowed, wait in hits if not allowed]
        self._wait = max((w for w in refusals if w is not None), default=None)
        return not refusals

    def wait(self) -> float | None:
        return self._wait

"""Celery tasks: run the projectors (woken after commits, and periodically by beat as a fallback)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from matches.projections import PROJECTORS, project_with_read_ahead


@shared_task(name="matches.tasks.project_all", ignore_result=True)
def project_all() -> int:
    """Project every pending event into every read model; returns how many events were read.

    Events held back behind a long transaction in this database are projected per stream once they have
    waited ``CHRONICLE_PROJECTOR_STALL_BOUND`` seconds; when some are still younger, one run is scheduled for
    when they are due (one across all workers), so the bound holds even when no append wakes the projector.
    """
    done, due = project_with_read_ahead(*PROJECTORS)
    if due is not None and not settings.CELERY_TASK_ALWAYS_EAGER:  # eager: no worker to run it later (the
        _run_again_in(due)  # next append will)
    return done


# SET NX PX; when the key is taken, its remaining milliseconds instead (-1: claimed; -2: it just expired)
_CLAIM = """
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return -1 end
return redis.call('PTTL', KEYS[1])
"""


def _slot_claim(key: str, ms: int) -> float:
    """Claim ``key`` for ``ms`` milliseconds across all processes (Redis); 0.0 when this caller got it (always,
    without Redis), else the seconds until whoever holds it lets go. Redis errors propagate: each caller
    decides what a failure means."""
    from config.outage import redis_outage
    from config.throttling import redis_client, redis_script

    client = redis_client()
    if client is None:
        return 0.0
    outage = redis_outage(settings.CACHES["default"]["LOCATION"])
    try:
        left = int(redis_script(client, _CLAIM)(keys=[key], args=[ms]))
    except Exception as exc:
        outage.failed(exc, "projector slot")  # logged once per outage (config.outage)
        raise
    outage.succeeded()
    return left / 1000 if left > 0 else 0.0  # just expired (-2): as good as claimed


def _run_again_in(seconds: float) -> None:
    """Schedule one more ``project_all`` in ``seconds``, unless another worker has one scheduled already."""
    from config.outage import redis_outage

    countdown = seconds + 0.05
    try:
        if _slot_claim("chronicle:projector-due", int(countdown * 1000)):
            return  # another worker has the follow-up scheduled
    except Exception:  # Redis down (reported by the claim): the beat catch-up runs it
        return
    outage = redis_outage(settings.CELERY_BROKER_URL)
    try:
        project_all.apply_async(countdown=countdown)
    except Exception as exc:  # the broker down: the beat catch-up runs it
        outage.failed(exc, "projector follow-up not scheduled")  # logged once per outage (config.outage)
    else:
        outage.succeeded()


@shared_task(name="matches.tasks.projections_catch_up", ignore_result=True)
def projections_catch_up() -> int:
    """The beat fallback: same as ``project_all``; catches up whatever a lost wake-up left behind."""
    return project_all()


def wake_slot_claim(window: float) -> float:
    """Claim the projector wake-up of the current ``window`` across all processes (a Redis slot).

    0.0: this process has it and sends the wake-up, with ``window`` as countdown. Otherwise the seconds until
    the run another process has scheduled, which starts after any commit made before then: the caller
    needs no wake-up of its own until that time. Without Redis, or when Redis fails, every process claims
    (a redundant run is harmless).
    """
    try:
        return _slot_claim("chronicle:projector-wake", max(1, int(window * 1000)))
    except Exception:  # Redis trouble: send the wake-up anyway
        return 0.0


from matches.interop import tasks as _interop_tasks  # noqa: E402, F401  (the import job's task, registered here)

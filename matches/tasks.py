"""Celery tasks: run the projectors (woken after commits, and periodically by beat as a fallback)."""

from __future__ import annotations

from celery import shared_task

from matches.projections import PROJECTORS, project


@shared_task(name="matches.tasks.project_all", ignore_result=True)
def project_all() -> int:
    """Project every pending event into every read model; returns how many events were read."""
    return sum(project(name) for name in PROJECTORS)


@shared_task(name="matches.tasks.projections_catch_up", ignore_result=True)
def projections_catch_up() -> int:
    """The beat fallback: same as ``project_all``; catches up whatever a lost wake-up left behind."""
    return project_all()


def wake_slot_claim(window: float) -> bool:
    """Claim the projector wake-up of the current ``window`` for this process, across all processes.

    A Redis ``SET NX PX``: the first process to ask in a window sends the wake-up (with that countdown, so the
    run starts after every commit that found the slot taken); the others rely on it. Without Redis, or when
    Redis fails, every process claims (a redundant run is harmless).
    """
    from config.throttling import redis_client

    client = redis_client()
    if client is None:
        return True
    try:
        return bool(client.set("chronicle:projector-wake", 1, nx=True, px=max(1, int(window * 1000))))
    except Exception:  # Redis trouble: send the wake-up anyway
        return True

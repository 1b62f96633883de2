"""What a web process does when its server says it is stopping (ASGI ``lifespan.shutdown``, ``config.asgi``): the
hooks registered here run, on the server's event loop (the live table ends its streams, so a graceful stop or a
deploy is not held up by pages that would otherwise wait forever; they reconnect to the next process)."""

from __future__ import annotations

from collections.abc import Callable

_HOOKS: list[Callable[[], None]] = []


def on_shutdown(hook: Callable[[], None]) -> None:
    """Run ``hook`` when this process is told to stop (once; on the event loop)."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)


def shutdown() -> None:
    """Run every registered hook (``config.asgi`` calls this on ``lifespan.shutdown``)."""
    for hook in list(_HOOKS):
        hook()

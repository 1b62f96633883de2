"""Python's cyclic garbage collector paused around one bounded batch of work.

A projector batch (5,000 log entries) or an import batch allocates hundreds of thousands of small containers
(decoded events, states, rows) that live until the batch ends. Each allocation burst triggers the collector,
which then walks every young object again and again while none of them is garbage yet: on ``bench import`` it
was about a third of the projectors' Python CPU. Reference counting still frees everything that is not in a
cycle; the few cycles a batch makes are collected by the next collection after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the body with automatic garbage collection off, then restore it as it was (also on an error).

    Only for work whose size is bounded (one batch): memory held in cycles grows until the body ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

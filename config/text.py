"""Text that can never be stored: NUL characters and unpaired UTF-16 surrogates, refused at the edge.

PostgreSQL rejects both (``text`` cannot hold U+0000; JSON cannot hold a lone surrogate), and neither is ever
meant by a person at a table, so every text a request carries (query strings, form fields, JSON bodies, JSON
pasted into forms) is checked before it reaches a service.
"""

from __future__ import annotations

import re
from typing import Any

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

PROBLEM = "Text may not contain NUL characters (U+0000) or unpaired surrogates (U+D800 to U+DFFF)."


def is_unstorable(text: str) -> bool:
    """True when ``text`` holds a NUL character or an unpaired surrogate."""
    return _UNSTORABLE.search(text) is not None


def unstorable_path(value: Any, path: str = "") -> str | None:
    """The path (``data.cards[2].name``) of the first unstorable string in parsed JSON, keys included; or None.

    Iterative, so no nesting depth can exhaust the stack. ``path`` names the root (``""`` for a body).
    """
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if is_unstorable(item):
                return where or "body"
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and is_unstorable(key):
                    return where or "body"
                stack.append((child, child_path))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{i}]") for i, child in enumerate(item))
    return None

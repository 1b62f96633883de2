"""Reading a rendered board partial in tests: its POST forms, links and classed elements."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class BoardPage(HTMLParser):
    """Forms (hidden fields, buttons), links, every button, and elements collected by CSS class.

    ``collect`` maps an attribute name to ``(tag, css class)``: the attributes of matching start tags are
    appended to the list ``page.<name>``.
    """

    def __init__(self, collect: dict[str, tuple[str, str]] | None = None) -> None:
        super().__init__()
        self.collect = collect or {}
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self.links: list[dict[str, str]] = []
        self.all_buttons: list[dict[str, str]] = []
        for key in self.collect:
            setattr(self, key, [])

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        if tag == "form":
            self._form = {"attrs": a, "hidden": {}, "buttons": []}
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None and a.get("type") == "hidden":
            self._form["hidden"][a["name"]] = a.get("value", "")
        elif tag == "button":
            self.all_buttons.append(a)
            if self._form is not None:
                self._form["buttons"].append(a)
        elif tag == "a":
            self.links.append(a)
        for key, (want_tag, css) in self.collect.items():
            if tag == want_tag and css in classes:
                getattr(self, key).append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None

    def board_form(self, css: str) -> dict[str, Any] | None:
        """The one form with class ``css`` (the board's), or None."""
        forms = [f for f in self.forms if css in f["attrs"].get("class", "").split()]
        assert len(forms) <= 1
        return forms[0] if forms else None


def parse_board(html: str, collect: dict[str, tuple[str, str]]) -> BoardPage:
    """Parse ``html`` collecting the ``collect`` elements."""
    page = BoardPage(collect)
    page.feed(html)
    return page

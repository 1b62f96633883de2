"""Get Salty geometry: tokens, adjacency, play-area limits, contiguity and winning lines."""

from __future__ import annotations

from typing import Any

Cell = tuple[int, int]

SHAPES: tuple[str, ...] = ("circle", "square", "triangle")
COLORS: tuple[str, ...] = ("red", "yellow", "blue")
ATTRIBUTES: tuple[str, ...] = ("shape", "color")
CRACKERS: tuple[str, ...] = tuple(f"{s}-{c}" for s in SHAPES for c in COLORS)
CONTAINER = "container"
TOKENS: tuple[str, ...] = (CONTAINER, *CRACKERS)

MAX_SPAN = 4  # "The play area may never be larger than 4 tokens in either orthogonal direction."
COORD_LIMIT = 1000  # the API's cell bound; the group may drift, never past it

ORTHOGONAL: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
LINE_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
LINE_KIND: dict[Cell, str] = {(1, 0): "row", (0, 1): "column", (1, 1): "diagonal", (1, -1): "diagonal"}

# name -> (shape, color)
CRACKER_ATTRS: dict[str, tuple[str, str]] = {f"{s}-{c}": (s, c) for s in SHAPES for c in COLORS}
VALUES: dict[str, tuple[str, ...]] = {"shape": SHAPES, "color": COLORS}
# The rulebook's words for a form's options: "Red circle", "Shape" (a match's own display names are its own)
CRACKER_WORDS: tuple[str, ...] = tuple(f"{CRACKER_ATTRS[n][1].capitalize()} {CRACKER_ATTRS[n][0]}" for n in CRACKERS)
ATTRIBUTE_WORDS: tuple[str, ...] = ("Shape", "Color")


def neighbours(cell: Cell) -> list[Cell]:
    """The four orthogonally adjacent cells."""
    x, y = cell
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def components(cells: set[Cell]) -> list[set[Cell]]:
    """The orthogonally connected groups of ``cells``."""
    left = set(cells)
    groups: list[set[Cell]] = []
    while left:
        start = left.pop()
        group = {start}
        stack = [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def span_ok(cells: list[Cell] | set[Cell]) -> bool:
    """True when the bounding box of ``cells`` is at most MAX_SPAN wide and tall."""
    if not cells:
        return True
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    return max(xs) - min(xs) < MAX_SPAN and max(ys) - min(ys) < MAX_SPAN


def on_table(cell: Cell) -> bool:
    return abs(cell[0]) <= COORD_LIMIT and abs(cell[1]) <= COORD_LIMIT


class Placement:
    """Where one token may be put down, given the tokens in play (``occupied``: cell → name).

    The moving token is lifted from ``from_cell`` first (None: it comes from the reserve), so it never
    counts as its own neighbour. A destination must be: a different cell from where it was, empty,
    orthogonally adjacent to another token in play, keep the play area within 4 × 4, and leave every
    token in one orthogonally connected group.
    """

    __slots__ = ("comp_of", "from_cell", "max_x", "max_y", "min_x", "min_y", "n_comps", "others")

    def __init__(self, occupied: dict[Cell, str], from_cell: Cell | None) -> None:
        others = set(occupied)
        others.discard(from_cell)  # type: ignore[arg-type]
        self.others = others
        self.from_cell = from_cell
        comps = components(others)
        self.n_comps = len(comps)
        self.comp_of: dict[Cell, int] = {c: i for i, group in enumerate(comps) for c in group}
        if others:
            xs = [c[0] for c in others]
            ys = [c[1] for c in others]
            self.min_x, self.max_x, self.min_y, self.max_y = min(xs), max(xs), min(ys), max(ys)
        else:
            self.min_x = self.max_x = self.min_y = self.max_y = 0

    def problem(self, to: Cell) -> str | None:
        """None when ``to`` is a legal destination, else a violation code."""
        if not on_table(to):
            return "invalid_cell"
        if to == self.from_cell:
            return "same_cell"
        if to in self.others:
            return "cell_occupied"
        touching = {self.comp_of[n] for n in neighbours(to) if n in self.comp_of}
        if not touching:
            return "not_adjacent"
        x, y = to
        if max(self.max_x, x) - min(self.min_x, x) >= MAX_SPAN or max(self.max_y, y) - min(self.min_y, y) >= MAX_SPAN:
            return "play_area_too_large"
        if len(touching) < self.n_comps:
            return "not_contiguous"
        return None

    def cells(self) -> list[Cell]:
        """Every legal destination, sorted."""
        seen: set[Cell] = set()
        out: list[Cell] = []
        for c in self.others:
            for n in neighbours(c):
                if n not in seen:
                    seen.add(n)
                    if self.problem(n) is None:
                        out.append(n)
        out.sort()
        return out

    def any_cell(self) -> bool:
        """True when at least one legal destination exists."""
        for c in self.others:
            for n in neighbours(c):
                if self.problem(n) is None:
                    return True
        return False


def winning_combinations(occupied: dict[Cell, str], wildcard: bool) -> list[dict[str, Any]]:
    """Every winning combination on the table.

    A combination is a maximal run of 3 or more consecutive tokens along a row, a column or a diagonal
    whose crackers all share one attribute value; the Salt Container never matches unless ``wildcard``
    (the reserve is empty), then it matches every value. A run of 4 is one combination. Each item:
    ``{"attribute", "value", "kind" (row/column/diagonal), "cells": [[x, y], ...]}``, ordered by
    direction (rows, columns, diagonals), then by first cell, then attribute and value.
    """
    found: list[tuple[int, Cell, int, int, dict[str, Any]]] = []
    for di, (dx, dy) in enumerate(LINE_DIRECTIONS):
        kind = LINE_KIND[(dx, dy)]
        for start in occupied:
            if (start[0] - dx, start[1] - dy) in occupied:
                continue
            segment = [start]
            nxt = (start[0] + dx, start[1] + dy)
            while nxt in occupied:
                segment.append(nxt)
                nxt = (nxt[0] + dx, nxt[1] + dy)
            if len(segment) < 3:
                continue
            names = [occupied[c] for c in segment]
            for ai, attr in enumerate(ATTRIBUTES):
                # None marks the container: it matches every value when wild, none otherwise
                values = [None if n == CONTAINER else CRACKER_ATTRS[n][ai] for n in names]
                for value in set(values):
                    if value is None:
                        continue
                    run: list[Cell] = []
                    for cell, v in [*zip(segment, values, strict=True), (None, "")]:
                        if v == value or (v is None and wildcard):
                            run.append(cell)  # type: ignore[arg-type]
                            continue
                        if len(run) >= 3:
                            combo = {"attribute": attr, "value": value, "kind": kind, "cells": [list(c) for c in run]}
                            found.append((di, run[0], ai, VALUES[attr].index(value), combo))
                        run = []
    found.sort(key=lambda f: f[:4])
    return [f[4] for f in found]

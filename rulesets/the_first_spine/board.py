"""Board geometry: where each seat sits and stands its wizard, and how a card's sides map to directions.

Cells are ``[row, col]`` from the top-left. Directions: ``N`` (row - 1), ``E`` (col + 1), ``S``, ``W``.
A card's front faces away from its controller's end of the board; its right is its controller's right.
"""

from __future__ import annotations

from rulesets.the_first_spine.cards import SIDES

Cell = tuple[int, int]

DIRS: dict[str, Cell] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
CLOCKWISE: tuple[str, ...] = ("N", "E", "S", "W")
# Seats sit around the board clockwise: 2 players bottom and top; 3-4 players bottom, left, top, right.
ENDS: dict[int, tuple[str, ...]] = {
    2: ("bottom", "top"),
    3: ("bottom", "left", "top"),
    4: ("bottom", "left", "top", "right"),
}
FACING: dict[str, str] = {"bottom": "N", "left": "E", "top": "S", "right": "W"}
# Degrees a card is turned when drawn (0: its front points up the page).
ROTATION: dict[str, int] = {"N": 0, "E": 90, "S": 180, "W": 270}


def end_of(seat: int, seat_count: int) -> str:
    """The board edge ``seat`` sits at."""
    return ENDS[seat_count][seat]


def wizard_cell(end: str, rows: int, cols: int) -> Cell:
    """The centre of the end row/column closest to the player at ``end``."""
    return {
        "bottom": (rows - 1, cols // 2),
        "top": (0, cols // 2),
        "left": (rows // 2, 0),
        "right": (rows // 2, cols - 1),
    }[end]


def side_direction(facing: str, side: str) -> str:
    """The board direction a card facing ``facing`` shows its ``side`` towards."""
    return CLOCKWISE[(CLOCKWISE.index(facing) + SIDES.index(side)) % 4]


def direction_side(facing: str, direction: str) -> str:
    """Which side of a card facing ``facing`` points in ``direction``."""
    return SIDES[(CLOCKWISE.index(direction) - CLOCKWISE.index(facing)) % 4]


def step(cell: Cell, direction: str) -> Cell:
    d = DIRS[direction]
    return (cell[0] + d[0], cell[1] + d[1])


def direction_to(a: Cell, b: Cell) -> str | None:
    """The direction from ``a`` to the orthogonally adjacent ``b`` (None when they share no side)."""
    for name, (dr, dc) in DIRS.items():
        if (a[0] + dr, a[1] + dc) == b:
            return name
    return None


def on_board(cell: Cell, rows: int, cols: int) -> bool:
    return 0 <= cell[0] < rows and 0 <= cell[1] < cols


def neighbours(cell: Cell, rows: int, cols: int) -> list[tuple[str, Cell]]:
    """The on-board cells sharing a side with ``cell``, with their direction, in N E S W order."""
    out = []
    for name in CLOCKWISE:
        nxt = step(cell, name)
        if on_board(nxt, rows, cols):
            out.append((name, nxt))
    return out

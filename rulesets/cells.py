"""Where a cell is, in players' words: one convention for every game that names board cells.

**Column first, then row, numbered as the board's edges are labelled**: column numbers along the top edge,
row numbers down the left edge, rows growing downwards ("column 3, row 2"). A board with edges (Salt & Bones's
Field Board, The First Spine's board) numbers them from 1 at its top-left corner. Get Salty's table has no
edges, so its numbers are its own: column 0, row 0 is the Salt Container's starting cell, negative numbers lie
to the left and above. Forms ask for the same two numbers ("Column", "Row"), so a cell read in the history
can be found on the board and typed into a form as it reads.

Only the words follow this: the wire keeps each game's own order and origin (Get Salty ``[x, y]`` from the
start cell; Salt & Bones and The First Spine ``[row, col]`` from 0).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def cell_words(column: int, row: int) -> str:
    """A cell by the numbers on the board's edges: ``"column 3, row 2"``."""
    return f"column {column}, row {row}"


def row_col_words(cell: Any) -> str:
    """A ``[row, col]`` cell counted from 0 on the wire (Salt & Bones, The First Spine), as players read it;
    a value that is not two whole numbers is shown as it came."""
    try:
        row, col = (int(v) for v in cell)
    except (TypeError, ValueError):
        return str(cell)
    return cell_words(col + 1, row + 1)


def xy_words(cell: Any) -> str:
    """A Get Salty ``[x, y]`` cell (x = column, y = row, from the container's starting cell)."""
    return cell_words(int(cell[0]), int(cell[1]))


def cells_words(cells: Iterable[Any]) -> str:
    """Several ``[row, col]`` cells: ``"column 3, row 1; column 4, row 6"``."""
    return "; ".join(row_col_words(c) for c in cells)

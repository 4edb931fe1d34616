"""The names of the landscape's squares, as the board image writes them along its edges.

Columns are letters west to east, rows numbers north to south, and the start tile lies in the
middle of a grid of columns A-Z and rows 1-25: at M13. The names are fixed to the landscape,
so a square keeps its name while the landscape grows, and a line of the log ("places a tile on
K12") still points at the same square many turns later. Landscapes stay inside that grid (over
500 games, random and the computer player's, none reached past it); a column further east
continues as spreadsheets do (AA, AB, ...), one further west is written with a minus ("-A" is
west of A), and rows go on as 0, -1, ... in the north: every square keeps a name of its own.
"""
from __future__ import annotations

from string import ascii_uppercase

START_COLUMN = 12  # the start tile's column, counted from A = 0: "M"
START_ROW = 13     # the start tile's row


def column_name(x: int) -> str:
    """The letters of column `x` (x = 0 is the start tile's column, x grows eastwards)."""
    number = x + START_COLUMN + 1  # A = 1
    if number <= 0:
        return "-" + column_name(-number - START_COLUMN)  # west of A: -A, -B, ...
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = ascii_uppercase[rest] + letters
    return letters


def row_name(y: int) -> str:
    """The number of row `y` (y = 0 is the start tile's row, y grows southwards)."""
    return str(y + START_ROW)


def square_name(x: int, y: int) -> str:
    """A square's name on the board: its column's letters and its row's number ("M13")."""
    return f"{column_name(x)}{row_name(y)}"


__all__ = ["column_name", "row_name", "square_name"]

"""Board geometry and knight movement: pure functions over the laid tiles.

The grid is fixed for the whole game so that a square's name never changes. The starting area
sits in the middle, with room on every side for the display to grow to the area limit in any
direction: a grid of 2N - w columns and 2N - h rows for a w x h starting area and limit N.
Columns are letters from the left (A, B, ...), rows numbers from the top (1, 2, ...): "D5".
"""
from __future__ import annotations

import functools
import string
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from games.raubritter.tiles import (
    AREA_LIMIT,
    BUILDINGS,
    KNIGHTS_TO_ENTER,
    MAX_KNIGHTS_PER_TILE,
    POINTS,
    START_AREA,
    TERRAINS,
)
from games.raubritter.tiles import building_of as building_of  # re-exported: a face's building
from games.raubritter.tiles import terrain_of as terrain_of  # and terrain, beside the tiles laid

Square = tuple[int, int]  # (column, row), both 0-based

DIRECTIONS: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
DIRECTION_NAMES = {"N": "north", "E": "east", "S": "south", "W": "west"}
COLUMN_LABELS = string.ascii_uppercase


class Laid(NamedTuple):
    """A tile on the table: its letter+face, the seat whose back it shows, knights bottom->top."""

    tile: str
    owner: int
    stack: tuple[int, ...] = ()

    @property
    def face(self) -> str:
        return self.tile[1:]

    # `terrain_of` and `building_of` of the face (tile[1:]), read straight from the tile: a view
    # asks both of every laid tile, the scores and knight moves ask them again.
    @property
    def terrain(self) -> str:
        return TERRAINS[self.tile[1]]

    @property
    def building(self) -> str | None:
        tile = self.tile
        return BUILDINGS[tile[2]] if len(tile) > 2 else None


Board = Mapping[Square, Laid]


@dataclass(frozen=True)
class Geometry:
    limit: int
    cols: int
    rows: int
    start_col: int
    start_row: int
    start_cols: int
    start_rows: int

    @classmethod
    def for_seats(cls, seats: int, limit: int | None = None) -> Geometry:
        return _geometry(seats, limit)  # asked for at every step of a game: made once

    @classmethod
    def _made(cls, seats: int, limit: int | None) -> Geometry:
        start_cols, start_rows = START_AREA[seats]
        limit = AREA_LIMIT[seats] if limit is None else limit
        return cls(limit=limit, cols=2 * limit - start_cols, rows=2 * limit - start_rows,
                   start_col=limit - start_cols, start_row=limit - start_rows,
                   start_cols=start_cols, start_rows=start_rows)

    def start_squares(self) -> list[Square]:
        """The starting area's squares, row by row."""
        return [(self.start_col + c, self.start_row + r)
                for r in range(self.start_rows) for c in range(self.start_cols)]

    def contains(self, square: Square) -> bool:
        return 0 <= square[0] < self.cols and 0 <= square[1] < self.rows

    def name(self, square: Square) -> str:
        return square_name(square)

    def parse(self, text: str) -> Square | None:
        """A square from its name ("d5" or "D5"), or None when it is no square of this grid."""
        text = str(text).strip()
        # Every move names a square: the few names there are are remembered (longer text names none).
        square = _square_named(text) if len(text) <= 4 else None
        return square if square is not None and self.contains(square) else None

    def square_named(self, text: str) -> Square:
        """The square a legal move names (`parse`); a ValueError for a name of no square."""
        square = self.parse(text)
        if square is None:
            raise ValueError(f"{text!r} is no square of this grid")
        return square

    def col_labels(self) -> list[str]:
        return [COLUMN_LABELS[c] for c in range(self.cols)]

    def row_labels(self) -> list[str]:
        return [str(r + 1) for r in range(self.rows)]


@functools.lru_cache(maxsize=4096)
def square_name(square: Square) -> str:
    """"D5": the same in every grid (a view names every laid tile, a move's labels every square)."""
    return f"{COLUMN_LABELS[square[0]]}{square[1] + 1}"


@functools.lru_cache(maxsize=4096)
def _square_named(text: str) -> Square | None:
    text = text.upper()
    if len(text) < 2 or text[0] not in COLUMN_LABELS or not text[1:].isdigit():
        return None
    return COLUMN_LABELS.index(text[0]), int(text[1:]) - 1


@functools.cache
def _geometry(seats: int, limit: int | None) -> Geometry:
    return Geometry._made(seats, limit)


@dataclass(frozen=True)
class Bounds:
    """The rectangle the display may still grow into (inclusive), and which axes are fixed."""

    min_col: int
    max_col: int
    min_row: int
    max_row: int
    cols_fixed: bool
    rows_fixed: bool

    def contains(self, square: Square) -> bool:
        return self.min_col <= square[0] <= self.max_col and self.min_row <= square[1] <= self.max_row


def extent(board: Collection[Square]) -> tuple[int, int, int, int] | None:
    """(min_col, max_col, min_row, max_row) of the laid tiles (a board, or its squares), or None
    while the table is empty."""
    if not board:
        return None
    cols = [c for c, _ in board]
    rows = [r for _, r in board]
    return min(cols), max(cols), min(rows), max(rows)


def grown(span: tuple[int, int, int, int] | None, square: Square) -> tuple[int, int, int, int]:
    """The extent once a tile is laid on `square`."""
    if span is None:
        return square[0], square[0], square[1], square[1]
    return min(span[0], square[0]), max(span[1], square[0]), min(span[2], square[1]), max(span[3], square[1])


def bounds(board: Board, geometry: Geometry) -> Bounds:
    return _bounds(frozenset(board), geometry)


@functools.lru_cache(maxsize=64)  # a move asks of one table (some 4 KiB a table kept)
def _bounds(laid: frozenset[Square], geometry: Geometry) -> Bounds:
    """`bounds` of a display covering `laid`, kept by the squares (every view asks it)."""
    return bounds_of(extent(laid), geometry)


def bounds_of(span: tuple[int, int, int, int] | None, geometry: Geometry) -> Bounds:
    """The bounds of a display of that extent (`extent`, `grown`)."""
    if span is None:
        return Bounds(0, geometry.cols - 1, 0, geometry.rows - 1, False, False)
    min_col, max_col, min_row, max_row = span
    reach = geometry.limit - 1
    return Bounds(
        min_col=max(0, max_col - reach), max_col=min(geometry.cols - 1, min_col + reach),
        min_row=max(0, max_row - reach), max_row=min(geometry.rows - 1, min_row + reach),
        cols_fixed=max_col - min_col == reach, rows_fixed=max_row - min_row == reach,
    )


@functools.cache
def neighbours(square: Square) -> tuple[Square, ...]:
    """The four squares sharing an edge with `square` (asked for all the time: made once each)."""
    col, row = square
    return tuple((col + dc, row + dr) for dc, dr in DIRECTIONS.values())


def legal_squares(board: Board, geometry: Geometry) -> list[Square]:
    """Empty squares touching the display along an edge and keeping it within the area limit,
    row by row. Corner contact alone never counts, because only edge neighbours are looked at."""
    return list(_open_squares(frozenset(board), geometry))


@functools.lru_cache(maxsize=64)  # a move asks of one table (some 4 KiB a table kept)
def _open_squares(laid: frozenset[Square], geometry: Geometry) -> tuple[Square, ...]:
    """`legal_squares` of a display covering `laid`, kept by the squares themselves: a move's
    legal actions, its views, its forced-move check and the move itself each ask it of the
    same table (the squares alone decide it, whatever lies on them)."""
    allowed = bounds_of(extent(laid), geometry)
    min_col, max_col, min_row, max_row = allowed.min_col, allowed.max_col, allowed.min_row, allowed.max_row
    found = {(col, row) for square in laid for col, row in neighbours(square)
             if (col, row) not in laid and min_col <= col <= max_col and min_row <= row <= max_row}
    return tuple(sorted(found, key=lambda s: (s[1], s[0])))


# ----------------------------------------------------------------------------------------
# Knights


def knights_to_enter(laid: Laid) -> int | None:
    """How many knights a stack must leave on (and so bring to) this tile; None for a lake."""
    return KNIGHTS_TO_ENTER.get(laid.terrain)


def closed(laid: Laid, height: int | None = None) -> bool:
    """Whether no stack can come onto the tile any more (with `height` knights on it; default
    its own stack): a lake, or leaving the minimum would make more than four there."""
    needed = knights_to_enter(laid)
    return needed is None or (len(laid.stack) if height is None else height) + needed > MAX_KNIGHTS_PER_TILE


def can_enter(laid: Laid, moving: int) -> bool:
    """The translator's reading: a tile is closed when leaving the minimum would make more
    than four there; passing through may exceed four for a moment."""
    needed = knights_to_enter(laid)
    return needed is not None and moving >= needed and len(laid.stack) + needed <= MAX_KNIGHTS_PER_TILE


def knight_moves(board: Board, castle: Square, knights: int) -> list[tuple[str, tuple[int, ...]]]:
    """Every legal way to place `knights` (>= 1) on the castle just laid at `castle`.

    Each way is (direction, knights left per tile along the path starting with the castle);
    direction "-" means the whole stack stays on the castle. The stack moves straight on until
    it runs out, so the last count takes the rest and every count meets the tile's minimum.
    """
    moves: list[tuple[str, tuple[int, ...]]] = []
    start = board[castle]
    start_needed = knights_to_enter(start)
    if start_needed is None or not can_enter(start, knights):
        return moves
    room = MAX_KNIGHTS_PER_TILE - len(start.stack)
    if knights <= room:
        moves.append(("-", (knights,)))

    def walk(direction: str, square: Square, moving: int, left: tuple[int, ...]) -> None:
        dc, dr = DIRECTIONS[direction]
        target = (square[0] + dc, square[1] + dr)
        laid = board.get(target)
        needed = None if laid is None else knights_to_enter(laid)
        if laid is None or needed is None or not can_enter(laid, moving):
            return
        most = min(moving, MAX_KNIGHTS_PER_TILE - len(laid.stack))
        for stay in range(needed, most + 1):
            if stay == moving:
                moves.append((direction, left + (stay,)))
            else:
                walk(direction, target, moving - stay, left + (stay,))

    for direction in DIRECTIONS:
        for stay in range(start_needed, min(knights - 1, room) + 1):
            walk(direction, castle, knights - stay, (stay,))
    return moves


def path(castle: Square, direction: str, length: int) -> list[Square]:
    """The squares a stack covers: the castle, then `length - 1` tiles in `direction`."""
    if direction == "-":
        return [castle]
    dc, dr = DIRECTIONS[direction]
    return [(castle[0] + dc * step, castle[1] + dr * step) for step in range(length)]


def top_points(laid: Laid) -> tuple[int, int] | None:
    """(seat, points) for the top knight of a tile with a building, None when it scores nothing."""
    if not laid.stack:
        return None
    building = laid.building
    if building is None:
        return None
    return laid.stack[-1], POINTS[building]

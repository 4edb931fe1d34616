"""Which squares one board picture shows close up while the player chooses where the tile goes.

The board is a phone picture (1080 x 1350 px, shown about 300 px wide). A tile drawn close up
is at least CLOSE_UP px (some 45 px on a phone): at that size the picture's room for the
landscape holds one panel of COLUMNS columns and `rows_shown(seats)` rows (the players' table
under it grows with the seats). Two or three panels beside each other share SIDE_COLUMNS
columns between them, above each other one row less than one panel (each panel carries its own
column letters and row numbers). The renderer's tests draw every arrangement listed here and
check it fits at CLOSE_UP px.

When all squares where the drawn tile fits can be shown so, in one to three panels, the picture
shows them all and the player taps the square at once. Otherwise they are offered in groups,
each as large as one panel, and the player picks the group first (`square_plan`).

A layout is a box of the landscape, `(x0, y0, columns, rows)`, or `("side", parts)` (the parts
beside each other, west to east) or `("stack", parts)` (above each other, north to south).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Union

Square = tuple[int, int]
Box = tuple[int, int, int, int]
Layout = Union[Box, tuple[str, tuple["Layout", ...]]]

CLOSE_UP = 160      # px: the least tile size of a close-up
COLUMNS = 6         # one panel's columns at that size
SIDE_COLUMNS = 5    # the columns two or three panels beside each other share
MOST_PANELS = 3     # more panels in one picture would leave each too few squares to be worth it
MENU = 24           # a menu holds 25 choices: 24 squares (or groups) and `back`


def rows_shown(seats: int) -> int:
    """One panel's rows at CLOSE_UP px: the players' table takes a row (50 px) per seat."""
    return 5 if seats <= 3 else 4


@dataclass(frozen=True)
class SquarePlan:
    """How the squares are offered: `layout` when one picture shows them all close up; else
    `groups` (each group's squares) and `boxes` (each group's close-up). `order` is the order
    the picture and the buttons number the squares in (from 1)."""
    order: tuple[Square, ...]
    layout: Layout | None
    groups: tuple[tuple[Square, ...], ...] = ()
    boxes: tuple[Box, ...] = ()


def square_plan(squares, seats: int) -> SquarePlan:
    """The plan for the squares where the drawn tile fits (any order): the same squares always
    give the same plan."""
    return _plan(tuple(sorted(squares)), rows_shown(seats))


@lru_cache(maxsize=512)  # the steps of one turn (and a search's playouts) ask again and again
def _plan(squares: tuple[Square, ...], rows: int) -> SquarePlan:
    layout = _layout(squares, rows)
    if layout is not None:
        return SquarePlan(tuple(sq for box in boxes_of(layout) for sq in _in_box(_take(squares, box, layout), box)),
                          layout)
    boxes, groups = _groups(squares, rows)
    return SquarePlan(tuple(sq for group in groups for sq in group), None, groups, boxes)


def boxes_of(layout: Layout) -> list[Box]:
    """The layout's boxes in reading order (west to east beside, north to south above)."""
    if isinstance(layout[0], str):
        return [box for part in layout[1] for box in boxes_of(part)]
    return [layout]


def _in_box(squares, box: Box) -> list[Square]:
    """The squares in `box`, north to south and west to east (as they read in the picture)."""
    x0, y0, cols, rows = box
    return sorted((sq for sq in squares if x0 <= sq[0] < x0 + cols and y0 <= sq[1] < y0 + rows),
                  key=lambda sq: (sq[1], sq[0]))


def _take(squares, box: Box, layout: Layout) -> list[Square]:
    """The squares numbered in `box`: those in it and in no box before it."""
    before = boxes_of(layout)
    before = before[:before.index(box)]
    return [sq for sq in squares if not any(_within(sq, other) for other in before)]


def _within(square: Square, box: Box) -> bool:
    return box[0] <= square[0] < box[0] + box[2] and box[1] <= square[1] < box[1] + box[3]


# ----------------------------------------------------------------------------------------
# One picture: one to three panels


def arrangements(rows: int) -> list[tuple]:
    """Every arrangement of panels one picture holds at CLOSE_UP px, as a tree of panel sizes
    (columns, rows), fewest panels first: one panel; two beside each other or one above the
    other; three beside, three above, one tall beside two above each other, one wide above
    two beside each other."""
    cols, side, stack = COLUMNS, SIDE_COLUMNS, rows - 1
    result: list[tuple] = [(cols, rows)]
    result += [("side", ((c, rows), (side - c, rows))) for c in range(1, side // 2 + 1)]
    result += [("stack", ((cols, r), (cols, stack - r))) for r in range(1, stack // 2 + 1)]
    for a in range(1, side):
        for b in range(a, side - a):
            if side - a - b >= b:
                result.append(("side", ((a, rows), (b, rows), (side - a - b, rows))))
    for a in range(1, stack):
        for b in range(a, stack - a):
            if stack - a - b >= b:
                result.append(("stack", ((cols, a), (cols, b), (cols, stack - a - b))))
    for c in range(1, side):
        for r in range(1, stack // 2 + 1):
            result.append(("side", ((c, rows), ("stack", ((side - c, r), (side - c, stack - r))))))
    for r in range(1, stack):
        for c in range(1, side // 2 + 1):
            result.append(("stack", ((cols, r), ("side", ((c, stack - r), (side - c, stack - r))))))
    return result


def _sizes(shape) -> list[tuple[int, int]]:
    if isinstance(shape[0], str):
        return [size for part in shape[1] for size in _sizes(part)]
    return [shape]


def _layout(squares: tuple[Square, ...], rows: int) -> Layout | None:
    """The squares in one to three panels, the fewest that hold them, placed in the picture as
    they lie (west panels left, north panels up); None if no arrangement holds them."""
    if not squares:
        return None
    masks = _Masks(squares)
    # Every panel is at most COLUMNS x rows: squares that three such boxes cannot hold (most
    # placements after the first few turns) need no further search.
    if _cover(masks, masks.all, [(COLUMNS, rows)] * MOST_PANELS) is None:
        return None
    for shape in arrangements(rows):
        boxes = _cover(masks, masks.all, _sizes(shape))
        if boxes is not None:
            return _placed(shape, [_centred(box, squares, squares) for box in boxes])
    return None


class _Masks:
    """The squares as bits (west to east, then north to south), with the bits of any run of
    columns or rows: a box's squares are those of its columns and of its rows."""

    def __init__(self, squares) -> None:
        self.squares = sorted(squares)
        self.all = (1 << len(self.squares)) - 1
        self.column: dict[int, int] = {}
        self.row: dict[int, int] = {}
        self.failed: set[tuple] = set()
        self.boxes: dict[Box, int] = {}
        for bit, (x, y) in enumerate(self.squares):
            self.column[x] = self.column.get(x, 0) | 1 << bit
            self.row[y] = self.row.get(y, 0) | 1 << bit

    def box(self, x0: int, y0: int, cols: int, rows: int) -> int:
        key = (x0, y0, cols, rows)
        found = self.boxes.get(key)
        if found is None:
            across = down = 0
            for x in range(x0, x0 + cols):
                across |= self.column.get(x, 0)
            for y in range(y0, y0 + rows):
                down |= self.row.get(y, 0)
            found = self.boxes[key] = across & down
        return found

    def first(self, left: int) -> Square:
        """The westmost (then northmost) square of those left."""
        return self.squares[(left & -left).bit_length() - 1]


def _cover(masks: _Masks, left: int, sizes: list[tuple[int, int]]) -> list[Box] | None:
    """Boxes of the given sizes (each used once, in any order) holding every square of `left`,
    or None. Exact: the westmost square left lies in some box, which may as well start at its
    column (nothing lies further west), at one of the few rows that keep the square inside.
    What cannot be covered is remembered (arrangements share their sizes)."""
    if not left:
        return []
    if not sizes:
        return None
    key = (left, tuple(sorted(sizes)))
    if key in masks.failed:
        return None
    x, y = masks.first(left)
    tried = set()
    for k, (cols, rows) in enumerate(sizes):
        if (cols, rows) in tried:
            continue
        tried.add((cols, rows))
        rest = sizes[:k] + sizes[k + 1:]
        for y0 in range(y - rows + 1, y + 1):
            inside = masks.box(x, y0, cols, rows)
            found = _cover(masks, left & ~inside, rest)
            if found is not None:
                return [(x, y0, cols, rows)] + found
    masks.failed.add(key)
    return None


def _centred(box: Box, mine, squares) -> Box:
    """The box moved to have its squares (those of `mine` in it) in its middle, kept within the
    spread of all `squares` where it can be: the room beside them then shows the landscape
    they join, not empty ground beyond every square."""
    x0, y0, cols, rows = box
    inside = [sq for sq in mine if _within(sq, box)]
    x0, y0, x1, y1 = _spread(squares)
    return (_middle([sq[0] for sq in inside], cols, x0, x1), _middle([sq[1] for sq in inside], rows, y0, y1),
            cols, rows)


def _spread(squares) -> tuple[int, int, int, int]:
    xs, ys = [sq[0] for sq in squares], [sq[1] for sq in squares]
    return min(xs), min(ys), max(xs), max(ys)


def _middle(values: list[int], length: int, low: int, high: int) -> int:
    """The start of a run of `length` holding `values`, with equal room on both sides, kept
    within low..high where that is longer than the run."""
    if high - low + 1 <= length:
        return low - (length - (high - low + 1)) // 2
    start = min(values) - (length - (max(values) - min(values) + 1)) // 2
    return max(low, min(start, high - length + 1))


def _placed(shape, boxes: list[Box]) -> Layout:
    """The shape's tree with the boxes put in it: each box where its size is, the parts of a
    side (stack) ordered west to east (north to south) by where they lie."""
    pool = list(boxes)

    def fill(node):
        if isinstance(node[0], str):
            return node[0], tuple(fill(part) for part in node[1])
        box = next(b for b in pool if (b[2], b[3]) == node)
        pool.remove(box)
        return box

    def centre(node) -> tuple[float, float]:
        found = boxes_of(node)
        return (sum(b[0] + b[2] / 2 for b in found) / len(found), sum(b[1] + b[3] / 2 for b in found) / len(found))

    def order(node):
        if not isinstance(node[0], str):
            return node
        parts = [order(part) for part in node[1]]
        axis = 0 if node[0] == "side" else 1
        return node[0], tuple(sorted(parts, key=lambda part: centre(part)[axis]))

    return order(fill(shape))


# ----------------------------------------------------------------------------------------
# Groups: one panel each


def _groups(squares: tuple[Square, ...], rows: int) -> tuple[tuple[Box, ...], tuple[tuple[Square, ...], ...]]:
    """Groups of squares lying together, each within one panel (COLUMNS x rows), the fewest of
    two sweeps (north to south, west to east), numbered north to south; a group of more than a
    menu holds is split, and were there ever more groups than a menu holds, the squares would
    be taken in runs instead (never seen in thousands of games: some 3-9 groups late in a game)."""
    best = min((_sweep(squares, rows, by_rows=True), _sweep(squares, rows, by_rows=False)), key=len)
    boxes, groups = [], []
    for box, group in sorted(best, key=lambda found: (found[0][1], found[0][0])):
        ordered = _in_box(group, box)
        for start in range(0, len(ordered), MENU):
            boxes.append(box)
            groups.append(tuple(ordered[start:start + MENU]))
    if len(groups) > MENU:
        ordered = sorted(squares, key=lambda sq: (sq[1], sq[0]))
        size = -(-len(ordered) // MENU)
        groups = [tuple(ordered[k:k + size]) for k in range(0, len(ordered), size)]
        boxes = [_bounds(group) for group in groups]
    return tuple(boxes), tuple(groups)


def _sweep(squares, rows: int, *, by_rows: bool) -> list[tuple[Box, list[Square]]]:
    """Greedy: the first square left (northmost, or westmost) opens a panel starting at its row
    (column), placed across to hold as many of the squares left as it can."""
    cols = COLUMNS
    masks = _Masks(squares)
    order = sorted(range(len(masks.squares)), key=lambda bit: masks.squares[bit][::-1] if by_rows else bit)
    left, found = masks.all, []
    for bit in order:
        if not left >> bit & 1:
            continue
        x, y = masks.squares[bit]
        starts = ([(x0, y) for x0 in range(x - cols + 1, x + 1)] if by_rows
                  else [(x, y0) for y0 in range(y - rows + 1, y + 1)])
        x0, y0 = max(starts, key=lambda s: ((masks.box(s[0], s[1], cols, rows) & left).bit_count(), s))
        inside = masks.box(x0, y0, cols, rows) & left
        left &= ~inside
        group = [sq for k, sq in enumerate(masks.squares) if inside >> k & 1]
        found.append((_centred((x0, y0, cols, rows), group, squares), group))
    return found


def _bounds(squares) -> Box:
    x0, y0, x1, y1 = _spread(squares)
    return x0, y0, x1 - x0 + 1, y1 - y0 + 1


# ----------------------------------------------------------------------------------------
# The squares of main's engine (before close-ups), for replaying its records


def legacy_groups(squares: list[Square]) -> list[list[Square]]:
    """The groups `area k` picked before close-ups: with more than 24 squares, runs of at most
    20 in the order the squares were numbered then (north to south); [] otherwise. Recorded
    games and games saved then still replay with them."""
    if len(squares) <= 24:
        return []
    count = -(-len(squares) // 20)
    size = -(-len(squares) // count)
    return [squares[i:i + size] for i in range(0, len(squares), size)]


__all__ = ["CLOSE_UP", "COLUMNS", "SIDE_COLUMNS", "SquarePlan", "arrangements", "boxes_of", "legacy_groups",
           "rows_shown", "square_plan"]

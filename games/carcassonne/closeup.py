"""Which squares one board picture shows close up while the player chooses where the tile goes.

The board is a phone picture (1080 x 1350 px, shown about 300 px wide). A tile drawn close up
is at least CLOSE_UP px (some 45 px on a phone): at that size the picture's room for the
landscape holds one panel of COLUMNS columns and `rows_shown(seats)` rows (the players' table
under it grows with the seats). Two or three panels beside each other share SIDE_COLUMNS
columns between them, above each other one row less than one panel (each panel carries its own
column letters and row numbers). The renderer's tests draw every arrangement listed here and
check it fits at CLOSE_UP px.

A panel shows each of its squares with every tile beside it (what the tile placed there
would touch), and panels show places of the landscape at least two columns or rows apart (no
tile is drawn twice, and places one hidden row apart were read as one piece of landscape).

When all squares where the drawn tile fits can be shown so, in one to three panels, the picture
shows them all and the player taps the square at once. Otherwise they are offered in groups,
each as large as one panel (`square_plan`); the first picture shows one of them close up already
(`featured_group`: the one around the player's followers), and the menu offers its squares and
the other groups.

A layout is a box of the landscape, `(x0, y0, columns, rows)`, or `("side", parts)` (the parts
beside each other, west to east) or `("stack", parts)` (above each other, north to south).
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

Square = tuple[int, int]
Box = tuple[int, int, int, int]
Layout = Box | tuple[str, tuple["Layout", ...]]
Size = tuple[int, int]  # a panel's (columns, rows)
Shape = Size | tuple[str, tuple["Shape", ...]]  # an arrangement of panels: a layout of sizes

CLOSE_UP = 160      # px: the least tile size of a close-up
COLUMNS = 6         # one panel's columns at that size
SIDE_COLUMNS = 5    # the columns two or three panels beside each other share
MOST_PANELS = 3     # more panels in one picture would leave each too few squares to be worth it
APART = 2           # columns or rows between the places two panels show (one hidden row read as none)
MENU = 24           # a menu holds 25 choices: 24 squares (or groups) and `back`
SEARCH_STEPS = 4000  # how far the search for panels goes before the squares come in groups


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


def square_plan(squares: Iterable[Square], seats: int, tiles: Collection[Square]) -> SquarePlan:
    """The plan for the squares where the drawn tile fits (any order), on a landscape whose
    tiles lie on the squares of `tiles` (a set, or a mapping by square): the same squares on
    the same landscape always give the same plan."""
    needs = tuple((square, tuple(sorted(near for near in _beside(square) if near in tiles)))
                  for square in sorted(squares))
    return _plan(needs, tuple(sorted(tiles)), rows_shown(seats))


def _beside(square: Square) -> tuple[Square, ...]:
    x, y = square
    return (x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)


@lru_cache(maxsize=512)  # the steps of one turn (and a search's playouts) ask again and again
def _plan(needs: tuple[tuple[Square, tuple[Square, ...]], ...], tiles: tuple[Square, ...], rows: int) -> SquarePlan:
    landscape = _Landscape(needs, tiles)
    layout = _layout(landscape, rows)
    if layout is not None:
        order, seen = [], set()
        for box in boxes_of(layout):
            order += [sq for sq in _in_box(landscape.squares, box) if sq not in seen]
            seen.update(order)
        return SquarePlan(tuple(order), layout)
    boxes, groups = _groups(landscape, rows)
    return SquarePlan(tuple(sq for group in groups for sq in group), None, groups, boxes)


def boxes_of(layout: Layout) -> list[Box]:
    """The layout's boxes in reading order (west to east beside, north to south above)."""
    if isinstance(layout[0], str):
        return [box for part in layout[1] for box in boxes_of(part)]
    return [layout]


def _in_box(squares: Iterable[Square], box: Box) -> list[Square]:
    """The squares in `box`, north to south and west to east (as they read in the picture)."""
    return sorted((sq for sq in squares if _within(sq, box)), key=lambda sq: (sq[1], sq[0]))


def _within(square: Square, box: Box) -> bool:
    return box[0] <= square[0] < box[0] + box[2] and box[1] <= square[1] < box[1] + box[3]


def _bounds(cells: Collection[Square]) -> Box:
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _apart(a: Box, b: Box, gap: int = APART) -> bool:
    """Whether two boxes leave `gap` columns or rows between them."""
    return (a[0] + a[2] + gap <= b[0] or b[0] + b[2] + gap <= a[0]
            or a[1] + a[3] + gap <= b[1] or b[1] + b[3] + gap <= a[1])


class _Landscape:
    """The squares as bits (west to east, then north to south), each with the tiles beside it;
    the bits of a box's squares come from its columns' and its rows' bits. `tiles`: the
    squares of the landscape's tiles."""

    def __init__(self, needs: tuple[tuple[Square, tuple[Square, ...]], ...], tiles: tuple[Square, ...]) -> None:
        self.squares = [square for square, _ in needs]
        self.beside = [near for _, near in needs]
        self.all = (1 << len(self.squares)) - 1
        self.column: dict[int, int] = {}
        self.row: dict[int, int] = {}
        for bit, (x, y) in enumerate(self.squares):
            self.column[x] = self.column.get(x, 0) | 1 << bit
            self.row[y] = self.row.get(y, 0) | 1 << bit
        self.tiles = frozenset(tiles)
        self.spread = _bounds(list(tiles) + self.squares)
        self.failed: set[tuple[int, tuple[Size, ...], tuple[Box, ...]]] = set()
        self.steps = 0
        self._boxes: dict[Box, int] = {}

    def box(self, box: Box) -> int:
        found = self._boxes.get(box)
        if found is None:
            x0, y0, cols, rows = box
            across = down = 0
            for x in range(x0, x0 + cols):
                across |= self.column.get(x, 0)
            for y in range(y0, y0 + rows):
                down |= self.row.get(y, 0)
            found = self._boxes[box] = across & down
        return found

    def bounds(self, inside: int) -> Box:
        """The least box round the squares of `inside`."""
        return _bounds([self.squares[bit] for bit in _bits(inside)])

    def first(self, left: int) -> int:
        """The bit of the westmost (then northmost) square of those left."""
        return (left & -left).bit_length() - 1

    def shown(self, taken: int, box: Box) -> Box | None:
        """The least box showing the squares of `taken` each with every tile beside it; None if
        `box` cuts a tile beside one of them off (the square would be shown without what it
        touches)."""
        x0, y0, cols, rows = box
        low_x = low_y = 1 << 30
        high_x = high_y = -(1 << 30)
        for bit in _bits(taken):
            for x, y in (self.squares[bit], *self.beside[bit]):
                if not (x0 <= x < x0 + cols and y0 <= y < y0 + rows):
                    return None
                low_x, high_x, low_y, high_y = min(low_x, x), max(high_x, x), min(low_y, y), max(high_y, y)
        return low_x, low_y, high_x - low_x + 1, high_y - low_y + 1

    def whole(self, inside: int, box: Box) -> int:
        """The squares of `inside` whose every tile beside them lies in `box`."""
        x0, y0, cols, rows = box
        return sum(1 << bit for bit in _bits(inside)
                   if all(x0 <= tx < x0 + cols and y0 <= ty < y0 + rows for tx, ty in self.beside[bit]))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ----------------------------------------------------------------------------------------
# One picture: one to three panels


def arrangements(rows: int) -> list[Shape]:
    """Every arrangement of panels one picture holds at CLOSE_UP px, as a tree of panel sizes
    (columns, rows), fewest panels first: one panel; two beside each other or one above the
    other; three beside, three above, one tall beside two above each other, one wide above
    two beside each other."""
    cols, side, stack = COLUMNS, SIDE_COLUMNS, rows - 1
    result: list[Shape] = [(cols, rows)]
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


def _sizes(shape: Shape) -> list[Size]:
    if isinstance(shape[0], str):
        return [size for part in shape[1] for size in _sizes(part)]
    return [shape]


def _layout(landscape: _Landscape, rows: int) -> Layout | None:
    """The squares in one to three panels, the fewest that hold them, placed in the picture as
    they lie (west panels left, north panels up); None if no arrangement holds them."""
    if not landscape.squares:
        return None
    # Every panel is at most COLUMNS x rows: squares that three such panels cannot show (most
    # placements after the first few turns) need no further search.
    if _cover(landscape, landscape.all, [(COLUMNS, rows)] * MOST_PANELS) is None:
        return None
    for shape in arrangements(rows):
        sizes = _sizes(shape)
        found = _cover(landscape, landscape.all, sizes)
        if found is not None:
            boxes = _grown(landscape, [shown for shown, _ in found], [size for _, size in found])
            return _placed(shape, boxes, [size for _, size in found])
        if landscape.steps > SEARCH_STEPS:
            break
    return None


def _cover(landscape: _Landscape, left: int, sizes: list[tuple[int, int]],
           taken: tuple[Box, ...] = ()) -> list[tuple[Box, tuple[int, int]]] | None:
    """Panels of the given sizes (each used once, in any order) showing every square of `left`
    with the tiles beside it, apart from the places the panels so far show (`taken`); each found
    as the least box showing its squares, with its size. None if there are none. The westmost
    square left lies in some panel, which may as well start at its column (nothing lies
    further west to show), at one of the few rows that keep the square inside. What cannot be
    covered is remembered (arrangements share their sizes)."""
    if not left:
        return []
    if not sizes or landscape.steps > SEARCH_STEPS:
        return None
    key = (left, tuple(sorted(sizes)), taken)
    if key in landscape.failed:
        return None
    landscape.steps += 1
    first = landscape.first(left)
    x, y = landscape.squares[first]
    tried = set()
    for k, (cols, rows) in enumerate(sizes):
        if (cols, rows) in tried:
            continue
        tried.add((cols, rows))
        rest = sizes[:k] + sizes[k + 1:]
        for x0 in (x, x - 1):  # one column west: a tile beside the westmost square may lie there
            for y0 in range(y - rows + 1, y + 1):
                box = (x0, y0, cols, rows)
                inside = landscape.box(box) & left
                if not inside >> first & 1:
                    continue
                shown = landscape.shown(inside, box)
                if shown is None or not all(_apart(shown, other) for other in taken):
                    continue
                found = _cover(landscape, left & ~inside, rest, taken + (shown,))
                if found is not None:
                    return [(shown, (cols, rows))] + found
    landscape.failed.add(key)
    return None


def _grown(landscape: _Landscape, boxes: list[Box], sizes: list[tuple[int, int]]) -> list[Box]:
    """Each panel's box grown from the least around its squares towards its size, a column or
    row at a time where the most tiles are added, while it keeps apart from the others: the
    room round the squares shows the landscape they join, and none is spent on empty ground
    (the tiles are drawn the larger)."""
    boxes = list(boxes)
    for k, (cols, rows) in enumerate(sizes):
        while True:
            best = None
            for grow in ((-1, 0, 1, 0), (0, 0, 1, 0), (0, -1, 0, 1), (0, 0, 0, 1)):
                bx, by, bw, bh = boxes[k]
                wider = (bx + grow[0], by + grow[1], bw + grow[2], bh + grow[3])
                if wider[2] > cols or wider[3] > rows:
                    continue
                if not all(_apart(wider, other) for j, other in enumerate(boxes) if j != k):
                    continue
                added = sum((x, y) in landscape.tiles for x in range(wider[0], wider[0] + wider[2])
                            for y in range(wider[1], wider[1] + wider[3])
                            if not _within((x, y), boxes[k]))
                if added and (best is None or added > best[0]):
                    best = (added, wider)
            if best is None:
                break
            boxes[k] = best[1]
    return boxes


def _placed(shape: Shape, boxes: list[Box], sizes: list[tuple[int, int]]) -> Layout:
    """The shape's tree with the boxes put in it (each where the size it was found for is),
    the parts of a side (stack) ordered west to east (north to south) by where they lie."""
    pool = list(zip(boxes, sizes, strict=True))

    def fill(node: Shape) -> Layout:
        if isinstance(node[0], str):
            return node[0], tuple(fill(part) for part in node[1])
        found = next(entry for entry in pool if entry[1] == node)
        pool.remove(found)
        return found[0]

    def centre(node: Layout) -> tuple[float, float]:
        found = boxes_of(node)
        return (sum(b[0] + b[2] / 2 for b in found) / len(found), sum(b[1] + b[3] / 2 for b in found) / len(found))

    def order(node: Layout) -> Layout:
        if not isinstance(node[0], str):
            return node
        parts = [order(part) for part in node[1]]
        axis = 0 if node[0] == "side" else 1
        return node[0], tuple(sorted(parts, key=lambda part: centre(part)[axis]))

    return order(fill(shape))


# ----------------------------------------------------------------------------------------
# Groups: one panel each


def _groups(landscape: _Landscape, rows: int) -> tuple[tuple[Box, ...], tuple[tuple[Square, ...], ...]]:
    """Groups of squares lying together, each shown in one panel (COLUMNS x rows) with the tiles
    beside each square, the fewest of two sweeps (north to south, west to east), numbered north
    to south. A group of more than a menu holds is split; were there ever more groups than a
    menu holds, the squares would be taken in runs instead (never seen in thousands of games:
    some 2-9 groups late in a game)."""
    found = min((_sweep(landscape, rows, by_rows=True), _sweep(landscape, rows, by_rows=False)), key=len)
    boxes, groups = [], []
    for box, group in sorted(found, key=lambda entry: (entry[0][1], entry[0][0])):
        ordered = _in_box(group, box)
        for start in range(0, len(ordered), MENU):
            boxes.append(box)
            groups.append(tuple(ordered[start:start + MENU]))
    if len(groups) > MENU:
        ordered = sorted(landscape.squares, key=lambda sq: (sq[1], sq[0]))
        size = -(-len(ordered) // MENU)
        groups = [tuple(ordered[k:k + size]) for k in range(0, len(ordered), size)]
        boxes = [_bounds(group) for group in groups]
    return tuple(boxes), tuple(groups)


def _sweep(landscape: _Landscape, rows: int, *, by_rows: bool) -> list[tuple[Box, list[Square]]]:
    """Greedy: the first square left (northmost, or westmost) opens a panel holding it and the
    tiles beside it, placed to show as many of the squares left as it can, each with the tiles
    beside it, where it can so that the group's frame (the least box round its squares) holds
    no other square and crosses no other group's frame; the panel is then moved to have its
    squares in its middle."""
    cols = COLUMNS
    squares = landscape.squares
    order = sorted(range(len(squares)), key=lambda bit: squares[bit][::-1] if by_rows else bit)
    left = landscape.all
    found: list[tuple[Box, list[Square]]] = []
    frames: list[Box] = []
    for bit in order:
        if not left >> bit & 1:
            continue
        x, y = squares[bit]
        best: tuple[tuple[bool, int, float, float, int, int], Box, int, Box] | None = None
        for x0 in range(x - cols + 1, x + 1):
            for y0 in range(y - rows + 1, y + 1):
                box = (x0, y0, cols, rows)
                if not all(_within(tile, box) for tile in landscape.beside[bit]):
                    continue
                takes = landscape.whole(landscape.box(box) & left, box)
                frame = landscape.bounds(takes)
                alone = not landscape.box(frame) & ~takes and all(_apart(frame, other, 0) for other in frames)
                score = (alone, takes.bit_count(), -abs(x0 + cols / 2 - x - 0.5), -abs(y0 + rows / 2 - y - 0.5),
                         x0, y0)
                if best is None or score > best[0]:
                    best = (score, box, takes, frame)
        if best is None:  # never: a panel (at least 3 x 3) holds any square with the tiles beside it
            raise AssertionError(f"No panel holds square {x},{y} with the tiles beside it.")
        _, box, takes, frame = best
        left &= ~takes
        frames.append(frame)
        group = [sq for k, sq in enumerate(squares) if takes >> k & 1]
        found.append((_centred(landscape, box, group), group))
    return found


def _centred(landscape: _Landscape, box: Box, group: list[Square]) -> Box:
    """The panel moved to show its squares and the tiles beside them in its middle, within the
    landscape where it can be."""
    cells = list(group) + [tile for k, sq in enumerate(landscape.squares) if sq in group
                           for tile in landscape.beside[k] if _within(tile, box)]
    gx, gy, gw, gh = _bounds(cells)
    lx, ly, lw, lh = landscape.spread
    return _middle(gx, gw, box[2], lx, lw), _middle(gy, gh, box[3], ly, lh), box[2], box[3]


def _middle(start: int, length: int, room: int, low: int, width: int) -> int:
    """Where a run of `room` starts to hold the run (start, length) in its middle, kept within
    the run (low, width) where that is longer."""
    if width <= room:
        return low - (room - width) // 2
    at = start - (room - length) // 2
    return max(low, min(at, low + width - room))


def featured_group(groups: Sequence[Sequence[Square]], followers: Collection[Square],
                   joining: Collection[Square] = ()) -> int:
    """The group shown close up first: one with a square `joining` (where a tile would touch a
    feature holding one of the player's followers), then the most squares beside (or diagonally
    beside) a tile bearing one (`followers`: those tiles' squares), then the largest, then the
    nearest to one, then the first. Where a player extends what they hold is where they most
    often place, and of the groups alike the largest holds their square most often
    (bench/carcassonne_taps.py: counting the squares that join, or the nearest before the
    largest, took a second tap some 2 % more often); it reads only the landscape and the
    player's own followers, never what a computer player would make of the drawn tile (that is
    a hint, which tables may switch off)."""
    def rank(k: int) -> tuple[bool, int, int, int, int]:
        group = groups[k]
        joins = any(square in joining for square in group)
        beside = sum(1 for x, y in group for fx, fy in followers if max(abs(x - fx), abs(y - fy)) <= 1)
        nearest = min((abs(x - fx) + abs(y - fy) for x, y in group for fx, fy in followers), default=0)
        return joins, beside, len(group), -nearest, -k
    return max(range(len(groups)), key=rank)


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


__all__ = ["APART", "CLOSE_UP", "COLUMNS", "SIDE_COLUMNS", "SquarePlan", "arrangements", "boxes_of",
           "featured_group", "legacy_groups", "rows_shown", "square_plan"]

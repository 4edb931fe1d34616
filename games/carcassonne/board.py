"""The landscape: placed tiles and their joined features, kept with a union-find.

Every segment of a placed tile is a node `tile_index * 8 + segment_index`. Placing a tile joins
its nodes with the neighbours' across each edge; each root keeps the feature's tiles, pennants,
open edges (a road or city is complete when none is left) and, for fields, the city nodes it
touches. A board is copied on write: `place` returns a new board and leaves the old one alone.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.carcassonne.data import DISTINCT_ROTATIONS, OPPOSITE_HALF, OPPOSITE_SIDE, ORIENTED, STEP, Oriented

Square = tuple[int, int]
NODE_STRIDE = 8

# info tuple fields
KIND, TILES, PENNANTS, OPEN, CITIES = range(5)


class Board:
    __slots__ = ("tiles", "pos", "parent", "info", "frontier")
    # frontier: each empty square next to a tile -> the edges its neighbours ask for (N E S W,
    # None where no neighbour), kept up to date on every placement

    def __init__(self) -> None:
        self.tiles: list[tuple[str, int, int, int]] = []  # (code, x, y, rot) in placing order
        self.pos: dict[Square, int] = {}
        self.parent: list[int] = []
        self.info: dict[int, tuple[Any, ...]] = {}
        self.frontier: dict[Square, tuple[Any, ...]] = {}

    def copy(self) -> Board:
        new = Board.__new__(Board)
        new.tiles = list(self.tiles)
        new.pos = dict(self.pos)
        new.parent = list(self.parent)
        new.info = dict(self.info)
        new.frontier = dict(self.frontier)
        return new

    # ------------------------------------------------------------------------------------

    def oriented(self, index: int) -> Oriented:
        code, _, _, rot = self.tiles[index]
        return ORIENTED[(code, rot)]

    def find(self, node: int) -> int:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def feature(self, node: int) -> tuple[Any, ...]:
        return self.info[self.find(node)]

    def complete(self, node: int) -> bool:
        info = self.feature(node)
        return info[KIND] in ("city", "road") and info[OPEN] == 0

    def neighbours(self, square: Square) -> int:
        x, y = square
        pos = self.pos
        return sum((x + dx, y + dy) in pos for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

    # ------------------------------------------------------------------------------------
    # Fitting

    def needs(self, square: Square) -> tuple[Any, ...]:
        x, y = square
        need = []
        for side, (dx, dy) in enumerate(STEP):
            other = self.pos.get((x + dx, y + dy))
            need.append(None if other is None else self.oriented(other).edges[OPPOSITE_SIDE[side]])
        return tuple(need)

    def fits_at(self, code: str, square: Square) -> tuple[int, ...]:
        return _rotations_for(code, self.needs(square))

    def fits(self, code: str) -> dict[Square, tuple[int, ...]]:
        """Every square where the tile fits, with the distinct rotations that fit there."""
        result = {}
        for square in sorted(self.frontier, key=_north_to_south):
            rots = _rotations_for(code, self.frontier[square])
            if rots:
                result[square] = rots
        return result

    # ------------------------------------------------------------------------------------
    # Placing

    def place(self, code: str, square: Square, rot: int) -> Board:
        """A new board with the tile placed (the caller has checked that it fits)."""
        new = self.copy()
        new._place(code, square, rot)
        return new

    def _place(self, code: str, square: Square, rot: int) -> None:
        index = len(self.tiles)
        x, y = square
        self.tiles.append((code, x, y, rot))
        self.pos[square] = index
        self.frontier.pop(square, None)
        o = ORIENTED[(code, rot)]
        base = index * NODE_STRIDE
        parent, info = self.parent, self.info
        parent.extend(range(base, base + NODE_STRIDE))
        tileset = frozenset((index,))
        for seg, kind in enumerate(o.kinds):
            if kind == "field":
                cities = frozenset(base + c for c in o.cities[seg])
                info[base + seg] = (kind, tileset, 0, 0, cities)
            elif kind == "cloister":
                info[base + seg] = (kind, tileset, 0, 0, frozenset())
            else:
                info[base + seg] = (kind, tileset, o.pennants[seg], len(o.ports[seg]), frozenset())
        for side, (dx, dy) in enumerate(STEP):
            there = (x + dx, y + dy)
            other = self.pos.get(there)
            if other is None:
                self.frontier[there] = self.needs(there)
                continue
            oo = self.oriented(other)
            obase = other * NODE_STRIDE
            opp = OPPOSITE_SIDE[side]
            seg = o.side_seg[side]
            if seg >= 0:
                root = self._union(base + seg, obase + oo.side_seg[opp])
                kind, tiles, pennants, open_, cities = info[root]
                info[root] = (kind, tiles, pennants, open_ - 2, cities)
            for half in (2 * side, 2 * side + 1):
                seg = o.half_seg[half]
                if seg >= 0:
                    oseg = oo.half_seg[OPPOSITE_HALF[half]]
                    if oseg >= 0:
                        self._union(base + seg, obase + oseg)

    def _union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return ra
        if ra > rb:
            ra, rb = rb, ra
        ia, ib = self.info.pop(ra), self.info.pop(rb)
        self.parent[rb] = ra
        self.info[ra] = (ia[KIND], ia[TILES] | ib[TILES], ia[PENNANTS] + ib[PENNANTS], ia[OPEN] + ib[OPEN],
                         ia[CITIES] | ib[CITIES])
        return ra

    # ------------------------------------------------------------------------------------

    def nodes_of(self, index: int) -> Iterable[int]:
        base = index * NODE_STRIDE
        return (base + seg for seg in range(len(self.oriented(index).kinds)))

    def touched(self, square: Square) -> set[int]:
        """The roots of the features a tile on the empty `square` would touch: those of the
        neighbours' edges facing it (city or road across an edge, fields along its halves) and
        of the cloisters round it."""
        x, y = square
        roots: set[int] = set()
        for side, (dx, dy) in enumerate(STEP):
            other = self.pos.get((x + dx, y + dy))
            if other is None:
                continue
            o = self.oriented(other)
            base = other * NODE_STRIDE
            opp = OPPOSITE_SIDE[side]
            if o.side_seg[opp] >= 0:
                roots.add(self.find(base + o.side_seg[opp]))
            for half in (2 * side, 2 * side + 1):
                seg = o.half_seg[OPPOSITE_HALF[half]]
                if seg >= 0:
                    roots.add(self.find(base + seg))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                other = self.pos.get((x + dx, y + dy))
                if other is not None and self.oriented(other).kinds[0] == "cloister":
                    roots.add(self.find(other * NODE_STRIDE))
        return roots


def _north_to_south(square: Square) -> tuple[int, int]:
    return square[1], square[0]


_FIT_CACHE: dict[tuple[str, tuple[Any, ...]], tuple[int, ...]] = {}


def _rotations_for(code: str, need: tuple[Any, ...]) -> tuple[int, ...]:
    key = (code, need)
    rots = _FIT_CACHE.get(key)
    if rots is None:
        rots = tuple(rot for rot in DISTINCT_ROTATIONS[code]
                     if all(n is None or n == e for n, e in zip(need, ORIENTED[(code, rot)].edges)))
        _FIT_CACHE[key] = rots
    return rots


def build(placements: Iterable[tuple[str, int, int, int]]) -> Board:
    board = Board()
    for code, x, y, rot in placements:
        board._place(code, (x, y), rot)
    return board

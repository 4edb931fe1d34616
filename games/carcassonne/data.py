"""Every component of Carcassonne (base game) with The Robbers and the crop-circle tile.

Sides are N=0, E=1, S=2, W=3. Fields are given by half-edges, clockwise from the north-west
corner: NL=0, NR=1 (north edge, west/east half), EL=2, ER=3 (east edge, north/south half),
SL=4, SR=5 (south edge, east/west half), WL=6, WR=7 (west edge, south/north half). A field
continues across an edge into the neighbour's opposite half-edge (NL-SR, NR-SL, EL-WR, ER-WL).
Turning a tile a quarter clockwise moves side s to s+1 and half-edge h to h+2.

Sources: the tile list of the base game (72 tiles including the start tile, public; two open
engines agree); The Robbers rule text (2013 wording): 8 robber tiles, 1 crop-circle tile, one
robber per player. The printed layouts of the robber tiles are not public: we chose the
topologies two V, one U, one D, one K, one W, one E, one P, each with a robber symbol. The
crop-circle tile (chosen: the "club" kind, which acts on followers on roads) has edges
F R R R, a road W-S, and a road E that ends at the crop circle.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
HALF_NAMES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
OPPOSITE_SIDE = (2, 3, 0, 1)
OPPOSITE_HALF = (5, 4, 7, 6, 1, 0, 3, 2)
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W as (dx, dy), y grows southwards

FOLLOWERS_PER_PLAYER = 7
TRACK_SPACES = 50
ROBBER_END_POINTS = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 5

# Points (public, current rules).
ROAD_PER_TILE = 1
CITY_PER_TILE, CITY_PER_PENNANT = 2, 2
CLOISTER_COMPLETE = 9
END_CITY_PER_TILE, END_CITY_PER_PENNANT = 1, 1
FIELD_PER_CITY = 3


@dataclass(frozen=True)
class Segment:
    """One feature part of a tile: kind is city, road, field or cloister; ports are sides
    (city, road) or half-edges (field); cities lists the indexes (in the tile's segment list)
    of the cities a field touches."""

    kind: str
    ports: tuple[int, ...] = ()
    pennant: bool = False
    cities: tuple[int, ...] = ()


@dataclass(frozen=True)
class TileType:
    code: str
    count: int
    edges: str  # N E S W in the printed orientation: C city, R road, F field
    segments: tuple[Segment, ...]
    robber: bool = False
    crop_circle: bool = False
    road_ends: tuple[int, ...] = ()  # sides whose road ends on this tile (junction, cloister, city, crop circle)


def _c(*sides: int, pennant: bool = False) -> Segment:
    return Segment("city", tuple(sides), pennant)


def _r(*sides: int) -> Segment:
    return Segment("road", tuple(sides))


def _f(halves: str, cities: tuple[int, ...] = ()) -> Segment:
    return Segment("field", tuple(HALF_NAMES.index(h) for h in halves.split()), cities=cities)


CLOISTER = Segment("cloister")

# Segment lists in the printed orientation; field `cities` index into the same list.
_BASE: dict[str, tuple[int, str, tuple[Segment, ...]]] = {
    "A": (2, "FFRF", (CLOISTER, _r(S), _f("NL NR EL ER SL SR WL WR"))),
    "B": (4, "FFFF", (CLOISTER, _f("NL NR EL ER SL SR WL WR"))),
    "C": (1, "CCCC", (_c(N, E, S, W, pennant=True),)),
    "D": (4, "CRFR", (_c(N), _r(W, E), _f("EL WR", (0,)), _f("ER SL SR WL"))),
    "E": (5, "CFFF", (_c(N), _f("EL ER SL SR WL WR", (0,)))),
    "F": (2, "FCFC", (_c(E, W, pennant=True), _f("NL NR", (0,)), _f("SL SR", (0,)))),
    "G": (1, "FCFC", (_c(E, W), _f("NL NR", (0,)), _f("SL SR", (0,)))),
    "H": (3, "CFCF", (_c(N), _c(S), _f("EL ER WL WR", (0, 1)))),
    "I": (2, "CFFC", (_c(N), _c(W), _f("EL ER SL SR", (0, 1)))),
    "J": (3, "CRRF", (_c(N), _r(E, S), _f("EL SR WL WR", (0,)), _f("ER SL"))),
    "K": (3, "CFRR", (_c(N), _r(S, W), _f("EL ER SL WR", (0,)), _f("SR WL"))),
    "L": (3, "CRRR", (_c(N), _r(E), _r(S), _r(W), _f("EL WR", (0,)), _f("ER SL"), _f("SR WL"))),
    "M": (2, "CFFC", (_c(N, W, pennant=True), _f("EL ER SL SR", (0,)))),
    "N": (3, "CFFC", (_c(N, W), _f("EL ER SL SR", (0,)))),
    "O": (2, "CRRC", (_c(N, W, pennant=True), _r(E, S), _f("EL SR", (0,)), _f("ER SL"))),
    "P": (3, "CRRC", (_c(N, W), _r(E, S), _f("EL SR", (0,)), _f("ER SL"))),
    "Q": (1, "CCFC", (_c(N, E, W, pennant=True), _f("SL SR", (0,)))),
    "R": (3, "CCFC", (_c(N, E, W), _f("SL SR", (0,)))),
    "S": (2, "CCRC", (_c(N, E, W, pennant=True), _r(S), _f("SL", (0,)), _f("SR", (0,)))),
    "T": (1, "CCRC", (_c(N, E, W), _r(S), _f("SL", (0,)), _f("SR", (0,)))),
    "U": (8, "FRFR", (_r(W, E), _f("WR NL NR EL"), _f("ER SL SR WL"))),
    "V": (9, "FFRR", (_r(W, S), _f("WR NL NR EL ER SL"), _f("SR WL"))),
    "W": (4, "FRRR", (_r(E), _r(S), _r(W), _f("WR NL NR EL"), _f("ER SL"), _f("SR WL"))),
    "X": (1, "RRRR", (_r(N), _r(E), _r(S), _r(W), _f("WR NL"), _f("NR EL"), _f("ER SL"), _f("SR WL"))),
}

# The Robbers: robber tiles (topology of a base tile plus the robber symbol) and the crop circle.
ROBBER_TILES = {"V": 2, "U": 1, "D": 1, "K": 1, "W": 1, "E": 1, "P": 1}
CROP_CIRCLE_CODE = "Z"
START_CODE = "D"


def _build() -> dict[str, TileType]:
    tiles: dict[str, TileType] = {}
    for code, (count, edges, segments) in _BASE.items():
        tiles[code] = TileType(code, count, edges, segments, road_ends=_road_ends(segments))
    for code, count in ROBBER_TILES.items():
        base = tiles[code]
        tiles[code + "r"] = TileType(code + "r", count, base.edges, base.segments, robber=True,
                                     road_ends=base.road_ends)
    crop = (_r(W, S), _r(E), _f("WR NL NR EL"), _f("ER SL"), _f("SR WL"))
    tiles[CROP_CIRCLE_CODE] = TileType(CROP_CIRCLE_CODE, 1, "FRRR", crop, crop_circle=True,
                                       road_ends=_road_ends(crop))
    return tiles


def _road_ends(segments: Iterable[Segment]) -> tuple[int, ...]:
    return tuple(seg.ports[0] for seg in segments if seg.kind == "road" and len(seg.ports) == 1)


TILES: dict[str, TileType] = _build()
BASE_TILE_COUNT = sum(t.count for code, t in TILES.items() if len(code) == 1 and code != CROP_CIRCLE_CODE)
TOTAL_TILES = sum(t.count for t in TILES.values())


def all_tiles() -> list[str]:
    """The codes of every tile in the box, the start tile included (81)."""
    return [code for code, tile in TILES.items() for _ in range(tile.count)]


# ----------------------------------------------------------------------------------------
# Orientations: everything about a tile turned r quarter turns clockwise, precomputed.


@dataclass(frozen=True)
class Oriented:
    code: str
    rot: int
    edges: tuple[str, str, str, str]
    kinds: tuple[str, ...]            # per segment
    ports: tuple[tuple[int, ...], ...]  # per segment, turned
    side_seg: tuple[int, int, int, int]   # segment holding each side (city/road), -1 for field
    half_seg: tuple[int, ...]             # segment holding each half-edge (fields), -1 if none
    pennants: tuple[int, ...]             # per segment
    cities: tuple[tuple[int, ...], ...]  # per segment (fields)
    spots: tuple[tuple[float, float], ...]  # per segment: where a follower stands, 0..1 in the tile
    signature: tuple[Any, ...]


_HALF_XY = ((0.25, 0.0), (0.75, 0.0), (1.0, 0.25), (1.0, 0.75), (0.75, 1.0), (0.25, 1.0), (0.0, 0.75), (0.0, 0.25))
_SIDE_XY = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


def _spot(kind: str, ports: tuple[int, ...], tile: TileType, rot: int) -> tuple[float, float]:
    if kind == "cloister":
        return (0.5, 0.5)
    if kind == "city":
        if len(ports) == 4:
            return (0.5, 0.5)
        xs = [_SIDE_XY[p] for p in ports]
        x, y = sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)
        if len(ports) == 2 and abs(x - 0.5) < 0.01 and abs(y - 0.5) < 0.01:
            return (0.5, 0.5)
        # pull towards the edge so the knight stands inside the city
        return (0.5 + (x - 0.5) * 0.7, 0.5 + (y - 0.5) * 0.7)
    if kind == "road":
        if len(ports) == 1:
            x, y = _SIDE_XY[ports[0]]
            return (0.5 + (x - 0.5) * 0.55, 0.5 + (y - 0.5) * 0.55)
        a, b = _SIDE_XY[ports[0]], _SIDE_XY[ports[1]]
        if (ports[0] - ports[1]) % 2 == 0:  # straight
            return (0.5, 0.5) if not tile.segments[0].kind == "cloister" else (0.5, 0.75)
        # a curve: the bend's middle, towards the corner
        cx, cy = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        return (0.5 + (cx - 0.5) * 0.6, 0.5 + (cy - 0.5) * 0.6)
    pts = [_HALF_XY[h] for h in ports]
    x, y = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    if abs(x - 0.5) < 0.05 and abs(y - 0.5) < 0.05:
        return (0.2, 0.2) if kind == "field" else (x, y)
    return (0.5 + (x - 0.5) * 0.8, 0.5 + (y - 0.5) * 0.8)


def _four(values: Sequence[T]) -> tuple[T, T, T, T]:
    """One value per side (N E S W)."""
    first, second, third, fourth = values
    return first, second, third, fourth


def _orient(tile: TileType, rot: int) -> Oriented:
    kinds: list[str] = []
    ports: list[tuple[int, ...]] = []
    pennants: list[int] = []
    cities: list[tuple[int, ...]] = []
    side_seg, half_seg = [-1] * 4, [-1] * 8
    for index, seg in enumerate(tile.segments):
        if seg.kind == "field":
            turned = tuple(sorted((h + 2 * rot) % 8 for h in seg.ports))
            for h in turned:
                half_seg[h] = index
        else:
            turned = tuple(sorted((s + rot) % 4 for s in seg.ports))
            for s in turned:
                side_seg[s] = index
        kinds.append(seg.kind)
        ports.append(turned)
        pennants.append(1 if seg.pennant else 0)
        cities.append(seg.cities)
    edges = _four([tile.edges[(s - rot) % 4] for s in range(4)])
    spots = tuple(_spot(k, p, tile, rot) for k, p in zip(kinds, ports))
    signature = (edges, tuple(sorted(zip(kinds, ports, pennants))))
    return Oriented(tile.code, rot, edges, tuple(kinds), tuple(ports), _four(side_seg), tuple(half_seg),
                    tuple(pennants), tuple(tuple(c) for c in cities), spots, signature)


ORIENTED: dict[tuple[str, int], Oriented] = {
    (code, rot): _orient(tile, rot) for code, tile in TILES.items() for rot in range(4)
}


def distinct_rotations(code: str) -> tuple[int, ...]:
    """Rotations of a tile that look different (a cloister tile without a road has one)."""
    seen: set[tuple[Any, ...]] = set()
    result: list[int] = []
    for rot in range(4):
        sig = ORIENTED[(code, rot)].signature
        if sig not in seen:
            seen.add(sig)
            result.append(rot)
    return tuple(result)


DISTINCT_ROTATIONS = {code: distinct_rotations(code) for code in TILES}

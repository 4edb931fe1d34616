"""Carcassonne's tile art, drawn from the engine's segment data (`ORIENTED`).

Walled sand cities with roofs, blue-and-white pennant shields, light roads with dark edges ending
at a village house, a city gate or a chapel, cloister chapels with a cross, the robber mask and
the crop circle: each kind and rotation drawn once large, then scaled and kept per size.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterable
from functools import cache

from PIL import Image, ImageDraw

from games.carcassonne.data import ORIENTED, TILES
from renderers.common import INK, Ink, PackedImages, keep_drawn

Point = tuple[float, float]
"""A point in unit coordinates of a tile (0..1 west to east, north to south), or in pixels."""
Line = list[Point]
CityShape = tuple[Line, list[Line]]
"""A city's outline to fill and the wall lines along its inner edge."""

FIELD = (118, 168, 78)
ROAD = (246, 242, 228)
ROAD_EDGE = (110, 100, 90)
CLOISTER = (178, 60, 50)
PENNANT = (30, 70, 160)
WHITE = (255, 255, 255)
CROP = (232, 214, 120)
ROBBER_MARK = (20, 20, 20)

CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))  # NW NE SE SW
SIDE_CORNERS = ((0, 1), (1, 2), (2, 3), (3, 0))  # corner indexes at the ends of sides N E S W
SIDE_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))

# Drawn once per tile kind and rotation at MASTER px, then scaled (smoothly) to the size wanted
# and kept per (kind, rotation, size).
MASTER = 320
CITY_FILL = (214, 160, 98)
CITY_SHADE = (190, 132, 76)
WALL = (196, 194, 204)  # grey stone, cooler than the sand and the roads
WALL_EDGE = (96, 72, 52)
ROOF = (140, 52, 40)
HOUSE = (244, 232, 206)
GRASS_DARK = (98, 148, 62)
MEADOW = (140, 188, 96)
SHIELD_WHITE = (255, 255, 255)
GATE = (62, 44, 34)


def _turn(point: Point, k: int) -> Point:
    """A point of the unit square turned k quarter turns clockwise."""
    u, v = point
    for _ in range(k % 4):
        u, v = 1 - v, u
    return u, v


def _bezier(p0: Point, control: Point, p2: Point, steps: int = 20) -> Line:
    return [((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * control[0] + t * t * p2[0],
             (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * control[1] + t * t * p2[1])
            for t in (i / steps for i in range(steps + 1))]


def _city_shape(sides: tuple[int, ...]) -> CityShape:
    """(outline, walls) of a city reaching `sides`, in unit coordinates: the outline to fill and
    the wall lines along its inner edge."""
    sides = tuple(sorted(sides))
    if len(sides) == 4:
        return [(0, 0), (1, 0), (1, 1), (0, 1)], []
    outline: Line
    wall: Line | None
    walls: list[Line]
    if len(sides) == 1:  # a cap along one side
        k = sides[0]
        wall = _bezier((1, 0), (0.5, 0.46), (0, 0))
        outline = [(0, 0), (1, 0)] + wall
    elif len(sides) == 3:  # all but a bay at the missing side
        k = (({0, 1, 2, 3} - set(sides)).pop() - 2) % 4
        wall = _bezier((1, 1), (0.5, 0.3), (0, 1))
        outline = [(0, 0), (1, 0)] + wall
    elif (sides[1] - sides[0]) % 2 == 0:  # a band from side to side
        k = 0 if sides == (1, 3) else 1
        top, bottom = _bezier((0, 0), (0.5, 0.56), (1, 0)), _bezier((1, 1), (0.5, 0.44), (0, 1))
        outline = top + bottom
        wall = None
        walls = [top, bottom]
    else:  # two neighbouring sides: the corner between them
        first = sides[0] if (sides[0] + 1) % 4 == sides[1] else sides[1]
        k = (first + 1) % 4
        wall = _bezier((1, 0), (0.6, 0.6), (0, 1))
        outline = [(0, 1), (0, 0), (1, 0)] + wall
    if wall is not None:
        walls = [wall]
    return [_turn(p, k) for p in outline], [[_turn(p, k) for p in line] for line in walls]


def _road_line(sides: tuple[int, ...]) -> Line:
    """A road's centre line in unit coordinates."""
    if len(sides) == 1:
        return [SIDE_MID[sides[0]], (0.5, 0.5)]
    a, b = sides
    if (a - b) % 2 == 0:
        return [SIDE_MID[a], SIDE_MID[b]]
    corner = CORNERS[[c for c in SIDE_CORNERS[a] if c in SIDE_CORNERS[b]][0]]
    start, end = SIDE_MID[a], SIDE_MID[b]
    a0 = math.atan2(start[1] - corner[1], start[0] - corner[0])
    a1 = math.atan2(end[1] - corner[1], end[0] - corner[0])
    if a1 - a0 > math.pi:
        a1 -= 2 * math.pi
    elif a0 - a1 > math.pi:
        a1 += 2 * math.pi
    return [(corner[0] + 0.5 * math.cos(a0 + (a1 - a0) * i / 16), corner[1] + 0.5 * math.sin(a0 + (a1 - a0) * i / 16))
            for i in range(17)]


def _inside(mask: Image.Image, point: Point, radius: float = 0.0) -> bool:
    """Whether a disc round `point` (unit coordinates) lies wholly in the white of `mask`."""
    m = mask.size[0] - 1
    for du, dv in ((0, 0), (radius, 0), (-radius, 0), (0, radius), (0, -radius),
                   (radius * 0.7, radius * 0.7), (-radius * 0.7, radius * 0.7),
                   (radius * 0.7, -radius * 0.7), (-radius * 0.7, -radius * 0.7)):
        u, v = point[0] + du, point[1] + dv
        if not (0 <= u <= 1 and 0 <= v <= 1) or mask_value(mask, (round(u * m), round(v * m))) < 128:
            return False
    return True


def mask_value(mask: Image.Image, xy: tuple[int, int]) -> float:
    """A one-band mask's value at pixel `xy` (0..255 for a grey "L" mask)."""
    value = mask.getpixel(xy)
    if value is None or isinstance(value, tuple):
        raise TypeError(f"A mask has one band, not mode {mask.mode}.")
    return value


_GRID = [(0.1 + 0.8 * i / 8, 0.1 + 0.8 * j / 8) for j in range(9) for i in range(9)]


def _house(draw: ImageDraw.ImageDraw, centre: Point, width: float, *, roof: Ink = ROOF, body: Ink = HOUSE,
           edge: Ink = WALL_EDGE, line: int = 3) -> None:
    """A small house: a wall with a pitched roof (a village where roads meet, or a city roof)."""
    x, y = centre
    h = width * 0.5
    draw.rectangle((x - h, y - h * 0.1, x + h, y + h), fill=body, outline=edge, width=line)
    draw.polygon([(x - h * 1.2, y), (x, y - h * 1.1), (x + h * 1.2, y)], fill=roof, outline=edge, width=line)
    draw.rectangle((x - h * 0.22, y + h * 0.4, x + h * 0.22, y + h), fill=edge)


def _chapel(draw: ImageDraw.ImageDraw, centre: Point, s: float) -> None:
    """A cloister: a chapel on a meadow, red roof and a cross on the gable."""
    x, y = centre
    r = 0.3 * s
    draw.ellipse((x - r, y - r * 0.95, x + r, y + r * 0.95), fill=MEADOW)
    w, h = 0.17 * s, 0.12 * s
    base = y + 0.16 * s
    draw.rectangle((x - w, base - h * 2, x + w, base), fill=HOUSE, outline=WALL_EDGE, width=max(2, int(s / 80)))
    draw.polygon([(x - w * 1.25, base - h * 2), (x, base - h * 3.6), (x + w * 1.25, base - h * 2)], fill=CLOISTER,
                 outline=WALL_EDGE, width=max(2, int(s / 80)))
    top = base - h * 3.6
    bar = max(4, int(s * 0.028))
    draw.rectangle((x - bar / 2, top - 0.13 * s, x + bar / 2, top + 2), fill=INK)
    draw.rectangle((x - 0.045 * s, top - 0.1 * s - bar / 2, x + 0.045 * s, top - 0.1 * s + bar / 2), fill=INK)
    draw.rounded_rectangle((x - w * 0.32, base - h * 1.1, x + w * 0.32, base), radius=w * 0.3, fill=WALL_EDGE)


def _shield(draw: ImageDraw.ImageDraw, centre: Point, s: float) -> None:
    """A pennant: a blue heraldic shield with a white border and a white band."""
    x, y = centre
    w, h = 0.1 * s, 0.12 * s

    def outline(grow: float) -> Line:
        ww, hh = w + grow, h + grow
        return ([(x - ww, y - hh), (x + ww, y - hh), (x + ww, y + hh * 0.15)]
                + _bezier((x + ww, y + hh * 0.15), (x + ww, y + hh * 0.8), (x, y + hh * 1.25), 8)[1:]
                + _bezier((x, y + hh * 1.25), (x - ww, y + hh * 0.8), (x - ww, y + hh * 0.15), 8)[1:])

    draw.polygon(outline(s * 0.03), fill=WALL_EDGE)
    draw.polygon(outline(s * 0.015), fill=SHIELD_WHITE)
    draw.polygon(outline(0), fill=PENNANT)
    draw.rectangle((x - w, y - h * 0.22, x + w, y + h * 0.22), fill=SHIELD_WHITE)


def _robber_mask(draw: ImageDraw.ImageDraw, centre: Point, s: float) -> None:
    """The robber symbol: a black mask with two eye holes."""
    x, y = centre
    r = 0.11 * s
    draw.ellipse((x - r, y - r * 0.62, x + r, y + r * 0.62), fill=ROBBER_MARK, outline=WHITE, width=max(2, int(s / 80)))
    e = r * 0.28
    for dx in (-0.45, 0.45):
        draw.ellipse((x + r * dx - e, y - e, x + r * dx + e, y + e), fill=WHITE)


def _crop_circle(draw: ImageDraw.ImageDraw, centre: Point, s: float) -> None:
    x, y = centre
    line = max(3, int(s / 60))
    for r, fill in ((0.19, CROP), (0.12, FIELD), (0.065, CROP)):
        r *= s
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=ROAD_EDGE, width=line)
    for angle in (90, 210, 330):
        px, py = x + 0.27 * s * math.cos(math.radians(angle)), y - 0.27 * s * math.sin(math.radians(angle))
        r = 0.04 * s
        draw.ellipse((px - r, py - r, px + r, py + r), fill=CROP, outline=ROAD_EDGE, width=line)


@keep_drawn(2 * 2**20)  # 100 KB each: the kinds of the last few turns' close-ups
def _cities(code: str, rot: int) -> tuple[Image.Image, list[tuple[int, CityShape]], tuple[Point, ...]]:
    """The tile's cities at master size: their mask (white inside the walls), each city's
    segment with its outline and walls, and where the pennant shields hang (unit coordinates)."""
    o = ORIENTED[(code, rot)]
    s = MASTER
    city_mask = Image.new("L", (s, s), 0)
    city_draw = ImageDraw.Draw(city_mask)
    cities = [(seg, _city_shape(o.ports[seg])) for seg, kind in enumerate(o.kinds) if kind == "city"]
    for _, (outline, _walls) in cities:
        city_draw.polygon([(u * s, v * s) for u, v in outline], fill=255)
    taken = [o.spots[seg] for seg, _ in cities]
    shields: list[Point] = []
    for seg, _ in cities:
        if o.pennants[seg]:
            spot = o.spots[seg]
            free = [p for p in _GRID if _inside(city_mask, p, 0.16)]
            if free:
                best = max(free, key=lambda p: (min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for q in taken) > 0.08,
                                                -((p[0] - spot[0]) ** 2 + (p[1] - spot[1]) ** 2)))
                shields.append(best)
                taken.append(best)
    return city_mask, cities, tuple(shields)


@cache
def shield_boxes(code: str, rot: int) -> tuple[tuple[float, float, float, float], ...]:
    """Where the tile's pennant shields are drawn, as boxes in unit coordinates (their white and
    dark borders included): a follower's mark is kept off them."""
    return tuple((u - 0.13, v - 0.15, u + 0.13, v + 0.18) for u, v in _cities(code, rot)[2])


def city_mask(code: str, rot: int) -> Image.Image:
    """White inside the tile's city walls, at master size (MASTER px a side)."""
    return _cities(code, rot)[0]


PACKED_MASTERS = PackedImages(2**20, "carcassonne_tiles.packed masters")
"""The masters packed (some 8 KB each: 124 of the 128 kinds and rotations): at a hundred tables the
masters kept as pixels were found 4 % of the time, and unpacking one takes a fourth of drawing it."""


@keep_drawn(2**20)  # 400 KB each: the kinds of the last turn or two (the others unpacked, PACKED_MASTERS)
def _master(code: str, rot: int) -> Image.Image:
    """The tile drawn large from its segments (sides of cities and roads, pennants, cloister,
    robber and crop-circle marks), for scaling down."""
    found = PACKED_MASTERS.unpacked((code, rot))
    return found if found is not None else PACKED_MASTERS.pack((code, rot), _drawn_master(code, rot))


def _drawn_master(code: str, rot: int) -> Image.Image:
    o = ORIENTED[(code, rot)]
    tile_type = TILES[code]
    s = MASTER
    image = Image.new("RGB", (s, s), FIELD)
    draw = ImageDraw.Draw(image)

    def px(points: Iterable[Point]) -> Line:
        return [(u * s, v * s) for u, v in points]

    # grass: a few darker tufts, the same on every tile of the kind
    rng = random.Random(f"{code}{rot}")
    for _ in range(14):
        u, v = rng.uniform(0.06, 0.94), rng.uniform(0.06, 0.94)
        draw.line([(u * s, v * s), (u * s + 5, v * s - 9)], fill=GRASS_DARK, width=3)
        draw.line([(u * s + 7, v * s), (u * s + 9, v * s - 8)], fill=GRASS_DARK, width=3)

    roads = [o.ports[seg] for seg, kind in enumerate(o.kinds) if kind == "road"]
    road_mask = Image.new("L", (s, s), 0)
    mask_draw = ImageDraw.Draw(road_mask)
    for width, fill in ((0.15, ROAD_EDGE), (0.1, ROAD)):
        for sides in roads:
            draw.line(px(_road_line(sides)), fill=fill, width=int(width * s), joint="curve")
            mask_draw.line(px(_road_line(sides)), fill=255, width=int(0.15 * s), joint="curve")
    city_mask, cities, shields = _cities(code, rot)
    for _, (outline, _walls) in cities:
        draw.polygon(px(outline), fill=CITY_FILL)
    # inside the walls: roofs where no knight stands and no shield hangs
    taken = [o.spots[seg] for seg, _ in cities] + list(shields)
    roofs: list[Point] = []
    for p in _GRID[::2]:
        if len(roofs) >= 4 or not _inside(city_mask, p, 0.14):
            continue
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > 0.05 for q in taken + roofs):
            roofs.append(p)
    for p in roofs:
        _house(draw, (p[0] * s, p[1] * s), 0.17 * s, roof=ROOF, body=CITY_SHADE, line=3)
    for _, (_outline, walls) in cities:
        for wall in walls:
            draw.line(px(wall), fill=WALL_EDGE, width=int(0.095 * s), joint="curve")
            draw.line(px(wall), fill=WALL, width=int(0.05 * s), joint="curve")
    ends = [sides[0] for sides in roads if len(sides) == 1]
    for side in ends if cities else ():  # a road that runs into a city ends at a gate in its wall
        (u0, v0), (u1, v1) = SIDE_MID[side], (0.5, 0.5)
        for step in range(1, 21):
            u, v = u0 + (u1 - u0) * step / 20, v0 + (v1 - v0) * step / 20
            if mask_value(city_mask, (min(s - 1, int(u * s)), min(s - 1, int(v * s)))) >= 128:
                du, dv = (u1 - u0) * 2, (v1 - v0) * 2  # unit direction into the city
                pu, pv = -dv, du
                half, deep = 0.085, 0.1
                gate = [(u + pu * half, v + pv * half), (u + pu * half + du * deep, v + pv * half + dv * deep),
                        (u - pu * half + du * deep, v - pv * half + dv * deep), (u - pu * half, v - pv * half)]
                draw.polygon(px(gate), fill=GATE, outline=WALL_EDGE, width=3)
                break
    centre = (s / 2, s / 2)
    if "cloister" in o.kinds:
        _chapel(draw, centre, s)
    elif tile_type.crop_circle:
        _crop_circle(draw, centre, s)
    elif len(ends) >= 3 or (ends and not cities):
        _house(draw, centre, 0.24 * s, line=4)
    for p in shields:
        _shield(draw, (p[0] * s, p[1] * s), s)
    if tile_type.robber:  # the mask in the field, as far from the follower spots as it goes
        field = Image.new("L", (s, s), 255)
        field.paste(0, mask=city_mask)
        field.paste(0, mask=road_mask)
        spots = list(o.spots) + [(0.5, 0.5)]
        free = [p for p in _GRID if _inside(field, p, 0.12)] or _GRID
        best = max(free, key=lambda p: min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for q in spots))
        _robber_mask(draw, (best[0] * s, best[1] * s), s)
    return image


SMALL_TILE = 40  # an overview's tiles (20-32 px) and the smallest halving they are scaled from


def tile_image(code: str, rot: int, size: int) -> Image.Image:
    """The tile's art at `size` px square (kept: a board pastes the same kinds again and again).
    The small tiles (an overview's) are kept apart from the large: at a hundred tables each
    board's close-up pushed every kind's small tiles out (a large tile is 25 to 40 small ones),
    and a small tile missed was scaled anew from halvings pushed out too, down from a master
    drawn anew (some 1 ms)."""
    return _small_tile(code, rot, size) if size <= SMALL_TILE else _large_tile(code, rot, size)


@keep_drawn(2**20)  # every kind at an overview's size or two (4 KB each at 32 px)
def _small_tile(code: str, rot: int, size: int) -> Image.Image:
    return _scaled(code, rot, size)


PACKED_TILES = PackedImages(3 * 2**20, "carcassonne_tiles.packed large tiles")
"""The large tiles of the boards before, packed (9-17 KB each at 134-240 px, a tenth of their
pixels): at a hundred tables a table's kinds at its sizes come back after the other tables'
boards, long pushed out of the tiles kept as pixels; unpacking one takes a tenth to a twentieth
of scaling it from its master."""


# The kinds on the board at its current size (some 13 KB each), and a close-up's (97 KB at 180 px):
# a board composed in its palette pastes them quantized (`carcassonne_landscape.paste_tile`, kept
# apart, a third of the bytes), so these are asked for only when a quantized one is not kept.
@keep_drawn(2**20)
def _large_tile(code: str, rot: int, size: int) -> Image.Image:
    found = PACKED_TILES.unpacked((code, rot, size))
    return found if found is not None else PACKED_TILES.pack((code, rot, size), _scaled(code, rot, size))


def _scaled(code: str, rot: int, size: int) -> Image.Image:
    """The tile's art scaled to `size` px square."""
    if size == MASTER:
        return _master(code, rot)
    if size <= MASTER // 2:
        # From the smallest halving at least as large: a late board's tiles (40-80 px) all come
        # from the 80 px halvings, some 25 KB a kind, which stay kept while the board grows;
        # averaging where the halving is twice as large, a smooth filter where it is less.
        source = MASTER // 2
        while source // 2 >= size and source > 40:
            source //= 2
        smooth = Image.Resampling.BOX if source >= 2 * size else Image.Resampling.LANCZOS
        return halving(code, rot, source).resize((size, size), smooth)
    smooth = Image.Resampling.LANCZOS if size < MASTER else Image.Resampling.BICUBIC
    return _master(code, rot).resize((size, size), smooth)


def halving(code: str, rot: int, size: int) -> Image.Image:
    """The master halved (and halved again) down to `size`: what the small sizes are scaled from.
    The smallest (an overview's source) are kept apart from the larger, as the small tiles are
    (`tile_image`)."""
    return _smallest_halved(code, rot, size) if size <= SMALL_TILE else _halved(code, rot, size)


@keep_drawn(2**20)  # every kind and rotation at 40 px (6 KB each)
def _smallest_halved(code: str, rot: int, size: int) -> Image.Image:
    return _halved(code, rot, size * 2).reduce(2)


PACKED_HALVINGS = PackedImages(2**20, "carcassonne_tiles.packed halvings")
"""The 160 and 80 px halvings of the boards before, packed (some 10 KB at 160 px, a tenth of their
pixels), as the large tiles are (`PACKED_TILES`)."""


@keep_drawn(4 * 2**20)  # the kinds on a board at 160 px (100 KB each) or 80 px (25 KB)
def _halved(code: str, rot: int, size: int) -> Image.Image:
    found = PACKED_HALVINGS.unpacked((code, rot, size))
    if found is not None:
        return found
    source = _master(code, rot) if size * 2 == MASTER else _halved(code, rot, size * 2)
    return PACKED_HALVINGS.pack((code, rot, size), source.reduce(2))

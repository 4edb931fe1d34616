"""Carcassonne board image, phone first: 1080 x 1350 (4:5 upright).

Top: whose turn and what they do, the drawn tile (with the robber or crop-circle mark) and the
tiles left. Middle: the landscape scaled to fit whatever shape it grows to, the last tile
framed, free squares for the drawn tile numbered like the menu, free follower spots ringed.
Bottom: the 50-space score track and one row per player (seat number, name, score, track
space, followers at home, robber). Every follower carries its seat number and a shape for its
role: knight square, thief triangle, monk circle, farmer wide oval.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw

from games.carcassonne.data import ORIENTED, TILES
from i18n import t, translate
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, SEAT_COLOURS, centred_text, font,
                              ink_on, text_width)

WIDTH, HEIGHT = 1080, 1350
HEADER = 170
SIDE_PANEL = 360
FOLLOWER_OF_KIND = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}  # the placing steps: the rotations that fit, or the new tile enlarged with its spots
BOARD_TOP, BOARD_BOTTOM = HEADER + 8, 985
TRACK_TOP = 995
PANEL_TOP = 1115

FIELD = (118, 168, 78)
CITY = (196, 148, 86)
CITY_EDGE = (120, 80, 40)
ROAD = (246, 242, 228)
ROAD_EDGE = (110, 100, 90)
CLOISTER = (178, 60, 50)
PENNANT = (30, 70, 160)
WHITE = (255, 255, 255)
EMPTY = (226, 219, 200)
GRID = (70, 90, 50)
CROP = (232, 214, 120)
ROBBER_MARK = (20, 20, 20)
CANDIDATE = (255, 255, 255)

CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))  # NW NE SE SW
SIDE_CORNERS = ((0, 1), (1, 2), (2, 3), (3, 0))  # corner indexes at the ends of sides N E S W
SIDE_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    seats = view["seats"]
    seat_names = [names[s] if s < len(names) else f"P{s + 1}" for s in range(seats)]
    _header(draw, view, seat_names, lang)
    panel = _placing_panel(view)
    _board(draw, view, right=WIDTH - SIDE_PANEL if panel else WIDTH)
    if panel:
        _side_panel(draw, view, panel, lang)
    _track(draw, view)
    _players(draw, view, seat_names, lang)
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, *SEAT_COLOURS, FIELD, CITY, CITY_EDGE, ROAD, ROAD_EDGE,
             CLOISTER, PENNANT, WHITE, EMPTY, GRID, CROP, ROBBER_MARK, (0, 0, 0), CITY_FILL, CITY_SHADE, WALL,
             WALL_EDGE, ROOF, HOUSE, GRASS_DARK, MEADOW]
    colours = list(dict.fromkeys(tuple(c) for c in exact))
    colours += [(r * 51, g * 51, b * 51) for r in range(6) for g in range(6) for b in range(6)]
    colours = list(dict.fromkeys(colours))
    grey = 0
    while len(colours) < 256:
        grey = (grey + 37) % 256
        colours.append((grey, grey, grey))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours[:256] for channel in colour])
    return palette


def _colour(seat: int):
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _fit_text(draw, text: str, size: int, width: int) -> str:
    if text_width(draw, text, size) <= width:
        return text
    while text and text_width(draw, text + "…", size) > width:
        text = text[:-1]
    return text + "…"


# ----------------------------------------------------------------------------------------
# Header


def _header(draw, view, names, lang) -> None:
    status = translate(view["status"], lang, names)
    size = 38
    lines = _wrap(draw, status, size, WIDTH - 230)
    y = 14
    for line in lines[:2]:
        draw.text((24, y), line, font=font(size), fill=INK)
        y += size + 8
    # seat mark of whoever is asked
    if not view["over"] and view["to_act"]:
        seat = view["to_act"][0]
        _seat_badge(draw, 24, y + 4, seat, 44)
        draw.text((76, y + 4), _fit_text(draw, t(lang, "carcassonne.board.to_act", player=names[seat]), 32,
                                         WIDTH - 330), font=font(32), fill=INK)
    left = t(lang, "carcassonne.board.tiles_left", count=view["pile"])
    box = 132
    bx, by = WIDTH - box - 24, 10
    if view.get("drawn"):
        _tile(draw, bx, by, box, view["drawn"], 0, robber=view["drawn_robber"], crop=view["drawn_crop_circle"])
        draw.rectangle((bx, by, bx + box, by + box), outline=INK, width=3)
    # No tile in hand (it is laid and framed on the board): no empty box either.
    tw = text_width(draw, left, MIN_TEXT)
    draw.text((WIDTH - 24 - tw, by + box + 2), left, font=font(MIN_TEXT), fill=INK)


def _wrap(draw, text: str, size: int, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(draw, trial, size) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if len(lines) > 2:
        lines = [lines[0], _fit_text(draw, " ".join(lines[1:]), size, width)]
    return lines


# ----------------------------------------------------------------------------------------
# Board


def _board(draw, view, right: int = WIDTH) -> None:
    tiles = view["tiles"]
    squares = view.get("squares") or []
    xs = [tile["x"] for tile in tiles] + [sq["x"] for sq in squares]
    ys = [tile["y"] for tile in tiles] + [sq["y"] for sq in squares]
    if view.get("square"):
        xs.append(view["square"]["x"])
        ys.append(view["square"]["y"])
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    avail_w, avail_h = right - 24, BOARD_BOTTOM - BOARD_TOP
    size = max(8, min(190, avail_w // cols, avail_h // rows))
    ox = (right - cols * size) // 2
    oy = BOARD_TOP + (avail_h - rows * size) // 2

    def origin(x, y):
        return ox + (x - min_x) * size, oy + (y - min_y) * size

    for tile in tiles:
        px, py = origin(tile["x"], tile["y"])
        _tile(draw, px, py, size, tile["code"], tile["rot"], robber=tile["robber"], crop=tile["crop_circle"])
    for tile in tiles:
        px, py = origin(tile["x"], tile["y"])
        draw.rectangle((px, py, px + size, py + size), outline=GRID, width=1)
    if tiles and view["phase"] != "over":
        last = tiles[-1]
        px, py = origin(last["x"], last["y"])
        draw.rectangle((px - 2, py - 2, px + size + 2, py + size + 2), outline=HIGHLIGHT, width=max(3, size // 14))
    # free squares for the drawn tile, numbered like the menu
    label = max(MIN_TEXT, min(48, size // 2))
    for sq in squares:
        px, py = origin(sq["x"], sq["y"])
        draw.rectangle((px + 2, py + 2, px + size - 2, py + size - 2), fill=EMPTY, outline=INK, width=2)
        centred_text(draw, (px + size / 2, py + size / 2), str(sq["n"]), label, fill=INK)
    if view.get("square"):
        px, py = origin(view["square"]["x"], view["square"]["y"])
        draw.rectangle((px, py, px + size, py + size), fill=EMPTY, outline=HIGHLIGHT, width=max(4, size // 10))
        centred_text(draw, (px + size / 2, py + size / 2), "?", label, fill=INK)
    # followers
    mark = max(30, int(size * 0.42))
    for m in view["meeples"]:
        px, py = origin(m["x"], m["y"])
        _meeple(draw, px + m["sx"] * size, py + m["sy"] * size, mark, m["seat"], m["kind"])
    for spot in view.get("spots") or []:
        px, py = origin(spot["x"], spot["y"])
        _spot_number(draw, px + spot["sx"] * size, py + spot["sy"] * size, spot["n"], small=True)


def _spot_number(draw, cx: float, cy: float, number: int, *, small: bool = False) -> None:
    """A free follower spot: a white disc with the number its button carries."""
    r = 19 if small else 27
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=3)
    draw.text((cx, cy + 1), str(number), font=font(MIN_TEXT if small else 36), fill=INK, anchor="mm")


def _placing_panel(view) -> str | None:
    """Which placing step wants the side panel: "spots" (a follower) or "rotations"."""
    if view.get("spots"):
        return "spots"
    if view.get("square") and view["square"].get("rots") and view.get("drawn"):
        return "rotations"
    return None


def _side_panel(draw, view, panel: str, lang: str) -> None:
    """Right of the landscape while placing: the choices the buttons name, numbered alike."""
    x0, y0 = WIDTH - SIDE_PANEL + 8, BOARD_TOP + 6
    w = SIDE_PANEL - 24
    draw.rounded_rectangle((x0, y0, x0 + w, BOARD_BOTTOM - 6), radius=14, fill=(250, 246, 236), outline=MUTED,
                           width=2)
    title = t(lang, f"carcassonne.board.panel_{panel}")
    for k, line in enumerate(_wrap(draw, title, 32, w - 24)[:2]):
        draw.text((x0 + 14, y0 + 12 + k * 40), line, font=font(32), fill=INK)
    top = y0 + 100
    if panel == "spots":
        last = view["tiles"][-1]
        size = w - 28
        tx = x0 + 14
        _tile(draw, tx, top, size, last["code"], last["rot"], robber=last["robber"], crop=last["crop_circle"])
        draw.rectangle((tx, top, tx + size, top + size), outline=INK, width=3)
        for spot in view["spots"]:
            _spot_number(draw, tx + spot["sx"] * size, top + spot["sy"] * size, spot["n"])
        y = top + size + 16
        for spot in view["spots"]:  # the follower each spot takes, as its button says
            word = t(lang, f"carcassonne.follower.{FOLLOWER_OF_KIND[spot['kind']]}")
            if y + 40 > BOARD_BOTTOM - 12:
                break
            _spot_number(draw, tx + 22, y + 20, spot["n"], small=True)
            draw.text((tx + 52, y + 20), _fit_text(draw, word, MIN_TEXT, size - 60), font=font(MIN_TEXT), fill=INK,
                      anchor="lm")
            y += 46
        return
    rots = view["square"]["rots"]
    size = (w - 42) // 2
    for k, rot in enumerate(rots):
        col, row = k % 2, k // 2
        tx, ty = x0 + 14 + col * (size + 14), top + row * (size + 50)
        _tile(draw, tx, ty, size, view["drawn"], rot, robber=view["drawn_robber"], crop=view["drawn_crop_circle"])
        draw.rectangle((tx, ty, tx + size, ty + size), outline=INK, width=3)
        draw.text((tx + size / 2, ty + size + 22), str(k + 1), font=font(36), fill=INK, anchor="mm")


def _tile(draw, x: float, y: float, size: int, code: str, rot: int, *, robber=False, crop=False) -> None:
    """Paste the tile's art (its robber or crop-circle mark comes with the kind)."""
    size = int(size)
    draw._image.paste(tile_image(code, rot, size), (int(round(x)), int(round(y))))


# ----------------------------------------------------------------------------------------
# Tile art: drawn once per tile kind and rotation at MASTER px from the engine's segment data,
# then scaled (smoothly) to the size wanted and kept per (kind, rotation, size).

MASTER = 320
CITY_FILL = (214, 160, 98)
CITY_SHADE = (190, 132, 76)
WALL = (214, 204, 182)
WALL_EDGE = (96, 72, 52)
ROOF = (168, 62, 44)
HOUSE = (244, 232, 206)
GRASS_DARK = (98, 148, 62)
MEADOW = (140, 188, 96)
SHIELD_WHITE = (255, 255, 255)


def _turn(point, k: int):
    """A point of the unit square turned k quarter turns clockwise."""
    u, v = point
    for _ in range(k % 4):
        u, v = 1 - v, u
    return u, v


def _bezier(p0, control, p2, steps: int = 20):
    return [((1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * control[0] + t * t * p2[0],
             (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * control[1] + t * t * p2[1])
            for t in (i / steps for i in range(steps + 1))]


def _city_shape(sides: tuple[int, ...]):
    """(outline, walls) of a city reaching `sides`, in unit coordinates: the outline to fill and
    the wall lines along its inner edge."""
    sides = tuple(sorted(sides))
    if len(sides) == 4:
        return [(0, 0), (1, 0), (1, 1), (0, 1)], []
    if len(sides) == 1:  # a cap along one side
        k = sides[0]
        wall = _bezier((1, 0), (0.5, 0.62), (0, 0))
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


def _road_line(sides: tuple[int, ...]):
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


def _inside(mask, point, radius: float = 0.0) -> bool:
    """Whether a disc round `point` (unit coordinates) lies wholly in the white of `mask`."""
    m = mask.size[0] - 1
    for du, dv in ((0, 0), (radius, 0), (-radius, 0), (0, radius), (0, -radius),
                   (radius * 0.7, radius * 0.7), (-radius * 0.7, radius * 0.7),
                   (radius * 0.7, -radius * 0.7), (-radius * 0.7, -radius * 0.7)):
        u, v = point[0] + du, point[1] + dv
        if not (0 <= u <= 1 and 0 <= v <= 1) or mask.getpixel((round(u * m), round(v * m))) < 128:
            return False
    return True


_GRID = [(0.1 + 0.8 * i / 8, 0.1 + 0.8 * j / 8) for j in range(9) for i in range(9)]


def _house(draw, centre, width: float, *, roof=ROOF, body=HOUSE, edge=WALL_EDGE, line: int = 3) -> None:
    """A small house: a wall with a pitched roof (a village where roads meet, or a city roof)."""
    x, y = centre
    h = width * 0.5
    draw.rectangle((x - h, y - h * 0.1, x + h, y + h), fill=body, outline=edge, width=line)
    draw.polygon([(x - h * 1.2, y), (x, y - h * 1.1), (x + h * 1.2, y)], fill=roof, outline=edge, width=line)
    draw.rectangle((x - h * 0.22, y + h * 0.4, x + h * 0.22, y + h), fill=edge)


def _chapel(draw, centre, s: float) -> None:
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


def _shield(draw, centre, s: float) -> None:
    """A pennant: a blue heraldic shield with a white border and a white band."""
    x, y = centre
    w, h = 0.1 * s, 0.12 * s

    def outline(grow: float):
        ww, hh = w + grow, h + grow
        return ([(x - ww, y - hh), (x + ww, y - hh), (x + ww, y + hh * 0.15)]
                + _bezier((x + ww, y + hh * 0.15), (x + ww, y + hh * 0.8), (x, y + hh * 1.25), 8)[1:]
                + _bezier((x, y + hh * 1.25), (x - ww, y + hh * 0.8), (x - ww, y + hh * 0.15), 8)[1:])

    draw.polygon(outline(s * 0.03), fill=WALL_EDGE)
    draw.polygon(outline(s * 0.015), fill=SHIELD_WHITE)
    draw.polygon(outline(0), fill=PENNANT)
    draw.rectangle((x - w, y - h * 0.22, x + w, y + h * 0.22), fill=SHIELD_WHITE)


def _robber_mask(draw, centre, s: float) -> None:
    """The robber symbol: a black mask with two eye holes."""
    x, y = centre
    r = 0.11 * s
    draw.ellipse((x - r, y - r * 0.62, x + r, y + r * 0.62), fill=ROBBER_MARK, outline=WHITE, width=max(2, int(s / 80)))
    e = r * 0.28
    for dx in (-0.45, 0.45):
        draw.ellipse((x + r * dx - e, y - e, x + r * dx + e, y + e), fill=WHITE)


def _crop_circle(draw, centre, s: float) -> None:
    x, y = centre
    line = max(3, int(s / 60))
    for r, fill in ((0.19, CROP), (0.12, FIELD), (0.065, CROP)):
        r *= s
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=ROAD_EDGE, width=line)
    for angle in (90, 210, 330):
        px, py = x + 0.27 * s * math.cos(math.radians(angle)), y - 0.27 * s * math.sin(math.radians(angle))
        r = 0.04 * s
        draw.ellipse((px - r, py - r, px + r, py + r), fill=CROP, outline=ROAD_EDGE, width=line)


@lru_cache(maxsize=None)
def _master(code: str, rot: int) -> Image.Image:
    """The tile drawn large from its segments (sides of cities and roads, pennants, cloister,
    robber and crop-circle marks), for scaling down."""
    o = ORIENTED[(code, rot)]
    tile_type = TILES[code]
    s = MASTER
    image = Image.new("RGB", (s, s), FIELD)
    draw = ImageDraw.Draw(image)

    def px(points):
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
    city_mask = Image.new("L", (s, s), 0)
    city_draw = ImageDraw.Draw(city_mask)
    cities = [(seg, _city_shape(o.ports[seg])) for seg, kind in enumerate(o.kinds) if kind == "city"]
    for seg, (outline, walls) in cities:
        draw.polygon(px(outline), fill=CITY_FILL)
        city_draw.polygon(px(outline), fill=255)
    # inside the walls: roofs where no knight stands and no shield hangs
    taken = [o.spots[seg] for seg, _ in cities]
    shields = []
    for seg, _ in cities:
        if o.pennants[seg]:
            spot = o.spots[seg]
            free = [p for p in _GRID if _inside(city_mask, p, 0.16)]
            if free:
                best = max(free, key=lambda p: (min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for q in taken) > 0.08,
                                                -((p[0] - spot[0]) ** 2 + (p[1] - spot[1]) ** 2)))
                shields.append(best)
                taken.append(best)
    roofs = []
    for p in _GRID[::2]:
        if len(roofs) >= 4 or not _inside(city_mask, p, 0.14):
            continue
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > 0.05 for q in taken + roofs):
            roofs.append(p)
    for p in roofs:
        _house(draw, (p[0] * s, p[1] * s), 0.17 * s, roof=ROOF, body=CITY_SHADE, line=3)
    for seg, (outline, walls) in cities:
        for wall in walls:
            draw.line(px(wall), fill=WALL_EDGE, width=int(0.095 * s), joint="curve")
            draw.line(px(wall), fill=WALL, width=int(0.05 * s), joint="curve")
    ends = [sides[0] for sides in roads if len(sides) == 1]
    centre = (s / 2, s / 2)
    if "cloister" in o.kinds:
        _chapel(draw, centre, s)
    elif tile_type.crop_circle:
        _crop_circle(draw, centre, s)
    elif len(ends) >= 3 or (ends and not cities):
        _house(draw, centre, 0.24 * s, line=4)
    for p in shields:
        _shield(draw, (p[0] * s, p[1] * s), s)
    if tile_type.robber:
        field = Image.new("L", (s, s), 255)
        field.paste(0, mask=city_mask)
        field.paste(0, mask=road_mask)
        spots = list(o.spots) + [(0.5, 0.5)]
        free = [p for p in _GRID if _inside(field, p, 0.12)] or _GRID
        best = max(free, key=lambda p: min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for q in spots))
        _robber_mask(draw, (best[0] * s, best[1] * s), s)
    return image


@lru_cache(maxsize=1024)
def tile_image(code: str, rot: int, size: int) -> Image.Image:
    """The tile's art at `size` px square (kept: a board pastes the same kinds again and again)."""
    master = _master(code, rot)
    if size == MASTER:
        return master
    return master.resize((size, size), Image.Resampling.LANCZOS if size < MASTER else Image.Resampling.BICUBIC)


def _meeple(draw, cx: float, cy: float, size: int, seat: int, kind: str) -> None:
    colour = _colour(seat)
    h = size / 2
    outline = (0, 0, 0)
    if kind == "city":  # knight: square
        draw.rectangle((cx - h, cy - h, cx + h, cy + h), fill=colour, outline=outline, width=2)
    elif kind == "road":  # thief: triangle
        draw.polygon([(cx, cy - h * 1.25), (cx + h * 1.2, cy + h), (cx - h * 1.2, cy + h)], fill=colour,
                     outline=outline, width=2)
    elif kind == "cloister":  # monk: circle
        draw.ellipse((cx - h, cy - h, cx + h, cy + h), fill=colour, outline=outline, width=2)
    else:  # farmer: lying down, a wide oval
        draw.ellipse((cx - h * 1.35, cy - h * 0.8, cx + h * 1.35, cy + h * 0.8), fill=colour, outline=outline,
                     width=2)
    digit = str(seat + 1)
    size_text = max(MIN_TEXT, int(size * 0.8))
    draw.text((cx, cy + (h * 0.15 if kind == "road" else 0)), digit, font=font(size_text), fill=WHITE,
              anchor="mm", stroke_width=2, stroke_fill=(0, 0, 0))


def _seat_badge(draw, x: float, y: float, seat: int, size: int) -> None:
    draw.ellipse((x, y, x + size, y + size), fill=_colour(seat), outline=(0, 0, 0), width=2)
    draw.text((x + size / 2, y + size / 2), str(seat + 1), font=font(max(MIN_TEXT, int(size * 0.7))), fill=WHITE,
              anchor="mm", stroke_width=2, stroke_fill=(0, 0, 0))


# ----------------------------------------------------------------------------------------
# Track and players


def _track(draw, view) -> None:
    spaces = view["track_spaces"]
    per_row = spaces // 2
    cell = (WIDTH - 30) // per_row
    x0 = (WIDTH - cell * per_row) // 2
    row_h = 54
    at: dict[int, list[int]] = {}
    robbers: dict[int, list[int]] = {}
    for p in view["players"]:
        at.setdefault(p["space"], []).append(p["seat"])
        if p["robber"] is not None:
            robbers.setdefault(p["robber"], []).append(p["seat"])
    for space in range(spaces):
        row, col = divmod(space, per_row)
        x, y = x0 + col * cell, TRACK_TOP + row * (row_h + 4)
        seats = at.get(space, [])
        draw.rectangle((x, y, x + cell - 2, y + row_h), fill=(236, 230, 214), outline=MUTED)
        if seats:  # one stripe per figure on the space, in its colour
            stripe = (cell - 2) / len(seats)
            for k, seat in enumerate(seats):
                draw.rectangle((x + k * stripe, y, x + (k + 1) * stripe, y + row_h), fill=_colour(seat))
        if space in robbers:
            draw.rectangle((x, y, x + cell - 2, y + row_h), outline=ROBBER_MARK, width=5)
        if seats:
            # Every figure on the space by its seat number: one per stripe, stacked when many.
            stripe = (cell - 2) / len(seats)
            for k, seat in enumerate(seats):
                if len(seats) <= 2:
                    cx, cy, size = x + (k + 0.5) * stripe, y + row_h / 2, MIN_TEXT
                    if k:  # a dark line between the two, so "1" and "3" never read as "13"
                        draw.line((x + k * stripe, y, x + k * stripe, y + row_h), fill=INK, width=3)
                else:
                    cx, cy, size = x + (cell - 2) / 2, y + (k + 0.5) * row_h / len(seats), MIN_TEXT
                    draw.rectangle((x, y + k * row_h / len(seats), x + cell - 2, y + (k + 1) * row_h / len(seats)),
                                   fill=_colour(seat))
                draw.text((cx, cy), str(seat + 1), font=font(size), fill=ink_on(_colour(seat)), anchor="mm")
        elif space % 5 == 0:
            draw.text((x + cell / 2 - 1, y + row_h / 2), str(space), font=font(MIN_TEXT), fill=MUTED, anchor="mm")


def _players(draw, view, names, lang) -> None:
    players = view["players"]
    rows = len(players)
    height = (HEIGHT - PANEL_TOP - 6) // rows
    size = max(MIN_TEXT, min(40, height - 12))
    for p in players:
        seat = p["seat"]
        y = PANEL_TOP + seat * height
        active = seat in view["to_act"]
        if active:
            draw.rectangle((8, y, WIDTH - 8, y + height - 4), fill=(255, 236, 170))
        _seat_badge(draw, 16, y + (height - 4 - size) / 2, seat, size)
        ty = y + (height - 4) / 2
        draw.text((24 + size, ty), _fit_text(draw, names[seat], size, 330), font=font(size), fill=INK, anchor="lm")
        score = str(p["score"])
        draw.text((390, ty), score, font=font(size + 4), fill=INK, anchor="lm")
        extra = t(lang, "carcassonne.board.followers", count=p["followers"])
        if p["robber"] is None:
            robber = t(lang, "carcassonne.board.robber_home")
        else:
            robber = t(lang, "carcassonne.board.robber_at", space=p["robber"])
        info = f"{t(lang, 'carcassonne.board.space', space=p['space'])} · {extra} · {robber}"
        draw.text((460, ty), _fit_text(draw, info, MIN_TEXT, WIDTH - 470), font=font(MIN_TEXT), fill=INK,
                  anchor="lm")

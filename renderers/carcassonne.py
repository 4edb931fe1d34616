"""Carcassonne board image, phone first: 1080 x 1350 (4:5 upright).

Top: whose turn and what they do, the drawn tile (with the robber or crop-circle mark) and the
tiles left. Middle: the landscape scaled to fill all the room the header, track and player
lines leave, the last tile framed, free squares for the drawn tile numbered like the menu; while
placing, a panel on the right only as wide as it needs shows the rotations that fit or the new
tile enlarged with its free spots, numbered like the buttons. Bottom: the 50-space score track,
every figure on it a numbered chip (robbers black squares ringed in the seat colour), and one
line per player (seat number, name, score, track space, followers at home, robber).

Tiles are drawn from the engine's segment data (`ORIENTED`): walled sand cities with roofs,
blue-and-white pennant shields, light roads with dark edges ending at a village house, a city
gate or a chapel, cloister chapels with a cross, the robber mask and the crop circle; each kind
and rotation once, then kept per size. Every follower carries its seat number and a shape for
its role: knight square, thief triangle, monk circle, farmer wide oval.
"""
from __future__ import annotations

import math
import random
from functools import lru_cache

from PIL import Image, ImageDraw

from games.carcassonne.data import ORIENTED, TILES
from i18n import t, translate
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, SEAT_COLOURS, centred_text, fit,
                              fixed_palette, font, ink_on, keep_drawn, seat_names, text_width, to_palette)

WIDTH, HEIGHT = 1080, 1350
SIDE_PANEL = 360  # the widest the placing panel gets (the enlarged tile with its spots)
PLAYER_PAD = 8
FOLLOWER_OF_KIND = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}  # the placing steps: the rotations that fit, or the new tile enlarged with its spots

FIELD = (118, 168, 78)
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
    names = seat_names(names, view["seats"])
    top = _header(draw, view, names, lang)
    # from the bottom up: player lines, then the score track, and the landscape fills the rest
    players_top = HEIGHT - PLAYER_PAD - len(view["players"]) * _player_row(view)
    track = _track_layout(view)
    track_top = players_top - 10 - track["height"]
    panel = _placing_panel(view)
    panel_width = _panel_width(view, panel, track_top - 10 - top) if panel else 0
    _board(draw, view, top=top, bottom=track_top - 10, right=WIDTH - panel_width)
    if panel:
        _side_panel(draw, view, panel, lang, top=top, bottom=track_top - 10, width=panel_width)
    _track(draw, view, track, track_top)
    _players(draw, view, names, lang, players_top)
    return to_palette(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, *SEAT_COLOURS, FIELD, ROAD, ROAD_EDGE,
             CLOISTER, PENNANT, WHITE, EMPTY, GRID, CROP, ROBBER_MARK, (0, 0, 0), CITY_FILL, CITY_SHADE, WALL,
             WALL_EDGE, ROOF, HOUSE, GRASS_DARK, MEADOW, GATE]
    return fixed_palette(*exact)


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


def _header(draw, view, names, lang) -> int:
    """Whose turn and what they do, the drawn tile and the tiles left; returns where it ends."""
    status = translate(view["status"], lang, names)
    size = 38
    drawn = bool(view.get("drawn"))
    box = 132
    left = t(lang, "carcassonne.board.tiles_left", count=view["pile"])
    tw = text_width(draw, left, MIN_TEXT)
    asked = not view["over"] and bool(view["to_act"])
    if drawn:
        lines = _wrap(draw, status, size, WIDTH - box - 70)
    elif asked:
        lines = _wrap(draw, status, size, WIDTH - 48)
    else:  # the count of tiles left beside the status
        lines = _wrap(draw, status, size, WIDTH - 48 - tw - 24)
    y = 14
    for line in lines[:2]:
        draw.text((24, y), line, font=font(size), fill=INK)
        y += size + 8
    # seat mark of whoever is asked
    if asked:
        seat = view["to_act"][0]
        room = WIDTH - 76 - 24 - (box + 24 if drawn else text_width(draw, left, MIN_TEXT) + 40)
        _seat_badge(draw, 24, y + 4, seat, 44)
        draw.text((76, y + 4), _fit_text(draw, t(lang, "carcassonne.board.to_act", player=names[seat]), 32, room),
                  font=font(32), fill=INK)
        y += 56
    bx, by = WIDTH - box - 24, 10
    if drawn:
        _tile(draw, bx, by, box, view["drawn"], 0, robber=view["drawn_robber"], crop=view["drawn_crop_circle"])
        draw.rectangle((bx, by, bx + box, by + box), outline=INK, width=3)
        draw.text((WIDTH - 24 - tw, by + box + 2), left, font=font(MIN_TEXT), fill=INK)
        return max(y, by + box + 44) + 6
    # No tile in hand (it is laid and framed on the board): no empty box either, the count
    # goes on the line of whose turn it is, or beside the status.
    draw.text((WIDTH - 24 - tw, y - 50 if asked else 20), left, font=font(MIN_TEXT), fill=INK)
    return y + 6


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


def _board(draw, view, *, top: int, bottom: int, right: int = WIDTH) -> None:
    tiles = view["tiles"]
    squares = view.get("squares") or []
    xs = [tile["x"] for tile in tiles] + [sq["x"] for sq in squares]
    ys = [tile["y"] for tile in tiles] + [sq["y"] for sq in squares]
    if view.get("square"):
        xs.append(view["square"]["x"])
        ys.append(view["square"]["y"])
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    cols, rows = max_x - min_x + 1, max_y - min_y + 1
    avail_w, avail_h = right - 24, bottom - top
    size = max(8, min(240, avail_w // cols, avail_h // rows))
    ox = (right - cols * size) // 2
    oy = top + (avail_h - rows * size) // 2

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
    spots = view.get("spots") or []
    # on the laid tile the free spots numbered as on the buttons, if their numbers have room;
    # else white dots (the enlarged tile beside the landscape numbers them)
    roomy = all((a["sx"] - b["sx"]) ** 2 + (a["sy"] - b["sy"]) ** 2 >= (42 / size) ** 2
                for k, a in enumerate(spots) for b in spots[k + 1:])
    for spot in spots:
        px, py = origin(spot["x"], spot["y"])
        cx, cy = px + spot["sx"] * size, py + spot["sy"] * size
        if roomy:
            _spot_number(draw, cx, cy, spot["n"], small=True)
        else:
            r = max(5, size // 12)
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)


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


def _spread(points: list[tuple[float, float]], gap: float, size: float) -> list[tuple[float, float]]:
    """The points nudged apart until each is `gap` from the others (numbered discs that would
    cover each other), kept inside a square of `size`."""
    points = [list(p) for p in points]
    for _ in range(30):
        moved = False
        for i, a in enumerate(points):
            for b in points[i + 1:]:
                dx, dy = b[0] - a[0], b[1] - a[1]
                dist = math.hypot(dx, dy)
                if dist >= gap:
                    continue
                if dist < 1e-6:
                    dx, dy, dist = 1.0, 0.0, 1.0
                push = (gap - dist) / 2 + 0.5
                for p, sign in ((a, -1), (b, 1)):
                    p[0] = min(max(p[0] + sign * dx / dist * push, gap / 2), size - gap / 2)
                    p[1] = min(max(p[1] + sign * dy / dist * push, gap / 2), size - gap / 2)
                moved = True
        if not moved:
            break
    return [(x, y) for x, y in points]


PANEL_TITLE = 24 + 2 * 40  # the panel's heading: two lines at most


def _panel_width(view, panel: str, height: int) -> int:
    """The placing panel only as wide as what it shows: the enlarged tile with its spots, or
    the rotations that fit, in one column or two, whichever shows them larger."""
    if panel == "spots":
        return SIDE_PANEL - 40
    count = len(view["square"]["rots"])
    return max((250, SIDE_PANEL - 20), key=lambda width: _rotation_size(width, count, height)[0])


def _rotation_size(width: int, count: int, height: int) -> tuple[int, int]:
    """(tile size, columns) of the rotations in a panel `width` wide and `height` high."""
    inner = width - 24 - 28
    cols = 1 if width < 300 else 2
    rows = (count + cols - 1) // cols
    return max(40, min((inner - 14 * (cols - 1)) // cols, (height - PANEL_TITLE - 24) // rows - 50)), cols


def _side_panel(draw, view, panel: str, lang: str, *, top: int, bottom: int, width: int) -> None:
    """Right of the landscape while placing: the choices the buttons name, numbered alike."""
    x0, y0 = WIDTH - width + 8, top + 6
    w = width - 24
    draw.rounded_rectangle((x0, y0, x0 + w, bottom - 6), radius=14, fill=(250, 246, 236), outline=MUTED,
                           width=2)
    title = t(lang, f"carcassonne.board.panel_{panel}")
    lines = _wrap(draw, title, 32, w - 24)[:2]
    for k, line in enumerate(lines):
        draw.text((x0 + 14, y0 + 12 + k * 40), line, font=font(32), fill=INK)
    top = y0 + 24 + 40 * len(lines)
    if panel == "spots":
        last = view["tiles"][-1]
        size = w - 28
        tx = x0 + 14
        _tile(draw, tx, top, size, last["code"], last["rot"], robber=last["robber"], crop=last["crop_circle"])
        draw.rectangle((tx, top, tx + size, top + size), outline=INK, width=3)
        places = _spread([(spot["sx"] * size, spot["sy"] * size) for spot in view["spots"]], 58, size)
        for spot, (sx, sy) in zip(view["spots"], places):
            _spot_number(draw, tx + sx, top + sy, spot["n"])
        y = top + size + 16
        for spot in view["spots"]:  # the follower each spot takes, as its button says
            word = t(lang, f"carcassonne.follower.{FOLLOWER_OF_KIND[spot['kind']]}")
            if y + 40 > bottom - 12:
                break
            _spot_number(draw, tx + 22, y + 20, spot["n"], small=True)
            draw.text((tx + 52, y + 20), _fit_text(draw, word, MIN_TEXT, size - 60), font=font(MIN_TEXT), fill=INK,
                      anchor="lm")
            y += 46
        return
    rots = view["square"]["rots"]
    size, cols = _rotation_size(width, len(rots), bottom - y0)
    for k, rot in enumerate(rots):
        col, row = k % cols, k // cols
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
WALL = (196, 194, 204)  # grey stone, cooler than the sand and the roads
WALL_EDGE = (96, 72, 52)
ROOF = (140, 52, 40)
HOUSE = (244, 232, 206)
GRASS_DARK = (98, 148, 62)
MEADOW = (140, 188, 96)
SHIELD_WHITE = (255, 255, 255)
GATE = (62, 44, 34)


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


@keep_drawn(2 * 2**20)  # 400 KB each: the kinds of the last few turns (redrawing one takes ~1 ms)
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
    for side in ends if cities else ():  # a road that runs into a city ends at a gate in its wall
        (u0, v0), (u1, v1) = SIDE_MID[side], (0.5, 0.5)
        for step in range(1, 21):
            u, v = u0 + (u1 - u0) * step / 20, v0 + (v1 - v0) * step / 20
            if city_mask.getpixel((min(s - 1, int(u * s)), min(s - 1, int(v * s)))) >= 128:
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


@keep_drawn(3 * 2**20)  # the kinds on the board at its current size (some 13 KB each), and a few large
def tile_image(code: str, rot: int, size: int) -> Image.Image:
    """The tile's art at `size` px square (kept: a board pastes the same kinds again and again)."""
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
        return _halved(code, rot, source).resize((size, size), smooth)
    smooth = Image.Resampling.LANCZOS if size < MASTER else Image.Resampling.BICUBIC
    return _master(code, rot).resize((size, size), smooth)


@keep_drawn(6 * 2**20)  # every kind and rotation on a board at 160 px (100 KB each) or 80 px (25 KB)
def _halved(code: str, rot: int, size: int) -> Image.Image:
    """The master halved (and halved again) down to `size`: what the small sizes are scaled from."""
    source = _master(code, rot) if size * 2 == MASTER else _halved(code, rot, size * 2)
    return source.reduce(2)


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


TRACK_COLUMNS = 25
CELL = (WIDTH - 30) // TRACK_COLUMNS
TRACK_X = (WIDTH - CELL * TRACK_COLUMNS) // 2
CELL_H = 42
CHIP = 40  # a figure's chip on the track: its pitch (the disc is 2 px narrower)
POINTER = 8  # between a row of spaces and the chips that point into it


def _track_layout(view) -> dict:
    """Where every figure on the score track goes: the 50 spaces in two rows of 25, and over
    the first row / under the second, each space's figures as a row of numbered chips (every
    player, then every robber), in as many lanes as needed so no chip covers another."""
    figures: dict[int, list[tuple[str, int]]] = {}
    for p in view["players"]:
        figures.setdefault(p["space"], []).append(("player", p["seat"]))
    for p in view["players"]:
        if p["robber"] is not None:
            figures.setdefault(p["robber"], []).append(("robber", p["seat"]))
    chains: list[dict] = []
    lanes_of_row = []
    right = TRACK_X + TRACK_COLUMNS * CELL
    for row in (0, 1):
        lane_ends: list[float] = []
        for space in sorted(figures):
            if space // TRACK_COLUMNS != row:
                continue
            group = figures[space]
            centre = TRACK_X + (space % TRACK_COLUMNS) * CELL + CELL / 2
            width = len(group) * CHIP
            left = min(max(centre - width / 2, TRACK_X), right - width)
            lane = next((k for k, end in enumerate(lane_ends) if left >= end + 2), len(lane_ends))
            if lane == len(lane_ends):
                lane_ends.append(left + width)
            else:
                lane_ends[lane] = left + width
            chains.append({"row": row, "space": space, "left": left, "lane": lane, "figures": group,
                           "centre": centre})
        lanes_of_row.append(max(1 - row, len(lane_ends)))  # the first row's lane stays (all start on 0)
    height = (lanes_of_row[0] * CHIP + POINTER + 2 * CELL_H + 4
              + (POINTER + lanes_of_row[1] * CHIP if lanes_of_row[1] else 0))
    return {"chains": chains, "lanes": lanes_of_row, "height": height}


def _track(draw, view, layout: dict, top: int) -> None:
    spaces = view["track_spaces"]
    cells_top = (top + layout["lanes"][0] * CHIP + POINTER, top + layout["lanes"][0] * CHIP + POINTER + CELL_H + 4)
    taken = {chain["space"] for chain in layout["chains"]}
    for space in range(spaces):
        row, col = divmod(space, TRACK_COLUMNS)
        x, y = TRACK_X + col * CELL, cells_top[row]
        busy = space in taken
        draw.rectangle((x, y, x + CELL - 2, y + CELL_H), fill=(255, 236, 170) if busy else (236, 230, 214),
                       outline=INK if busy else MUTED, width=3 if busy else 1)
        if space % 5 == 0:
            draw.text((x + CELL / 2 - 1, y + CELL_H / 2), str(space), font=font(MIN_TEXT), fill=MUTED, anchor="mm")

    def chain_y(chain) -> float:
        """The top of a chain's chips."""
        if chain["row"] == 0:
            return cells_top[0] - POINTER - (chain["lane"] + 1) * CHIP
        return cells_top[1] + CELL_H + POINTER + chain["lane"] * CHIP

    for chain in layout["chains"]:  # a pointer from the space to its chips, under the chips
        y = chain_y(chain)
        width = len(chain["figures"]) * CHIP
        cx = min(max(chain["centre"], chain["left"] + CHIP / 2), chain["left"] + width - CHIP / 2)
        if chain["row"] == 0:
            start, end = (chain["centre"], cells_top[0]), (cx, y + CHIP / 2)
        else:
            start, end = (chain["centre"], cells_top[1] + CELL_H), (cx, y + CHIP / 2)
        draw.line([start, end], fill=INK, width=3)
    for chain in layout["chains"]:
        y = chain_y(chain)
        for k, (what, seat) in enumerate(chain["figures"]):
            x = chain["left"] + k * CHIP
            _track_chip(draw, x + CHIP / 2, y + CHIP / 2, seat, robber=what == "robber")


def _track_chip(draw, cx: float, cy: float, seat: int, *, robber: bool) -> None:
    """A figure on the track: the player's score disc in the seat colour, or the player's
    robber as a black square ringed in the seat colour; both carry the seat number."""
    r = CHIP / 2 - 1
    colour = _colour(seat)
    if robber:
        draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=6, fill=ROBBER_MARK, outline=colour, width=5)
        fill = WHITE
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        fill = ink_on(colour)
    draw.text((cx, cy), str(seat + 1), font=font(MIN_TEXT), fill=fill, anchor="mm")


def _player_row(view) -> int:
    return 50 if len(view["players"]) <= 3 else 44


def _players(draw, view, names, lang, top: int) -> None:
    """One line per player: seat badge, name, score, track space, followers at home, robber."""
    height = _player_row(view)
    size = 32
    for p in view["players"]:
        seat = p["seat"]
        y = top + seat * height
        if seat in view["to_act"]:
            draw.rectangle((8, y, WIDTH - 8, y + height - 2), fill=(255, 236, 170))
        ty = y + (height - 2) / 2
        _seat_badge(draw, 14, ty - 18, seat, 36)
        name, name_size = fit(names[seat], size, 290)
        draw.text((58, ty), name, font=font(name_size), fill=INK, anchor="lm")
        draw.text((420, ty), str(p["score"]), font=font(36), fill=INK, anchor="rm")
        extra = t(lang, "carcassonne.board.followers", count=p["followers"])
        if p["robber"] is None:
            robber = t(lang, "carcassonne.board.robber_home")
        else:
            robber = t(lang, "carcassonne.board.robber_at", space=p["robber"])
        info = f"{t(lang, 'carcassonne.board.space', space=p['space'])} · {extra} · {robber}"
        info, info_size = fit(info, MIN_TEXT, WIDTH - 446)
        draw.text((438, ty), info, font=font(info_size), fill=INK, anchor="lm")

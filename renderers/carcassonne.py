"""Carcassonne board image, phone first: 1080 x 1350 (4:5 upright).

Top: whose turn and what they do, the drawn tile (with the robber or crop-circle mark) and the
tiles left. Middle: the landscape scaled to fit whatever shape it grows to, the last tile
framed, free squares for the drawn tile numbered like the menu, free follower spots ringed.
Bottom: the 50-space score track and one row per player (seat number, name, score, track
space, followers at home, robber). Every follower carries its seat number and a shape for its
role: knight square, thief triangle, monk circle, farmer wide oval.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.carcassonne.data import ORIENTED
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
             CLOISTER, PENNANT, WHITE, EMPTY, GRID, CROP, ROBBER_MARK, (0, 0, 0)]
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
    o = ORIENTED[(code, rot)]
    s = size
    draw.rectangle((x, y, x + s, y + s), fill=FIELD)

    def pt(u, v):
        return (x + u * s, y + v * s)

    centre = pt(0.5, 0.5)
    for seg, kind in enumerate(o.kinds):
        if kind != "city":
            continue
        sides = o.ports[seg]
        if len(sides) == 1:
            side = sides[0]
            a, b = SIDE_CORNERS[side]
            ca, cb = CORNERS[a], CORNERS[b]
            mid = SIDE_MID[side]
            inner = (0.5 + (mid[0] - 0.5) * 0.4, 0.5 + (mid[1] - 0.5) * 0.4)
            poly = [pt(*ca), pt(*cb), pt((cb[0] + inner[0]) / 2, (cb[1] + inner[1]) / 2), pt(*inner),
                    pt((ca[0] + inner[0]) / 2, (ca[1] + inner[1]) / 2)]
            draw.polygon(poly, fill=CITY, outline=CITY_EDGE)
        else:
            for side in sides:
                a, b = SIDE_CORNERS[side]
                draw.polygon([pt(*CORNERS[a]), pt(*CORNERS[b]), centre], fill=CITY)
            for side in sides:  # fill corners between two city sides
                nxt = (side + 1) % 4
                if nxt in sides:
                    corner = CORNERS[SIDE_CORNERS[side][1]]
                    draw.polygon([pt(*SIDE_MID[side]), pt(*corner), pt(*SIDE_MID[nxt]), centre], fill=CITY)
            if len(sides) == 2 and (sides[0] - sides[1]) % 2 == 0:  # a band across
                sa, sb = sides
                if sa in (1, 3):
                    draw.polygon([pt(0, 0.3), pt(1, 0.3), pt(1, 0.7), pt(0, 0.7)], fill=CITY)
                else:
                    draw.polygon([pt(0.3, 0), pt(0.7, 0), pt(0.7, 1), pt(0.3, 1)], fill=CITY)
        if o.pennants[seg]:
            sx, sy = o.spots[seg]
            px, py = pt(0.5 + (sx - 0.5) * 0.3 + 0.12, 0.5 + (sy - 0.5) * 0.3 - 0.12)
            r = s * 0.08
            draw.polygon([(px - r, py - r), (px + r, py - r), (px + r, py + r * 0.3), (px, py + r * 1.3),
                          (px - r, py + r * 0.3)], fill=PENNANT, outline=WHITE)
    width = max(2, int(s * 0.11))
    for seg, kind in enumerate(o.kinds):
        if kind != "road":
            continue
        sides = o.ports[seg]
        if len(sides) == 2:
            a, b = pt(*SIDE_MID[sides[0]]), pt(*SIDE_MID[sides[1]])
            if (sides[0] - sides[1]) % 2 == 0:
                draw.line([a, b], fill=ROAD, width=width)
            else:  # a curve: a quarter circle round the corner the two sides share
                import math

                corner = CORNERS[[c for c in SIDE_CORNERS[sides[0]] if c in SIDE_CORNERS[sides[1]]][0]]
                cx, cy = pt(*corner)
                angles = sorted(math.degrees(math.atan2(p[1] - cy, p[0] - cx)) % 360 for p in (a, b))
                start, end = angles if angles[1] - angles[0] <= 180 else (angles[1], angles[0])
                r = s * 0.5
                draw.arc((cx - r, cy - r, cx + r, cy + r), start, end, fill=ROAD, width=width)
        else:
            draw.line([pt(*SIDE_MID[sides[0]]), centre], fill=ROAD, width=width)
    ends = sum(1 for k, p in zip(o.kinds, o.ports) if k == "road" and len(p) == 1)
    if ends >= 3 or (ends and not crop and "cloister" not in o.kinds and "city" not in o.kinds):
        r = s * 0.09
        draw.rectangle((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), fill=ROAD_EDGE)
    if "cloister" in o.kinds:
        r = s * 0.17
        draw.rectangle((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), fill=CLOISTER, outline=WHITE)
        draw.line([(centre[0], centre[1] - r * 0.7), (centre[0], centre[1] + r * 0.7)], fill=WHITE, width=max(1, s // 40))
        draw.line([(centre[0] - r * 0.5, centre[1] - r * 0.2), (centre[0] + r * 0.5, centre[1] - r * 0.2)],
                  fill=WHITE, width=max(1, s // 40))
    if crop:
        r = s * 0.16
        draw.ellipse((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), fill=CROP, outline=ROAD_EDGE,
                     width=max(1, s // 30))
        r2 = r * 0.45
        draw.ellipse((centre[0] - r2, centre[1] - r2, centre[0] + r2, centre[1] + r2), outline=ROAD_EDGE,
                     width=max(1, s // 40))
    if robber:
        # the robber symbol: a black mask in the south-east corner
        cx, cy = pt(0.82, 0.82)
        r = s * 0.1
        draw.ellipse((cx - r, cy - r * 0.6, cx + r, cy + r * 0.6), fill=ROBBER_MARK)
        e = r * 0.3
        draw.ellipse((cx - r * 0.5 - e, cy - e, cx - r * 0.5 + e, cy + e), fill=WHITE)
        draw.ellipse((cx + r * 0.5 - e, cy - e, cx + r * 0.5 + e, cy + e), fill=WHITE)


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

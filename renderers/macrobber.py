"""Mac Robber board renderer: draws only what a view (public or a seat's) holds.

Phone first: an upright 1080 x 1350 image. From the top: the status line, round, bag, estates
left and the red zone; the current display of cubes and who holds Biggest Following; the score
track with the red zone and a numbered disc per clan; one panel per clan (seat number disc, name,
score large, start player and Biggest Following marks, raid cards held, courtyard counts of
warriors, pipers and monks, and six estate places: free, cattle, castle, monastery or not yet
acquired); then the raid's revealed rounds, the last round's scoring and the viewer's own cards.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import t, translate
from renderers.common import BACKGROUND, HIGHLIGHT, INK, MUTED, SEAT_COLOURS, fit, font, seat_badge, seat_names, wrap

WIDTH, HEIGHT = 1080, 1350
MARGIN = 18
SMALL = 28            # the smallest text: more than 1/40 of the width
PANEL = (236, 229, 214)
ACTIVE = (255, 244, 205)
SLOT = (214, 206, 190)
RED_ZONE = (226, 120, 110)
ESTATE = (196, 220, 160)
CUBE = {"y": (236, 196, 40), "b": (52, 104, 204), "g": (58, 150, 72), "r": (196, 48, 40)}
COLOURS = ("y", "b", "g", "r")
P = "macrobber."
TRACK_MAX = 50


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    seats = view["seats"]
    who = seat_names(names, seats)
    y = _header(draw, view, who, lang)
    y = _display(draw, view, who, lang, y)
    y = _track(draw, view, lang, y)
    bottom = _bottom_height(view)
    y = _players(draw, view, who, lang, y, HEIGHT - bottom - MARGIN)
    _bottom(draw, view, who, lang, y + 6)
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: the board's own colours first, then a colour cube and greys (a fixed
    palette quantizes several times faster than a median cut)."""
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, (255, 255, 255), PANEL, ACTIVE, SLOT, RED_ZONE, ESTATE, (150, 40, 30),
             *CUBE.values(), *SEAT_COLOURS]
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


def _header(draw, view, who, lang) -> int:
    status = translate(view["status"], lang, who)
    lines = wrap(status, 38, WIDTH - 2 * MARGIN)[:2]
    y = MARGIN
    for line in lines:
        draw.text((MARGIN, y), line, font=font(38), fill=INK)
        y += 46
    facts = "   ".join([t(lang, P + "board.round", round=view["round"]),
                        t(lang, P + "board.bag", count=view["bag"]),
                        t(lang, P + "board.estates_left", count=view["estates_left"])])
    if view["revealed"]:
        facts += "   " + t(lang, P + "board.revealed", numbers=", ".join(map(str, view["revealed"])))
    text, size = fit(facts, 30, WIDTH - 2 * MARGIN)
    draw.text((MARGIN, y + 4), text, font=font(size), fill=MUTED)
    return y + 46


def _cube(draw, x, y, size, colour, label: str = "") -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), radius=size // 6, fill=CUBE[colour], outline=INK, width=2)
    if label:
        ink = INK if colour == "y" else (255, 255, 255)
        draw.text((x + size / 2, y + size / 2), label, font=font(max(SMALL, int(size * 0.6))), fill=ink, anchor="mm")


def _display(draw, view, who, lang, y) -> int:
    draw.text((MARGIN, y + 14), t(lang, P + "board.display"), font=font(32), fill=INK)
    x = MARGIN + 170
    marked = list(view["marked"])
    for c, colour in enumerate(COLOURS):
        for index in range(view["display"][c]):
            _cube(draw, x, y + 6, 56, colour)
            if index < marked[c]:
                draw.line((x + 4, y + 10, x + 52, y + 58), fill=INK, width=5)
            x += 64
    follower = view["follower"]
    label = t(lang, P + "board.follower")
    text, size = fit(label, 28, 300)
    fx = WIDTH - MARGIN - 330
    draw.text((fx, y + 20), text, font=font(size), fill=INK)
    if follower is not None:
        seat_badge(draw, (WIDTH - MARGIN - 24, y + 36), 24, follower)
    else:
        draw.text((WIDTH - MARGIN - 24, y + 36), "-", font=font(32), fill=MUTED, anchor="mm")
    return y + 76


def _track(draw, view, lang, y) -> int:
    left, right = MARGIN + 10, WIDTH - MARGIN - 10
    top = y + 28
    span = right - left
    zone = view["red_zone"]
    draw.rectangle((left, top, right, top + 22), fill=SLOT, outline=INK)
    zx = left + span * zone / TRACK_MAX
    draw.rectangle((zx, top, right, top + 22), fill=RED_ZONE, outline=INK)
    for mark in range(0, TRACK_MAX + 1, 10):
        mx = left + span * mark / TRACK_MAX
        draw.line((mx, top, mx, top + 22), fill=INK, width=2)
        draw.text((mx, top - 2), str(mark), font=font(SMALL), fill=MUTED, anchor="mb")
    text = t(lang, P + "board.red_zone", points=zone)
    draw.text((right, top + 26), text, font=font(SMALL), fill=(150, 40, 30), anchor="ra")
    rows: list[list[float]] = []  # the x of each disc, row by row, so that discs never overlap
    for seat, player in enumerate(view["players"]):
        score = max(0, min(TRACK_MAX, player["score"]))
        x = left + span * score / TRACK_MAX
        row = next((i for i, xs in enumerate(rows) if all(abs(x - other) >= 40 for other in xs)), len(rows))
        if row == len(rows):
            rows.append([])
        rows[row].append(x)
        seat_badge(draw, (x, top + 44 + 38 * row), 19, seat)
    return top + 44 + 38 * len(rows) - 10


def _players(draw, view, who, lang, top, bottom) -> int:
    seats = view["seats"]
    height = min(300, (bottom - top) // seats)
    active = set(view["to_act"]) if not view["over"] else set(view["winners"] or [])
    for seat, player in enumerate(view["players"]):
        y = top + seat * height
        h = height - 8
        fill = ACTIVE if seat in active else PANEL
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + h), radius=14, fill=fill,
                               outline=HIGHLIGHT if seat == view["active"] and not view["over"] else MUTED, width=3)
        seat_badge(draw, (MARGIN + 36, y + 36), 26, seat)
        name, size = fit(who[seat], 34, 300)
        draw.text((MARGIN + 74, y + 12), name, font=font(size), fill=INK)
        draw.text((WIDTH - MARGIN - 16, y + 6), str(player["score"]), font=font(56), fill=INK, anchor="ra")
        marks = []
        if seat == view["start"]:
            marks.append(t(lang, P + "board.start"))
        if seat == view["follower"]:
            marks.append(t(lang, P + "board.follower"))
        marks.append(t(lang, P + "board.cards", count=player["cards"]))
        text, size = fit(" · ".join(marks), SMALL, 500)
        draw.text((MARGIN + 390, y + 18), text, font=font(size), fill=MUTED)
        yard = player["courtyard"]
        row = y + 66
        cube = min(84, max(36, h - (row - y) - (50 if h >= 200 else 16)))
        # courtyard: warriors, pipers, monks with counts written on the cubes
        x = MARGIN + 16
        for c, colour in enumerate(("y", "b", "g")):
            _cube(draw, x, row, cube, colour, str(yard[c]))
            x += cube + 8
        legend = t(lang, P + "board.courtyard", y=yard[0], b=yard[1], g=yard[2])
        if h >= 200:
            draw.text((MARGIN + 16, row + cube + 6), legend, font=font(SMALL), fill=MUTED)
        # estates: six places
        x = MARGIN + 16 + 3 * (cube + 8) + 20
        estates = player["estates"]
        width = (WIDTH - MARGIN - 110 - x) / 6
        for index in range(6):
            ex = x + index * width
            box = (ex, row - 4, ex + width - 8, row + cube + 4)
            if index >= len(estates):
                draw.rounded_rectangle(box, radius=8, outline=SLOT, width=3)
                continue
            kind = estates[index]
            draw.rounded_rectangle(box, radius=8, fill=ESTATE, outline=INK, width=2)
            cx = (box[0] + box[2]) / 2
            if kind == "":
                draw.text((cx, row + cube / 2), t(lang, P + "board.free"), font=font(SMALL), fill=MUTED, anchor="mm")
                continue
            colour, count = {"cattle": ("r", 1), "castle": ("b", 2), "monastery": ("g", 3)}[kind]
            small = int(cube * 0.4)
            total = count * small + (count - 1) * 3
            sx = cx - total / 2
            for k in range(count):
                _cube(draw, sx + k * (small + 3), row, small, colour)
            word, wsize = fit(t(lang, P + "board." + kind), SMALL, width - 10)
            draw.text((cx, row + cube + 3), word, font=font(wsize), fill=INK, anchor="mb")
    return top + seats * height


def _raid_row(draw, y, number, raid, attack: str, defence: str, mark: str) -> None:
    """One combat round: number, the attacker's disc and value, the verdict, the defender's."""
    x = MARGIN + 20
    draw.text((x, y), f"{number}:", font=font(32), fill=INK)
    seat_badge(draw, (x + 66, y + 18), 16, raid["attacker"])
    draw.text((x + 92, y), attack, font=font(32), fill=INK)
    draw.text((x + 500, y), mark, font=font(32), fill=INK, anchor="ma")
    seat_badge(draw, (x + 560, y + 18), 16, raid["defender"])
    draw.text((x + 586, y), defence, font=font(32), fill=INK)


def _bottom_height(view) -> int:
    height = 0
    if view["raid"] is not None:
        height += 60 + 40 * max(1, len(view["raid"]["rounds"]) + (1 if view["raid"]["played"] else 0))
    if view["last_scoring"]:
        height += 50 + 36 * ((view["seats"] + 1) // 2)
    if view.get("private"):
        height += 50
    return min(height, 420)


def _bottom(draw, view, who, lang, y) -> None:
    raid = view["raid"]
    if raid is not None:
        head = t(lang, P + "board.raid", attacker=who[raid["attacker"]], defender=who[raid["defender"]])
        text, size = fit(head, 34, WIDTH - 2 * MARGIN)
        draw.text((MARGIN, y), text, font=font(size), fill=INK)
        y += 46
        for number, (a, ap, d, dp) in enumerate(raid["rounds"], 1):
            _raid_row(draw, y, number, raid, f"{a}{' +1' if ap else ''}", f"{d}{' +1' if dp else ''}",
                      "<" if a + ap < d + dp else (">" if a + ap > d + dp else "="))
            y += 40
        if raid["played"]:
            face = t(lang, P + "board.face_down") + (" +1" if raid["piper"] else "")
            _raid_row(draw, y, len(raid["rounds"]) + 1, raid, face, "…", "")
            y += 40
        y += 10
    scoring = view["last_scoring"]
    if scoring:
        draw.text((MARGIN, y), t(lang, P + "board.scoring", round=scoring["round"]), font=font(30), fill=INK)
        y += 42
        col = (WIDTH - 2 * MARGIN) // 2
        for seat, row in enumerate(scoring["rows"]):
            x = MARGIN + (seat % 2) * col
            yy = y + (seat // 2) * 36
            seat_badge(draw, (x + 16, yy + 16), 15, seat)
            draw.text((x + 40, yy), f"{row['green']} / {row['red']} / {row['blue']} = +{row['total']}",
                      font=font(SMALL), fill=INK)
        y += 36 * ((view["seats"] + 1) // 2) + 8
    private = view.get("private")
    if private:
        hand = ", ".join(map(str, private["hand"])) or "-"
        text, size = fit(t(lang, P + "board.you", cards=hand), 32, WIDTH - 2 * MARGIN)
        draw.text((MARGIN, min(y, HEIGHT - 46)), text, font=font(size), fill=INK)

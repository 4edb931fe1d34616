"""Die Glücksritter board renderer: draws only what a view (public or a seat's) holds.

Phone first: an upright 1080 x 1350 image. From the top: the round, the Ducat card, the sack and
the status line; the six fields (coins by kind on 5 and 6, who played each card after the reveal,
the dungeon on field 4); one row per player (seat number in a coloured disc, Ducats large,
silver and gold, walls and towers of the building site, documents held, their choice or cards);
then the haggle or the raid, the viewer's own documents (a seat's view only) and the latest
events, which take whatever room the player rows leave.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import t, translate
from renderers.common import BACKGROUND, HIGHLIGHT, INK, MUTED, SEAT_COLOURS, font
from renderers.common import text_width as _measure

WIDTH, HEIGHT = 1080, 1350
MARGIN = 16
SMALL = 28            # the smallest text: more than 1/40 of the width
WHITE = (255, 255, 255)
PANEL = (236, 229, 214)
ACTIVE = (255, 247, 222)
FIELD_FILL = (226, 214, 190)
SILVER_FILL = (200, 204, 210)
GOLD_FILL = (232, 186, 60)
STONE = (150, 140, 128)
EMPTY_SLOT = (250, 246, 238)
DUNGEON = (90, 84, 80)
CARD_FILL = (252, 250, 244)
SEAL = (190, 40, 40)
P = "gluecksritter."


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = _base(lang).copy()
    draw = ImageDraw.Draw(image)
    seats = view["seats"]
    seat_names = [names[s] if s < len(names) else f"P{s + 1}" for s in range(seats)]
    _header(draw, view, seat_names, lang)
    y = _fields(draw, view, lang, FIELDS_TOP)
    y = _players(draw, view, seat_names, lang, y + 10)
    _bottom(draw, view, seat_names, lang, y + 8)
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=4)
def _base(lang: str) -> Image.Image:
    """The parts that never change: the background and the six fields' frames, numbers, names,
    prices and the dungeon's word (drawn once per language)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    prices = {1: "0 | 4", 2: "4 | 6", 3: "5 | 7"}
    for number in range(1, 7):
        x, y, box_w, box_h = _field_box(number)
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=14, fill=FIELD_FILL, outline=STONE, width=2)
        draw.ellipse((x + 8, y + 8, x + 60, y + 60), fill=INK)
        draw.text((x + 34, y + 34), str(number), font=font(38), fill=WHITE, anchor="mm")
        _text(draw, (x + 68, y + 18), t(lang, P + f"field.{number}"), 30, box_w - 76)
        if number in prices:
            draw.text((x + 14, y + 72), prices[number], font=font(SMALL + 4), fill=INK)
        elif number == 4:
            draw.text((x + 14, y + 72), t(lang, P + "board.dungeon"), font=font(SMALL), fill=DUNGEON)
    return image


FIELDS_TOP = 148
FIELD_GAP = 10
FIELD_H = 162


def _field_box(number: int) -> tuple[int, int, int, int]:
    cols = 3
    box_w = (WIDTH - 2 * MARGIN - (cols - 1) * FIELD_GAP) // cols
    index = number - 1
    x = MARGIN + (index % cols) * (box_w + FIELD_GAP)
    y = FIELDS_TOP + (index // cols) * (FIELD_H + FIELD_GAP)
    return x, y, box_w, FIELD_H


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, WHITE, PANEL, ACTIVE, FIELD_FILL, SILVER_FILL, GOLD_FILL, STONE,
             EMPTY_SLOT, DUNGEON, CARD_FILL, SEAL, *SEAT_COLOURS]
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


# ----------------------------------------------------------------------------------------
# Helpers


_WIDTHS: dict[tuple[str, int], int] = {}


def text_width(draw, text: str, size: int) -> int:
    """`renderers.common.text_width`, remembered (the same words are measured on every board)."""
    key = (text, size)
    width = _WIDTHS.get(key)
    if width is None:
        if len(_WIDTHS) > 20_000:
            _WIDTHS.clear()
        width = _WIDTHS[key] = _measure(draw, text, size)
    return width


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> tuple[str, int]:
    """Shrink the text down to SMALL to fit `width`, then cut it with an ellipsis."""
    while size > SMALL and text_width(draw, text, size) > width:
        size -= 2
    if text_width(draw, text, size) <= width:
        return text, size
    while text and text_width(draw, text + "…", size) > width:
        text = text[:-1]
    return text + "…", size


def _text(draw, xy, text, size, width, fill=INK, anchor="la") -> None:
    text, size = _fit(draw, text, size, width)
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)


def _wrap(draw, text: str, size: int, width: int, lines: int) -> list[str]:
    words, out, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(draw, trial, size) <= width or not line:
            line = trial
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = _fit(draw, out[-1] + " …", size, width)[0]
    return out


def _on(colour) -> tuple[int, int, int]:
    r, g, b = colour[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def _marker(draw, centre, seat: int, radius: int) -> None:
    """A seat's mark: its colour and its number (1..n), so colour is never the only clue."""
    colour = tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=INK, width=2)
    draw.text((x, y), str(seat + 1), font=font(max(SMALL, int(radius * 1.1))), fill=_on(colour), anchor="mm")


def _coin(draw, centre, count: int, gold: bool, radius: int = 26) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=GOLD_FILL if gold else SILVER_FILL,
                 outline=INK, width=2)
    draw.text((x, y), str(count), font=font(SMALL + 2), fill=INK, anchor="mm")


# ----------------------------------------------------------------------------------------
# Parts


def _header(draw, view, names, lang) -> int:
    title = t(lang, P + "board.title")
    draw.text((MARGIN, 14), title, font=font(46), fill=INK)
    x = MARGIN + text_width(draw, title, 46) + 20
    draw.text((x, 22), t(lang, P + "board.round", round=view["round"]), font=font(34), fill=MUTED)
    right = WIDTH - MARGIN
    if view.get("ducat_card"):
        to5, to6 = view["ducat_card"]
        draw.text((right, 14), t(lang, P + "board.ducat_card", to5=to5, to6=to6), font=font(SMALL + 2), fill=INK,
                  anchor="ra")
    sack = view["sack"]
    draw.text((right, 50), t(lang, P + "board.sack", silver=sack[0], gold=sack[1]), font=font(SMALL), fill=MUTED,
              anchor="ra")
    status = translate(view["status"], lang, names)
    lines = _wrap(draw, status, 34, WIDTH - 2 * MARGIN, 1)
    if text_width(draw, status, 34) > WIDTH - 2 * MARGIN:
        lines = _wrap(draw, status, 30, WIDTH - 2 * MARGIN, 2)
    size = 34 if len(lines) == 1 else 30
    y = 84 if len(lines) == 1 else 74
    for line in lines:
        draw.text((MARGIN, y), line, font=font(size), fill=INK)
        y += size + 4
    return y


def _fields(draw, view, lang, top: int) -> int:
    """The changing parts of the fields (the frames come from `_base`)."""
    players = view["players"]
    for number in range(1, 7):
        x, y, box_w, box_h = _field_box(number)
        if number == 1:
            draw.text((x + box_w - 12, y + 72), t(lang, P + "board.docs", count=view["pile"]),
                      font=font(SMALL), fill=MUTED, anchor="ra")
        elif number == 4:
            jailed = [s for s, p in enumerate(players) if p["dungeon"]]
            lx = x + 24 + text_width(draw, t(lang, P + "board.dungeon"), SMALL) + 8
            for k, seat in enumerate(jailed):
                cx = lx + 18 + k * 40
                if cx + 18 <= x + box_w:
                    _marker(draw, (cx, y + 88), seat, 18)
        elif number in (5, 6):
            silver, gold = view["fields"][str(number)]
            _coin(draw, (x + 44, y + 92), silver, False)
            _coin(draw, (x + 110, y + 92), gold, True)
        visitors = [s for s, p in enumerate(players) if p["cards"] and number in p["cards"]]
        for k, seat in enumerate(visitors):
            _marker(draw, (x + 28 + k * 42, y + box_h - 26), seat, 19)
    return FIELDS_TOP + 2 * FIELD_H + FIELD_GAP


def _players(draw, view, names, lang, top: int) -> int:
    seats = view["seats"]
    players = view["players"]
    bottom_room = 230 if view.get("viewer") is not None else 180
    row_h = max(104, min(150, (HEIGHT - top - bottom_room) // seats))
    acting = set(view["to_act"])
    winners = set(view.get("winners") or [])
    for seat, p in enumerate(players):
        y = top + seat * row_h
        fill = ACTIVE if seat in acting else PANEL
        outline = HIGHLIGHT if seat in acting or seat in winners else STONE
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h - 8), radius=14, fill=fill, outline=outline,
                               width=4 if seat in acting else 2)
        mid = y + (row_h - 8) // 2
        _marker(draw, (MARGIN + 42, mid), seat, 32)
        name = names[seat] + (f" – {t(lang, P + 'board.winner')}" if seat in winners else "")
        _text(draw, (MARGIN + 88, mid - 40), name, 34, 300)
        draw.text((MARGIN + 88, mid + 4), t(lang, P + "board.ducats", ducats=p["ducats"]), font=font(34), fill=INK)
        _coin(draw, (450, mid), p["silver"], False, 27)
        _coin(draw, (514, mid), p["gold"], True, 27)
        _castle(draw, 568, mid, p["walls"], p["towers"], seat)
        draw.rectangle((782, mid - 30, 826, mid + 30), fill=CARD_FILL, outline=INK, width=2)
        draw.text((804, mid), str(p["documents"]), font=font(SMALL + 2), fill=INK, anchor="mm")
        draw.ellipse((816, mid + 18, 834, mid + 36), fill=SEAL, outline=INK)
        _choice(draw, view, p, seat, 842, mid, lang)
    return top + seats * row_h


def _castle(draw, x: int, mid: int, walls: int, towers: int, seat: int) -> None:
    """Walls as blocks on the upper line, towers as blocks with a roof below; built ones solid in
    the seat's colour (the row's disc carries the seat number), missing ones as empty outlines."""
    colour = tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    for k in range(4):
        left = x + k * 52
        box = (left, mid - 40, left + 44, mid - 6)
        built = k < walls
        draw.rectangle(box, fill=colour if built else EMPTY_SLOT, outline=INK, width=2)
        if built:  # a built piece: solid, with a crenellated top (not only colour)
            draw.rectangle((box[0] + 6, box[1] - 6, box[0] + 14, box[1]), fill=colour, outline=INK)
            draw.rectangle((box[2] - 14, box[1] - 6, box[2] - 6, box[1]), fill=colour, outline=INK)
    for k in range(4):
        left = x + k * 52 + 6
        built = k < towers
        body = (left, mid + 10, left + 32, mid + 42)
        draw.polygon([(left - 2, mid + 10), (left + 16, mid - 2), (left + 34, mid + 10)],
                     fill=colour if built else EMPTY_SLOT, outline=INK)
        draw.rectangle(body, fill=colour if built else EMPTY_SLOT, outline=INK, width=2)


def _choice(draw, view, p, seat: int, x: int, mid: int, lang) -> None:
    """The two cards once revealed; while choosing, who has chosen and last round's cards, small."""
    if p["cards"]:
        for k, card in enumerate(p["cards"]):
            left = x + k * 100
            draw.rounded_rectangle((left, mid - 38, left + 86, mid + 38), radius=10, fill=CARD_FILL, outline=INK,
                                   width=3)
            draw.text((left + 43, mid), str(card), font=font(48), fill=INK, anchor="mm")
        return
    previous = view.get("previous")
    if view["phase"] == "choose":
        word = t(lang, P + ("board.chosen" if p["chosen"] else "board.choosing"))
        top = mid - 20 if previous else mid
        _text(draw, (x + 4, top), word, 30, 210, fill=INK if p["chosen"] else MUTED, anchor="lm")
    if previous and view["phase"] in ("choose", "over"):
        for k, card in enumerate(previous["cards"][seat]):
            left = x + 4 + k * 56
            draw.rounded_rectangle((left, mid + 4, left + 46, mid + 44), radius=6, fill=PANEL, outline=MUTED, width=2)
            draw.text((left + 23, mid + 24), str(card), font=font(SMALL), fill=MUTED, anchor="mm")
        draw.text((x + 120, mid + 24), t(lang, P + "board.last_round"), font=font(SMALL), fill=MUTED, anchor="lm")


def _bottom(draw, view, names, lang, top: int) -> None:
    width = WIDTH - 2 * MARGIN
    y = top
    haggle, raid = view.get("haggle"), view.get("raid")
    if raid is None and view["phase"] == "choose" and view.get("previous"):
        raid = view["previous"]["raid"]
    if haggle:
        a, b = haggle["knights"]
        line = f"{t(lang, P + 'board.haggle')}: {names[a]} / {names[b]}"
        _text(draw, (MARGIN, y), line, 32, width)
        y += 40
        offers = ", ".join(f"{names[s]} {n}" for s, n in haggle["offers"]) or t(lang, P + "board.no_offer")
        _text(draw, (MARGIN, y), offers, SMALL + 2, width)
        y += 38
    elif raid:
        die = {"sack": "board.die_sack", "castle": "board.die_castle", None: "board.die_alibi"}[raid["die"]]
        line = f"{t(lang, P + 'board.raid', thief=names[raid['thief']], victim=names[raid['victim']])} · " \
               f"{t(lang, P + die)}"
        _text(draw, (MARGIN, y), line, 32, width)
        y += 42
    private = view.get("private")
    if private is not None:
        armed = private["armed"]
        parts = []
        for code in private["hand"]:
            word = t(lang, P + f"doc.{code}")
            if (code in ("gift", "alibi") and armed.get(code)) or (code == "veto" and armed.get("veto")):
                word += f" ({t(lang, P + 'board.armed')})"
            parts.append(word)
        label = t(lang, P + "board.your_docs")
        _text(draw, (MARGIN, y), f"{label}: {', '.join(dict.fromkeys(parts)) or '–'}", 30, width)
        y += 40
        cards = private["choice"]["cards"]
        if cards and not view["players"][view["viewer"]]["cards"]:
            _text(draw, (MARGIN, y), t(lang, P + "board.your_choice", cards=" + ".join(map(str, cards))), 30, width)
            y += 40
    lines = [translate(entry, lang, names) for entry in reversed(view.get("log") or [])]
    for line in lines:
        if y + 34 > HEIGHT - 6:
            break
        _text(draw, (MARGIN, y), line, SMALL, width, fill=MUTED)
        y += 34
